"""The strategy lab: many seeded games or turns between computer players, summarised with
95% intervals, as a table object and bokeh plots (``dicelab simulate``)."""
from __future__ import annotations

import numpy as np

from ..errors import RuleError
from ..i18n import _
from .results import LabResult, mean_ci, progress_bar, wilson


def simulate(variant: str, players: list[str] | str, games: int | None = None,
             turns: int | None = None, seed: int | None = 0, progress: bool = False,
             **settings) -> LabResult:
    """Play ``games`` whole games between ``players`` (registry names, e.g. "chicken"), or,
    for Bones and Thousand, ``turns`` independent turns on the board per player."""
    if isinstance(players, str):
        players = [p.strip() for p in players.split(",") if p.strip()]
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise RuleError(_("players are computer player names, as in 'chicken,gambler'; got "
                          "{players}", players=repr(players)[:150]))
    if not players:
        raise RuleError(_("name at least one computer player, e.g. --players "
                          "chicken,gambler"))
    if (games is None) == (turns is None):
        raise RuleError(_("give either a number of games or a number of turns"))
    n = games if games is not None else turns
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 50_000_000:
        raise RuleError(_("the number of games or turns runs from 1 to {most}, got {n}",
                          most=50_000_000, n=repr(n)))
    if seed is not None:
        from ..games.base import check_seed

        check_seed(seed)
    if variant in ("bones", "thousand"):
        from . import fivedice

        return fivedice.run(variant, players, games, turns, seed, progress, settings)
    if turns is not None:
        raise RuleError(_("{variant} has no single turns to simulate: use --games",
                          variant=variant))
    if variant == "under40":
        from . import under40

        return under40.run(players, games, seed, progress, settings)
    if variant == "yahtzee":
        from . import yahtzee

        return yahtzee.run(players, games, seed, progress, settings)
    raise RuleError(_("unknown variant {variant}", variant=repr(variant)))


__all__ = ["LabResult", "simulate", "wilson", "mean_ci", "progress_bar"]
