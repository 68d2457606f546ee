"""The coach's second column in two-seat Bones: the chance to win the game (issue 17, the
play-to-win tables of ``dicelab.odds.win``). Small targets (2,000) keep each table to a couple
of seconds.

Checked here: every win value is the table's own readout (stand and roll; each way to set dice
aside with choose_keepers); a game of `winning` computers loses no win chance; losses are never
negative and add up per seat; one sentence says where points and the chance to win disagree;
no column (and a note) while the table is not built; none with three seats; the outputs."""
from __future__ import annotations

import csv
import io
import json

import pytest

import dicelab
from dicelab import coach
from dicelab.odds import win
from dicelab.odds.fivedice import keep_options

from .test_coach import decisions, played

SMALL = {"target": 2000}


@pytest.fixture(autouse=True)
def _win_cache(tmp_path_factory, monkeypatch):
    folder = tmp_path_factory.getbasetemp() / "win-cache"
    monkeypatch.setattr(win, "cache_dir", lambda: folder)


def _table(g):
    return win.table(g.config, progress=False)


@pytest.mark.parametrize("settings", [SMALL, {**SMALL, "min_on_board": 300},
                                      {**SMALL, "choose_keepers": True}])
def test_win_values_are_the_tables_readouts(settings):
    seen = 0
    for g, d in decisions("bones", ["random", "chicken"], n=120, **settings):
        st, me = g.state, g.state.current
        b, o = st.totals[me], st.totals[1 - me]
        t = _table(g)
        (src, opts), = d.extra
        assert src.name == "win"
        got = {o_.key: o_.value for o_ in opts}
        assert set(got) == {o_.key for o_ in d.options}  # the same options as the points
        if g.choose_keepers():
            auto = tuple(sorted(x for x, c in zip(st.dice, st.counting) if c))
            want = {}
            for keep, pts, left in keep_options(g.config, st.dice):
                r = t.readout(b, o, st.before_total + pts, left)
                k = None if keep == auto else keep
                want[("roll", k)] = r.roll_win_chance
                if r.stand_win_chance is not None:
                    want[("stand", k)] = r.stand_win_chance
        else:
            r = t.readout(b, o, st.turn_total, st.dice_left)
            want = {("roll", None): r.roll_win_chance}
            if r.stand_win_chance is not None:
                want[("stand", None)] = r.stand_win_chance
        assert got == want
        seen += 1
    assert seen == 120


@pytest.mark.parametrize("settings", [SMALL, {**SMALL, "choose_keepers": True}])
def test_winning_computers_lose_no_win_chance(settings):
    total = 0
    for seed in (1, 2, 3):
        g = played("bones", ["winning", "winning"], seed, **settings)
        assert g.is_over
        r = dicelab.review(g)
        assert "win" in r.extras
        for s in r.seats.values():
            total += s.decisions
            assert s.extra_lost["win"] <= 1e-9
        for e in r:
            assert e.extra["win"].lost <= 1e-9 and not e.extra["win"].mistake
    assert total > 20


def test_win_losses_never_negative_and_add_up():
    lost_any = 0.0
    for seed in (1, 2):
        g = played("bones", ["random", "chicken"], seed, **SMALL)
        r = dicelab.review(g)
        for e in r:
            w = e.extra["win"]
            assert w.lost >= 0
            assert w.best == max(w.values.values())
            assert w.chosen == w.values[e.chosen.key]
            assert w.lost == (0.0 if w.best_key == e.chosen.key else w.best - w.chosen)
            assert w.mistake == (w.lost > coach.BonesWinSource.tolerance)
        for name, s in r.seats.items():
            mine = [e.extra["win"].lost for e in r if e.player == name]
            assert s.extra_lost["win"] == pytest.approx(sum(mine), abs=1e-12)
            lost_any += s.extra_lost["win"]
    assert lost_any > 0.01  # random play throws games away


def test_one_sentence_where_points_and_win_disagree():
    found = []
    for seed in range(1, 6):
        r = dicelab.review(played("bones", ["random", "winning"], seed, **SMALL))
        found += [e for e in r if "disagree" in e.why]
    assert found
    for e in found:
        w = e.extra["win"]
        assert w.best_key != e.best.key
        assert e.why.count("Points and the chance to win disagree here") == 1
        best_label = next(o.label for o in e.options if o.key == w.best_key)
        assert (f"{best_label} wins the game {100 * w.best:.1f}% of the time, {e.best.label} "
                f"(the points play) {100 * w.values[e.best.key]:.1f}%.") in e.why


