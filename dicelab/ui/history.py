"""The turn history, newest first."""
from __future__ import annotations

import html

import param

from ..i18n import _, language, text
from .notebook import HTML
from .view import TableView, follows

esc = html.escape

ICONS = {"bust": "✗ ", "bolt": "⚡ ", "stand": "✓ ", "stop": "✓ ", "win": "★ ",
         "round_won": "★ ", "score": "✎ ", "barrel": "🛢 ", "fall": "↓ "}


HISTORY_CSS = """
ol.history, ol.earlier { list-style: none; margin: 0; padding: 0;
  font: .95rem/1.4 system-ui, sans-serif; }
details.more summary { cursor: pointer; padding: 4px 6px; font: 600 .9rem system-ui, sans-serif; }
ol.history li, ol.earlier li { padding: 3px 6px; border-bottom: 1px solid rgba(127,127,127,.25);
  overflow-wrap: anywhere; }
ol.history li.bust, ol.history li.bolt, ol.history li.fall, ol.history li.penalty,
ol.earlier li.bust, ol.earlier li.bolt, ol.earlier li.fall, ol.earlier li.penalty {
  color: var(--dl-red, #c62828); }
ol.history li.stand, ol.history li.stop, ol.history li.score, ol.history li.round_won,
ol.history li.win { font-weight: 600; }
@media (prefers-color-scheme: dark) {
  ol.history li.bust, ol.history li.bolt, ol.history li.fall, ol.history li.penalty,
  ol.earlier li.bust, ol.earlier li.bolt, ol.earlier li.fall, ol.earlier li.penalty {
    color: var(--dl-red, #ff8a80); } }
"""


class History(TableView):
    """The turn history, newest first: the latest ``shown`` events in full (a box that scrolls
    cuts its last line), the older ones folded under "Earlier"."""

    limit = param.Integer(default=60)
    shown = param.Integer(default=8)

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._said: dict = {}  # id(event) -> (event, its line), in _said_lang
        self._said_lang = None
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[HISTORY_CSS])

    @follows("shown")
    def _redraw(self):
        self._pane.show(self._html())

    def _html(self):
        items = self.game.history[-self.limit:][::-1]
        lis = [self._li(e) for e in items]
        label = esc(_("Turn history"))
        out = (f"<ol class='history' aria-label='{label}'>"
               f"{''.join(lis[:self.shown])}</ol>")
        if len(lis) > self.shown:
            earlier = _("Earlier ({n})", n=len(lis) - self.shown)
            out += (f"<details class='more'><summary>{esc(earlier)}</summary>"
                    f"<ol class='earlier'>{''.join(lis[self.shown:])}</ol></details>")
        return out

    def _li(self, e) -> str:
        """One event's line in this page's language, made once per event (every action redrew
        up to ``limit`` of them, each message rendered again)."""
        lang = language()
        if self._said_lang != lang:
            self._said, self._said_lang = {}, lang
        key = id(e)
        hit = self._said.get(key)
        if hit is not None and hit[0] is e:
            return hit[1]
        # e.text: a lazy message, said in this page's language
        li = f"<li class='{esc(e.kind)}'>{ICONS.get(e.kind, '')}{esc(text(e.text))}</li>"
        if len(self._said) > 4 * self.limit:  # a long game: keep the recent ones
            self._said = {}
        self._said[key] = (e, li)
        return li

    def __panel__(self):
        return self._pane
