"""Dice: validation, seeded generators and the outcomes of rolling n dice."""
from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial

import numpy as np

from .errors import RuleError

FACES = (1, 2, 3, 4, 5, 6)


def is_whole(v) -> bool:
    """An int (or numpy integer) that is not a bool: 1.5, 2.0, True and "2" are not."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_dice(dice, n: int | tuple[int, int] | None = None) -> tuple[int, ...]:
    """Return ``dice`` as a tuple of ints after checking every value is a die face.

    ``n`` is the exact number of dice required, or an inclusive (low, high) range.
    """
    try:
        raw = tuple(dice)
    except TypeError:
        raise RuleError(f"dice must be whole numbers from 1 to 6, got {dice!r}") from None
    for d in raw:
        if not is_whole(d) or not 1 <= d <= 6:
            raise RuleError(f"a die shows 1 to 6: {d!r} is not a die value")
    values = tuple(int(d) for d in raw)
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
