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
    return play.memo(key, fn)


def current_odds(play: Play):
    return memo(play, "odds", lambda: play.ui.odds(play))


def follows(*counters: str):
    """Marks a TableView method that redraws when ``Play.changed`` bumps any of ``counters``
    (``"shown"``, ``"seats"``, ``"choice"``, ``"said"``, ``"odds"``): each view once per
    change, in the order the views were made. What ``@param.depends("play.shown", watch=True)``
    did, without param's dispatch through watchers, which cost the server about a sixth of a
    room page's update at every action (benchmarks/room_pages_cpu.py)."""
    def mark(method):
        method._follows = frozenset(counters)
        return method
    return mark


_FOLLOWING: dict[type, list] = {}  # class -> [(method name, counters)]


def _following(cls) -> list:
    """``cls``'s methods that ``follows`` marked (an override without the mark hides one)."""
    out = _FOLLOWING.get(cls)
    if out is None:
        seen, out = set(), []
        for klass in cls.__mro__:
            for name, fn in vars(klass).items():
                if name not in seen and hasattr(fn, "_follows"):
                    out.append((name, fn._follows))
                seen.add(name)
        _FOLLOWING[cls] = out
    return out


def followers(play: Play) -> list:
    """``play``'s views that redraw on its counters: [(counters, redraw)], as Play.changed
    reads them."""
    return play.followers


def follow(play: Play, redraw, *counters: str) -> None:
    """``redraw()`` whenever ``play.changed`` bumps any of ``counters`` (``follows`` without a
    method to mark: a view that follows only sometimes)."""
    followers(play).append((frozenset(counters), redraw))


class TableView(NotebookShow, pn.viewable.Viewer):
    play = param.ClassSelector(class_=Play)

    def __init__(self, game=None, **params):
        if game is not None:
            params["play"] = Play.of(game)
        super().__init__(**params)
        for name, counters in _following(type(self)):
            follow(self.play, getattr(self, name), *counters)

    @property
    def game(self):
        return self.play.game

    def _notebook_text(self) -> str:
        return _("dicelab {view} of {game}", view=type(self).__name__, game=repr(self.game))
