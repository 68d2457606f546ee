"""The coach (issue 17): every decision of a replayed game valued by the exact solvers.

Checked here: what a choice lost is never negative and exactly 0 for the best option; the
option values are the solvers' own (turn_readout, round_readout, the Yahtzee table's advise) on
a hundred decisions of each variant; optimal computers lose nothing; Chicken's losses in three
turns match a plain backward induction written here from the exact roll distribution; forced
moves are not decisions; the review's outputs (text, CSV, JSON, HTML, one seat)."""
from __future__ import annotations

import csv
import io
import json

import pytest

import dicelab
from dicelab import coach
from dicelab.errors import RuleError
from dicelab.games import Seat, fivedice
from dicelab.odds import fivedice as fd
from dicelab.odds import under40 as u40
from dicelab.odds import win
from dicelab.odds.yahtzee import solve
from dicelab.players import RandomPlayer, make_player
from dicelab.settings import YahtzeeSettings

from .conftest import set_state

# the points alone, whatever the user's cache holds (test_coach_win.py: the win column)
pytestmark = pytest.mark.usefixtures("no_win_table")
YZ = {"preset": "no_bonus"}  # solved in about a second (official: ~15 s); same code path


def seated(variant, specs, seed, **settings):
    seats = [Seat(f"{s} {i + 1}", RandomPlayer(seed + i) if s == "random"
                  else make_player(variant, s), strategy=s) for i, s in enumerate(specs)]
    return dicelab.new_game(variant, seats, seed=seed, **settings)


def played(variant, specs, seed=1, max_actions=100_000, **settings):
    g = seated(variant, specs, seed, **settings)
    g.play_computers(max_actions=max_actions)
    return g


def decisions(variant, specs, n=100, **settings):
    """Yields (game at the decision, Decision) for the first ``n`` decisions over seeded games
    (check each before asking for the next: the game moves on)."""
    count, seed = 0, 0
    while count < n:
        seed += 1
        g = seated(variant, specs, seed, **settings)
        while not g.is_over and count < n and g.version < 600:
            d = coach.decision(g)
            if d is not None:
                count += 1
                yield g, d
            g.apply(g.computer_action())


# ----- the values are the solvers' ------------------------------------------------------------
@pytest.mark.parametrize("variant,settings", [("bones", {}), ("thousand", {}),
                                              ("bones", {"preset": "french"})])
def test_five_dice_values_are_turn_readout(variant, settings):
    seen = finals = 0
    for g, d in decisions(variant, ["random", "random"], **settings):
        st, seat = g.state, g.state.current
        if getattr(st, "final_from", None) is not None:  # a two-seat final turn: the win chance
            r = win.final_readout(g.config, st.totals[seat], st.totals[1 - seat],
                                  st.turn_total, st.dice_left)
            values = {o.key[0]: o.value for o in d.options}
            assert d.source.name == "win" and values["roll"] == r.roll_win_chance
            assert values.get("stand") == r.stand_win_chance
            finals += 1
            continue
        seen += 1
        extra = {}
        if variant == "thousand":
            extra = dict(on_barrel=st.on_barrel[seat], barrel_turns=st.barrel_turns[seat],
                         bolts=st.bolts[seat])
        r = fd.turn_readout(g.config, st.turn_total, st.dice_left, on_board=st.on_board[seat],
                            banked=st.totals[seat], **extra)
        values = {o.key[0]: o.value for o in d.options}
        assert values["roll"] == r.roll_value
        assert values.get("stand") == r.stand_value
        assert d.best.key[0] == r.decision
    assert seen + finals == 100 and seen > 80


def test_choose_keepers_values_are_keep_values():
    for g, d in decisions("bones", ["random", "random"], choose_keepers=True):
        st, seat = g.state, g.state.current
        kv = fd.keep_values(g.config, st.dice, st.before_total, on_board=st.on_board[seat],
                            banked=st.totals[seat])
        want = set()
        for keep, r in kv:
            want.add(r.roll_value)
            if r.may_stand:
                want.add(r.stand_value)
        assert {o.value for o in d.options} == want
        assert len(d.options) == sum(1 + r.may_stand for _, r in kv)


def test_under40_values_are_round_readout():
    for g, d in decisions("under40", ["random", "random"]):
        st = g.state
        r = u40.round_readout(st.round_scores[st.current], st.round_scores[1 - st.current])
        values = {o.key[0]: o.value for o in d.options}
        assert values["roll"] == float(r.roll_win)
        assert values.get("stop") == (None if r.stop_win is None else float(r.stop_win))


