"""Computer players: objects that return an action for a read-only view of a game.

``make_player(variant, spec)`` builds one from its registry name (used to reseat saved games).
"""
from __future__ import annotations

import numpy as np

from ..errors import RuleError
from .registry import REGISTRY, register, spec_value

__all__ = ["REGISTRY", "register", "spec_value", "make_player", "player_names", "RandomPlayer"]


def make_player(variant: str, spec: str):
    """A new computer player for ``variant`` by name ("random", "chicken", ...)."""
    _load()
    name = str(spec).split(":", 1)[0]
    for key in ((variant, name), ("*", name)):
        if key in REGISTRY:
            return REGISTRY[key](str(spec))
    names = sorted({n for (v, n) in REGISTRY if v in (variant, "*")})
    raise RuleError(f"no computer player {spec!r} for {variant}; choose from {', '.join(names)}")


def player_names(variant: str) -> list[str]:
    _load()
    return sorted({n for (v, n) in REGISTRY if v in (variant, "*")})


def _load():
    """Import the modules that register players (kept lazy: players sit above odds)."""
    from . import fivedice, under40, yahtzee  # noqa: F401


class RandomPlayer:
    """Picks uniformly among the legal actions (for tests and as a baseline)."""

    spec = "random"

    def __init__(self, seed: int | str | None = 0):
        seed = None if isinstance(seed, str) else seed
        self.rng = np.random.default_rng(seed)

    def act(self, view):
        actions = view.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]


register("*", "random")(RandomPlayer)
