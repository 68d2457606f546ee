"""The chance to win in the odds panel and the hint line (issue 16), without a browser."""
from __future__ import annotations

import pytest

import dicelab
from dicelab.games.base import evolve
from dicelab.odds import fivedice as fd
from dicelab.odds import win
from dicelab.ui import OddsPanel, Play
from dicelab.ui.components import hint_text
from dicelab.ui.phrases import pct
from dicelab.ui.words import points_vs_win


def set_state(game, **changes):
    game._state = game.state = evolve(game.state, **changes)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    win._MEMORY.clear()
    yield tmp_path
    win._MEMORY.clear()


def _decide(game, seat, totals, turn_total, dice_left, **more):
    set_state(game, current=seat, totals=totals, on_board=(True, True), phase="decide",
              turn_total=turn_total, dice_left=dice_left, dice=(2, 3, 4, 6, 6)[:dice_left],
              counting=(False,) * dice_left, **more)


def test_final_turn_hint_and_panel_say_what_must_be_reached(cache):
    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=1, target=1000, min_on_board=50)
    _decide(game, 0, (300, 1200), 400, 2, final_from=1)
    play = Play(game)
    hint = hint_text(play)
    # 300 + T must pass 1,200: T >= 950; standing now (700) would lose, so roll
    chance = fd.reach_chance(game.config, 950, 400, 2, on_board=True)
    assert "must reach 950 this turn to pass 1,200" in hint and "Best play: roll" in hint
    assert f"{100 * chance:.1f}%".rstrip("0") in hint or f"{100 * chance:.0f}%" in hint
    text = OddsPanel(play=play)._text.object
    assert "Final turn: reach 950 this turn to pass 1,200" in text
    assert "<b class='best'>ROLL</b>" in text
    # one marker for the best play (issue 40): the ★ sat on "if you stand" (400 banked is
    # the better points) beside "Best play now: ROLL ★"
    stand_row = text.split("Expected points if you stand</dt><dd>")[1].split("</dd>")[0]
    roll_row = text.split("Expected points if you roll (then play best)</dt><dd>")[1]
    assert "★" not in stand_row and roll_row.split("</dd>")[0].endswith("★"), text
    _decide(game, 0, (300, 1200), 1000, 2, final_from=1)
    assert "Best play: stand and win" in hint_text(Play(game))


def test_two_seat_panel_shows_the_chance_to_win_and_the_contrast(cache):
    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=1, target=1000, min_on_board=300)
    table = win.table(game.config, progress=False)     # built, so the panel finds it
    _decide(game, 0, (600, 950), 400, 2)
    text = OddsPanel(play=Play(game))._text.object
    w = table.readout(600, 950, 400, 2)
    assert "Chance to win from here" in text and "To win: <b class='best'>ROLL</b>" in text
    ro = fd.turn_readout(game.config, 400, 2, on_board=True)
    said = points_vs_win(ro, w)
    assert said.startswith("For points, stand (400 now vs 294 rolling). To win, roll: ")
    assert said in text.replace("&#x27;", "'")


def test_panel_waits_for_a_table_being_built(cache, monkeypatch):
    import threading
    import time

    from dicelab.odds import worker

    started, release = [], threading.Event()

    def build_elsewhere(build):   # the worker process's part, held until the test ends
        started.append(build)
        release.wait(30)
    monkeypatch.setattr(worker, "run_elsewhere", build_elsewhere)
    monkeypatch.delenv("DICELAB_WIN_BUILD", raising=False)
    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=1, target=1500, min_on_board=300)
    _decide(game, 0, (600, 950), 400, 2)
    try:
        text = OddsPanel(play=Play(game))._text.object
        assert "the exact table is being built" in text
        assert "the exact table is being built" in OddsPanel(play=Play(game))._text.object
        end = time.monotonic() + 10
        while not started and time.monotonic() < end:
            time.sleep(0.01)
        assert len(started) == 1   # one build, in the shared worker, however many pages ask
    finally:
        release.set()


class _Never:
    def poll(self):
        return None


def test_points_vs_win_agreeing_says_nothing():
    ro = fd.turn_readout("bones", 300, 1, on_board=True)
    w = win.WinReadout(0.6, 0.5, 0.6, "stand", False, None)
    assert ro.decision == "stand" and points_vs_win(ro, w) == ""


