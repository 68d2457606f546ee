"""Bones game flow, RULES.md "Bones" and "Common to all variants"."""
import pytest

import dicelab
from dicelab import Roll, Stand
from dicelab.errors import RuleError
from dicelab.games import fivedice
from dicelab.games.bones import BonesGame

from .conftest import assert_refused, set_state


def game(n=2, seed=1, **settings):
    return BonesGame([f"P{i}" for i in range(n)], seed=seed, **settings)


def test_a_turn_begins_with_a_roll():
    g = game()
    assert g.legal_actions() == [Roll()]
    assert_refused(g, Stand(), "turn begins with a roll")


def test_counting_dice_are_kept_and_the_rest_rolled(rig):
    g = game()
    p = g.current_player
    rig(fivedice).add((1, 5, 2, 3, 4), (5, 2, 6), (1, 3))
    g.apply(Roll())
    s = g.state
    assert ((s.turn_total, s.dice_left, s.kept, s.counting)
            == (150, 3, (1, 5), (True, True, False, False, False)))
    g.apply("roll")
    assert (g.state.turn_total, g.state.dice_left) == (200, 2)
    g.apply(Roll())
    assert (g.state.turn_total, g.state.dice_left) == (300, 1)
    assert g.current_player == p


def test_minimum_to_get_on_the_board(rig):
    g = game(min_on_board=600)
    p = g.current_player
    rig(fivedice).add((1, 5, 2, 3, 4))
    g.apply(Roll())
    assert Stand() not in g.legal_actions()
    assert_refused(g, Stand(), "on the board", "600", "150")
    assert g.need_to_stand() == (600, "Bones: to get on the board a turn needs 600")
    set_state(g, on_board=tuple(i == p for i in range(2)))
    g.apply(Stand())
    assert g.state.totals[p] == 150 and g.current_player != p


def test_min_50_lets_any_score_stand(rig):
    g = game(min_on_board=50)
    p = g.current_player
    rig(fivedice).add((5, 2, 3, 4, 6))
    g.apply(Roll())
    g.apply(Stand())
    assert g.state.totals[p] == 50 and g.state.on_board[p]


def test_bust_loses_the_turn(rig):
    g = game(min_on_board=50)
    p = g.current_player
    rig(fivedice).add((1, 1, 1, 2, 3), (2, 3))
    g.apply(Roll())
    assert g.state.turn_total == 1000
    events = g.apply(Roll())
    assert events[0].kind == "bust" and "loses 1,000" in events[0].text  # formatted as the total is
    assert g.state.totals[p] == 0 and g.current_player != p and g.state.turn_total == 0


def test_hot_dice_may_roll_all_five_or_stand(rig):
    g = game(min_on_board=50)
    p = g.current_player
    rig(fivedice).add((1, 1, 1, 5, 2), (5,), (2, 3, 4, 6, 6))
    g.apply(Roll())
    g.apply(Roll())
    s = g.state
    assert s.hot_dice and s.dice_left == 5 and s.turn_total == 1100
    assert set(g.legal_actions()) == {Roll(), Stand()}
    g.apply(Roll())  # all five again, then a bust loses everything
    assert g.state.totals[p] == 0


def test_bones_joins_the_turn_total_and_needs_a_stand(rig):
    g = game(min_on_board=50)
    p = g.current_player
    rig(fivedice).add((4, 4, 4, 4, 4))
    g.apply(Roll())
    assert g.state.turn_total == 10_000 and g.state.totals[p] == 0 and g.state.hot_dice
    g.apply(Stand())
    assert g.state.totals[p] == 10_000


def test_final_turns_and_winner(rig):
    g = game(n=3, min_on_board=50, target=1000)
    first = g.current_player
    order = [first, (first + 1) % 3, (first + 2) % 3]
    rig(fivedice).add((1, 1, 1, 2, 3))
    g.apply(Roll())
    g.apply(Stand())                            # reaches the target: the others get one turn
    assert g.final_turns and not g.is_over
    rig(fivedice).add((1, 1, 1, 5, 3))
    g.apply(Roll())
    g.apply(Stand())                            # 1050 beats 1000
    assert not g.is_over
    rig(fivedice).add((2, 3, 4, 6, 6))
    g.apply(Roll())                             # bust: the last final turn is over
    assert g.is_over and g.winner == order[1]
    with pytest.raises(RuleError, match="over"):
        g.apply(Roll())
    assert g.legal_actions() == []


