"""A small chart of each seat's chance to win over the game so far (two-seat Bones, exact),
under the scoreboard. One point per game action, read from the win table when it is there."""
from __future__ import annotations

import panel as pn
import param
from bokeh.models import ColumnDataSource, NumeralTickFormatter
from bokeh.plotting import figure

from .view import TableView
from .odds_view import odds_module
from .variants import ui_for

COLORS = ("#1565c0", "#c62828")


def seat_chances(game) -> tuple[float, float] | None:
    """Both seats' chances to win now (two-seat Bones), or None (no table yet, other games)."""
    if not shows_chart(game):
        return None
    st = game.state
    if game.is_over:
        return tuple(1.0 if i == game.winner else 0.0 for i in range(2))
    win = odds_module("win")
    table = win.table_if_ready(game.config) if win else None
    if table is None:
        return None
    me = st.current
    r = table.readout(st.totals[me], st.totals[1 - me], st.turn_total, st.dice_left)
    p = r.win_chance
    return (p, 1 - p) if me == 0 else (1 - p, p)


def shows_chart(game) -> bool:
    """The chart needs the exact two-seat table (Bones)."""
    return ui_for(game).win_chart and game.n_seats == 2


class WinChart(TableView):
    """Each seat's chance to win after every action (exact, two-seat Bones)."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        g = self.game
        self._src = ColumnDataSource(dict(x=[], p0=[], p1=[]))
        self._fig = None
        if shows_chart(g):
            f = figure(height=150, sizing_mode="stretch_width", toolbar_location=None,
                       y_range=(0, 1), title="Chance to win (exact)", x_axis_label="action")
            f.yaxis.formatter = NumeralTickFormatter(format="0%")
            for i, col in enumerate(COLORS):
                f.line("x", f"p{i}", source=self._src, color=col, line_width=2,
                       legend_label=g.seats[i].name)
                f.scatter("x", f"p{i}", source=self._src, color=col, size=4)
            f.legend.location = "top_left"
            f.legend.label_text_font_size = "9pt"
            self._fig = f
        self._seen = -1
        self._backfill()
        self._update()

    def _backfill(self):
        """The game so far, by replaying its actions once (a page opened mid-game)."""
        g = self.game
        if self._fig is None or not g.actions or seat_chances(g) is None:
            return
        again = type(g)(g.seats, g.settings, g.seed)
        xs, p0, p1 = [], [], []
        for i, action in enumerate(g.actions):
            ch = seat_chances(again)
            if ch is not None:
                xs.append(i)
                p0.append(ch[0])
                p1.append(ch[1])
            again.apply(action)
        self._src.data = dict(x=xs, p0=p0, p1=p1)

    @param.depends("play.shown", watch=True)
    def _update(self):
        if self._fig is None:
            return
        g = self.game
        n = len(g.actions)
        if n == self._seen:
            return
        try:
            ch = seat_chances(g)
        except Exception:   # a position the table does not cover: no point, no error
            ch = None
        if ch is None:
            return
        self._seen = n
        if n < len(self._src.data["x"]):   # a new game in the same table: start again
            self._src.data = dict(x=[], p0=[], p1=[])
        self._src.stream(dict(x=[n], p0=[ch[0]], p1=[ch[1]]))

    def __panel__(self):
        if self._fig is None:
            return pn.pane.HTML("", visible=False)
        return pn.pane.Bokeh(self._fig, sizing_mode="stretch_width")
