"""The coach at the table (issue 17): with the Coach switch on (settings drawer), a line after
each decision by a person says whether it was the best play and, if not, what it cost; when the
game ends, a review panel: every person's decisions in a sortable table (costly ones
highlighted), the totals per seat, a chart of value lost per turn, and downloads of the review
(CSV) and of the game (JSON, loadable again with ``dicelab.load_game`` or ``dicelab review``).

The view follows the game with a shadow copy replayed in step (a game is seed + actions), so it
judges each action in the state it was taken in without hooking into the controller.
"""
from __future__ import annotations

import html
import io

import panel as pn
import param

from .. import coach
from ..i18n import _, language
from ..names import shown_name
from .phrases import decimal
from .play import Play
from .variants import ui_for
from .view import follow

esc = html.escape

CSS = """
.coach-line { margin: 4px 0; padding: 6px 10px; border-radius: 8px;
  font: 500 1rem/1.35 system-ui, sans-serif; }
.coach-line.good { background: rgba(46, 125, 50, .12); }
.coach-line.costly { background: rgba(198, 40, 40, .12); }
.coach-totals table { border-collapse: collapse; font: .95rem system-ui, sans-serif; }
.coach-totals td, .coach-totals th { padding: 2px 10px; text-align: left; }
.coach-totals li { margin: 2px 0; }
"""
COSTLY = "background-color: #fde2e1"  # i18n: not shown


