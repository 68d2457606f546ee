"""Thousand game flow, RULES.md "Thousand" (seed 003)."""
import pytest

from dicelab import Roll, Stand
from dicelab.errors import RuleError
from dicelab.games import fivedice
from dicelab.games.thousand import ThousandGame
from dicelab.odds.fivedice import optimal_turn_ev
from dicelab.players import make_player

from .conftest import assert_refused, set_state


def game(n=2, seed=3, **settings):
    g = ThousandGame([f"P{i}" for i in range(n)], seed=seed, **settings)
    return g, g.current_player


def opened(g, p, total=0, **more):
    n = g.n_seats
    return set_state(g, on_board=(True,) * n,
                     totals=tuple(total if i == p else 0 for i in range(n)), **more)


def test_opening_needs_50(rig):
    g, p = game()
    rig(fivedice).add((1, 5, 2, 3, 6), (1, 2, 3))
    g.apply(Roll())
    assert_refused(g, Stand(), "opening", "50", "15")
    g.apply(Roll())
    assert g.state.turn_total == 25
    assert g.need_to_stand()[0] == 50


def test_pit_from_225_needs_75(rig):
    """Seed 003: a player on 225 must score at least 300 - 225 = 75."""
    g, p = game()
    opened(g, p, 225)
    rig(fivedice).add((5, 5, 5, 2, 3), (1, 4))
    g.apply(Roll())
    assert g.need_to_stand() == (
        75, "Thousand pit: from 225 a stand must climb out of the pit to 300")
    assert_refused(g, Stand(), "pit", "75")
    g.apply(Roll())
    assert g.state.turn_total == 60
    assert Stand() not in g.legal_actions()


def test_standing_into_a_pit_is_allowed(rig):
    g, p = game()
    opened(g, p, 180)
    rig(fivedice).add((1, 1, 1, 2, 3))
    g.apply(Roll())
    g.apply(Stand())
    assert g.state.totals[p] == 280 and g.pit(280) == (200, 300)


def test_barrel_caps_at_880_and_needs_120(rig):
    g, p = game()
    opened(g, p, 850)
    rig(fivedice).add((1, 1, 1, 2, 3))
    g.apply(Roll())
    g.apply(Stand())
    assert g.state.totals[p] == 880 and g.state.on_barrel[p]
    assert g.state.barrel_turns[p] == 0


def test_passing_the_target_from_below_still_stops_on_the_barrel(rig):
    g, p = game()
    opened(g, p, 850)
    rig(fivedice).add((1, 1, 1, 1, 3))                # 200: 1050 would pass 1000
    g.apply(Roll())
    g.apply(Stand())
    assert g.state.totals[p] == 880 and not g.is_over


def test_barrel_win_and_fall(rig):
    g, p = game(n=1)
    opened(g, p, 880, on_barrel=(True,))
    assert g.need_to_stand()[0] == 120
    # three failed barrel turns: a fall of 100, and no bolts
    rig(fivedice).add((2, 3, 4, 6, 6), (2, 3, 4, 6, 6))
    g.apply(Roll())
    g.apply(Roll())
    assert g.state.barrel_turns[p] == 2 and g.state.bolts[p] == 0 and g.state.totals[p] == 880
    rig(fivedice).add((2, 3, 4, 6, 6))
    g.apply(Roll())
    assert g.state.totals[p] == 780 and not g.state.on_barrel[p] and g.state.bolts[p] == 0
    # climb back and win from the barrel with barrel + turn total
    rig(fivedice).add((1, 1, 1, 2, 3))
    g.apply(Roll())
    g.apply(Stand())
    assert g.state.totals[p] == 880 and g.state.on_barrel[p]
    rig(fivedice).add((1, 1, 1, 5, 2), (5,))
    g.apply(Roll())
    assert_refused(g, Stand(), "barrel", "120")
    g.apply(Roll())                                  # 105 + 5 = 110: hot dice, must roll
    assert_refused(g, Stand(), "hot dice")
    rig(fivedice).add((1, 2, 3, 4, 6))
    g.apply(Roll())
    assert g.state.turn_total == 120
    g.apply(Stand())
    assert g.is_over and g.winner == p and g.state.totals[p] == 1000


def test_bolts_and_penalty(rig):
    g, p = game(n=1)
    opened(g, p, 150)
    bust = (2, 3, 4, 6, 6)
    rig(fivedice).add(bust, bust)
    g.apply(Roll())
    g.apply(Roll())
    assert g.state.bolts[p] == 2 and g.state.totals[p] == 150
    rig(fivedice).add((1, 2, 3, 4, 6))
    g.apply(Roll())
    g.apply(Stand())                                 # a banked turn clears the count
    assert g.state.bolts[p] == 0 and g.state.totals[p] == 160
    rig(fivedice).add(bust, bust, bust)
    g.apply(Roll())
    g.apply(Roll())
    g.apply(Roll())
    assert g.state.bolts[p] == 0 and g.state.totals[p] == 60   # third bolt: -100, count restarts


def test_totals_may_go_negative_and_half_bolt(rig):
    g, p = game(n=1, bolt_penalty=50)
    bust = (2, 3, 4, 6, 6)
    rig(fivedice).add(bust, bust, bust)
    for _ in range(3):
        g.apply(Roll())
    assert g.state.totals[p] == -50 and not g.state.on_board[p]


def test_hot_dice_are_compulsory(rig):
    g, p = game()
    opened(g, p, 100)
    rig(fivedice).add((1, 2, 3, 4, 5))
    g.apply(Roll())
    assert g.state.turn_total == 250 and g.state.hot_dice
    assert g.legal_actions() == [Roll()]
    assert_refused(g, Stand(), "hot dice")


def test_several_players_on_the_barrel(rig):
    g, p = game(n=2)
    q = 1 - p
    set_state(g, on_board=(True, True), totals=(880, 880), on_barrel=(True, True))
    rig(fivedice).add((2, 3, 4, 6, 6))
    g.apply(Roll())
    assert g.current_player == q and g.state.on_barrel == (True, True)


def test_status():
    g, p = game()
    opened(g, p, 650, bolts=tuple(2 if i == p else 0 for i in range(2)))
    st = g.status(p)
    assert st == {"opened": True, "pit": (600, 700), "on_barrel": False,
                  "barrel_attempts_left": None, "bolts": 2}


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