def test_no_table_no_column_and_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path / "empty")
    monkeypatch.setattr(win, "_MEMORY", {})
    monkeypatch.setenv("DICELAB_WIN_BUILD", "off")  # no build in the background
    g = played("bones", ["random", "chicken"], 1, max_actions=70, target=5000)
    r = dicelab.review(g)
    assert len(r) > 5 and r.extras == {}
    assert all(e.extra == {} for e in r)
    assert any("chance to win is left out" in n for n in r.notes)
    assert "win_lost" not in r.to_csv()
    # a final turn needs no table (win.final_readout): judged, and its column shown
    g = played("bones", ["random", "chicken"], 1, target=5000)
    r = dicelab.review(g)
    assert "win" in r.extras and g.is_over
    finals = [e for e in r if e.unit == "chance to win the game"]
    assert finals and all("final turn" in e.state for e in finals)
    assert all(e.extra == {} for e in r if e not in finals)
    assert any("chance to win is left out of regular turns" in n for n in r.notes)


def test_three_seats_have_no_win_column():
    g = played("bones", ["random", "chicken", "random"], 1, **SMALL)
    r = dicelab.review(g)
    assert len(r) > 5 and r.extras == {}
    assert not any("chance to win is left out" in n for n in r.notes)
    # their final turns are not judged (the chance to win there depends on the later
    # players' turns): one note says so
    assert g.is_over and all("final turn" not in e.state for e in r)
    assert any(n.startswith("Final turns (after a player reached the target) are not judged")
               for n in r.notes)


def test_outputs_show_the_win_column():
    g = played("bones", ["random", "chicken"], 2, **SMALL)
    r = dicelab.review(g)
    text = r.text()
    assert "win best" in text and "win lost" in text
    assert "percentage points of win chance lost" in text
    rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert len(rows) == len(r)
    for row, e in zip(rows, r):
        assert float(row["win_lost"]) == e.extra["win"].lost
        assert float(row["win_choice_value"]) == e.extra["win"].chosen
        # a final turn's options are chances already (no points beside them)
        assert ("(win " in row["options"]) == (e.unit == r.unit)
    data = json.loads(r.to_json())
    assert data["win_unit"] == "chance to win the game"
    d0 = data["decisions"][0]
    assert {"win_choice_value", "win_best", "win_best_value", "win_lost", "win_mistake"} <= set(d0)
    assert all("win" in o for o in d0["options"])
    for name, s in data["seats"].items():
        assert s["win_lost"] == pytest.approx(r.seats[name].extra_lost["win"])
    assert "win chance (of best)" in r._repr_html_()
    # one seat only keeps the column
    one = r.for_seat(r.names[0])
    assert "win lost" in one.text()


def test_keep_against_keep_says_each_ones_dice():
    """With choose_keepers two ways to roll on leave different dice: the sentence names each
    one's dice and bust chance (not one "With n dice" for both)."""
    seen = 0
    for seed in (1, 2, 3):
        r = dicelab.review(played("bones", ["random", "chicken"], seed, choose_keepers=True,
                                  **SMALL))
        for e in r:
            if e.lost > 0 and e.chosen.key[0] == e.best.key[0] == "roll" and e.unit == r.unit:
                seen += 1
                assert not e.why.startswith("With")
                assert e.why.split(" Points and")[0].count("a bust") == 2
                for o in (e.best, e.chosen):
                    n = o.detail["dice_left"]
                    assert (("all 5 dice again (hot dice" if o.detail["hot"] else
                             f"{n} {'die' if n == 1 else 'dice'} (a bust") in e.why)
            elif e.lost > 0 and e.unit == r.unit:
                assert e.why.startswith("With ")
        assert all(e.state.startswith("turn total ") and " before the roll, rolled " in e.state
                   for e in r)
    assert seen > 0


