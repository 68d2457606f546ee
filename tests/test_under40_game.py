"""Under40's last rounds: the chance to win the round against the chance to win the game
(issue 16; dicelab.odds.under40_game; RULES.md "Under40": only the round's winner gains, 40 x
players on an exact 40, else the busted score; first to the target at the end of a round wins).

The review's answer, measured: two players, target 1,000, every decision with both totals in
the last 200 points (3.8 million decision states): playing for the game decides otherwise than
playing for the round in 507 of them (0.013%), and there the chance to win the game differs by
0.02 points on average and 0.06 at most (the last 400 points: see the README). A player can
only roll or stop, and the points a round pays (a bust's 42..110 or 80) follow from who wins it
far more than from how, so winning the round is, to within those numbers, winning the game:
the computers and the advice keep the round solver. These tests check the game solver that
measured it (exact, against the round solver and against play-outs) and the bound, on the
last 60 points (quick)."""
from __future__ import annotations

import numpy as np
import pytest

import dicelab
from dicelab.games import Seat
from dicelab.games.under40 import _round_status
from dicelab.lab.results import wilson
from dicelab.odds import under40_game as ug
from dicelab.odds.under40 import SCORES, round_decision, round_readout
from dicelab.players import make_player

from .conftest import set_state

TARGET, REACH = 1000, 60


@pytest.fixture(scope="module")
def game_values():
    return ug.Under40Game(TARGET, REACH)


@pytest.fixture(scope="module")
def round_play():
    return ug.Under40Game(TARGET, REACH, policy=("round", "round"))


def test_with_round_values_the_round_solver_comes_back(game_values):
    """With 1 for winning the round and 0 for losing it, the values are odds.under40's."""
    X0, X1 = game_values._round(0, np.array([950]), np.array([960]), round_rule=True)
    for ms, mo in ((0, 0), (12, 30), (30, 12), (38, 36), (2, 0)):
        assert float(np.ravel(X0[ms, mo])[0]) == pytest.approx(
            float(round_readout(ms, mo).win), abs=1e-12)


def test_round_play_values_match_playouts(round_play):
    """Two `optimal` computers (round play) from a round start at 950 (starter) vs 964:
    play-outs land on the solver's value within their 95% interval."""
    p = round_play.start_chance(950, 964)
    g = dicelab.new_game("under40", [Seat("A", make_player("under40", "optimal")),
                                     Seat("B", make_player("under40", "optimal"))], seed=1)
    set_state(g, totals=(950, 964), starter=0, current=0, status=_round_status(2, 0))
    seats = list(g.seats)
    n, wins = 800, 0
    for child in np.random.SeedSequence(11).spawn(n):
        h = g.continued(seats, int(child.generate_state(1)[0]))
        h.play_computers()
        wins += h.winner == 0
    lo, hi = wilson(wins, n)
    assert lo <= p <= hi, (wins, p)


def test_playing_for_the_game_barely_differs(game_values):
    """Every decision with both totals in the last 60 points: the game decision and the round
    decision part in a few states, and by less than a tenth of a point of the chance to win
    the game; the readout agrees with the solver's values."""
    G = game_values
    idx = np.arange(G.n)
    xs, ys = [a.ravel() for a in np.meshgrid(idx, idx, indexing="ij")]
    x, y = G.low + 2 * xs, G.low + 2 * ys
    X0, X1 = G._round(0, x, y)
    rolls = G.rolls
    differ, gaps, total = 0, [], 0
    for m in SCORES:
        for o in SCORES:
            if m <= o:
                continue
            for roll, stop in ((rolls[0, m, o], X1[m, o]),          # the starter on turn
                               (1 - rolls[1, o, m], 1 - X0[o, m])):  # the other on turn
                game = np.where(stop >= roll - 1e-12, "stop", "roll")
                part = game != round_decision(m, o)
                differ += part.sum()
                total += part.size
                gaps += list(np.abs(stop - roll)[part])
    assert total == 2 * 190 * G.n ** 2
    assert 0 < differ < total / 1000 and max(gaps) < 1e-3, (differ, max(gaps))
    r = G.readout(960, 980, True, 30, 12)
    assert r.stop_win == pytest.approx(float(np.ravel(X1[30, 12])[list(zip(x, y)).index(
        (960, 980))]), abs=1e-12)
