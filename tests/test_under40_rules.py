"""Under40 scoring, RULES.md "Under40" (seed 001 rule 2), with exact numbers."""
from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicelab
from dicelab.errors import RuleError
from dicelab.rules import under40

# Every roll worked out by hand: row = first die, column = second die (RULES.md: doubles
# 2 x a x a; else a x b if a die is even; else a x b - min(a, b)).
BY_HAND = [
    #  1   2   3   4   5   6
    [2, 2, 2, 4, 4, 6],       # 1
    [2, 8, 6, 8, 10, 12],     # 2
    [2, 6, 18, 12, 12, 18],   # 3
    [4, 8, 12, 32, 20, 24],   # 4
    [4, 10, 12, 20, 50, 30],  # 5
    [6, 12, 18, 24, 30, 72],  # 6
]


def reference(a: int, b: int) -> int:
    """The rule as worded in seed 001, written apart from dicelab's code."""
    product_ = a * b
    if a == b:
        return 2 * product_                      # a. doubles: double the product
    if (a % 2 == 0) or (b % 2 == 0):
        return product_                          # b. one or more even dice
    return product_ - sorted((a, b))[0]          # c. both odd: minus the lower die


@pytest.mark.parametrize("a, b", list(product(range(1, 7), repeat=2)))
def test_all_36_rolls(a, b):
    assert under40.roll_points(a, b) == BY_HAND[a - 1][b - 1] == reference(a, b)
    sc = dicelab.score("under40", [a, b])
    assert sc.points == BY_HAND[a - 1][b - 1]
    assert sc.counting == 2 and sc.mask == (True, True) and not sc.bust


@pytest.mark.parametrize("dice, points, branch", [
    ((3, 3), 18, "doubles: 2 x 3 x 3"),
    ((1, 1), 2, "doubles: 2 x 1 x 1"),
    ((6, 6), 72, "doubles: 2 x 6 x 6"),
    ((2, 5), 10, "an even die: 2 x 5"),
    ((6, 4), 24, "both even: 6 x 4"),
    ((3, 5), 12, "both odd: 15 - 3"),
    ((5, 1), 4, "both odd: 5 - 1"),
])
def test_the_three_branches(dice, points, branch):
    assert under40.score(dice).points == points, branch


def test_every_score_is_even_and_order_does_not_matter():
    for a, b in product(range(1, 7), repeat=2):
        p = under40.roll_points(a, b)
        assert p % 2 == 0 and p > 0, (a, b)
        assert p == under40.roll_points(b, a)


def test_distribution_counts_the_36_outcomes():
    expected = Counter(v for row in BY_HAND for v in row)
    assert under40.distribution() == dict(sorted(expected.items()))
    assert sum(under40.distribution().values()) == 36
    assert under40.distribution()[2] == 5      # 1-1, 1-2, 2-1, 1-3, 3-1
    assert min(under40.distribution()) == 2 and max(under40.distribution()) == 72


@given(st.integers(1, 6), st.integers(1, 6))
def test_property_matches_reference(a, b):
    p = under40.roll_points(a, b)
    assert p == reference(a, b)
    assert p % 2 == 0                            # seed 001: "always adding an even number"
    assert 2 <= p <= 72


@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (1,), (1, 2, 3), ("a", 2), (2.5, 3)])
def test_bad_dice_are_refused(dice):
    with pytest.raises(RuleError):
        under40.score(dice)


def test_goal_is_40():
    assert under40.GOAL == 40
