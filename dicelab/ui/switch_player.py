"""A computer seat whose strategy may be swapped during a game (the settings drawer's choice)."""
from __future__ import annotations

import param

from ..players import make_player, player_names


def _no_wait(player):
    """A page never waits for a table build (the `winning` computer plays `optimal` until its
    table, built in another process, is there)."""
    if isinstance(player, param.Parameterized) and "wait" in player.param:
        player.wait = False
    return player


class SwitchPlayer(param.Parameterized):
    """Adapter: a computer seat whose strategy may be swapped during a game; its knobs are the
    current player's params (``knobs``)."""

    strategy = param.Selector(default=None, objects=[], doc="Computer strategy.")

    def __init__(self, variant: str, strategy: str, **params):
        super().__init__(**params)
        self._variant = variant
        self.param.strategy.objects = player_names(variant)
        self.player = _no_wait(make_player(variant, strategy))
        self.strategy = strategy

    @param.depends("strategy", watch=True)
    def _swap(self):
        self.player = _no_wait(make_player(self._variant, self.strategy))

    @property
    def spec(self) -> str:
        return getattr(self.player, "spec", self.strategy)

    @property
    def knobs(self):
        p = self.player
        return p if isinstance(p, param.Parameterized) else None

    def act(self, view):
        return self.player.act(view)
