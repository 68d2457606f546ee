"""Yahtzee's last round played to win (issue 16; dicelab.odds.yahtzee_race).

RULES.md "Yahtzee": the highest total wins, a tie is shared (so a tie is no win here); the upper
bonus and the Yahtzee bonus count toward the total.
"""
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest

import dicelab
from dicelab import Reroll, Score
from dicelab.games import Seat
from dicelab.lab.results import wilson
from dicelab.odds import yahtzee_race as yr
from dicelab.odds.yahtzee import solve
from dicelab.players import make_player
from dicelab.rules.yahtzee import BOXES
from dicelab.ui import words
from dicelab.ui.odds_view import _yahtzee_rows

BASE = dict(aces=2, twos=4, threes=6, fours=8, fives=10, sixes=12, three_of_a_kind=20,
            four_of_a_kind=0, full_house=25, small_straight=30, large_straight=0, yahtzee=0,
            chance=20)  # 117 with every box filled: no upper bonus (42 < 63)


def card(open_box=None, **values):
    c = dict(BASE, **values)
    if open_box:
        c[open_box] = None
    return tuple(c[b] for b in BOXES)


def game(*cards, spec="optimal", current=0, dice=None, rolls=0, preset="official"):
    g = dicelab.new_game("yahtzee", [Seat(n, make_player("yahtzee", spec))
                                     for n in "AB"[:len(cards)]], seed=0, preset=preset)
    g._state = g.state = replace(g.state, cards=tuple(cards), current=current,
                                 dice=dice or (), rolls=rolls)
    return g


def final_total(g, dice):
    """The seat on turn's total after its last box takes these dice (the game's own scoring)."""
    h = game(*g.state.cards, current=g.current_player, dice=tuple(dice), rolls=3,
             preset=g.config.preset)
    (box,) = h.open_boxes()
    h.apply(Score(box))
    return h.total(g.current_player)


def brute_keeps(g, beat: int):
    """Every keep's chance, with one re-roll left, to end above ``beat``: Fractions, over the
    6**k ordered outcomes of the re-rolled dice."""
    finals = {}

    def wins(d):
        key = tuple(sorted(d))
        if key not in finals:
            finals[key] = final_total(g, key) > beat
        return finals[key]
    out = {}
    dice = g.dice
    for k in range(1, 6):
        for pos in combinations(range(5), k):
            kept = tuple(sorted(d for i, d in enumerate(dice) if i not in pos))
            if kept in out:
                continue
            hits = sum(wins(kept + new) for new in product(range(1, 7), repeat=k))
            out[kept] = Fraction(hits, 6 ** k)
    return out, Fraction(int(wins(dice)))


@pytest.mark.parametrize("box,dice,values", [
    ("chance", (6, 6, 6, 1, 2), {}),
    ("sixes", (6, 6, 3, 2, 1), dict(sixes=None, aces=3, twos=6, threes=9, fours=12, fives=20)),
    ("chance", (4, 4, 4, 4, 1), dict(yahtzee=50)),  # a Yahtzee would earn the 100 bonus too
])
def test_win_chances_are_exact(box, dice, values):
    """One re-roll left, the other card full: every option's chance to win equals the
    enumeration over ordered dice (upper bonus and Yahtzee bonus through the game's scoring)."""
    values = {k: v for k, v in values.items() if v is not None}
    mine = card(box, **values)
    for beat_by in (5, 20, 40, 100):
        ahead = game(mine, card(), dice=dice, rolls=2).total(0) + beat_by - 117
        h = game(mine, card(chance=20 + ahead), dice=dice, rolls=2)
        beat = h.total(1)
        r = yr.race(h)
        keeps, now = brute_keeps(h, beat)
        assert set(r.keeps) == set(keeps)
        for k, p in keeps.items():
            assert r.keeps[k][0] == pytest.approx(float(p), abs=1e-12), (k, beat)
        assert r.score_win == float(now)
        assert r.win_chance == pytest.approx(float(max([now, *keeps.values()])), abs=1e-12)


def test_points_side_is_the_solitaire_table():
    """With every gain a win the policy is points play: its expected gain is the table's value,
    and every keep's expected points are the table's (official rules, four boxes and states)."""
    table = solve("official", progress=False)
    s = dicelab.new_game("yahtzee", [Seat("A")]).config
    for box, upper, ybox in (("chance", 0, 50), ("sixes", 50, 0), ("yahtzee", 63, None),
                             ("full_house", 10, 50)):
        g = yr.gains(box, upper, ybox, s)
        values, dist = yr.policy_distributions(tuple(g), s.rerolls)
        assert dist[0] @ values == pytest.approx(table.value((frozenset([box]), upper, ybox)),
                                                 abs=1e-9)
        adv = table.advise([box], upper, ybox, (6, 6, 5, 2, 1), 2)
        r = yr.race_for(box, upper, ybox, (6, 6, 5, 2, 1), 2, s, 0, lambda f: 1.0)
        for k, (_, pts) in r.keeps.items():
            assert pts == pytest.approx(adv.keeps[k], abs=1e-9)
        assert r.points_choice == adv.best
        assert not r.differs  # every option wins for sure: nothing to part