def test_a_tie_goes_to_who_reached_it_first(rig):
    g = game(n=2, min_on_board=50, target=1000)
    first = g.current_player
    rig(fivedice).add((1, 1, 1, 2, 3), (1, 1, 1, 2, 3))
    g.apply(Roll())
    g.apply(Stand())
    g.apply(Roll())
    g.apply(Stand())
    assert g.is_over and g.state.totals == (1000, 1000) and g.winner == first


def test_one_player_game_ends_at_the_target(rig):
    g = game(n=1, min_on_board=50, target=1000)
    rig(fivedice).add((1, 1, 1, 2, 3))
    g.apply(Roll())
    g.apply(Stand())
    assert g.is_over and g.winner == 0


def test_french_four_of_a_kind_sets_four_aside(rig):
    g = game(preset="french")
    rig(fivedice).add((2, 2, 2, 2, 3))
    g.apply(Roll())
    assert (g.state.turn_total, g.state.dice_left) == (200, 1)


def test_choose_keepers(rig):
    g = game(choose_keepers=True, min_on_board=50)
    p = g.current_player
    rig(fivedice).add((1, 1, 5, 2, 3), (6, 6, 6, 2))
    g.apply(Roll())
    keeps = {a.keep for a in g.legal_actions() if isinstance(a, Roll)}
    assert {(0,), (2,), (0, 1), (0, 2), (0, 1, 2)} <= keeps and (3,) not in keeps
    assert_refused(g, Roll(keep=(3,)), "counting")
    assert_refused(g, Roll(keep=()), "at least one")
    g.apply(Roll(keep=(0,)))                     # set one 1 aside, roll the other four
    assert g.state.turn_total == 100 + 600 and g.state.dice_left == 1
    g.apply(Stand(keep=(0, 1, 2)))               # the triple of 6s is a whole group
    assert g.state.totals[p] == 700


def test_choose_keepers_partial_group_is_refused(rig):
    g = game(choose_keepers=True, min_on_board=50)
    rig(fivedice).add((6, 6, 6, 2, 3))
    g.apply(Roll())
    assert_refused(g, Roll(keep=(0, 1)), "whole groups")


def test_without_choose_keepers_keep_must_be_all_counting(rig):
    g = game(min_on_board=50)
    rig(fivedice).add((1, 1, 5, 2, 3))
    g.apply(Roll())
    assert_refused(g, Roll(keep=(0,)), "automatically")
    assert_refused(g, Roll(keep=(0, 1, 2)), "automatically")
    g.apply(Roll())


def test_rolloff_picks_the_highest():
    for seed in range(20):
        g = game(n=4, seed=seed)
        last = g.rolloff[-1]
        assert g.current_player == max(last, key=lambda i: last[i])
        for rnd in g.rolloff[:-1]:
            top = max(sum(r) for r in rnd.values())
            assert sum(1 for r in rnd.values() if sum(r) == top) > 1


def test_seats_and_settings_are_validated():
    with pytest.raises(RuleError, match="1 to 8"):
        BonesGame([f"P{i}" for i in range(9)])
    with pytest.raises(RuleError, match="1 to 8"):
        BonesGame([])
    with pytest.raises(RuleError, match="name"):
        BonesGame(["  "])
    with pytest.raises(RuleError, match="steps of 50"):
        BonesGame(["A"], min_on_board=625)
    with pytest.raises(RuleError, match="french"):
        BonesGame(["A"], preset="french", min_on_board=300)
    with pytest.raises(RuleError, match="seed"):
        BonesGame(["A"], seed=-1)


def test_replay_and_json_round_trip():
    g = game(n=3, seed=7, min_on_board=50)
    from dicelab.players import RandomPlayer
    rp = RandomPlayer(3)
    for _ in range(200):
        if g.is_over:
            break
        g.apply(rp.act(g.view()))
    h = dicelab.load_game(g.to_json())
    assert h.state == g.state and h.actions == g.actions and h.seed == g.seed
    assert g.replay().state == g.state


def test_view_is_read_only():
    g = game()
    v = g.view()
    with pytest.raises(AttributeError):
        v.apply(Roll())
    with pytest.raises(AttributeError):
        v.state = None
    assert v.legal_actions() == [Roll()]
