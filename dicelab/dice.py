"""Dice: validation, seeded generators and the outcomes of rolling n dice."""
from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial

import numpy as np

from .errors import RuleError
from .i18n import L_, Ln_

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
        raise RuleError(L_("dice must be whole numbers from 1 to 6, got {value}",
                           value=repr(dice)[:100])) from None
    for d in raw:
        if not is_whole(d) or not 1 <= d <= 6:
            raise RuleError(L_("a die shows 1 to 6: {value} is not a die value",
                               value=repr(d)[:60]))
    values = tuple(int(d) for d in raw)
    if n is not None:
        low, high = (n, n) if isinstance(n, int) else n
        if not low <= len(values) <= high:
            if low == high:
                raise RuleError(Ln_("this roll needs {n} die, got {got}",
                                    "this roll needs {n} dice, got {got}", low, got=len(values)))
            raise RuleError(L_("this roll needs {low} to {high} dice, got {got}", low=low,
                               high=high, got=len(values)))
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