def test_win_chart_follows_the_game(cache):
    from dicelab.ui.win_chart import WinChart

    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=2, target=500, min_on_board=50)
    table = win.table(game.config, progress=False)
    play = Play(game)
    chart = WinChart(play=play)
    src = chart._src.data
    st = game.state
    p = table.start_chance(st.totals[st.current], st.totals[1 - st.current])
    assert src["x"] == [0] and abs(src[f"p{st.current}"][0] - p) < 1e-12
    for _ in range(6):
        if game.is_over:
            break
        play.roll()
    xs = chart._src.data["x"]
    assert len(xs) > 1 and xs == sorted(xs)
    # the x axis runs from the first action to the last point, at least 5 wide
    assert (chart._fig.x_range.start, chart._fig.x_range.end) == (0, max(5, xs[-1] + 1))
    assert all(abs(a + b - 1) < 1e-12 for a, b in zip(chart._src.data["p0"],
                                                        chart._src.data["p1"]))
    # no exact table: the estimate from play-outs (tests/test_win_live.py); one seat: none
    assert WinChart(dicelab.new_game("thousand", ["A", "B"], seed=1))._fig.title.text == \
        "Chance to win (estimate from play-outs)"
    assert WinChart(dicelab.new_game("bones", ["A"], seed=1))._fig is None


def test_win_chart_names_every_seat_under_the_plot():
    from bokeh.models import Legend

    from dicelab.ui.win_chart import WinChart

    names = ["Ann", "Computer 1", "Bob", "Dee", "Eve", "Fay", "Gil"]
    chart = WinChart(dicelab.new_game("thousand", names, seed=1))
    [legend] = [m for m in chart._fig.below if isinstance(m, Legend)]
    assert [item.label.value for item in legend.items] == names
    assert legend.ncols == 3  # three to a row: a narrow column shows every name
    assert not [m for m in chart._fig.center if isinstance(m, Legend)]  # none over the lines
    # before any point: axes from 0 to 5, and each name's colour in its key
    assert (chart._fig.x_range.start, chart._fig.x_range.end) == (0, 5)
    assert all(len(item.renderers[0].data_source.data["x"]) == 2 for item in legend.items)
    # no tools: the toolbar is hidden, so a default pan would take a finger's drag on a phone
    # (scrolling the page) and move the lines out of sight, with no reset button
    assert chart._fig.tools == [] and chart._fig.toolbar.active_drag in (None, "auto")


def test_hint_adds_the_play_to_win_where_it_differs(cache):
    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=1, target=1000, min_on_board=300)
    win.table(game.config, progress=False)
    _decide(game, 0, (600, 950), 400, 2)
    hint = hint_text(Play(game))
    assert "Best play: stand" in hint and "To win, though: roll (34" in hint


def test_chart_of_a_game_opened_midway(cache):
    from dicelab.ui.win_chart import WinChart

    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=2, target=500, min_on_board=50)
    win.table(game.config, progress=False)
    play = Play(game)
    for _ in range(5):
        if not game.is_over:
            play.roll()
    chart = WinChart(play=play)
    assert chart._src.data["x"] == list(range(len(game.actions) + 1))


def test_thousand_race_hint_says_only_the_barrel_counts():
    """Thousand (issue 16): an opponent on a barrel at 980 finishes next turn with 78.1%
    (reach_chance), so the hint says to roll on to the barrel, and to stand once it is reached."""
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=1, barrel=980)
    _decide(game, 0, (900, 980), 50, 3, on_barrel=(False, True))
    hint = hint_text(Play(game))
    chance = fd.reach_chance(game.config, 80, 50, 3, banked=900)
    assert "wins next turn with 78% chance" in hint
    assert "reaching the barrel counts: 80 this turn" in hint and "Best play: roll" in hint
    assert f"{100 * chance:.1f}%".rstrip("0") in hint or f"{100 * chance:.0f}%" in hint
    _decide(game, 0, (900, 980), 85, 3, on_barrel=(False, True))
    assert "85 reaches the barrel. Best play: stand." in hint_text(Play(game))
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=1)     # barrel 880: 8.4%
    _decide(game, 0, (700, 880), 50, 3, on_barrel=(False, True))
    assert "barrel counts" not in hint_text(Play(game))


# Thousand (issue 16): a small table (seconds to build) cached in a test folder. RULES.md
# "Thousand": barrel 100 and target 150, one pit 25-50, a fall and a bolt penalty of 50.
SMALL_THOUSAND = dict(target=150, barrel=100, pits=[(25, 50)], barrel_fall=50, bolt_penalty=50)


