"""Every roll of 1..5 dice as lookup tables for the vectorised simulators (no other lab
module is needed here, so any of them may import it)."""
from __future__ import annotations

from functools import cache

import numpy as np

from ..rules import bones as bones_rules
from ..rules import thousand as thousand_rules

_POW6 = np.array([0, 1, 6, 36, 216, 1296, 7776], dtype=np.int32)  # face 0 = not thrown


@cache
def score_tables(variant: str, preset: str = "hypercard") -> tuple[np.ndarray, np.ndarray]:
    """(points, counting) indexed by histogram code, for every roll of 1..5 dice."""
    points = np.zeros(6 ** 6, dtype=np.int64)
    counting = np.zeros(6 ** 6, dtype=np.int8)
    for n in range(1, 6):
        rows = bones_rules.table(n, preset) if variant == "bones" else thousand_rules.table(n)
        for dice, _, pts, cnt in rows:
            code = int(_POW6[list(dice)].sum())
            points[code], counting[code] = pts, cnt
    return points, counting


@cache
def roll_tables(variant: str, preset: str = "hypercard") -> tuple[np.ndarray, np.ndarray]:
    """(points, counting) of the first n dice of roll u, flat-indexed by n * 7776 + u."""
    points, counting = score_tables(variant, preset)
    u = np.arange(6 ** 5)
    faces = np.stack([(u // 6 ** i) % 6 + 1 for i in range(5)], axis=1)
    pts = np.zeros(6 * 6 ** 5, dtype=np.int64)
    cnt = np.zeros(6 * 6 ** 5, dtype=np.int64)
    for n in range(1, 6):
        code = _POW6[faces[:, :n]].sum(axis=1)
        pts[n * 6 ** 5:(n + 1) * 6 ** 5] = points[code]
        cnt[n * 6 ** 5:(n + 1) * 6 ** 5] = counting[code]
    return pts, cnt
