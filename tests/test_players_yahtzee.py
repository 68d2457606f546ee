"""Yahtzee computers (issue 4): greedy, optimal (the solver) and the skill slider."""
import math

import pytest

import dicelab
from dicelab import Reroll, Roll, Score
from dicelab.errors import RuleError
from dicelab.games import Seat, yahtzee
from dicelab.lab import simulate
from dicelab.players import make_player, player_names



def solo(spec, seed=1, **settings):
    return dicelab.new_game("yahtzee", [Seat("Cpu", make_player("yahtzee", spec))], seed=seed,
                            **settings)


def test_registry():
    assert {"greedy", "optimal", "skill"} <= set(player_names("yahtzee"))
    assert make_player("yahtzee", "skill:0.25").skill == 0.25
    for bad in ("skill:2", "skill:x", "skill:0.5:1"):
        with pytest.raises(RuleError):
            make_player("yahtzee", bad)


def test_optimal_keeps_three_fives_from_a_full_house(rig):
    """All boxes open, 5 5 5 2 2 on the first roll: the solver keeps 5 5 5 (notebook 04)."""
    g = solo("optimal")
    rig(yahtzee).add((5, 2, 5, 2, 5))
    g.apply(Roll())
    assert g.computer_action() == Reroll((1, 3))


def test_greedy_takes_the_full_house_when_no_rerolls_are_left(rig):
    g = solo("greedy", preset="no_bonus")
    rig(yahtzee).add((5, 2, 5, 2, 5), (2, 2), (2, 2))
    g.apply(Roll())
    g.apply(Reroll((1, 3)))
    g.apply(Reroll((1, 3)))
    assert g.computer_action() == Score("full_house")


def test_greedy_keeps_for_this_turn(rig):
    g = solo("greedy")
    rig(yahtzee).add((6, 6, 6, 1, 2))
    g.apply(Roll())
    assert g.computer_action() == Reroll((3, 4))


def test_skill_ends_match_greedy_and_optimal(rig):
    rig(yahtzee).add(*[(5, 2, 5, 2, 5)] * 4)
    for skill, expert in ((0.0, "greedy"), (1.0, "optimal")):
        a, b = solo(f"skill:{skill}"), solo(expert)
        a.apply(Roll()), b.apply(Roll())
        assert a.computer_action() == b.computer_action()


@pytest.mark.parametrize("preset", ["official", "seed"])
def test_players_finish_games(preset):
    r = simulate("yahtzee", ["greedy", "optimal", "skill:0.5"], games=6, seed=3, preset=preset)
    assert sum(row["wins"] for row in r.rows) == pytest.approx(6)


def test_optimal_averages_the_solved_value():
    """Official rules: the solver's optimal expected score is 254.5877 (issue 3)."""
    r = simulate("yahtzee", ["optimal"], games=160, seed=12)
    x = r.samples["optimal"]
    se = x.std(ddof=1) / math.sqrt(x.size)
    assert abs(x.mean() - 254.5877) < 4 * se


def test_optimal_beats_greedy():
    r = simulate("yahtzee", ["greedy", "optimal"], games=60, seed=2)
    g, o = (row["mean_score"] for row in r.rows)
    assert o > g
