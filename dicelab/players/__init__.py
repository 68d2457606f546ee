"""Computer players: objects that return an action for a read-only view of a game.

``make_player(variant, spec)`` builds one from its registry name (used to reseat saved games).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import RuleError

REGISTRY: dict[tuple[str, str], Callable[[], object]] = {}


def register(variant: str, name: str):
    def deco(factory):
        REGISTRY[(variant, name)] = factory
        return factory
    return deco


def make_player(variant: str, spec: str):
    """A new computer player for ``variant`` by name ("random", "chicken", ...)."""
    name = str(spec)
    for key in ((variant, name), ("*", name)):
        if key in REGISTRY:
            return REGISTRY[key]()
    names = sorted({n for (v, n) in REGISTRY if v in (variant, "*")})
    raise RuleError(f"no computer player {spec!r} for {variant}; choose from {', '.join(names)}")


def player_names(variant: str) -> list[str]:
    return sorted({n for (v, n) in REGISTRY if v in (variant, "*")})


class RandomPlayer:
    """Picks uniformly among the legal actions (for tests and as a baseline)."""

    spec = "random"

    def __init__(self, seed: int | None = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, view):
        actions = view.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]


register("*", "random")(RandomPlayer)