@pytest.fixture(scope="module")
def thousand_cache(tmp_path_factory):
    from dicelab.odds import win_thousand

    folder = tmp_path_factory.mktemp("win_thousand_ui")
    win_thousand.table("thousand", progress=False, cache=folder, **SMALL_THOUSAND)
    return folder


def _thousand_mid_turn(seed=3):
    """A two-seat Thousand game of the small rules, played by clicks to a decision after a
    roll with dice left (a stand allowed or not)."""
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=seed, **SMALL_THOUSAND)
    play = Play(game)
    for _ in range(200):
        st = game.state
        if st.phase == "decide" and st.turn_total > 0 and not st.hot_dice:
            return game, play
        play.roll() if st.phase == "roll" or st.turn_total < 50 else play.stand()
    raise AssertionError("no mid-turn decision reached")


def test_thousand_panel_and_chart_are_exact_when_the_table_is_cached(thousand_cache,
                                                                     monkeypatch):
    from dicelab.odds import win_game, win_thousand
    from dicelab.ui.win_chart import WinChart
    from dicelab.ui.win_estimate import estimate_html

    monkeypatch.setattr(win, "cache_dir", lambda: thousand_cache)
    win._MEMORY.clear()     # read from the cache folder, as a fresh server would
    game, play = _thousand_mid_turn()
    table = win_thousand.table_if_cached(game.config)
    assert table is not None and play.ui.exact_win(game)
    st = game.state
    me, other = game.standing(st, st.current), game.standing(st, 1 - st.current)
    w = table.readout(me, other, st.turn_total, st.dice_left)
    panel = OddsPanel(play=play)
    text = panel._text.object
    assert "Chance to win from here" in text
    assert f"<dt>Chance to win from here</dt><dd>{pct(w.win_chance)}</dd>" in text
    assert f"<dt>… if you roll (then play to win)</dt><dd>{pct(w.roll_win_chance)}</dd>" in text
    stand = "not allowed" if w.stand_win_chance is None else pct(w.stand_win_chance)
    assert f"<dt>… if you stand</dt><dd>{stand}</dd>" in text
    assert f"To win: <b class='best'>{w.decision.upper()}</b>" in text
    # no play-out estimate beside the exact chance
    assert estimate_html(play) == "" and not panel._est.visible
    chart = WinChart(play=play)
    assert chart._fig.title.text == "Chance to win (exact)"
    src = chart._src.data
    assert src["x"] == list(range(len(game.actions) + 1))
    assert abs(src[f"p{st.current}"][-1] - w.win_chance) < 1e-12
    assert all(abs(a + b - 1) < 1e-12 for a, b in zip(src["p0"], src["p1"]))
    # the start of the game, read from the table by the chart's replay
    i0 = table.status(0)
    assert abs(src["p0"][0] - float(table.W[i0, i0])) < 1e-12
    n = len(src["x"])
    play.roll()
    assert len(chart._src.data["x"]) == n + 1
    assert win_game.seat_chances(game) == tuple(
        chart._src.data[f"p{i}"][-1] for i in range(2))


def test_thousand_without_its_table_estimates_and_builds_nothing(tmp_path, monkeypatch):
    from dicelab.odds import win_thousand
    from dicelab.ui.win_chart import WinChart

    started = []
    monkeypatch.setattr("subprocess.Popen", lambda *a, **k: started.append(a) or _Never())
    monkeypatch.delenv("DICELAB_WIN_BUILD", raising=False)
    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    win._MEMORY.clear()
    game, play = _thousand_mid_turn()
    assert not play.ui.exact_win(game)
    text = OddsPanel(play=play)._text.object
    assert "Chance to win from here" not in text
    assert WinChart(play=play)._fig.title.text == "Chance to win (estimate from play-outs)"
    assert started == [] and list(tmp_path.iterdir()) == []
    assert win_thousand.table_if_cached(game.config) is None


def test_win_chart_names_the_default_seats_in_the_pages_language():
    """Issue 40: the legend said "You" on French and Russian pages."""
    from bokeh.models import Legend

    from dicelab.i18n import using
    from dicelab.ui.win_chart import WinChart

    with using("fr"):
        chart = WinChart(dicelab.new_game("thousand", ["You", "Computer", "Zoé"], seed=1))
        [legend] = [m for m in chart._fig.below if isinstance(m, Legend)]
        assert [item.label.value for item in legend.items] == ["Vous", "Ordinateur", "Zoé"]
    with using("ru"):
        chart.label()
        assert [item.label.value for item in legend.items] == ["Вы", "Компьютер", "Zoé"]