@pytest.mark.parametrize("wastes", [False, True])
def test_yahtzee_values_are_the_tables_advice(wastes):
    table = solve(YahtzeeSettings(filled_box_wastes_round=wastes, **YZ), progress=False)
    for g, d in decisions("yahtzee", ["random", "greedy"], filled_box_wastes_round=wastes, **YZ):
        card = g.card()
        open_boxes = [b for b, v in card.items() if v is None]
        a = table.advise(open_boxes, g.upper_total(), card["yahtzee"], g.dice, g.rerolls_left)
        base = g.total()
        values = {o.key: o.value - base for o in d.options}
        for kept, v in a.keeps.items():
            if len(kept) < 5:  # keeping all five is no re-roll: not an action
                assert values.pop(("keep", kept)) == pytest.approx(v, abs=1e-9)
        for box, v in a.boxes.items():
            assert values.pop(("box", box)) == pytest.approx(v, abs=1e-9)
        assert not values
        # the best action of the game is the table's best (keeping all five never beats it)
        assert d.best.value - base == pytest.approx(a.value, abs=1e-9)


# ----- lost: never negative, 0 for the best --------------------------------------------------
@pytest.mark.parametrize("variant,specs,settings", [
    ("bones", ["random", "chicken"], {}),
    ("bones", ["random", "gambler"], {"choose_keepers": True}),
    ("thousand", ["random", "aggressive"], {}), ("under40", ["random", "cautious"], {}),
    ("yahtzee", ["random", "greedy"], YZ)])
def test_lost_is_never_negative_and_zero_for_the_best(variant, specs, settings):
    for seed in (1, 2):
        g = played(variant, specs, seed, max_actions=500, **settings)
        r = dicelab.review(g)
        assert len(r) > 10
        for e in r:
            assert e.lost >= 0
            assert e.lost == e.best.value - e.chosen.value or e.lost == 0
            assert e.best.value == max(o.value for o in e.options)
            # two-seat Bones' final turns are judged by the chance to win (test_coach_win.py)
            assert e.unit == r.unit or (variant == "bones" and e.unit == "chance to win the game")
            assert e.mistake == (e.lost > e.source.tolerance)
            # the points sentence when points were lost; one more where the chance to win
            # (two-seat Bones) prefers another play than the points
            disagree = "Points and the chance to win disagree" in e.why
            assert (e.why.split("Points and")[0] != "") == (e.lost > 0)
            assert disagree == ("win" in e.extra and e.extra["win"].best - e.extra["win"]
                                .values[e.best.key] > coach.BonesWinSource.DISAGREE)
            assert len(e.options) >= 2
            # judging the best option itself loses exactly nothing
            assert coach.Decision(e.source, e.seat, e.player, e.computer, e.turn, e.state,
                                  e.options).judge(e.best.key).lost == 0.0
        for name, s in r.seats.items():
            mine = [e for e in r if e.player == name]
            points = [e for e in mine if e.unit == r.unit]
            assert s.decisions == len(mine) and s.valued == len(points)
            assert s.lost == pytest.approx(sum(e.lost for e in points), abs=1e-9)
            assert s.mistakes == sum(e.mistake for e in mine)
            # final-turn mistakes (in games won) first, then the costliest in points
            finals = sorted((e.lost for e in mine if e.unit != r.unit and e.mistake),
                            reverse=True)
            assert [e.lost for e in s.costliest] == (finals + sorted(
                (e.lost for e in points if e.lost > 0), reverse=True))[:3]


@pytest.mark.parametrize("variant,settings", [("bones", {}), ("bones", {"choose_keepers": True}),
                                              ("thousand", {}), ("under40", {}),
                                              ("yahtzee", YZ)])
def test_optimal_computers_lose_nothing(variant, settings):
    g = played(variant, ["optimal", "optimal"], seed=7, **settings)
    assert g.is_over
    r = dicelab.review(g)
    assert sum(s.decisions for s in r.seats.values()) > 10
    for s in r.seats.values():
        assert s.lost <= 1e-9 and s.mistakes == 0