def test_dicelab_review_shows_the_win_column(tmp_path, capsys):
    from dicelab.cli import main

    g = played("bones", ["chicken", "winning"], 4, **SMALL)
    path = tmp_path / "bones.json"
    path.write_text(g.to_json())
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "win best" in text and "percentage points of win chance lost" in text
    assert main(["review", str(path), "--json", "--seat", g.names[1]]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"][g.names[1]]["win_lost"] <= 1e-9  # the winning computer
    assert all("win_lost" in d for d in data["decisions"])


def test_the_line_and_the_app_review_show_the_win_chance():
    from dicelab.ui.coach_view import CoachView
    from dicelab.ui.play import Play, Prefs

    g = played("bones", ["chicken", "winning"], 3, **SMALL)
    r = dicelab.review(g)
    for e in r:
        w = e.extra["win"]
        if e.unit != r.unit:  # a final turn: the line is in the chance to win alone
            assert "Chance to win the game" not in e.line()
            assert f"{100 * w.chosen:.1f}%" in e.line()
            continue
        assert f" Chance to win the game: {100 * w.chosen:.1f}%" in e.line()
        assert (", " in e.line().split("Chance to win the game:")[1]) == w.mistake
    view = CoachView(play=Play(game=g, prefs=Prefs(coach=True)))
    df = view.frame()
    assert list(df.columns[-3:]) == ["win chance", "win lost (% points)", "why"]
    assert list(df["win lost (% points)"]) == [round(100 * e.extra["win"].lost, 2) for e in r]
    assert "win chance lost (% points)" in view._totals().object


# ----- final turns: judged by the chance to win ------------------------------------------------
def _final_turn(rig, banked, roll, **settings):
    """Ann (seat 0) in her final turn after Bob reached 2,000, with ``roll`` thrown."""
    from dicelab.games import fivedice

    from .conftest import set_state

    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1, **SMALL, **settings)
    set_state(g, totals=(banked, 2000), on_board=(True, True), final_from=1, current=0,
              reached_at=(0, 1))
    rig(fivedice).add(roll)
    g.apply("roll")
    return g


def plain_reach(rules, d: int, t: int, n: int) -> float:
    """Chance to end a turn standing at >= d points, rolling n dice now at turn total t, by
    plain recursion over every roll of n dice (no tables): after a roll the player sets aside
    the dice (``keep_options``: with choose_keepers each allowed way) that reach d at once, or
    else leave the best chance to roll on (hot dice: all five)."""
    from functools import lru_cache
    from itertools import combinations_with_replacement
    from math import factorial, prod

    from dicelab.odds.fivedice import keep_options

    @lru_cache(maxsize=None)
    def chance(t: int, n: int) -> float:
        out = 0.0
        for dice in combinations_with_replacement(range(1, 7), n):
            ways = factorial(n) // prod(factorial(dice.count(v)) for v in set(dice))
            best = max((1.0 if t + pts >= d else chance(t + pts, left)
                        for _keep, pts, left in keep_options(rules, dice)), default=0.0)
            out += ways / 6 ** n * best
        return out

    return chance(t, n)


def test_final_turn_standing_behind_loses_what_rolling_would_win(rig):
    """Banked 1,650 against 2,000: two 1s and two 5s make 300 with one die left. Standing ends
    at 1,950: a sure loss. Rolling the last die wins with a 1 (400, 2,050), or with a 5 (350,
    a tie that loses, but hot dice) and then any scoring roll of five dice: 1/6 + 1/6 (1 - q5)."""
    from dicelab.odds.fivedice import bust_chance

    g = _final_turn(rig, 1650, (1, 1, 5, 5, 2))
    assert g.state.turn_total == 300 and g.state.dice_left == 1
    q5 = bust_chance("bones", 5, exact=True)
    want = float((1 + (1 - q5)) / 6)
    e = coach.judge(g, "stand")
    assert e.unit == "chance to win the game" and e.mistake
    assert e.chosen.value == 0.0 and e.best.key == ("roll", None)
    assert e.best.value == pytest.approx(want, abs=1e-12)
    assert e.lost == pytest.approx(want, abs=1e-12)
    assert e.best.value == pytest.approx(plain_reach("bones", 400, 300, 1), abs=1e-12)
    assert e.why == (f"Standing on 300 ends the game at 1,950, not above 2,000: a sure loss; "
                     f"rolling on (reaching 400 this turn) still wins {100 * want:.1f}% of the "
                     f"time.")
    assert e.line() == (f"Standing cost {100 * want:.1f} percentage points of win chance: "
                        f"rolling was worth {100 * want:.1f}%, standing 0.0%.")
    assert "final turn: Bob has 2,000" in e.state
    assert coach.judge(g, "roll").line() == f"Best play: rolling ({100 * want:.1f}%)."


