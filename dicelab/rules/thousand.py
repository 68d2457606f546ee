"""Thousand ("1000") scoring (docs/explanation/rules.md "Thousand"; seed 003). Pure and
table-driven."""
from __future__ import annotations

from functools import cache

from ..dice import check_dice, multisets
from .common import RollScore, roll_score

STRAIGHT = (1, 2, 3, 4, 5)
STRAIGHT_POINTS = 250
_MULTIPLIER = {3: 1, 4: 2, 5: 10}  # three, four, five of a kind


def _triple_points(face: int) -> int:
    return 100 if face == 1 else face * 10


def _single_points(face: int) -> int:
    return {1: 10, 5: 5}.get(face, 0)


@cache
def _score_sorted(dice: tuple[int, ...]) -> tuple[int, dict[int, int]]:
    if dice == STRAIGHT:
        return STRAIGHT_POINTS, {f: 1 for f in STRAIGHT}
    points = 0
    counting: dict[int, int] = {}
    for face in set(dice):
        c = dice.count(face)
        if c >= 3:
            points += _triple_points(face) * _MULTIPLIER[c]
            counting[face] = c
        elif _single_points(face):
            points += c * _single_points(face)
            counting[face] = c
    return points, counting


def score(dice) -> RollScore:
    """Score one Thousand roll of 1 to 5 dice; ``mask`` marks the counting dice in roll order."""
    dice = check_dice(dice, (1, 5))
    return roll_score(dice, *_score_sorted(tuple(sorted(dice))))


@cache
def table(n: int) -> tuple[tuple[tuple[int, ...], int, int, int], ...]:
    """Every sorted roll of ``n`` dice: (dice, orderings, points, counting dice)."""
    out = []
    for d, w in multisets(n):
        points, counting = _score_sorted(d)
        out.append((d, w, points, sum(counting.values())))
    return tuple(out)