# ----- Chicken, checked by hand ---------------------------------------------------------------
def plain_values(rules, need: int):
    """Expected points of the rest of a Bones turn, by plain backward induction over the exact
    one-roll distributions (odds.fivedice.roll_distribution), without the solver's tables:
    D(t, n) = max(t if t >= need, R(t, n)); R(t, n) = sum p * D(t + points, n - counting or 5).
    Above 37,500 standing is optimal (odds.fivedice._cap_units' bound for these rules)."""
    cap = 37_500
    dist = {n: [(pts, c, float(p)) for (pts, c), p in fd.roll_distribution(rules, n).items()
                if c] for n in range(1, 6)}
    D: dict[tuple[int, int], float] = {}
    R: dict[tuple[int, int], float] = {}

    def value(t, n):
        return float(t) if t >= cap else D[t, n]

    for t in range(cap - 50, -50, -50):
        for n in range(1, 6):
            R[t, n] = sum(p * value(t + pts, n - c or 5) for pts, c, p in dist[n])
            D[t, n] = max(R[t, n], t) if t >= need and t > 0 else R[t, n]
    return R


def test_chicken_loses_what_a_hand_check_says():
    g = played("bones", ["chicken", "optimal"], seed=3)
    r = dicelab.review(g)
    chicken = r.seats["chicken 1"]
    assert chicken.lost > 100 and chicken.mistakes > 3
    assert r.seats["optimal 2"].lost <= 1e-9
    R = {need: plain_values("bones", need) for need in (0, 600)}
    turns = sorted({e.turn for e in r if e.player == "chicken 1" and e.mistake})[:3]
    assert len(turns) == 3
    replay = type(g)(g.seats, g.settings, g.seed)
    by_turn = {t: 0.0 for t in turns}
    for action in g.actions:
        st = replay.state
        turn = st.turn + 1
        if turn in by_turn and st.phase == "decide" and len(replay.legal_actions()) > 1:
            need = 0 if st.on_board[st.current] else 600
            roll = R[need][st.turn_total, st.dice_left]
            stand = float(st.turn_total)
            chosen = stand if isinstance(action, dicelab.Stand) else roll
            by_turn[turn] += max(roll, stand) - chosen
        replay.apply(action)
    for t in turns:
        assert by_turn[t] > 0
        assert sum(e.lost for e in r if e.turn == t) == pytest.approx(by_turn[t], abs=1e-6)


# ----- what counts as a decision ---------------------------------------------------------------
def test_forced_moves_are_not_decisions():
    assert coach.decision(dicelab.new_game("bones", ["Ann", "Bob"], seed=1)) is None
    g = played("bones", ["chicken", "chicken"], seed=2)
    r = dicelab.review(g)
    judged = {e.index for e in r}
    replay = type(g)(g.seats, g.settings, g.seed)
    forced = 0
    for i, action in enumerate(g.actions):
        choices = len(replay.legal_actions())
        # two seats: a final turn is judged too (by the chance to win: test_coach_win.py)
        assert (i in judged) == (choices > 1)
        forced += choices == 1
        replay.apply(action)
    assert forced > len(judged) / 2  # every first roll, and rolls below 600 off the board


def test_a_game_in_progress_and_a_saved_game_review_alike():
    g = played("thousand", ["chicken", "gambler"], seed=5, max_actions=80)
    assert not g.is_over
    before = g.snapshot()
    r1 = dicelab.review(g)
    assert g.snapshot() == before  # the review replays a copy
    r2 = dicelab.review(g.to_json())
    r3 = dicelab.review(json.loads(g.to_json()))
    assert [e.to_dict() for e in r1] == [e.to_dict() for e in r2] == [e.to_dict() for e in r3]
    assert not r1.finished and "not finished" in r1.text()


def test_bad_input_is_a_rule_error():
    with pytest.raises(RuleError, match="not a saved dicelab game"):
        dicelab.review("{nope")
    with pytest.raises(RuleError):
        dicelab.review({"dicelab": 1, "variant": "bones"})
    with pytest.raises(RuleError, match="review takes"):
        dicelab.review(42)
    g = played("bones", ["chicken", "chicken"], seed=1, max_actions=30)
    with pytest.raises(RuleError, match="no seat 'Zed'"):
        dicelab.review(g, seat="Zed")


def test_under40_with_three_players_uses_the_round_tables():
    seen = 0
    for g, d in decisions("under40", ["random", "cautious", "threshold:20"], n=40):
        st = g.state
        r = u40.readout(st.round_scores[st.current], g.round_others())
        values = {o.key[0]: o.value for o in d.options}
        assert values["roll"] == float(r.roll_win)
        assert values.get("stop") == (None if r.stop_win is None else float(r.stop_win))
        seen += 1
    assert seen == 40
    g = played("under40", ["optimal", "optimal", "optimal"], seed=1)
    assert sum(s.lost for s in dicelab.review(g).seats.values()) <= 1e-9


