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
    g = played("bones", ["random", "chicken"], 1, max_actions=200, target=5000)
    r = dicelab.review(g)
    assert len(r) > 5 and r.extras == {}
    assert all(e.extra == {} for e in r)
    assert any("chance to win is left out" in n for n in r.notes)
    assert "win_lost" not in r.to_csv()


def test_three_seats_have_no_win_column():
    r = dicelab.review(played("bones", ["random", "chicken", "random"], 1, max_actions=300,
                              **SMALL))
    assert len(r) > 5 and r.extras == {} and not any("win" in n for n in r.notes)


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
        assert "(win " in row["options"]
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
            if e.lost > 0 and e.chosen.key[0] == e.best.key[0] == "roll":
                seen += 1
                assert not e.why.startswith("With")
                assert e.why.split(" Points and")[0].count("a bust") == 2
                for o in (e.best, e.chosen):
                    n = o.detail["dice_left"]
                    assert (("all 5 dice again (hot dice" if o.detail["hot"] else
                             f"{n} {'die' if n == 1 else 'dice'} (a bust") in e.why)
            elif e.lost > 0:
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
        assert f" Chance to win the game: {100 * w.chosen:.1f}%" in e.line()
        assert (", " in e.line().split("Chance to win the game:")[1]) == w.mistake
    view = CoachView(play=Play(game=g, prefs=Prefs(coach=True)))
    df = view.frame()
    assert list(df.columns[-3:]) == ["win chance", "win lost (% points)", "why"]
    assert list(df["win lost (% points)"]) == [round(100 * e.extra["win"].lost, 2) for e in r]
    assert "win chance lost (% points)" in view._totals().object
