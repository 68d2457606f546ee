"""Seed 000's computer strategies as RULES.md states them (Bones; also used in Thousand)."""
import pytest

import dicelab
from dicelab import Roll, Stand
from dicelab.errors import RuleError
from dicelab.games import Seat, fivedice
from dicelab.players import make_player, player_names

from .conftest import set_state


def bones_with(strategy, **settings):
    g = dicelab.new_game("bones", [Seat("Cpu", make_player("bones", strategy)), "Ann"], seed=2,
                         **settings)
    set_state(g, current=0)
    return g


@pytest.mark.parametrize("name, threshold",
                         [("chicken", 100), ("aggressive", 200), ("gambler", 300)])
def test_named_thresholds(name, threshold):
    p = make_player("bones", name)
    assert p.threshold == threshold and p.hot_dice_habit and p.spec == name


def test_chicken_stands_at_100_once_on_the_board(rig):
    g = bones_with("chicken")
    set_state(g, on_board=(True, False))
    rig(fivedice).add((5, 2, 3, 4, 6), (5, 2, 3, 6))
    g.apply(g.computer_action())
    assert g.state.turn_total == 50 and g.computer_action() == Roll()
    g.apply(g.computer_action())
    assert g.state.turn_total == 100 and g.computer_action() == Stand()


def test_threshold_respects_the_minimum(rig):
    g = bones_with("chicken", min_on_board=600)
    rig(fivedice).add((1, 1, 1, 2, 3))
    g.apply(Roll())
    assert g.computer_action() == Stand()        # 1000 >= 600 and >= 100
    g = bones_with("chicken", min_on_board=600)
    rig(fivedice).add((5, 5, 5, 2, 3))
    g.apply(Roll())
    assert g.computer_action() == Roll()         # 500 < 600: standing is not allowed


def test_hot_dice_habit(rig):
    g = bones_with("gambler", min_on_board=50)
    set_state(g, on_board=(True, False))
    rig(fivedice).add((1, 1, 1, 5, 5))
    g.apply(Roll())
    assert g.state.hot_dice and g.computer_action() == Roll()      # always rolls all five again
    g = bones_with("gambler", min_on_board=50)
    rig(fivedice).add((1, 1, 1, 5, 5))
    g.apply(Roll())
    assert g.computer_action() == Stand()   # ...except when standing now puts it on the board
    g = bones_with("threshold:300:nohabit", min_on_board=50)
    set_state(g, on_board=(True, False))
    rig(fivedice).add((1, 1, 1, 5, 5))
    g.apply(Roll())
    assert g.computer_action() == Stand()


def test_thousand_threshold_never_stands_where_forbidden(rig):
    g = dicelab.new_game("thousand", [Seat("Cpu", make_player("thousand", "threshold:100")), "Ann"],
                         seed=1)
    set_state(g, current=0, on_board=(True, False), totals=(225, 0))
    rig(fivedice).add((1, 1, 2, 3, 6), (1, 2, 3))
    g.apply(g.computer_action())
    assert g.state.turn_total == 20 and g.computer_action() == Roll()   # pit: needs 75


@pytest.mark.parametrize("bad", ["threshold:75", "threshold:5000", "threshold:x", "threshold:300:y",
                                 "wizard"])
def test_bad_specs(bad):
    with pytest.raises(RuleError):
        make_player("bones", bad)


def test_registry_lists_strategies():
    assert {"chicken", "aggressive", "gambler", "threshold", "random"} <= set(player_names("bones"))


def test_computers_finish_games_without_illegal_actions():
    for seed in range(30):
        seats = [Seat(n, make_player("bones", n)) for n in ("chicken", "aggressive", "gambler")]
        g = dicelab.new_game("bones", seats, seed=seed, target=3000)
        g.play_computers()
        assert g.is_over
        t = dicelab.new_game("thousand", [Seat(n, make_player("thousand", n))
                                          for n in ("chicken", "gambler")], seed=seed)
        t.play_computers()
        assert t.is_over
