"""The hint line: what the rules require now and what the odds say, in words; and refusals."""
from __future__ import annotations

import html


from .notebook import HTML
from .play import Play
from .view import TableView, current_odds, follows

esc = html.escape


HINT_CSS = """
.hint { font: 1.05rem/1.45 system-ui, sans-serif; margin: 0; padding: 8px 12px;
  border-left: 5px solid #1565c0; background: rgba(21, 101, 192, .08); border-radius: 4px; }
.msg { font: 600 1rem system-ui, sans-serif; color: var(--dl-red, #b71c1c); margin-top: 6px;
  padding: 6px 12px; border: 2px solid var(--dl-red, #b71c1c); border-radius: 6px;
  background: rgba(183, 28, 28, .06); }
@media (prefers-color-scheme: dark) {
  .msg { color: var(--dl-red, #ff8a80); border-color: var(--dl-red, #ff8a80); } }
"""


def hint_text(play: Play) -> str:
    return play.ui.hint(play, current_odds(play))


class HintLine(TableView):
    """What the rules require now and what the odds say, in words; and refusals."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[HINT_CSS])

    @follows("shown", "seats", "choice", "said", "odds")
    def _redraw(self):
        self._pane.show(self._html())

    def _html(self) -> str:
        msg = self.play.message
        out = f'<p class="hint" data-testid="hint">{esc(hint_text(self.play))}</p>'
        if msg:
            out += f'<div class="msg" role="alert">⚠ {esc(msg)}</div>'
        return out

    def __panel__(self):
        return self._pane
