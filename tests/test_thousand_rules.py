"""Thousand scoring, RULES.md "Thousand" (seed 003), with exact numbers."""
from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicelab
from dicelab.rules import thousand

SEED_003_TABLE = [  # seed 003's table of combinations
    ((1, 1, 1), 100), ((1, 1, 1, 1), 200), ((1, 1, 1, 1, 1), 1000),
    ((2, 2, 2), 20), ((2, 2, 2, 2), 40), ((2, 2, 2, 2, 2), 200),
    ((3, 3, 3), 30), ((3, 3, 3, 3), 60), ((3, 3, 3, 3, 3), 300),
    ((4, 4, 4), 40), ((4, 4, 4, 4), 80), ((4, 4, 4, 4, 4), 400),
    ((5, 5, 5), 50), ((5, 5, 5, 5), 100), ((5, 5, 5, 5, 5), 500),
    ((6, 6, 6), 60), ((6, 6, 6, 6), 120), ((6, 6, 6, 6, 6), 600),
    ((1, 2, 3, 4, 5), 250),
]


@pytest.mark.parametrize("dice, points", SEED_003_TABLE)
def test_seed_003_combinations(dice, points):
    sc = dicelab.score("thousand", dice)
    assert sc.points == points and sc.counting == len(dice)


@pytest.mark.parametrize("dice, points, counting", [
    ((1,), 10, 1), ((5,), 5, 1), ((1, 5, 2, 3, 6), 15, 2),
    ((1, 1, 1, 1, 5), 205, 5),                 # RULES.md: 200 + 5
    ((5, 5, 5, 5, 1), 110, 5), ((2, 2, 2, 1, 5), 35, 5), ((4, 4, 4, 6, 6), 40, 3),
    ((2, 3, 4, 5, 6), 5, 1),                   # only 1-2-3-4-5 is the straight
    ((2, 3, 4, 6, 6), 0, 0), ((6, 6, 2, 2, 3), 0, 0),
])
def test_rules_examples(dice, points, counting):
    sc = thousand.score(dice)
    assert (sc.points, sc.counting) == (points, counting)


def reference(dice):
    c = Counter(dice)
    if sorted(dice) == [1, 2, 3, 4, 5]:
        return 250, 5
    pts = cnt = 0
    for face, k in c.items():
        base = 100 if face == 1 else 10 * face
        if k >= 3:
            pts += base * {3: 1, 4: 2, 5: 10}[k]
            cnt += k
        elif face in (1, 5):
            pts += k * (10 if face == 1 else 5)
            cnt += k
    return pts, cnt


def test_every_roll_matches_reference():
    for n in range(1, 6):
        for dice in product(range(1, 7), repeat=n):
            sc = thousand.score(dice)
            assert (sc.points, sc.counting) == reference(dice), dice


@given(st.lists(st.integers(1, 6), min_size=1, max_size=5))
def test_points_are_multiples_of_five(dice):
    sc = thousand.score(dice)
    assert sc.points % 5 == 0 and (sc.points == 0) == (sc.counting == 0)
    assert sum(sc.mask) == sc.counting
