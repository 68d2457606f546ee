"""Under40 scoring (docs/explanation/rules.md "Under40"; seed 001)."""
from __future__ import annotations

from functools import cache

from ..dice import check_dice
from .common import RollScore

GOAL = 40


def roll_points(a: int, b: int) -> int:
    """Doubles 2*a*a; else a*b if a die is even; else (both odd) a*b - min(a, b)."""
    if a == b:
        return 2 * a * a
    if a % 2 == 0 or b % 2 == 0:
        return a * b
    return a * b - min(a, b)


def score(dice) -> RollScore:
    """Score one Under40 roll of two dice (both dice always count)."""
    a, b = check_dice(dice, 2)
    return RollScore(roll_points(a, b), 2, (True, True))


@cache
def distribution() -> dict[int, int]:
    """Points of one roll -> number of the 36 ordered outcomes giving them."""
    out: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            p = roll_points(a, b)
            out[p] = out.get(p, 0) + 1
    return dict(sorted(out.items()))
