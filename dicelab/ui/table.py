"""The table: one game's screen (banner, dice, controls, hint, history | scoreboard, odds).

Its own module so that both the app and a room's screen (ui/lobby.py) show it without importing
each other.
"""
from __future__ import annotations

import panel as pn
import param

from ..i18n import _
from .coach_view import CoachView
from .components import (Controls, DiceTray, HintLine, History, ScoreCard, Scoreboard,
                         TurnBanner)
from .look import card
from .notebook import NotebookShow
from .odds_panel import OddsPanel
from .play import Play
from .view import followers
from .win_chart import WinChart
from .words import settings_title


def rules_title(game) -> str:
    return settings_title(game.variant, game.config)


class Table(NotebookShow, pn.viewable.Viewer):
    """Banner, dice, controls, hint, history | scoreboard, odds."""

    play = param.ClassSelector(class_=Play)

    def __panel__(self):
        # the watchers its views add to the game's objects, so that a table made again (in
        # another language) can retire this one's views
        before = _watchers(self._watched())
        views = followers(self.play)
        had = {id(v) for v in views}
        layout = self._layout()
        self._added = [w for i, w in _watchers(self._watched()).items() if i not in before]
        self._followers = [v for v in views if id(v) not in had]
        return layout

    def _watched(self) -> list:
        p = self.play
        objs = [p, p.prefs, p.game, getattr(p, "records", None)]
        objs += [s.player for s in p.game.seats]
        return [o for o in objs if isinstance(o, param.Parameterized)]

    def retire(self) -> None:
        """Stop this table's views from following the game (a new table replaces it)."""
        for w in getattr(self, "_added", []):
            try:
                (w.cls if w.inst is None else w.inst).param.unwatch(w)
            except Exception:  # gone already
                pass
        self._added = []
        mine = {id(v) for v in getattr(self, "_followers", ())}
        followers(self.play)[:] = [v for v in followers(self.play) if id(v) not in mine]
        self._followers = []

    def _layout(self):
        p = self.play
        left = [self._caption(), TurnBanner(play=p), DiceTray(play=p), Controls(play=p),
                HintLine(play=p), CoachView(play=p)]
        side = [card(pn.pane.HTML("<h3 style='margin:4px 0'>" + _("Scoreboard") + "</h3>",
                                  margin=0),
                     Scoreboard(play=p), WinChart(play=p), sizing_mode="stretch_width"),
                card(OddsPanel(play=p), sizing_mode="stretch_width")]
        history = card(pn.pane.HTML("<h3 style='margin:4px 0'>" + _("History") + "</h3>",
                                    margin=0),
                       History(play=p, shown=p.ui.history_shown), sizing_mode="stretch_width")
        if p.ui.score_card:  # the card is the main control: under the history, at hand
            left += [history, card(ScoreCard(play=p), sizing_mode="stretch_width")]
        else:
            left.append(history)
        return pn.FlexBox(
            pn.Column(*left, sizing_mode="stretch_width",
                      styles={"flex": "2 1 520px", "min-width": "0"}),
            pn.Column(*side, sizing_mode="stretch_width",
                      styles={"flex": "1 1 320px", "min-width": "0"}),
            gap="16px", flex_wrap="wrap", sizing_mode="stretch_width", align_items="flex-start")

    def _caption(self):
        return pn.pane.HTML(f"<div class='caption'>{pn.util.escape(rules_title(self.play.game))}"
                            "</div>", sizing_mode="stretch_width", margin=(0, 0, 4, 0),
                            stylesheets=[".caption { font: 600 1.05rem system-ui, sans-serif;"
                                         " opacity: .85; }"])


def _watchers(objs) -> dict:
    """id -> Watcher of every watcher on ``objs``."""
    out = {}
    for o in objs:
        for per_param in o._param__private.watchers.values():
            for ws in per_param.values():
                for w in ws:
                    out[id(w)] = w
    return out
