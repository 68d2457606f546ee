"""Under40 game flow, RULES.md "Under40" and "Common to all variants" (seed 001)."""
import random

import pytest

import dicelab
from dicelab import Reroll, Roll, Score, Stand
from dicelab.errors import RuleError
from dicelab.games import GAMES
from dicelab.games import under40 as under40_game
from dicelab.games.under40 import BUSTED, ROLLING, STOPPED, WAITING, Under40Game

from .conftest import assert_refused, set_state

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
ANN, BOB, CY = 0, 1, 2


def game(n=3, starter=0, **settings):
    """A game of ``n`` seats whose seating roll-off made ``starter`` start."""
    for seed in range(500):
        g = Under40Game(NAMES[:n], seed=seed, **settings)
        if g.state.starter == starter:
            return g
    raise AssertionError("no seed found")  # pragma: no cover


def play(g, *actions):
    """Apply actions ("r" / "s"); return all events' texts."""
    texts = []
    for a in actions:
        texts += [e.text for e in g.apply(Roll() if a == "r" else Stand())]
    return texts


@pytest.fixture
def dice(rig):
    return rig(under40_game)


# ----- seats, roll-off, registration --------------------------------------------------------
def test_under40_needs_two_to_eight_players():
    with pytest.raises(RuleError, match="2 to 8"):
        Under40Game(["Ann"])
    with pytest.raises(RuleError, match="2 to 8"):
        Under40Game([f"P{i}" for i in range(9)])
    assert len(Under40Game(NAMES[:2]).seats) == 2


def test_registered_and_made_by_name():
    assert GAMES["under40"] is Under40Game
    g = dicelab.new_game("under40", ["Ann", "Bob"], seed=3, target=500)
    assert isinstance(g, Under40Game) and g.settings.target == 500


def test_seating_rolloff_uses_two_dice_and_the_highest_starts():
    for seed in range(30):
        g = Under40Game(NAMES[:4], seed=seed)
        for rnd in g.rolloff:
            assert all(len(r) == 2 for r in rnd.values())
        for rnd, again in zip(g.rolloff, g.rolloff[1:]):  # only ties for highest roll again
            top = max(sum(r) for r in rnd.values())
            assert sorted(again) == [i for i, r in sorted(rnd.items()) if sum(r) == top]
        last = g.rolloff[-1]
        assert g.state.starter == g.current_player == max(last, key=lambda i: sum(last[i]))
        assert g.history[0].kind == "rolloff"


def test_initial_state():
    g = game(3, starter=BOB)
    s = g.state
    assert (s.round, s.current, s.starter, s.phase) == (1, BOB, BOB, "roll")
    assert s.totals == s.round_scores == (0, 0, 0)
    assert s.status == (WAITING, ROLLING, WAITING)
    assert g.must_beat() == 0 and g.leader() is None and not g.may_stop
    assert g.legal_actions() == [Roll()]


# ----- a turn ---------------------------------------------------------------------------------
def test_a_turn_begins_with_a_roll():
    g = game()
    assert_refused(g, Stand(), "turn begins with a roll")
    assert_refused(g, "stop", "turn begins with a roll")


def test_a_roll_adds_to_the_round_score(dice):
    g = game()
    dice.add((3, 5), (2, 5))
    assert play(g, "r") == ["Ann rolled 3 5: 12, round score 12."]
    assert play(g, "r") == ["Ann rolled 2 5: 10, round score 22."]
    s = g.state
    assert (s.round_scores[ANN], s.dice, s.roll_points, s.roller, s.phase) == \
        (22, (2, 5), 10, ANN, "decide")
    assert g.current_player == ANN


def test_the_starter_may_stop_after_any_roll_under_40(dice):
    g = game()
    dice.add((1, 1))
    play(g, "r")
    assert g.may_stop and g.legal_actions() == [Roll(), Stand()]
    assert play(g, "s") == ["Ann stops at 2."]
    s = g.state
    assert s.status == (STOPPED, ROLLING, WAITING)
    assert (s.current, s.phase) == (BOB, "roll")
    assert g.leader() == ANN and g.must_beat() == 2