def test_bonuses_in_gains():
    s = dicelab.new_game("yahtzee", [Seat("A")]).config
    g = dict(zip(yr.dice_table().outcomes, yr.gains("sixes", 50, 0, s)))
    assert g[(1, 2, 6, 6, 6)] == 18 + 35 and g[(1, 2, 3, 6, 6)] == 12  # 68 >= 63, 62 < 63
    g = dict(zip(yr.dice_table().outcomes, yr.gains("chance", 0, 50, s)))
    assert g[(3, 3, 3, 3, 3)] == 15 + 100 and g[(1, 2, 3, 3, 3)] == 12
    g = dict(zip(yr.dice_table().outcomes, yr.gains("full_house", 0, 50, s)))
    assert g[(2, 2, 2, 2, 2)] == 25 + 100  # joker: Twos filled, so full value in a lower box


def contrast_game():
    """A has Three of a Kind left at 117; B has only the Yahtzee box left at 141."""
    return game(card("three_of_a_kind"), card("yahtzee", chance=24))


def test_turn_start_and_monte_carlo():
    """Exact chances at A's turn start, playing to win vs for points, and play-outs of the
    computers (A and B both ``optimal``, so both play to win) agreeing with the first."""
    g = contrast_game()
    win, points = yr.turn_start(g)
    assert (round(win, 4), round(points, 4)) == (0.2979, 0.1899)
    n, wins = 1000, 0
    seats = [Seat(s.name, s.player) for s in g.seats]
    for child in np.random.SeedSequence(7).spawn(n):
        h = g.continued(seats, int(child.generate_state(1)[0]))
        h.play_computers()
        wins += h.winners == (0,)  # a tie is no win
    lo, hi = wilson(wins, n)
    assert lo <= win <= hi and not lo <= points <= hi, (wins, lo, hi)


def test_the_computer_and_the_advice_take_the_win_choice():
    """A needs more than 24 in Three of a Kind to pass B (141, only a Yahtzee can add to it):
    with 1 1 1 1 6 and two re-rolls, points keep 1 1 1 6, the chance to win keeps the 6."""
    g = contrast_game()
    h = game(*g.state.cards, dice=(1, 1, 6, 1, 1), rolls=1)
    r = yr.race(h)
    assert r.differs and r.exact and r.others_to_play == 1
    assert r.choice == ("keep", (6,)) and r.points_choice == ("keep", (1, 1, 1, 6))
    assert words.race_points_vs_win(r) == ("For points, keep 1 1 1 6 (expected 13.2). "
                                           "To win, keep 6: 25% vs 9%.")
    assert h.computer_action() == Reroll((0, 1, 3, 4))        # optimal plays to win
    assert game(*g.state.cards, dice=h.dice, rolls=1, spec="skill:1").computer_action() \
        == Reroll((0, 1, 3, 4))
    odds = _yahtzee_rows(solve("official", progress=False), h, None)
    assert words.yahtzee_note(odds) == ("Best play to win: keep 6. For points, keep 1 1 1 6 "
                                        "(expected 13.2). To win, keep 6: 25% vs 9%.")
    assert odds.race == r
    from dicelab.ui import Play
    from dicelab.ui.components import hint_text

    assert "Best play to win: keep 6. For points, keep 1 1 1 6" in hint_text(Play(h))
    # the win chance of the chosen keep, by the turn's other route: the keep's chain value
    assert r.keeps[(6,)][0] == pytest.approx(r.win_chance, abs=0)


def test_agreeing_choices_say_only_the_chance():
    g = contrast_game()
    h = game(*g.state.cards, dice=(6, 6, 6, 6, 5), rolls=3)  # no re-roll left: score it
    r = yr.race(h)
    assert not r.differs and r.choice == r.points_choice == ("box", "three_of_a_kind")
    assert r.win_chance == r.score_win > 0.9  # 29 > 24: only B's Yahtzee (then 191) beats it
    assert words.race_points_vs_win(r) == ""
    assert words.yahtzee_choice(("keep", ())) == "reroll all"
    assert words.yahtzee_choice(("box", "chance")) == "score Chance now"


def test_no_race_before_the_last_box_or_alone():
    g = game(card("three_of_a_kind", chance=None), card("yahtzee"), dice=(1, 2, 3, 4, 5),
             rolls=1)
    assert yr.race(g) is None
    solo = game(card("chance"), dice=(1, 2, 3, 4, 5), rolls=1)
    assert yr.race(solo) is None
    assert yr.race(game(card("chance"), card())) is None  # before the turn's first roll