# ----- words and outputs -----------------------------------------------------------------------
def test_the_why_of_a_costly_stand(rig):
    """Chicken stands on 100 with 4 dice: rolling is worth more (values from turn_readout)."""
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1)
    set_state(g, on_board=(True, True))
    rig(fivedice).add((1, 2, 3, 4, 6))
    g.apply("roll")
    e = coach.judge(g, "stand")
    r = fd.turn_readout("bones", 100, 4)
    assert e.lost == pytest.approx(r.roll_value - 100)
    assert e.why == (f"With 4 dice a bust is 16% likely; rolling is worth {r.roll_value:,.1f}, "
                     f"standing on 100 keeps 100.")
    assert e.line() == (f"Standing cost {r.roll_value - 100:,.1f} points: rolling was worth "
                        f"{r.roll_value:,.1f}, standing 100.")
    assert coach.judge(g, "roll").line().startswith("Best play: rolling")
    assert "Coach: best is rolling" in coach.hint_text(g)
    assert g.state.phase == "decide" and g.version == 1  # judging changed nothing


def test_outputs():
    g = played("bones", ["chicken", "optimal"], seed=3)
    r = dicelab.review(g)
    rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert len(rows) == len(r)
    assert {"turn", "player", "choice", "best", "lost", "why", "options", "unit"} <= set(rows[0])
    # the points columns: empty for a final turn (judged by the chance to win)
    assert all((x["lost"] == "") == (x["unit"] != r.unit) for x in rows)
    assert sum(float(x["lost"]) for x in rows if x["lost"]) == pytest.approx(
        sum(s.lost for s in r.seats.values()))
    d = json.loads(r.to_json())
    assert d["seats"]["chicken 1"]["mistakes"] == r.seats["chicken 1"].mistakes
    assert len(d["decisions"]) == len(r)
    html = r._repr_html_()
    assert html.count("<tr style=") == sum(e.mistake for e in r)
    one = r.for_seat("chicken 1")
    assert set(one.seats) == {"chicken 1"} and all(e.player == "chicken 1" for e in one)
    text = r.text()
    assert "chicken 1 (computer):" in text and "mistakes" in text
    assert dicelab.load_game(r.game_json).to_dict() == g.to_dict()


def test_a_wasted_yahtzee_round_is_noted_not_judged():
    g = seated("yahtzee", ["random"], 4, filled_box_wastes_round=True, **YZ)
    while not g.state.wasted[0]:
        g.apply(g.computer_action())
    r = dicelab.review(g)
    assert any("wasted on a filled box are not judged" in n for n in r.notes)
    assert all(e.chosen.key[0] in ("keep", "box") for e in r)
    assert coach.judge(g, "roll") is None  # the turn's first roll is forced


def test_a_rooms_log_reviews_like_the_game():
    """A network game is its log: a room under way through the rooms service (a person and a
    computer) reviews the same from the room's game, from a copy replayed from the log (what
    a browser holds), and from that copy saved and loaded."""
    import random

    from dicelab.rooms import RoomService
    from dicelab.ui.lobby import replica

    # the room's seed fixed: with a random one the game sometimes ended before 40 actions
    service = RoomService("memory", seeds=random.Random(5).getrandbits)
    # (a target above 3,000: no win table is built here, the points alone)
    room, token = service.create("review me", "bones", {"target": 3500, "min_on_board": 300},
                                 "Ann")
    service.add_computer(room.name, token, "chicken")
    service.start(room.name, token)
    for _ in range(400):  # a game under way reviews as well as a finished one
        g = service.state(room.name)
        if g.is_over or len(g.actions) > 40:
            break
        if g.current_player == 0:  # Ann: stand whenever allowed with 300, else roll
            st = g.state
            stand = dicelab.Stand() in g.legal_actions() and st.turn_total >= 300
            service.act(room.name, token, "stand" if stand else "roll")
        else:
            service.play_computers(room.name)
    g = service.state(room.name)
    assert len(g.actions) > 40
    copy = replica(service.room(room.name))
    for action in service.log(room.name):
        copy.apply(action)
    r = dicelab.review(g)
    assert r.seats["Ann"].decisions > 3 and r.seats["Ann"].mistakes > 0

    def entries(review):  # a browser's copy seats names only: nobody is a computer there
        return [{**e.to_dict(), "computer": None} for e in review]
    for other in (copy, copy.to_json()):
        assert entries(dicelab.review(other)) == entries(r)
