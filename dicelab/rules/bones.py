"""Bones scoring (docs/explanation/rules.md "Bones"; seeds 000 and 002). Pure and table-driven."""
from __future__ import annotations

from functools import cache

from ..dice import check_dice, multisets
from ..errors import RuleError
from ..i18n import L_
from .common import RollScore, roll_score

PRESETS = ("hypercard", "french")
BONES = 10_000  # five of a kind thrown together in a roll of all five dice


def _triple_points(face: int) -> int:
    return 1000 if face == 1 else face * 100


def _single_points(face: int) -> int:
    return {1: 100, 5: 50}.get(face, 0)


@cache
def _score_sorted(dice: tuple[int, ...], preset: str) -> tuple[int, dict[int, int]]:
    """Points and how many dice of each face count, for one sorted roll."""
    counts = {f: dice.count(f) for f in set(dice)}
    if len(dice) == 5 and len(counts) == 1:
        return BONES, {dice[0]: 5}
    points = 0
    counting: dict[int, int] = {}
    for face, c in counts.items():
        if c >= 3:
            points += _triple_points(face)
            extra = c - 3
            points += extra * _single_points(face)
            # hypercard: a fourth 2, 3, 4 or 6 does not count; french sets the whole group aside
            if _single_points(face) or preset == "french":
                counting[face] = c
            else:
                counting[face] = 3
        elif _single_points(face):
            points += c * _single_points(face)
            counting[face] = c
    return points, counting


def check_preset(preset: str) -> str:
    if preset not in PRESETS:
        raise RuleError(L_("Bones presets are {presets}; unknown preset {preset}",
                           presets=", ".join(PRESETS), preset=repr(preset)[:100]))
    return preset


def score(dice, preset: str = "hypercard") -> RollScore:
    """Score one Bones roll of 1 to 5 dice; ``mask`` marks the counting dice in roll order."""
    dice = check_dice(dice, (1, 5))
    check_preset(preset)
    return roll_score(dice, *_score_sorted(tuple(sorted(dice)), preset))


@cache
def table(n: int, preset: str = "hypercard") -> tuple[tuple[tuple[int, ...], int, int, int], ...]:
    """Every sorted roll of ``n`` dice: (dice, orderings, points, counting dice)."""
    check_preset(preset)
    out = []
    for d, w in multisets(n):
        points, counting = _score_sorted(d, preset)
        out.append((d, w, points, sum(counting.values())))
    return tuple(out)