def test_final_turn_rolling_when_ahead_throws_two_thirds_away(rig):
    """Banked 1,750: 300 with one die left makes 2,050, above 2,000. Standing wins surely;
    rolling wins only if the die scores (1 or 5, then hot dice and a stand): 1/3."""
    g = _final_turn(rig, 1750, (1, 1, 5, 5, 2))
    e = coach.judge(g, "roll")
    assert e.best.key == ("stand", None) and e.best.value == 1.0
    assert e.chosen.value == pytest.approx(1 / 3, abs=1e-12)
    assert e.lost == pytest.approx(2 / 3, abs=1e-12) and e.mistake
    assert e.why == ("Standing on 300 makes 2,050, above 2,000: a sure win; rolling risks a "
                     "bust (67% likely with 1 die) and wins 33.3% of the time.")
    assert coach.judge(g, "stand").lost == 0.0


def test_final_turn_with_choose_keepers_values_each_keep(rig):
    """choose_keepers: 1 5 2 3 4 may be set aside as 1, 5, or 1 5; each keep's chance to pass
    2,000 from 1,750 (reach 300) is the plain recursion's, and `optimal`, Chicken and Gambler
    take the best one (players.fivedice.final_turn_action)."""
    from dicelab.players import make_player

    g = _final_turn(rig, 1750, (1, 5, 2, 3, 4), choose_keepers=True)
    d = coach.decision(g)
    assert d.source.name == "win"
    rules = g.config
    got = {o.key: o.value for o in d.options}
    want = {("roll", (1,)): plain_reach(rules, 300, 100, 4),
            ("roll", (5,)): plain_reach(rules, 300, 50, 4),
            ("roll", None): plain_reach(rules, 300, 150, 3),
            ("stand", (1,)): 0.0, ("stand", (5,)): 0.0, ("stand", None): 0.0}
    assert got.keys() == want.keys()
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12), k
    assert want[("roll", (1,))] > want[("roll", None)]  # keeping the 5 too passes less often
    for spec in ("optimal", "chicken", "gambler"):
        action = make_player("bones", spec).act(g)
        assert coach.judge(g, action).lost <= 1e-12, spec


def test_review_counts_a_final_turn_thrown_away():
    """A game of Chicken replayed up to a final turn where standing is allowed but behind,
    and there it stands: that decision is a mistake in the chance to win, first among the
    seat's costliest, and its points columns are empty."""
    for seed in range(1, 20):
        done = played("bones", ["chicken", "chicken"], seed, **SMALL)
        g = type(done)(done.seats, done.settings, done.seed)
        for action in done.actions:
            st = g.state
            if (st.final_from is not None and st.phase == "decide" and dicelab.Stand()
                    in g.legal_actions() and st.totals[st.current] + st.turn_total
                    <= st.totals[1 - st.current]):
                break
            g.apply(action)
        else:
            continue
        e_now = coach.judge(g, "stand")
        g.apply("stand")
        break
    assert g.is_over and e_now.mistake
    r = dicelab.review(g)
    e = r.entries[-1]
    me = r.seats[e.player]
    assert e.to_dict() == {**e_now.to_dict(), "index": len(g.actions) - 1}
    assert e.unit == "chance to win the game" and e.chosen.value == 0.0 and e.lost > 0
    assert me.costliest[0] == e and me.mistakes >= 1
    assert me.extra_lost["win"] >= e.lost
    assert me.lost == pytest.approx(sum(x.lost for x in r if x.player == e.player
                                        and x.unit == r.unit))
    assert f"{100 * e.lost:.1f} percentage points of win chance: Standing on" in r.text()
    row = list(csv.DictReader(io.StringIO(r.to_csv())))[-1]
    assert row["lost"] == row["choice_value"] == "" and row["mistake"] == "True"
    assert float(row["win_lost"]) == e.lost and row["unit"] == "chance to win the game"