class CoachView(pn.viewable.Viewer):
    """The coach's line and, at the end of the game, its review panel (only while Coach is on)."""

    play = param.ClassSelector(class_=Play)

    def __init__(self, **params):
        super().__init__(**params)
        g = self.play.game
        self._shadow = type(g)(g.seats, g.settings, g.seed)
        self.entry: coach.Entry | None = None  # the last person's decision, judged
        self.review: coach.Review | None = None
        self._line = pn.pane.HTML("", sizing_mode="stretch_width", stylesheets=[CSS],
                                  margin=(0, 5))
        self._panel = pn.Column(sizing_mode="stretch_width")
        self._drawn_in = None  # the language the review panel was drawn in
        follow(self.play, self._follow, "shown")
        self.play.prefs.param.watch(self._follow, "coach")
        self._follow()

    # ----- following the game ----------------------------------------------------------------
    def _follow(self, *events):
        g, on = self.play.game, self.play.prefs.coach
        if not on:  # nothing to judge: the copy catches up when the coach is switched on
            self._draw_line()
            if self._panel.visible:  # (a set of the same value still costs every page)
                self._panel.visible = False
            return
        switched_on = any(e.name == "coach" for e in events)  # earlier actions: not judged
        try:
            if self._shadow.version > len(g.actions):  # the game was rebuilt shorter (a room)
                raise RuntimeError
            for action in g.actions[self._shadow.version:]:
                seat = self._shadow.current_player
                if not switched_on and self.play.is_mine(seat):
                    entry = coach.judge(self._shadow, action)
                    if entry is not None:
                        self.entry = entry
                self._shadow.apply(action)
        except Exception:  # the coach never stops play: start the copy afresh, say nothing
            self._shadow = g.replay()
            self.entry = None
        self._draw_line()
        if on and g.is_over and self.review is None:
            self.review = coach.review(g)
        if on and self.review is not None and self._drawn_in != language():
            self._panel.objects = [self._review_panel()]  # again in a new language
            self._drawn_in = language()
        self._panel.visible = on and self.review is not None

    def _draw_line(self):
        e = self.entry
        if not self.play.prefs.coach or e is None or self._moved_on(e):
            if self._line.object:
                self._line.object = ""
            return
        kind = "costly" if e.mistake else "good"
        # which decision it judges: "You, round 2: ..." (the table's own word for a turn)
        who = _("{name}, {turn} {n}", name=shown_name(e.player), turn=self.play.ui.turn_word,
                n=e.turn)
        self._line.object = (f'<div class="coach-line {kind}" data-testid="coach-line">'
                             f'🎓 {esc(who)}: {esc(str(e.line()))}</div>')

    def _moved_on(self, e) -> bool:
        """A later decision of a person at this screen is waiting: the line about an older
        one goes (it sat under the next decision's hint)."""
        g = self.play.game
        return (len(g.actions) > e.index + 1 and not g.is_over
                and self.play.is_mine(g.current_player) and len(g.legal_actions()) > 1)

    # ----- the review panel ------------------------------------------------------------------
    def frame(self):
        """Every person's decisions as a DataFrame (all seats' when no person played), read
        from the review's own table (``Review.table()``)."""
        import pandas as pd

        r = self.review
        t = r.table()
        people = t[[not c for c in t["computer"]]]
        if not len(people):
            people = t
        scale = 100 if ui_for(r.variant).chance_points else 1  # chances in % points
        self._mistakes = list(people["mistake"])
        self._indices = [int(i) for i in people["index"]]  # each row's action in the game
        # a final turn (two-seat Bones) is judged by the chance to win: its values show as
        # chances, its loss in the win column, not in "lost" (points)
        df = pd.DataFrame({
            "turn": list(people["turn"]),
            "player": [shown_name(p) for p in people["player"]],  # "You" in the reader's words
            "state": list(people["state"]),
            "choice": [f"{c} ({v})" for c, v in zip(people["choice"], people["choice_shown"])],
            "best": [f"{c} ({v})" for c, v in zip(people["best"], people["best_shown"])],
            "lost": [round(scale * x, 2) if mine else None
                     for x, mine in zip(people["lost"], people["in_unit"])],
            "why": list(people["why"]),
        })
        # two-seat Bones: the chance to win beside the points (the choice's, the best's, lost)
        for k in r.extras:
            sides = zip(people[f"{k}_choice_shown"], people[f"{k}_best_shown"],
                        people[f"{k}_lost"])
            chance, lost = [], []
            for chosen, best, x in sides:
                chance.append(_("{chosen} (best {best})", chosen=chosen, best=best)
                              if chosen is not None else "")
                lost.append(round(100 * x, 2) if chosen is not None else None)
            df.insert(df.columns.get_loc("why"), f"{k} chance", chance)
            df.insert(df.columns.get_loc("why"), f"{k} lost (% points)", lost)  # i18n: not shown
        return df

    def _table(self, df):
        # fit_data_fill: each column as wide as its data (or its width below), the table
        # scrolls sideways inside the panel when they are wider (a phone); fit_data_stretch
        # squeezed the last column ("why") to a sliver instead
        table = pn.widgets.Tabulator(
            df, show_index=False, disabled=True, layout="fit_data_fill",
            sizing_mode="stretch_width", max_height=380, name="coach-review",
            widths={"state": 210, "choice": 170, "best": 170, "why": 320},
            formatters={c: {"type": "textarea"} for c in ("state", "choice", "best", "why")},
            titles=self._titles(df))
        mistakes = self._mistakes

        def highlight(row):  # the frame's index is the decision's position
            return [COSTLY if mistakes[row.name] else ""] * len(row)
        table.style.apply(highlight, axis=1)
        table.on_click(self._row_clicked)
        return table

    def _row_clicked(self, event):
        """A click on a row: the analysis board at that decision (before its action)."""
        opener = self.play.shared("open_board", lambda: None)
        if opener is not None and 0 <= event.row < len(self._indices):
            opener(self._indices[event.row])

    def _titles(self, df) -> dict:
        """The review table's column titles in the language of the moment."""
        titles = {"turn": self.play.ui.turn_word, "player": _("player"), "state": _("state"),
                  "choice": _("choice"), "best": _("best"),
                  "lost": _("lost (% points)") if self.play.ui.chance_points else _("lost"),
                  "why": _("why")}
        for k in self.review.extras:
            titles[f"{k} chance"] = extra_name(k, _("win chance"), _("{name} chance"))
            titles[f"{k} lost (% points)"] = extra_name(k, _("win lost (% points)"),
                                                        _("{name} lost (% points)"))
        return {c: titles.get(c, c) for c in df.columns}

    def _totals(self) -> pn.pane.HTML:
        r = self.review
        rows = "".join(
            f"<tr><td>{esc(seat_name(s))}</td><td>{s.decisions}</td><td>{s.mistakes}</td>"
            f"<td>{esc(str(r.source.fmt(s.lost)))}</td>"
            + "".join(f"<td>{decimal(100 * s.extra_lost.get(k, 0.0))}</td>" for k in r.extras)
            + "</tr>" for s in r.seats.values())
        worst = "".join(
            "<li>" + _("{name}, turn {turn}, {loss}: {why}", name=bold(shown_name(s.player)),
                       turn=e.turn, loss=esc(str(e.source.fmt_loss(e.lost))),
                       why=esc(str(e.why))) + "</li>"
            for s in r.seats.values() if not s.computer for e in s.costliest)
        notes = "".join(f"<p><small>{esc(str(n))}</small></p>" for n in r.notes)
        titles = [_("player"), _("decisions"), _("mistakes"), _("lost in all")]
        titles += [lost_title(k) for k in r.extras]
        head = "".join(f"<th>{esc(t)}</th>" for t in titles)
        values = _("Values: {unit}; a mistake loses more than {tolerance}.",
                   unit=str(r.unit), tolerance=str(r.source.tolerance_words))
        costliest = _("The costliest decisions:")
        return pn.pane.HTML(
            f"<div class='coach-totals' data-testid='coach-totals'>"
            f"<p>{esc(values)}</p>{notes}"
            # a phone's column is narrower than the table: it scrolls, not the page
            f"<div style='overflow-x:auto;max-width:100%'>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"
            + (f"<p style='margin:8px 0 2px'>{costliest}</p><ul>{worst}</ul>"
               if worst else "") + "</div>",
            sizing_mode="stretch_width", stylesheets=[CSS])

    def _chart(self, df):
        from bokeh.models import ColumnDataSource
        from bokeh.plotting import figure

        per = df.groupby(["turn", "player"], as_index=False)["lost"].sum()
        players = list(dict.fromkeys(df["player"]))
        colours = ["#e45756", "#4c78a8", "#f58518", "#54a24b", "#72b7b2", "#b279a2",
                   "#ff9da6", "#9d755d"]
        fig = figure(height=220, sizing_mode="stretch_width", toolbar_location=None, tools="",
                     title=(_("Value lost per {turn} ({unit}, % points)",
                              turn=self.play.ui.turn_word, unit=str(self.review.unit))
                            if self.play.ui.chance_points else
                            _("Value lost per {turn} ({unit})", turn=self.play.ui.turn_word,
                              unit=str(self.review.unit))))
        width = 0.8 / max(len(players), 1)
        for i, name in enumerate(players):
            mine = per[per["player"] == name]
            src = ColumnDataSource(dict(turn=mine["turn"] + (i - (len(players) - 1) / 2) * width,
                                        lost=mine["lost"]))
            fig.vbar(x="turn", top="lost", width=width, source=src, legend_label=name,
                     color=colours[i % len(colours)])
        fig.y_range.start = 0
        fig.xaxis.ticker.min_interval = 1  # whole turns
        fig.xaxis.axis_label = self.play.ui.turn_word
        fig.legend.location = "top_left"
        return pn.pane.Bokeh(fig, sizing_mode="stretch_width")

    def _review_panel(self):
        df = self.frame()
        review, game = self.review, self.play.game
        csv_button = pn.widgets.FileDownload(
            callback=lambda: io.StringIO(review.to_csv()), filename="dicelab-review.csv",
            label=_("Download review (CSV)"), color="primary", embed=False, width=220)
        json_button = pn.widgets.FileDownload(
            callback=lambda: io.StringIO(game.to_json()),
            filename=f"dicelab-{game.variant}-{game.seed}.json",  # i18n: not shown
            label=_("Download game (JSON)"), embed=False, width=220)
        title = _("Coach's review")
        parts = [pn.pane.HTML(f"<h3 style='margin:4px 0'>{esc(title)}</h3>", margin=0),
                 self._totals()]
        if len(df):
            parts += [self._table(df), self._chart(df)]
        # wraps on a phone (a Row ran off the right edge of the screen)
        parts.append(pn.FlexBox(csv_button, json_button, flex_wrap="wrap", gap="8px",
                                sizing_mode="stretch_width"))
        return pn.Column(*parts, sizing_mode="stretch_width")

    def __panel__(self):
        return pn.Column(self._line, self._panel, sizing_mode="stretch_width", margin=0)


def extra_name(key: str, win: str, other: str) -> str:
    """A column of a second unit the review judges in ("win": the chance to win)."""
    return win if key == "win" else other.format(name=key)


def lost_title(key: str) -> str:
    return extra_name(key, _("win chance lost (% points)"), _("{name} chance lost (% points)"))


def seat_name(s) -> str:
    """A seat of the review's totals: "Ann", "Cpu (computer)"."""
    name = shown_name(s.player)
    return _("{name} (computer)", name=name) if s.computer else name


def bold(name: str) -> str:
    return f"<b>{esc(name)}</b>"
