"""Computer players: objects that return an action for a read-only view of a game.

``make_player(variant, spec)`` builds one from its registry name (used to reseat saved games).
"""
from __future__ import annotations

import numpy as np

from ..errors import RuleError
from ..i18n import L_
from ..names import variant_name as _game
from .registry import REGISTRY, register, spec_value

__all__ = ["REGISTRY", "register", "spec_value", "make_player", "player_names", "RandomPlayer",
           "STRATEGY_NAMES", "strategy_name"]


def make_player(variant: str, spec: str):
    """A new computer player for ``variant`` by name ("random", "chicken", ...)."""
    _load()
    name = str(spec).split(":", 1)[0]
    for key in ((variant, name), ("*", name)):
        if key in REGISTRY:
            return REGISTRY[key](str(spec))
    names = sorted({n for (v, n) in REGISTRY if v in (variant, "*")})
    raise RuleError(L_("no computer player {spec} for {game}; choose from {names}",
                       spec=repr(spec)[:100], game=_game(variant), names=", ".join(names)))


# what the registry names read as for a person (the names stay the keys: saved games, URLs)
STRATEGY_NAMES = {
    "aggressive": L_("Aggressive"), "chicken": L_("Chicken"), "gambler": L_("Gambler"),
    "optimal": L_("Optimal"), "random": L_("Random"), "threshold": L_("Threshold"),
    "winning": L_("Winning"), "cautious": L_("Cautious"), "greedy": L_("Greedy"),
    "skill": L_("Skill"),
}


def strategy_name(spec: str):
    """A computer player's name as shown, in the reader's language (lazy Msg): "chicken" or
    "chicken:..." -> "Chicken" / "Prudent" / "Осторожный"; an unknown name as it is."""
    name = str(spec).split(":", 1)[0]
    return STRATEGY_NAMES.get(name, name)


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
