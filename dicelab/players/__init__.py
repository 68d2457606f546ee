"""Computer players: objects that return an action for a read-only view of a game.

``make_player(variant, spec)`` builds one from its registry name (used to reseat saved games).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import param

from ..errors import RuleError

# (variant or "*", name) -> factory(spec); a spec is "name" or "name:options"
REGISTRY: dict[tuple[str, str], Callable[[str], object]] = {}


def register(variant: str, name: str):
    def deco(factory):
        REGISTRY[(variant, name)] = factory
        return factory
    return deco


def make_player(variant: str, spec: str):
    """A new computer player for ``variant`` by name ("random", "chicken", ...)."""
    _load()
    name = str(spec).split(":", 1)[0]
    for key in ((variant, name), ("*", name)):
        if key in REGISTRY:
            return REGISTRY[key](str(spec))
    names = sorted({n for (v, n) in REGISTRY if v in (variant, "*")})
    raise RuleError(f"no computer player {spec!r} for {variant}; choose from {', '.join(names)}")


def spec_value(spec: str, cls, pname: str, flags: tuple[str, ...] = ()):
    """The number after the name in a spec such as "threshold:300" or "skill:0.5" (the param's
    default when absent), checked against ``cls``'s param ``pname`` (bounds; step for whole
    numbers); further ":flag" parts must be among ``flags``. Returns (value, set of flags)."""
    par = cls.param[pname]
    low, high = par.bounds
    step = getattr(par, "step", None)
    whole = isinstance(par, param.Integer)
    name, *rest = str(spec).split(":")
    given = set(rest[1:])
    try:
        value = (int if whole else float)(rest[0]) if rest else par.default
    except ValueError:
        value = None
    ok = (value is not None and low <= value <= high and given <= set(flags)
          and len(given) == len(rest[1:]) and not (whole and step and (value - low) % step))
    if not ok:
        steps = f" in steps of {step}" if whole and step and step > 1 else ""
        options = "".join(f" (and optionally :{f})" for f in flags)
        raise RuleError(f"{name}:{pname[0].upper()} takes {pname} from {low} to {high}{steps}"
                        f"{options}, got {spec!r}")
    return value, given


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
        # made by name (make_player passes the spec): its choices follow from the game's seed,
        # the seat and the move number, so a seeded game replays the same way
        self.rng = None if isinstance(seed, str) else np.random.default_rng(seed)

    def act(self, view):
        actions = view.legal_actions()
        rng = self.rng if self.rng is not None else np.random.default_rng(
            [view.seed, view.state.current, len(view.actions)])
        return actions[int(rng.integers(len(actions)))]


register("*", "random")(RandomPlayer)
