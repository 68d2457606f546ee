"""Defects of issue 13 point 9, found against an independent implementation: each test failed
before its fix."""
from __future__ import annotations

import io
import subprocess
import sys
from argparse import Namespace

import pytest

from dicelab import Reroll, Roll, Stand, score
from dicelab.errors import RuleError
from dicelab.games import Seat, fivedice, new_game
from dicelab.games.thousand import ThousandGame
from dicelab.odds.fivedice import optimal_turn_ev
from dicelab.players import make_player

from .conftest import assert_refused, set_state


# ----- Thousand with barrel_fall=0 (RULES.md "Thousand": falling off loses barrel_fall) --------
def test_barrel_fall_zero_leaves_a_legal_880_off_the_barrel(rig):
    g = ThousandGame(["Ann", "Bob"], seed=3, barrel_fall=0)
    p = g.current_player
    set_state(g, on_board=(True, True), totals=(880, 880), on_barrel=(True, True),
              barrel_turns=tuple(2 if i == p else 0 for i in range(2)))
    rig(fivedice).add((2, 3, 4, 6, 6))                  # the third failed attempt: a fall of 0
    g.apply(Roll())
    assert g.state.totals[p] == 880 and not g.state.on_barrel[p]
    # the exact odds accept it: the optimal computer and the odds panel go on from here
    ev = optimal_turn_ev(g.config, banked=880, on_barrel=False)
    assert ev >= 0
    cpu = make_player("thousand", "optimal")
    set_state(g, current=p, phase="roll", turn_total=0)
    assert cpu.act(g.view()) in g.legal_actions()
    # with a fall of 100 the same state still cannot happen
    with pytest.raises(RuleError, match="cannot happen"):
        optimal_turn_ev(ThousandGame(["A"], seed=1).config, banked=880, on_barrel=False)


# ----- non-whole die positions and dice -------------------------------------------------------
@pytest.mark.parametrize("bad", [[1.5], [True], [0, 2.0], ["1"]])
def test_non_whole_positions_are_refused(bad):
    g = new_game("yahtzee", ["Ann"], seed=1)
    g.apply(Roll())
    assert_refused(g, {"type": "reroll", "positions": bad}, "whole")
    with pytest.raises(RuleError, match="whole"):
        Reroll(bad)
    with pytest.raises(RuleError, match="whole"):
        Roll(keep=bad)
    with pytest.raises(RuleError, match="whole"):
        Stand(keep=bad)


def test_whole_positions_of_numpy_ints_still_work():
    import numpy as np

    assert Reroll([np.int64(3), 1]).positions == (1, 3)


@pytest.mark.parametrize("dice", [[True, 2, 3, 4, 5], [1.0, 2, 3, 4, 5], [1.5, 2, 3, 4, 5]])
def test_bools_and_floats_are_not_dice(dice):
    with pytest.raises(RuleError, match="not a die value"):
        score("bones", dice)
    with pytest.raises(RuleError, match="not a die value"):
        score("thousand", dice)


# ----- a random seat follows the game's seed ----------------------------------------------------
def _random_game(seed):
    g = new_game("bones", [Seat("R1", make_player("bones", "random"), strategy="random"),
                           Seat("R2", make_player("bones", "random"), strategy="random")],
                 seed=seed, target=1500, min_on_board=50)
    g.play_computers(max_actions=20_000)
    return [str(a) for a in g.actions], g.totals()


def test_random_player_is_seeded_from_the_game():
    assert _random_game(5) == _random_game(5)
    assert _random_game(5) != _random_game(6)


def test_simulate_with_a_random_seat_is_reproducible():
    cmd = [sys.executable, "-c", "import sys; from dicelab.cli import main; sys.exit(main())",
           "simulate", "under40", "--players", "random,cautious",
           "--games", "30", "--seed", "0"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout


# ----- the terminal Under40 game exits 0 when its input ends, like the others -----------------
def test_terminal_under40_exits_0_at_end_of_input():
    from dicelab.terminal.under40 import play

    out = io.StringIO()
    assert play(Namespace(players="Ann,Bob", seed=4), stdin=io.StringIO("r\n"), stdout=out) == 0
    assert "Input ended" in out.getvalue()
