"""The Under40 odds panel with 3 and 4 players (issue 13 point 4), rendered in Python: the
round-win rows and "Best play" show, with the numbers of dicelab.odds.under40.readout."""
from __future__ import annotations

import html

import panel as pn
import pytest
from bokeh.document import Document

import dicelab
from dicelab.games.base import evolve
from dicelab.odds.under40 import readout
from dicelab.ui import OddsPanel, Play
from dicelab.ui.words import pct


def panel_text(game):
    panel = OddsPanel(play=Play(game))
    assert pn.panel(panel).get_root(Document()) is not None
    return html.unescape(panel._text.object)


NAMES = ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize("n", [3, 4])
def test_round_rows_and_best_play_from_the_round_start(n):
    game = dicelab.new_game("under40", NAMES[:n], seed=1)
    text = panel_text(game)
    r = readout(0, (0,) * (n - 1))
    assert f"Win the round if you roll on{pct(r.roll_win)} ★" in text.replace("</dt><dd>", "")
    assert "Win the round if you stop</dt><dd>not allowed" in text
    assert "Best play now: <b class='best'>ROLL</b>" in text
    assert f"all {n} players in the round" in text


@pytest.mark.parametrize("n, scores, status, others, best", [
    # seat 1 on turn at 4, seat 2 has not played, the starter (seat 0) stopped at 2
    (3, (2, 4, 0), ("stopped", "rolling", "waiting"), (0, 2), "ROLL"),
    # seat 0 on turn at 38 against 34 and 36: stopping is best (see the hand-worked test)
    (3, (38, 34, 36), ("rolling", "stopped", "stopped"), (34, 36), "STOP"),
    # 4 seats, seat 3 busted: seat 2 on turn at 30 against 20 (seat 0) and 24 (seat 1)
    (4, (20, 24, 30, 50), ("stopped", "stopped", "rolling", "busted"), (20, 24), None),
])
def test_round_rows_when_stopping_is_allowed(n, scores, status, others, best):
    game = dicelab.new_game("under40", NAMES[:n], seed=1)
    current = status.index("rolling")
    game._state = game.state = evolve(game.state, current=current, round_scores=scores,
                                      status=status, phase="decide")
    assert game.may_stop and game.round_others() == others
    r = readout(scores[current], others)
    text = panel_text(game).replace("</dt><dd>", " = ")
    star = {"roll": (" ★", ""), "stop": ("", " ★")}[r.decision]
    assert f"Win the round if you roll on = {pct(r.roll_win)}{star[0]}<" in text
    assert f"Win the round if you stop = {pct(r.stop_win)}{star[1]}<" in text
    assert f"Best play now: <b class='best'>{r.decision.upper()}</b>" in text
    if best:
        assert r.decision.upper() == best
