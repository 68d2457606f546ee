"""The banner: whose turn it is, readable from across a classroom."""
from __future__ import annotations

import html


from . import words
from .notebook import HTML
from .view import TableView, follows

esc = html.escape


class TurnBanner(TableView):
    """Whose turn it is, readable from across a classroom."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[BANNER_CSS], margin=(0, 0, 4, 0))

    @follows("shown", "seats")
    def _redraw(self):
        self._pane.show(self._html())

    def _html(self) -> str:
        head, detail, kind = words.banner(self.play)
        icon = {"you": "▶", "cpu": "⚙", "over": "★"}[kind]
        if kind == "cpu" and not self.play.is_computer(self.game.state.current):
            icon = "♟"  # another person's turn (a network game)
        return (f'<div class="banner {kind}" role="heading" aria-level="2">'
                f'<span class="who"><span aria-hidden="true">{icon}</span> {esc(head)}</span>'
                f'<span class="detail">{esc(detail)}</span></div>')

    def __panel__(self):
        return self._pane


BANNER_CSS = """
.banner { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 18px; padding: 10px 18px;
  border-radius: 12px; border: 3px solid; }
.banner .who { font: 800 clamp(1.3rem, 3.2vw, 2rem)/1.15 system-ui, sans-serif;
  letter-spacing: .02em; }
.banner .detail { font: 600 1.05rem system-ui, sans-serif; }
.banner.you { background: #0d47a1; border-color: #0d47a1; color: #fff; }
.banner.cpu { background: transparent; border-color: #6d6d6d; border-style: dashed; }
.banner.over { background: #ffe082; border-color: #ff8f00; color: #1a1a1a; }
"""
