"""A small chart of each seat's chance to win over the game so far, under the scoreboard: exact
in two-seat Bones, and two-seat Thousand with its table cached (``odds.win_game``: one point
per game action, read from the win table when it is there), an
estimate from play-outs elsewhere (``win_estimate``: a point per action whose estimate got
done, its last point refined as the estimate grows)."""
from __future__ import annotations

import panel as pn
from bokeh.core.properties import value
from bokeh.events import Tap
from bokeh.models import (BasicTicker, ColumnDataSource, Legend, LegendItem,
                          NumeralTickFormatter, Range1d, Span)
from bokeh.plotting import figure

from ..i18n import _, language
from ..odds.win_game import readout, seat_chances
from .phrases import percent_ticks, shown_name
from .variants import ui_for
from .view import TableView, follow
from .win_estimate import win_estimate

MIN_ACTIONS = 5  # the x axis's least span: axes before the first point, no stretched single one
COLORS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037",
          "#ad1457")


class WinChart(TableView):
    """Each seat's chance to win after every action (exact where ``odds.win_game`` has a
    table, else an estimate from play-outs). On the analysis board (a game with ``states``:
    ``games.board``) the whole game, a line at the position shown; a click on the chart goes
    to that position (on the board, or through the play's ``open_board`` from a table)."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        g = self.game
        self._src = ColumnDataSource(dict(x=[], p0=[], p1=[]))
        self._fig = None
        self._exact = ui_for(g).exact_win(g)
        self._labelled = None  # the language the chart's words are in
        if self._exact:
            self._fig = self._figure()
        self._seen = -1
        self._span = None
        if self._fig is not None:
            self._fig.on_event(Tap, self._tapped)
        if self._fig is not None and getattr(g, "states", None) is not None:
            self._whole_game()
            follow(self.play, self._at_step, "shown")
            return
        self._est = None if self._fig is not None else win_estimate(self.play)
        if self._est is not None:
            self._fig = self._figure()
            self._est.param.watch(self._estimated, "result")
            follow(self.play, self.label, "shown")
            self._estimated()
            return
        self._backfill()
        self._update()
        follow(self.play, self._update, "shown")

    def label(self, *_args):
        """The chart's words in the language of the moment (the seats' names stay)."""
        if self._fig is None or self._labelled == language():  # (not every action)
            return
        self._labelled = language()
        self._fig.title.text = (_("Chance to win (exact)") if self._exact
                                else _("Chance to win (estimate from play-outs)"))
        self._fig.xaxis.axis_label = _("action")
        self._fig.yaxis.formatter.format = percent_ticks()
        for i, item in enumerate(self._fig.legend[0].items):  # "You" is "Vous" on a French page
            item.label = value(shown_name(self.play, i))

    def _figure(self):
        """Lines of every seat's chance over the actions, in ``self._src`` (x, p0, p1...)."""
        g = self.game
        self._src = ColumnDataSource({"x": [], **{f"p{i}": [] for i in range(g.n_seats)}})
        # the seats' names under the plot, three to a row: inside it, they hid the lines and
        # a narrow column cut the third name off
        rows = -(-g.n_seats // 3)
        # no tools: with the toolbar hidden, Bokeh's default pan still took a drag (a finger
        # scrolling a phone's page moved the chart, with no reset), and they were 9 more models
        f = figure(height=175 + 18 * rows, sizing_mode="stretch_width", toolbar_location=None,
                   tools="", y_range=(0, 1), x_range=Range1d(0, MIN_ACTIONS), title="")
        f.yaxis.formatter = NumeralTickFormatter(format="0%")
        f.xaxis.ticker = BasicTicker(min_interval=1)  # actions are whole: no 0.5 ticks
        f.xaxis.axis_label_text_font_size = "9pt"
        f.yaxis.ticker = [0, 0.5, 1]
        items = []
        for i in range(g.n_seats):
            col = COLORS[i % len(COLORS)]
            f.line("x", f"p{i}", source=self._src, color=col, line_width=2)
            f.scatter("x", f"p{i}", source=self._src, color=col, size=4)
            # the legend's key: a line left of the axis, so that it shows before any point
            key = f.line([-2, -1], [0.5, 0.5], color=col, line_width=3)
            items.append(LegendItem(label=value(shown_name(self.play, i)), renderers=[key]))
        f.add_layout(Legend(items=items, orientation="horizontal", ncols=min(3, g.n_seats),
                            label_text_font_size="9pt", glyph_width=14, label_standoff=3,
                            spacing=8, padding=0, margin=4, border_line_alpha=0,
                            background_fill_alpha=0), "below")
        self._fig = f
        self.label()
        return f

    def _estimated(self, *_args):
        """A finished step of the estimate: a new point, or the refined last one."""
        r, key = self._est.result, self._est.key
        if r is None:
            return
        xs = self._src.data["x"]
        row = {"x": key, **{f"p{i}": p for i, p in enumerate(r.chances)}}
        if xs and xs[-1] == key:
            self._src.patch({k: [(len(xs) - 1, v)] for k, v in row.items()})
        else:
            if xs and key < xs[-1]:  # a new game at the same table: start again
                self._src.data = {k: [] for k in self._src.data}
            self._src.stream({k: [v] for k, v in row.items()})
        self._fit()

    def _fit(self):
        """The x axis from the first action to the last point (at least ``MIN_ACTIONS``)."""
        xs = self._src.data["x"]
        end = max(MIN_ACTIONS, xs[-1] + 1 if len(xs) else 0)
        if self._fig.x_range.end != end:
            self._fig.x_range.end = end

    def _whole_game(self):
        """The board's game: a point per position, the line at the one shown."""
        g = self.game
        xs, p0, p1 = [], [], []
        try:
            for i, st in enumerate(g.states):
                if st.winner is not None:
                    ch = (1.0, 0.0) if st.winner == 0 else (0.0, 1.0)
                else:
                    r = readout(g, st)
                    if r is None:
                        continue
                    p = r.win_chance
                    ch = (p, 1 - p) if st.current == 0 else (1 - p, p)
                xs.append(i)
                p0.append(ch[0])
                p1.append(ch[1])
        except Exception:  # a position the table does not cover: the points before it
            pass
        self._src.data = dict(x=xs, p0=p0, p1=p1)
        self._fit()
        self._fig.x_range.end = max(MIN_ACTIONS, g.steps - 1)
        self._span = Span(location=g.step, dimension="height", line_color="#555",
                          line_dash="dashed", line_width=2)
        self._fig.add_layout(self._span)

    def _at_step(self, *_args):
        self.label()
        if self._span is not None and self._span.location != self.game.step:
            self._span.location = self.game.step

    def _tapped(self, event):
        """A click on the chart: that action's position on the analysis board."""
        x = round(event.x) if event.x is not None else None
        if x is None or x < 0:
            return
        goto = getattr(self.play, "goto", None)
        if goto is None:  # a table: open the board there, if the page has one
            goto = self.play.shared("open_board", lambda: None)
        if goto is not None:
            goto(min(x, getattr(self.game, "steps", len(self.game.actions) + 1) - 1))

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
        self._fit()

    def _update(self, *_args):
        if self._fig is None:
            return
        self.label()
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
        self._fit()

    def __panel__(self):
        if self._fig is None:
            return pn.pane.HTML("", visible=False)
        return pn.pane.Bokeh(self._fig, sizing_mode="stretch_width")