def test_must_beat_the_best_standing_score(dice):
    g = game()
    dice.add((3, 5), (2, 5), (1, 1), (1, 1))
    play(g, "r", "s")                                    # Ann stops at 12
    play(g, "r")                                         # Bob 10
    assert g.must_beat() == 12 and not g.may_stop and Stand() not in g.legal_actions()
    assert_refused(g, Stand(), "best standing score", "12", "Ann", "10")
    play(g, "r")                                         # Bob 12: equal is not higher
    assert_refused(g, Stand(), "best standing score", "12")
    play(g, "r")                                         # Bob 14
    assert g.may_stop
    play(g, "s")
    assert g.best_standing(CY) == 14 and g.best_standing(ANN) == 14
    assert g.best_standing(BOB) == 12                    # the others' scores only
    assert g.leader() == BOB and g.must_beat() == 14


def test_turn_comes_round_again(dice):
    g = game()
    dice.add((3, 5), (4, 4), (6, 6), (1, 1))
    play(g, "r", "s")                                    # Ann stops at 12
    play(g, "r", "s")                                    # Bob stops at 32
    play(g, "r")                                         # Cy busts with 72
    assert g.current_player == ANN and g.state.phase == "roll"
    assert g.state.round_scores[ANN] == 12 and g.state.status[ANN] == ROLLING
    assert_refused(g, Stand(), "turn begins with a roll")
    play(g, "r")
    assert g.state.round_scores[ANN] == 14 and g.must_beat() == 32


def test_play_passes_in_seat_order_skipping_busted_players(dice):
    g = game()
    dice.add((6, 6), (3, 5), (4, 4))
    assert play(g, "r") == ["Ann rolled 6 6: 72, round score 72.", "Ann busts with 72."]
    assert g.current_player == BOB and g.state.status[ANN] == BUSTED
    assert g.must_beat() == 0                            # a bust is not a standing score
    play(g, "r", "s")                                    # Bob 12
    play(g, "r", "s")                                    # Cy 32
    assert g.current_player == BOB                       # Ann is skipped
    assert g.state.pot == 72


# ----- the end of a round ---------------------------------------------------------------------
def test_exactly_40_wins_the_round_with_40_times_the_players(dice):
    g = game(3)
    dice.add((4, 4), (2, 2))
    texts = play(g, "r", "r")
    assert texts == ["Ann rolled 4 4: 32, round score 32.",
                     "Ann rolled 2 2: 8, round score 40.",
                     "Ann hits 40 exactly and wins the round: +120 (total 120).",
                     "Round 2: Bob starts."]
    s = g.state
    assert s.totals == (120, 0, 0) and (s.round_winner, s.round_award) == (ANN, 120)


def test_exactly_40_replaces_the_busted_scores(dice):
    g = game(4)
    dice.add((6, 6), (4, 4), (2, 2))
    play(g, "r")                                         # Ann busts with 72
    play(g, "r", "r")                                    # Bob 32 + 8 = 40
    assert g.state.totals == (0, 160, 0, 0)              # 40 x 4, not 160 + 72
    assert g.state.pot == 0


def test_exactly_40_counts_every_seat_even_busted_ones(dice):
    g = game(5)
    dice.add((6, 6), (6, 6), (4, 4), (2, 2))
    play(g, "r", "r", "r", "r")
    assert g.state.totals[CY] == 40 * 5


def test_bust_scores_go_to_the_last_player_left(dice):
    g = game(3)
    dice.add((3, 5), (4, 4), (3, 3), (6, 6))
    play(g, "r", "s")                                    # Ann stops at 12
    assert play(g, "r", "r") == ["Bob rolled 4 4: 32, round score 32.",
                                 "Bob rolled 3 3: 18, round score 50.", "Bob busts with 50."]
    assert g.state.pot == 50 and g.current_player == CY
    texts = play(g, "r")                                 # Cy busts: the round ends at once
    assert texts == ["Cy rolled 6 6: 72, round score 72.", "Cy busts with 72.",
                     "Ann is the last player left and wins the round: +122 (total 122).",
                     "Round 2: Bob starts."]
    assert g.state.totals == (122, 0, 0)                 # 50 + 72, each with its busting roll


