"""The Yahtzee game model, RULES.md "Yahtzee" and "Common to all variants" (seed 004)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dicelab
from dicelab.actions import Reroll, Roll, Score, Stand
from dicelab.errors import RuleError
from dicelab.games import yahtzee as ymod
from dicelab.games.yahtzee import YahtzeeGame
from dicelab.rules.yahtzee import BOXES
from dicelab.settings import YahtzeeSettings

from .conftest import assert_refused, set_state


def game(seats=("Ann",), seed=1, **settings):
    return YahtzeeGame(list(seats), seed=seed, **settings)


def card_with(**filled):
    """A card tuple in BOXES order with these boxes filled."""
    return tuple(filled.get(b) for b in BOXES)


def play_first_open_box(g, policy_rng=None):
    """Play to the end: roll, then score the first open box (or random legal actions if rng)."""
    for _ in range(20_000):  # a game that never ends fails instead of hanging
        if g.is_over:
            return g
        actions = g.legal_actions()
        if policy_rng is None:
            action = Roll() if Roll() in actions else next(
                a for a in actions if isinstance(a, Score))
        else:
            action = actions[int(policy_rng.integers(len(actions)))]
        g.apply(action)
    raise AssertionError(f"the game did not end in 20,000 actions: {g.state}")


# ----- the flow of a turn --------------------------------------------------------------------

def test_a_turn_is_roll_rerolls_then_score(rig):
    r = rig(ymod)
    g = game(rerolls=2)
    assert g.legal_actions() == [Roll()]
    assert (g.rolls_left, g.rerolls_left, g.options_now()) == (3, 2, {})
    r.add((1, 2, 3, 4, 6), (5,), (5, 5))
    g.apply(Roll())
    assert g.dice == (1, 2, 3, 4, 6) and (g.rolls_left, g.rerolls_left) == (2, 2)
    assert g.options_now()["large_straight"] == 0
    g.apply(Reroll((4,)))
    assert g.dice == (1, 2, 3, 4, 5)
    assert g.options_now()["large_straight"] == 40
    g.apply("reroll 1 2")  # 1-based when typed
    assert g.dice == (5, 5, 3, 4, 5) and (g.rolls_left, g.rerolls_left) == (0, 0)
    assert not any(isinstance(a, Reroll) for a in g.legal_actions())
    events = g.apply(Score("fives"))
    assert [e.kind for e in events] == ["score"]
    assert events[0].text == "Ann scores 15 in Fives."
    assert g.card()["fives"] == 15 and g.total() == 15
    assert g.dice == () and g.legal_actions() == [Roll()] and g.state.turn == 1


def test_legal_actions_list_31_rerolls_and_every_open_box():
    g = game()
    g.apply(Roll())
    actions = g.legal_actions()
    rerolls = [a for a in actions if isinstance(a, Reroll)]
    scores = [a for a in actions if isinstance(a, Score)]
    assert len(rerolls) == len(set(rerolls)) == 31
    assert [a.box for a in scores] == list(BOXES)
    assert {a.box for a in scores} == set(g.options_now())


def test_legal_actions_are_exactly_the_actions_that_apply():
    """Every listed action passes check(); every other candidate raises RuleError."""
    candidates = ([Roll(), Stand()] + [Reroll(p) for p in
                  [(), (0,), (0, 1, 2, 3, 4), (2, 4)]] + [Score(b) for b in BOXES])
    for wastes in (False, True):
        g = game(seed=5, filled_box_wastes_round=wastes)
        rng = np.random.default_rng(0)
        for _ in range(60):
            if g.is_over:
                break
            legal = set(g.legal_actions())
            for a in candidates:
                assert g.is_legal(a) == (a in legal), a
            g.apply(sorted(legal, key=repr)[int(rng.integers(len(legal)))])


# ----- refused actions change nothing (RULES.md "Common to all variants") ----------------------

def test_score_before_rolling():
    assert_refused(game(), Score("chance"), "begins with a roll")


def test_reroll_before_rolling_and_roll_twice():
    g = game()
    assert_refused(g, Reroll((0,)), "begins with a roll")
    g.apply(Roll())
    assert_refused(g, Roll(), "first roll is thrown")


def test_reroll_beyond_the_limit():
    g = game(rerolls=2)
    g.apply(Roll())
    g.apply(Reroll((0,)))
    g.apply(Reroll((1,)))
    assert_refused(g, Reroll((2,)), "2 re-rolls a turn at most", "rerolls")
    g = game(preset="seed")  # seed 004: 3 re-rolls
    g.apply(Roll())
    for p in range(3):
        g.apply(Reroll((p,)))
    assert_refused(g, "reroll 5", "3 re-rolls")


def test_reroll_of_position_6_or_of_nothing():
    g = game()
    g.apply(Roll())
    assert_refused(g, "reroll 6", "positions are 1 to 5")
    assert_refused(g, {"type": "reroll", "positions": [5]}, "positions are 1 to 5")
    assert_refused(g, Reroll(()), "at least one die")
    with pytest.raises(RuleError, match="1 to 5"):
        Reroll((5,))


def test_stand_and_roll_keep_are_not_yahtzee_actions():
    g = game()
    assert_refused(g, Stand(), "no stand")
    assert_refused(g, Roll(keep=(0,)), "takes no keep")


def test_scoring_a_filled_box_is_refused_by_name(rig):
    rig(ymod).add((3, 3, 1, 2, 4), (3, 3, 3, 5, 6))
    g = game()
    g.apply(Roll())
    g.apply(Score("threes"))
    g.apply(Roll())
    err = assert_refused(g, "score threes", "the Threes box is already filled")
    assert str(err) == "Yahtzee: the Threes box is already filled"
    assert g.is_legal("score three of a kind")


def test_unknown_box():
    g = game()
    g.apply(Roll())
    assert_refused(g, "score fullest house", "unknown Yahtzee box")
    assert_refused(g, {"type": "score", "box": "sevens"}, "unknown Yahtzee box")


def test_joker_forbidden_box(rig):
    rig(ymod).add((2,) * 5, (4,) * 5)
    g = game()
    g.apply(Roll())
    g.apply(Score("yahtzee"))
    g.apply(Roll())
    assert g.options_now() == {"fours": 20}
    assert_refused(g, Score("chance"), "forced joker rule", "Fours")
    assert_refused(g, Score("full_house"), "forced joker rule")
    assert [a for a in g.legal_actions() if isinstance(a, Score)] == [Score("fours")]


def test_nothing_after_the_game_is_over():
    g = play_first_open_box(game())
    assert g.is_over and g.legal_actions() == []
    assert_refused(g, Roll(), "game is over")
    assert g.rolls_left == 0 and g.options_now() == {}


# ----- joker and bonuses in play (preset official) -----------------------------------------

def test_yahtzee_bonus_and_joker_full_value(rig):
    r = rig(ymod)
    g = game()
    set_state(g, cards=(card_with(fours=12),))
    r.add((4,) * 5, (4,) * 5, (6,) * 5)
    g.apply(Roll())
    ev = g.apply(Score("yahtzee"))
    assert [e.kind for e in ev] == ["score"]            # the first Yahtzee: no bonus
    g.apply(Roll())
    assert g.options_now() == {"three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 25,
                               "small_straight": 30, "large_straight": 40, "chance": 20}
    ev = g.apply(Score("large_straight"))
    assert [e.kind for e in ev] == ["score", "yahtzee_bonus"]
    assert ev[0].text == "Ann scores 40 in Large Straight (joker)."
    assert g.card()["large_straight"] == 40
    g.apply(Roll())
    g.apply(Score("sixes"))                              # forced into Sixes, 30 + bonus
    assert g.state.yahtzee_bonuses == (2,) and g.yahtzee_bonus(0) == 200
    assert g.total() == 12 + 50 + 40 + 30 + 200


def test_no_yahtzee_bonus_when_the_box_holds_zero(rig):
    rig(ymod).add((5, 5, 5, 5, 1), (5,) * 5)
    g = game()
    g.apply(Roll())
    g.apply(Score("yahtzee"))   # scratched: 0
    g.apply(Roll())
    ev = g.apply(Score("fives"))
    assert [e.kind for e in ev] == ["score"] and g.total() == 25


def test_seed_preset_has_no_joker_and_no_bonus(rig):
    rig(ymod).add((4,) * 5, (4,) * 5)
    g = game(preset="seed")
    g.apply(Roll())
    g.apply(Score("yahtzee"))
    g.apply(Roll())
    assert g.options_now()["full_house"] == 0 and g.is_legal(Score("chance"))
    g.apply(Score("full_house"))
    assert g.total() == 50 and g.yahtzee_bonus() == 0


@pytest.mark.parametrize("fives, sixes_dice, upper, bonus", [
    (15, (6, 6, 6, 1, 2), 63, 35),     # 3+6+9+12+15+18 = 63: the bonus
    (15, (6, 6, 1, 1, 2), 57, 0),
    (10, (6, 6, 6, 1, 2), 58, 0),
])
def test_upper_bonus_at_63(rig, fives, sixes_dice, upper, bonus):
    rig(ymod).add(sixes_dice)
    g = game()
    set_state(g, cards=(card_with(aces=3, twos=6, threes=9, fours=12, fives=fives),))
    g.apply(Roll())
    ev = g.apply(Score("sixes"))
    assert g.upper_total() == upper and g.upper_bonus() == bonus
    assert ("upper_bonus" in [e.kind for e in ev]) == bool(bonus)
    assert g.total() == upper + bonus


def test_upper_bonus_not_at_62(rig):
    rig(ymod).add((6, 6, 6, 1, 2))
    g = game()
    set_state(g, cards=(card_with(aces=2, twos=6, threes=9, fours=12, fives=15),))
    g.apply(Roll())
    g.apply(Score("sixes"))
    assert g.upper_total() == 62 and g.upper_bonus() == 0 and g.total() == 62


# ----- wasted rounds (seed 004's console) ------------------------------------------------------

def test_a_filled_box_wastes_the_round(rig):
    rig(ymod).add((1, 1, 3, 4, 2), (3, 3, 4, 3, 4))
    g = game(("Ann", "Bob"), seed=2, filled_box_wastes_round=True)
    first = g.current_player
    g.apply(Roll())
    g.apply(Score("aces"))
    assert g.current_player != first
    g.apply(Roll())
    g.apply(Score("full_house"))
    assert g.current_player == first
    g.apply(Roll())
    before = g.state.cards
    ev = g.apply(Score("aces"))
    assert [e.kind for e in ev] == ["wasted"]
    assert "the Aces box is already filled" in ev[0].text and "wasted" in ev[0].text
    assert g.state.cards == before and g.state.wasted[first] == 1
    assert g.current_player != first and g.dice == () and g.state.turn == 3


def test_full_cards_are_passed_over_and_the_game_ends_when_all_are_full():
    g = game(("Ann", "Bob"), seed=3, filled_box_wastes_round=True)
    bob = 1 - g.current_player
    ann = g.current_player
    set_state(g, cards=(card_with(**{b: 0 for b in BOXES[:-1]}),) * 2)
    g.apply(Roll())
    g.apply(Score("aces"))             # Ann wastes a round
    assert g.current_player == bob
    g.apply(Roll())
    g.apply(Score("chance"))           # Bob's card is now full
    assert not g.is_over and g.current_player == ann
    g.apply(Roll())
    g.apply(Score("twos"))             # wasted again: Bob is passed over
    assert g.current_player == ann
    g.apply(Roll())
    ev = g.apply(Score("chance"))
    assert g.is_over and ev[-1].kind == "win" and g.state.turn == 4
    assert g.state.wasted == tuple(2 if i == ann else 0 for i in range(2))


# ----- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [1, 2, 3, 8])
@pytest.mark.parametrize("seed", [0, 11, 2024])
def test_random_games_end_with_full_cards_and_consistent_totals(seats, seed):
    names = [f"P{i}" for i in range(seats)]
    g = play_first_open_box(YahtzeeGame(names, seed=seed), np.random.default_rng(seed))
    assert g.is_over
    assert all(None not in c for c in g.state.cards)
    scored = {}
    for e in g.history:
        if e.kind == "score":
            scored.setdefault(e.seat, []).append(e.data["points"])
        if e.kind == "yahtzee_bonus":
            scored.setdefault(e.seat, []).append(e.data["points"])
    for i in range(seats):
        assert len([e for e in g.history if e.kind == "score" and e.seat == i]) == 13
        assert g.total(i) == sum(scored[i]) + g.upper_bonus(i)
    assert g.state.turn == 13 * seats
    assert set(g.winners) == {i for i in range(seats) if g.total(i) == max(g.totals())}
    again = play_first_open_box(YahtzeeGame(names, seed=seed), np.random.default_rng(seed))
    assert again.state == g.state and again.actions == g.actions


def test_a_fixed_seed_gives_a_fixed_game():
    """Same seed and actions: same dice (RULES.md: a game replays from seed and actions)."""
    a = play_first_open_box(game(seed=42))
    b = play_first_open_box(game(seed=42))
    c = play_first_open_box(game(seed=43))
    assert a.history == b.history and a.total() == b.total()
    assert [e.text for e in a.history] != [e.text for e in c.history]
    assert len(a.actions) == 26 and len(a.card()) == 13


def test_ties_are_shared(rig):
    r = rig(ymod)
    g = game(("Ann", "Bob"), seed=9)
    set_state(g, cards=(card_with(**{b: 0 for b in BOXES[:-1]}),) * 2)
    r.add((1, 2, 3, 4, 6), (6, 4, 3, 2, 1))
    g.apply(Roll())
    g.apply(Score("chance"))
    g.apply(Roll())
    ev = g.apply(Score("chance"))
    assert g.is_over and g.winner is None and g.state.over
    assert g.winners == (0, 1) and g.totals() == (16, 16)
    assert ev[-1].kind == "tie" and ev[-1].text == "Ann and Bob tie with 16."


def test_single_player_wins_alone():
    g = play_first_open_box(game(seed=8))
    assert g.winner == 0 and g.winners == (0,)
    assert g.history[-1].text == f"Ann's card is full: total {g.total()}."


def test_seats_and_registration():
    assert dicelab.GAMES["yahtzee"] is YahtzeeGame
    g = dicelab.new_game("yahtzee", ["A"] * 8, preset="seed", seed=1)
    assert g.settings == YahtzeeSettings("seed") and len(g.state.cards) == 8
    with pytest.raises(RuleError, match="1 to 8 players"):
        dicelab.new_game("yahtzee", ["A"] * 9)
    with pytest.raises(RuleError, match="seats are 0 to 7"):
        g.card(8)


# ----- save and load --------------------------------------------------------------------------

@pytest.mark.parametrize("wastes", [False, True])
def test_save_load_gives_identical_state(wastes):
    g = game(("Ann", "Bob"), seed=77, filled_box_wastes_round=wastes)
    rng = np.random.default_rng(3)
    for _ in range(40):
        actions = g.legal_actions()
        g.apply(actions[int(rng.integers(len(actions)))])
    h = dicelab.load_game(g.to_json())
    assert isinstance(h, YahtzeeGame)
    assert h.snapshot() == g.snapshot() and h.settings == g.settings
    play_first_open_box(g, np.random.default_rng(4))
    play_first_open_box(h, np.random.default_rng(4))
    assert h.state == g.state and h.history == g.history
    assert dicelab.load_game(g.to_json()).state == g.state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4), st.sampled_from(list(YahtzeeSettings.PRESETS)),
       st.booleans())
def test_replay_reproduces_any_game(seed, seats, preset, wastes):
    g = YahtzeeGame([f"P{i}" for i in range(seats)], seed=seed, preset=preset,
                    filled_box_wastes_round=wastes)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        actions = g.legal_actions()
        g.apply(actions[int(rng.integers(len(actions)))])
    assert g.replay().snapshot() == g.snapshot()
    half = g.replay(len(g.actions) // 2)
    for a in g.actions[len(g.actions) // 2:]:
        half.apply(a)
    assert half.snapshot() == g.snapshot()