def test_computers_lose_nothing_in_final_turns():
    """Every computer's final turn (roll on until above the leader; with choose_keepers the
    keep that passes most often) is the max-win play: 0 lost there."""
    finals = 0
    for seed in range(1, 9):
        specs = ["optimal", "chicken"] if seed == 1 else ["gambler", "chicken"]
        g = played("bones", specs, seed, choose_keepers=True, **SMALL)
        for e in dicelab.review(g):
            if e.unit == "chance to win the game":
                finals += 1
                assert e.lost <= 1e-12, (seed, e.state, e.chosen.label, e.best.label)
    assert finals > 5


def test_a_target_below_the_minimum_on_board_has_no_win_column():
    """The settings allow a target of 500 with 600 to get on the board; the win solver does
    not take such rules: the review leaves the chance to win out (a note) instead of failing,
    and the table's odds still show the points."""
    from dicelab.ui.components import current_odds
    from dicelab.ui.odds_view import FiveDiceOdds
    from dicelab.ui.play import Play

    g = played("bones", ["chicken", "optimal"], 1, target=500)
    r = dicelab.review(g)
    assert g.is_over and r.extras == {} and len(r) >= 1
    assert any("needs a target of at least the minimum on board" in n for n in r.notes)
    g = dicelab.new_game("bones", ["You", "Bob"], seed=1, target=500)
    g.apply("roll")
    assert isinstance(current_odds(Play(game=g)), FiveDiceOdds)


# ----- Yahtzee's last round: the chance to win beside the points --------------------------------
def test_yahtzee_last_round_has_the_race_chance():
    """Two seats: every decision with one box left gets the chance to win of each option,
    equal to odds.yahtzee_race's readout (keeps and scoring now); earlier rounds have none;
    one seat never."""
    from dicelab.odds.yahtzee_race import race

    seen = 0
    for g, d in decisions("yahtzee", ["random", "greedy"], n=400, preset="no_bonus"):
        extra = dict((s.name, opts) for s, opts in d.extra)
        if len(g.open_boxes(g.current_player)) > 1 or any(
                len(g.open_boxes(i)) > 1 for i in range(2)):
            assert extra.get("win", []) == []
            continue
        r = race(g)
        got = {o.key: o.value for o in extra["win"]}
        want = {("box", r.box): r.score_win, **{("keep", k): w for k, (w, _p) in r.keeps.items()
                                                if len(k) < 5}}
        assert got == want
        assert {o.key for o in d.options} == set(want)  # the same options as the points
        seen += 1
    assert seen >= 5
    g = played("yahtzee", ["greedy", "optimal"], 3, preset="no_bonus")
    r = dicelab.review(g)
    last = [e for e in r if "win" in e.extra]
    assert last and all(e.situation["open_boxes"] == 1 for e in last) and "win" in r.extras
    assert all(e.extra["win"].lost >= 0 for e in last)
    one = dicelab.review(played("yahtzee", ["greedy"], 3, preset="no_bonus"))
    assert one.extras == {} and one.notes == []


# ----- Under40's last stretch: the chance to win the game beside the round ------------------------
def test_under40_last_stretch_has_the_game_chance():
    """Two players, both totals within odds.under40_game's reach of the target: every decision
    gets the chance to win the game of rolling on and of stopping, equal to its readout;
    outside the stretch, none."""
    from dicelab.odds import under40_game

    inside = outside = 0
    for g, d in decisions("under40", ["random", "cautious"], n=150, target=300):
        st = g.state
        extra = dict((s.name, opts) for s, opts in d.extra)
        if min(st.totals) < 300 - under40_game.REACH:
            assert extra.get("win", []) == []
            outside += 1
            continue
        me = st.current
        r = under40_game.solve(300).readout(st.totals[me], st.totals[1 - me], st.starter == me,
                                            st.round_scores[me], g.round_others()[0])
        got = {o.key: o.value for o in extra["win"]}
        assert got == {("roll",): r.roll_win, **({("stop",): r.stop_win} if r.stop_win
                                                 is not None else {})}
        assert set(got) == {o.key for o in d.options}
        inside += 1
    assert inside > 20 and outside > 20
