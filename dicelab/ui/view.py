"""What every component of the table shares: it shows one game's ``Play`` (``View(game)`` or
``View(play=...)``, so that components of one game share their selections), and the odds several
of them show, computed once per change."""
from __future__ import annotations

import panel as pn
import param

from ..i18n import _

from .notebook import NotebookShow
from .play import Play


def memo(play: Play, key: str, fn):
    """Compute ``fn()`` once per change of what it reads (the game shown, the dice chosen,
    odds computed elsewhere): the hint and the odds panel share the odds."""
    cache = play.__dict__.setdefault("_memo", {})
    now = (play.shown, play.choice, play.odds)
    hit = cache.get(key)
    if hit is not None and hit[0] == now:
        return hit[1]
    value = fn()
    cache[key] = (now, value)
    return value


def current_odds(play: Play):
    return memo(play, "odds", lambda: play.ui.odds(play))


class TableView(NotebookShow, pn.viewable.Viewer):
    play = param.ClassSelector(class_=Play)

    def __init__(self, game=None, **params):
        if game is not None:
            params["play"] = Play.of(game)
        super().__init__(**params)

    @property
    def game(self):
        return self.play.game

    def _notebook_text(self) -> str:
        return _("dicelab {view} of {game}", view=type(self).__name__, game=repr(self.game))
