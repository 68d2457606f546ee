"""Bones scoring, RULES.md "Bones" (seeds 000 and 002), with exact numbers."""
from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicelab
from dicelab.errors import RuleError
from dicelab.rules import bones


@pytest.mark.parametrize("dice, points, counting", [
    ((1,), 100, 1), ((5,), 50, 1), ((2,), 0, 0),            # each 1: 100; each 5: 50
    ((1, 5, 2, 3, 4), 150, 2),
    ((1, 1, 1, 2, 3), 1000, 3),                              # three 1s: 1000 (seed 000)
    ((2, 2, 2, 3, 4), 200, 3), ((3, 3, 3, 2, 4), 300, 3), ((4, 4, 4, 2, 3), 400, 3),
    ((5, 5, 5, 2, 3), 500, 3), ((6, 6, 6, 2, 3), 600, 3),   # triples: face x 100
    ((1, 1, 1, 5, 2), 1050, 4),
    ((2, 2, 2, 2, 3), 200, 3),                               # hypercard: a fourth 2 does not count
    ((1, 1, 1, 1, 3), 1100, 4), ((5, 5, 5, 5, 3), 550, 4),   # a fourth 1 or 5 counts on its own
    ((6, 6, 6, 6), 600, 3),
    ((3, 3, 3, 3, 3), 10_000, 5), ((1, 1, 1, 1, 1), 10_000, 5),  # BONES
    ((2, 3, 4, 6, 6), 0, 0), ((2, 2, 3, 3, 4), 0, 0),
    ((3, 3, 3), 300, 3), ((1, 1), 200, 2),
])
def test_hypercard(dice, points, counting):
    sc = dicelab.score("bones", dice)
    assert (sc.points, sc.counting) == (points, counting)


@pytest.mark.parametrize("dice, points, counting", [
    ((2, 2, 2, 2, 3), 200, 4),   # french: the whole group of three or more is set aside
    ((6, 6, 6, 6, 6), 10_000, 5), ((4, 4, 4, 4, 1), 500, 5), ((1, 1, 1, 1, 2), 1100, 4),
    ((5, 5, 5, 5, 2), 550, 4), ((3, 3, 3, 2, 4), 300, 3), ((1, 5, 2, 3, 4), 150, 2),
])
def test_french(dice, points, counting):
    sc = dicelab.score("bones", dice, preset="french")
    assert (sc.points, sc.counting) == (points, counting)


def test_counting_mask_marks_the_right_dice():
    assert bones.score((2, 1, 2, 5, 2)).mask == (True, True, True, True, True)
    assert bones.score((2, 2, 4, 2, 2)).mask == (True, True, False, True, False)
    assert bones.score((6, 3, 4, 2, 2)).mask == (False,) * 5


def reference(dice, preset):
    """Independent reading of RULES.md: count faces, apply the rules in order."""
    c = Counter(dice)
    if len(dice) == 5 and len(c) == 1:
        return 10_000, 5
    pts = cnt = 0
    for face, k in c.items():
        single = 100 if face == 1 else 50 if face == 5 else 0
        if k >= 3:
            pts += (1000 if face == 1 else 100 * face) + (k - 3) * single
            cnt += k if (single or preset == "french") else 3
        else:
            pts += k * single
            cnt += k if single else 0
    return pts, cnt


@pytest.mark.parametrize("preset", ["hypercard", "french"])
def test_every_roll_matches_reference(preset):
    for n in range(1, 6):
        for dice in product(range(1, 7), repeat=n):
            sc = bones.score(dice, preset)
            assert (sc.points, sc.counting) == reference(dice, preset), dice
            assert sum(sc.mask) == sc.counting


def test_table_sums_to_all_outcomes():
    for n in range(1, 6):
        assert sum(w for _, w, _, _ in bones.table(n)) == 6 ** n


@pytest.mark.parametrize("bad", [(0, 1, 2), (7,), (1, 2, 3, 4, 5, 6), (), ("a",), (1.5,)])
def test_bad_dice_are_refused(bad):
    with pytest.raises(RuleError):
        dicelab.score("bones", bad)


def test_unknown_preset_and_setting():
    with pytest.raises(RuleError, match="preset"):
        dicelab.score("bones", (1,), preset="vegas")
    with pytest.raises(RuleError):
        dicelab.score("bones", (1,), colour="red")


dice_st = st.lists(st.integers(1, 6), min_size=1, max_size=5)


@given(dice_st, st.sampled_from(["hypercard", "french"]), st.randoms())
def test_order_does_not_matter(dice, preset, rnd):
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    a, b = bones.score(dice, preset), bones.score(shuffled, preset)
    assert (a.points, a.counting) == (b.points, b.counting)


@given(dice_st, st.sampled_from(["hypercard", "french"]))
def test_points_and_counting_agree(dice, preset):
    sc = bones.score(dice, preset)
    assert sc.points % 50 == 0
    assert (sc.points == 0) == (sc.counting == 0)
    assert 0 <= sc.counting <= len(dice)
    # the counting dice alone score the same points, all of them counting
    kept = [d for d, m in zip(dice, sc.mask) if m]
    if kept and not (len(dice) == 5 and len(set(dice)) == 1):
        again = bones.score(kept, preset)
        assert (again.points, again.counting) == (sc.points, sc.counting)