def test_last_player_left_wins_without_rolling(dice):
    g = game(2, starter=BOB)
    dice.add((5, 5))
    play(g, "r")                                         # Bob busts on the first roll
    s = g.state
    assert s.totals == (50, 0) and s.round == 2 and s.round_winner == ANN
    assert s.starter == ANN and s.current == ANN         # left of Bob, wrapping round


def test_next_round_is_fresh_and_starts_left_of_the_last_starter(dice):
    g = game(3, starter=CY)
    dice.add((4, 4), (2, 2))
    play(g, "r", "r")                                    # Cy wins round 1 with exactly 40
    s = g.state
    assert (s.round, s.starter, s.current, s.phase) == (2, ANN, ANN, "roll")
    assert s.round_scores == (0, 0, 0) and s.status == (ROLLING, WAITING, WAITING)
    assert s.pot == 0 and g.must_beat() == 0 and g.leader() is None
    assert s.dice == (2, 2) and s.roller == CY           # the last roll stays on show
    dice.add((6, 6), (4, 4), (2, 2))
    play(g, "r")                                         # Ann busts
    play(g, "r", "r")                                    # Bob wins round 2
    assert (g.state.round, g.state.starter) == (3, BOB)  # left of Ann, not of the winner


def test_starter_rotates_round_after_round(dice):
    g = game(3, starter=BOB)
    starters = [g.state.starter]
    for _ in range(4):
        dice.add((4, 4), (2, 2))
        play(g, "r", "r")                                # the starter hits 40
        starters.append(g.state.starter)
    assert starters == [BOB, CY, ANN, BOB, CY]
    assert g.state.totals == (120, 240, 120)


def test_only_the_round_winner_gains_points_and_the_game_ends_at_the_target(dice):
    g = game(2, target=200)
    dice.add((4, 4), (2, 2))
    play(g, "r", "r")                                    # Ann +80
    dice.add((3, 5), (6, 6))
    play(g, "r", "s")                                    # Bob 12
    play(g, "r")                                         # Ann busts with 72: Bob +72
    assert g.state.totals == (80, 72) and not g.is_over
    dice.add((4, 4), (2, 2))
    play(g, "r", "r")                                    # Ann +80: 160 < 200
    assert not g.is_over
    dice.add((4, 4), (2, 2))
    play(g, "r", "r")                                    # Bob +80: 152
    assert not g.is_over and g.state.round == 5 and g.state.starter == ANN
    assert g.state.totals == (160, 152)
    dice.add((6, 6))
    texts = play(g, "r")                                 # Ann busts: Bob +72 = 224
    assert texts[-1] == "Bob reaches 224 and wins the game!"
    assert g.is_over and g.winner == BOB and g.winners == (BOB,)
    assert g.state.phase == "over" and g.legal_actions() == [] and not g.may_stop
    before = g.snapshot()
    with pytest.raises(RuleError, match="over"):
        g.apply(Roll())
    assert g.snapshot() == before
    assert g.hint() == "Bob has won the game."


def test_the_game_ends_when_the_target_is_reached_exactly(dice):
    g = game(2, target=80)
    dice.add((4, 4), (2, 2))
    play(g, "r", "r")
    assert g.is_over and g.winner == ANN and g.state.totals == (80, 0)


# ----- refusals change nothing ----------------------------------------------------------------
@pytest.mark.parametrize("action, words", [
    (Roll(keep=(0,)), ["no dice to keep"]),
    (Stand(keep=(0, 1)), ["no dice to keep"]),
    (Reroll((0,)), ["roll and stop"]),
    (Score("chance"), ["roll and stop"]),
])
def test_other_actions_are_refused(dice, action, words):
    g = game()
    dice.add((3, 5))
    play(g, "r")
    assert_refused(g, action, *words)


def test_refused_stop_leaves_the_game_unchanged_with_real_dice():
    g = Under40Game(NAMES[:3], seed=11)
    before = g.snapshot()
    assert not g.is_legal(Stand())
    assert g.snapshot() == before
    assert g.is_legal(Roll()) and g.snapshot() == before  # checking a roll throws no dice
    with pytest.raises(RuleError, match="turn begins with a roll"):
        g.apply("stop")
    assert g.snapshot() == before


