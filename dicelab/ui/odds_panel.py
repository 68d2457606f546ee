"""The live odds panel: a bokeh chart and the numbers that matter now, updated on every change."""
from __future__ import annotations

import html

import panel as pn
from bokeh.models import Label, LabelSet

from ..i18n import _, language
from .notebook import HTML
from .odds_view import is_sentence
from .session import set_changed
from .variants.base import BUST, BUST_ON_DARK
from .view import TableView, current_odds, follows
from .win_estimate import estimate_html, win_estimate

esc = html.escape

ODDS_CSS = """
.odds { font: 1rem/1.45 system-ui, sans-serif; }
.odds dl { display: grid; grid-template-columns: auto auto; gap: 2px 14px; margin: 0; }
.odds dt { opacity: .9; } .odds dd { margin: 0; text-align: right; font-weight: 700;
  font-variant-numeric: tabular-nums; }
.odds .best { color: var(--dl-green, #2e7d32); } .odds .na { font-style: italic; opacity: .8; }
.odds table { border-collapse: collapse; width: 100%; font-size: .92rem; }
.odds th, .odds td { padding: 2px 6px; text-align: right;
  border-bottom: 1px solid rgba(127,127,127,.3); }
.odds th:first-child, .odds td:first-child { text-align: left; }
@media (prefers-color-scheme: dark) { .odds .best { color: var(--dl-green, #81c784); } }
"""


class OddsPanel(TableView):
    """Chance to score with 1..5 dice (current number highlighted), bust chance, EV of rolling vs
    standing, chance to reach the minimum / pit exit / barrel; Under40's next-roll distribution;
    Yahtzee's per-box chances and option values."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._head = HTML("", margin=0)
        self._text = HTML("", sizing_mode="stretch_width", stylesheets=[ODDS_CSS])
        self._fig, self._src = self.play.ui.odds_chart()
        self._chart = (pn.pane.Bokeh(self._fig, sizing_mode="stretch_width")
                       if self._fig is not None else None)
        self._labelled = None  # the language the chart's words are in
        self._theme()
        self.play.prefs.param.watch(self._theme, "dark")
        # the chance to win as an estimate (three or more seats, Thousand, Under40, Yahtzee)
        self._est = HTML("", sizing_mode="stretch_width", stylesheets=[ODDS_CSS],
                         visible=False)
        est = win_estimate(self.play)
        if est is not None:
            est.param.watch(self._estimated, "result")
        self._refresh()

    def _theme(self, *_args):
        """Label colours that read on the light and the dark page."""
        if self._fig is None:
            return
        dark = self.play.prefs.dark
        color = "#e8e8e8" if dark else "#222222"
        for r in self._fig.center:
            if isinstance(r, LabelSet) or (isinstance(r, Label) and r.text == "40"):
                r.text_color = color
            elif isinstance(r, Label) and r.name == "bust":
                r.text_color = BUST_ON_DARK if dark else BUST  # AA contrast on either page

    def _estimated(self, event):
        """A step of the estimate is done. (Its restart, to None, comes with a move of the
        game: the table's refresh that follows says "estimating" once, not twice.)"""
        if event.new is not None:
            self._estimate()

    def _estimate(self, *_args):
        text = estimate_html(self.play)
        self._est.show(f"<div class='odds'>{text}</div>" if text else "")
        set_changed(self._est, visible=bool(text))

    @follows("shown", "choice", "odds")
    def _refresh(self):
        """Everything the panel says, in the language of the moment (nothing is kept)."""
        title = _("Odds right now")
        self._head.show(f"<h3 style='margin:4px 0'>{title}</h3>")
        self._estimate()
        odds = current_odds(self.play)
        if self._fig is not None and self._labelled != language():  # (not every action)
            self.play.ui.label_chart(self._fig)
            self._labelled = language()
        drawn = not is_sentence(odds)  # a sentence: why there are no numbers
        if drawn:
            self._text.show(self.play.ui.draw_odds(odds, self._src, self.play))
        else:
            if self._chart is not None and self.play.game.is_over:
                self._src.data = {k: [] for k in self._src.data}
            self._text.show(f"<div class='odds' data-testid='odds'><p class='na'>"
                            f"{esc(str(odds))}</p></div>")
        if self._chart is not None:  # no empty chart frame when there are no odds to draw
            set_changed(self._chart, visible=drawn)

    def __panel__(self):
        items = [self._head]
        if self._chart is not None:
            items.append(self._chart)
        items.append(self._text)
        items.append(self._est)
        return pn.Column(*items, sizing_mode="stretch_width")
