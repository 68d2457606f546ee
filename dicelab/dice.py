"""Dice: validation, seeded generators and the outcomes of rolling n dice."""
from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial

import numpy as np

from .errors import RuleError

FACES = (1, 2, 3, 4, 5, 6)


def check_dice(dice, n: int | tuple[int, int] | None = None) -> tuple[int, ...]:
    """Return ``dice`` as a tuple of ints after checking every value is a die face.

    ``n`` is the exact number of dice required, or an inclusive (low, high) range.
    """
    try:
        values = tuple(int(d) for d in dice)
    except (TypeError, ValueError):
        raise RuleError(f"dice must be whole numbers from 1 to 6, got {dice!r}") from None
    for raw, v in zip(dice, values):
        if v != raw or not 1 <= v <= 6:
            raise RuleError(f"a die shows 1 to 6: {raw!r} is not a die value")
    if n is not None:
        low, high = (n, n) if isinstance(n, int) else n
        if not low <= len(values) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise RuleError(f"this roll needs {want} dice, got {len(values)}")
    return values


def new_rng(seed: int | None) -> np.random.Generator:
    """One seedable generator per game: all of a game's randomness comes from it."""
    return np.random.default_rng(seed)


def roll(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    """Roll ``n`` fair dice."""
    return tuple(int(v) for v in rng.integers(1, 7, size=n))


@cache
def multisets(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every sorted outcome of ``n`` dice with its number of orderings (sums to 6**n)."""
    out = []
    for combo in combinations_with_replacement(FACES, n):
        ways = factorial(n)
        for c in Counter(combo).values():
            ways //= factorial(c)
        out.append((combo, ways))
    return tuple(out)


def all_rolls(n: int):
    """All 6**n ordered outcomes of n dice (for tests and reference checks)."""
    return product(FACES, repeat=n)