def test_hints(dice):
    g = game()
    assert g.hint() == "Ann must roll: a turn begins with a roll."
    dice.add((3, 5), (2, 1), (4, 4))
    play(g, "r")
    assert g.hint() == "Ann may stop with 12 or roll on."
    play(g, "s", "r")
    assert g.hint() == "Bob must roll on: stopping needs more than 12 (Ann's standing score)."
    play(g, "r")
    assert g.hint() == "Bob may stop with 34 or roll on (34 beats Ann's 12)."
    assert g.status(BOB) == {"status": ROLLING, "round_score": 34, "total": 0, "on_turn": True}


# ----- whole games ------------------------------------------------------------------------------
def random_game(seed, n, target=300, steps=None):
    g = Under40Game(NAMES[:n], seed=seed, target=target)
    pick = random.Random(seed)
    for _ in range(steps or 100_000):
        if g.is_over:
            break
        g.apply(pick.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("seed", range(40))
def test_random_games_keep_the_rules(seed):
    n = 2 + seed % 4
    g = Under40Game(NAMES[:n], seed=seed, target=300)
    pick = random.Random(seed)
    while not g.is_over:
        before = g.state
        events = g.apply(pick.choice(g.legal_actions()))
        s = g.state
        kinds = [e.kind for e in events]
        if "round_won" in kinds:
            won = events[kinds.index("round_won")]
            w = won.seat
            gained = [b - a for a, b in zip(before.totals, s.totals)]
            assert gained == [won.data["award"] if i == w else 0 for i in range(n)]
            if won.data["how"] == "exact":
                assert events[0].data["round_score"] == 40 and events[0].seat == w
                assert won.data["award"] == 40 * n
            else:                                        # last player left: the busted scores
                assert won.data["how"] == "last" and events[1].kind == "bust"
                busted_before = sum(sc for sc, st in zip(before.round_scores, before.status)
                                    if st == BUSTED)
                assert won.data["award"] == busted_before + events[0].data["round_score"]
            if not g.is_over:
                assert s.starter == s.current == (before.starter + 1) % n
                assert s.round == before.round + 1 and s.round_scores == (0,) * n
        else:
            assert s.totals == before.totals and s.round == before.round
            live = [i for i in range(n) if s.status[i] != BUSTED]
            assert len(live) >= 2 and s.current in live
            assert all(s.round_scores[i] < 40 for i in live)
            assert all(s.round_scores[i] > 40 for i in range(n) if s.status[i] == BUSTED)
            stopped = [s.round_scores[i] for i in range(n) if s.status[i] == STOPPED]
            assert len(set(stopped)) == len(stopped)     # each stop beat the ones before
            assert s.pot == sum(s.round_scores[i] for i in range(n) if s.status[i] == BUSTED)
    assert g.state.totals[g.winner] >= 300
    assert sum(t >= 300 for t in g.state.totals) == 1


@pytest.mark.parametrize("seed, steps", [(1, 7), (2, 40), (3, None)])
def test_save_and_load_give_the_same_game(seed, steps):
    g = random_game(seed, 3, steps=steps)
    h = dicelab.load_game(g.to_json())
    assert isinstance(h, Under40Game)
    assert h.snapshot() == g.snapshot()
    assert [e.text for e in h.history] == [e.text for e in g.history]
    assert h.to_json() == g.to_json() and h.names == g.names
    assert g.replay().state == g.state
    if not g.is_over:                                    # both go on alike
        assert h.apply(Roll()) == g.apply(Roll())


@pytest.mark.parametrize("roll, totals", [((1, 1), (0, 80)), ((2, 2), (46, 0))])
def test_behind_a_standing_38_the_next_roll_ends_the_round(dice, roll, totals):
    g = game(2)
    set_state(g, current=BOB, phase="decide", round_scores=(38, 38), status=(STOPPED, ROLLING))
    assert not g.may_stop and g.legal_actions() == [Roll()]
    dice.add(roll)
    g.apply(Roll())
    assert g.state.round == 2 and g.state.totals == totals
