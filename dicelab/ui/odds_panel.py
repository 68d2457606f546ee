"""The live odds panel: a bokeh chart and the numbers that matter now, updated on every change."""
from __future__ import annotations

import html

import panel as pn
from bokeh.models import (BoxAnnotation, ColumnDataSource, Label, LabelSet, NumeralTickFormatter,
                          Range1d, Span)
from bokeh.plotting import figure

from ..rules.yahtzee import BOXES, LABELS
from .components import _Base, current_odds
from .notebook import HTML
from .odds_view import FiveDiceOdds, Under40Odds, YahtzeeOdds
from .win_estimate import estimate_html, win_estimate
from . import words
from .words import num, pct

esc = html.escape
HI, LO, BUST, GOOD = "#1565c0", "#90a4ae", "#c62828", "#2e7d32"
BUST_ON_DARK = "#ff8a80"

ODDS_CSS = """
.odds { font: 1rem/1.45 system-ui, sans-serif; }
.odds dl { display: grid; grid-template-columns: auto auto; gap: 2px 14px; margin: 0; }
.odds dt { opacity: .9; } .odds dd { margin: 0; text-align: right; font-weight: 700; font-variant-numeric: tabular-nums; }
.odds .best { color: var(--dl-green, #2e7d32); } .odds .na { font-style: italic; opacity: .8; }
.odds table { border-collapse: collapse; width: 100%; font-size: .92rem; }
.odds th, .odds td { padding: 2px 6px; text-align: right; border-bottom: 1px solid rgba(127,127,127,.3); }
.odds th:first-child, .odds td:first-child { text-align: left; }
@media (prefers-color-scheme: dark) { .odds .best { color: var(--dl-green, #81c784); } }
"""


def _fig(title: str, height: int = 210, **kw):
    f = figure(height=height, sizing_mode="stretch_width", toolbar_location=None, tools="",
               title=title, min_border_left=40, min_border_right=10, **kw)
    f.background_fill_color = None
    f.border_fill_color = None
    f.outline_line_color = None
    f.grid.grid_line_alpha = 0.25
    f.xgrid.grid_line_color = None
    return f


class OddsPanel(_Base):
    """Chance to score with 1..5 dice (current number highlighted), bust chance, EV of rolling vs
    standing, chance to reach the minimum / pit exit / barrel; Under40's next-roll distribution;
    Yahtzee's per-box chances and option values."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        v = self.play.variant
        self._text = HTML("", sizing_mode="stretch_width", stylesheets=[ODDS_CSS])
        self._chart = None
        if v in ("bones", "thousand"):
            self._src = ColumnDataSource(dict(x=["1", "2", "3", "4", "5"], y=[0.0] * 5,
                                              color=[LO] * 5, label=[""] * 5, hatch=[" "] * 5))
            f = _fig("Chance to score, by dice rolled", x_range=["1", "2", "3", "4", "5"])
            f.vbar(x="x", top="y", width=0.7, color="color", hatch_pattern="hatch",
                   hatch_color="white", hatch_alpha=0.5, source=self._src)
            f.add_layout(LabelSet(x="x", y="y", text="label", source=self._src,
                                  text_align="center", y_offset=3, text_font_size="11px",
                                  text_font_style="bold"))
            f.y_range = Range1d(0, 1.18)
            f.yaxis.ticker = [0, 0.25, 0.5, 0.75, 1]
            f.yaxis.major_label_overrides = {0: "0%", 0.25: "25%", 0.5: "50%", 0.75: "75%",
                                             1: "100%"}
            f.xaxis.axis_label = "dice rolled (current: ▲)"
            self._chart = pn.pane.Bokeh(f, sizing_mode="stretch_width")
        elif v == "under40":
            self._src = ColumnDataSource(dict(x=[], y=[], color=[], hatch=[]))
            f = _fig("Next roll: round score after it", height=220)
            f.vbar(x="x", top="y", width=1.6, color="color", hatch_pattern="hatch",
                   hatch_color="white", hatch_alpha=0.6, source=self._src)
            f.add_layout(BoxAnnotation(left=41, fill_color=BUST, fill_alpha=0.08,
                                       line_color=None))
            f.add_layout(Span(location=40.9, dimension="height", line_color=BUST,
                              line_dash="dashed", line_width=2))
            f.add_layout(Label(x=42, y=118, x_units="data", y_units="screen", text="BUST →",
                               text_color=BUST, text_font_style="bold", text_font_size="12px"))
            f.add_layout(Label(x=39, y=118, x_units="data", y_units="screen", text="40",
                               text_align="right", text_font_style="bold",
                               text_font_size="12px"))
            f.x_range = Range1d(0, 112)
            f.yaxis.formatter = NumeralTickFormatter(format="0%")
            f.xaxis.axis_label = "round score after the roll (over 40 = bust, hatched red)"
            self._chart = pn.pane.Bokeh(f, sizing_mode="stretch_width")
        else:  # yahtzee: chance of each open box by the end of the turn
            names = [LABELS[b] for b in BOXES]
            self._src = ColumnDataSource(dict(y=names, x=[0.0] * 13, color=[LO] * 13,
                                              label=[""] * 13))
            f = _fig("Chance of scoring in each open box this turn", height=330,
                     y_range=list(reversed(names)))
            f.hbar(y="y", right="x", height=0.7, color="color", source=self._src)
            f.add_layout(LabelSet(x="x", y="y", text="label", source=self._src, x_offset=4,
                                  y_offset=-6, text_font_size="11px", text_font_style="bold"))
            f.x_range = Range1d(0, 1.25)
            f.xaxis.ticker = [0, 0.5, 1]
            f.xaxis.major_label_overrides = {0: "0%", 0.5: "50%", 1: "100%"}
            f.ygrid.grid_line_color = None
            self._chart = pn.pane.Bokeh(f, sizing_mode="stretch_width")
        self._fig = self._chart.object if self._chart is not None else None
        self._theme()
        self.play.prefs.param.watch(self._theme, "dark")
        # the chance to win as an estimate (three or more seats, Thousand, Under40, Yahtzee)
        self._est = HTML("", sizing_mode="stretch_width", stylesheets=[ODDS_CSS],
                         visible=False)
        est = win_estimate(self.play)
        if est is not None:
            est.param.watch(self._estimate, ["result", "key"])
        self._refresh()
        self.play.param.watch(self._refresh, "tick")

    def _theme(self, *_):
        """Label colours that read on the light and the dark page."""
        if self._fig is None:
            return
        dark = self.play.prefs.dark
        color = "#e8e8e8" if dark else "#222222"
        for r in self._fig.center:
            if isinstance(r, LabelSet) or (isinstance(r, Label) and r.text == "40"):
                r.text_color = color
            elif isinstance(r, Label) and r.text.startswith("BUST"):
                r.text_color = BUST_ON_DARK if dark else BUST  # AA contrast on either page

    def _estimate(self, *_):
        text = estimate_html(self.play)
        self._est.object = f"<div class='odds'>{text}</div>" if text else ""
        self._est.visible = bool(text)

    # ----- per variant -----------------------------------------------------------------------
    def _refresh(self, *_):
        self._estimate()
        odds = current_odds(self.play)
        if isinstance(odds, FiveDiceOdds):
            self._five(odds)
        elif isinstance(odds, Under40Odds):
            self._under40(odds)
        elif isinstance(odds, YahtzeeOdds):
            self._yahtzee(odds)
        else:
            if self._chart is not None and self.play.game.is_over:
                self._src.data = {k: [] for k in self._src.data}
            self._text.object = (f"<div class='odds' data-testid='odds'><p class='na'>"
                                 f"{esc(str(odds))}</p></div>")
        if self._chart is not None:  # no empty chart frame when there are no odds to draw
            self._chart.visible = isinstance(odds, (FiveDiceOdds, Under40Odds, YahtzeeOdds))

    def _five(self, o: FiveDiceOdds):
        ro = o.readout
        n = o.dice_now
        self._src.data = dict(
            x=["1", "2", "3", "4", "5"], y=o.counting,
            color=[HI if i + 1 == n else LO for i in range(5)],
            label=[("▲ " if i + 1 == n else "") + pct(p) for i, p in enumerate(o.counting)],
            hatch=[" " if i + 1 == n else "/" for i in range(5)])
        st = self.play.state
        stand = "not allowed" if ro.stand_value is None else num(ro.stand_value)
        star_roll = " ★" if ro.decision == "roll" else ""
        star_stand = " ★" if ro.decision == "stand" else ""
        rows = [
            (f"Chance to score with {n} {'die' if n == 1 else 'dice'}", pct(ro.counting_chance)),
            ("Bust chance" + (f" (lose {num(st.turn_total)})" if st.turn_total else ""),
             pct(ro.bust_chance)),
            ("Next roll scores on average", num(ro.expected_roll_points)),
            ("EV if you stand", f"{stand}{star_stand}"),
            ("EV if you roll (then play best)", f"{num(ro.roll_value)}{star_roll}"),
        ]
        if ro.reach_amount:
            rows.append((f"Chance to {o.reach_label} ({num(ro.reach_amount)} this turn)",
                         pct(ro.reach_chance)))
        best = f"Best play now: <b class='best'>{ro.decision.upper()}</b> ★ (expected points)"
        if o.final:
            must, leader, chance = o.final
            rows.append((f"Final turn: reach {num(must)} this turn to pass {num(leader)}",
                         pct(chance)))
            to_win = "STAND" if st.turn_total >= must and ro.may_stand else "ROLL"
            best = (f"Best play now: <b class='best'>{to_win}</b> ★ (to win: only passing "
                    f"{num(leader)} counts)")
        elif o.win is not None:
            w = o.win
            rows.append(("Chance to win from here", pct(w.win_chance)))
            rows.append(("… if you stand", "not allowed" if w.stand_win_chance is None
                         else pct(w.stand_win_chance)))
            rows.append(("… if you roll (then play to win)", pct(w.roll_win_chance)))
            best += f"<br>To win: <b class='best'>{w.decision.upper()}</b>"
            said = words.points_vs_win(ro, w)
            if said:
                best += f"<br>{esc(said)}"
        elif o.win_note:
            best += f"<br><span class='na'>{esc(o.win_note)}</span>"
        self._text.object = self._dl(rows, best)

    def _dl(self, rows, foot=""):
        items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows)
        return (f"<div class='odds' data-testid='odds' aria-live='off'><dl>{items}</dl>"
                f"<p>{foot}</p></div>")

    def _under40(self, o: Under40Odds):
        xs, ys, cs, hs = [], [], [], []
        for pts, p in o.dist:
            s = o.score + pts
            xs.append(s)
            ys.append(p)
            if s > 40:
                cs.append(BUST)
                hs.append("/")
            elif s == 40:
                cs.append(GOOD)
                hs.append(" ")
            else:
                cs.append(HI if s > o.beat else LO)
                hs.append(" ")
        self._src.data = dict(x=xs, y=ys, color=cs, hatch=hs)
        rows = [("Round score", str(o.score)),
                ("Must beat (to stop)", str(o.beat)),
                ("Bust chance next roll (over 40)", pct(o.bust)),
                ("Exactly 40 next roll", pct(o.exact))]
        if o.above is not None and o.score <= o.beat:
            rows.append((f"Chance to get above {o.beat} without busting", pct(o.above)))
        foot = ""
        if o.roll_win is not None:
            rows.append(("Win the round if you roll on", pct(o.roll_win)
                         + (" ★" if o.decision == "roll" else "")))
            rows.append(("Win the round if you stop",
                         "not allowed" if o.stop_win is None else pct(o.stop_win)
                         + (" ★" if o.decision == "stop" else "")))
            who = "both playing best" if o.players == 2 else \
                f"all {o.players} players in the round each playing to win it"
            foot = (f"Best play now: <b class='best'>{o.decision.upper()}</b> ★ "
                    f"(chance to win the round, {who})")
        self._text.object = self._dl(rows, foot)

    def _yahtzee(self, o: YahtzeeOdds):
        chance = {r["box"]: r.get("chance") for r in o.rows}
        xs = [chance.get(b) or 0.0 for b in BOXES]
        self._src.data = dict(
            y=[LABELS[b] for b in BOXES], x=xs,
            color=[HI if b == o.best else (LO if b in chance else "#e0e0e0") for b in BOXES],
            label=[self._box_label(chance, b, o.best) for b in BOXES])
        rows = []
        for r in o.rows:
            value = "—" if r.get("value") is None else f"{r['value']:.1f}"
            star = "★ " if r["box"] == o.best else ""
            rows.append(f"<tr><td>{star}{esc(LABELS[r['box']])}</td><td>{esc(str(r['now']))}"
                        f"</td><td>{esc(pct(r.get('chance')))}</td><td>{value}</td></tr>")
        body = "".join(rows)
        keeps = ""
        adv = getattr(o, "advice", None)
        if adv is not None and adv.keeps:
            top = sorted(adv.keeps.items(), key=lambda kv: -kv[1])[:3]
            keeps = "<p>Best holds: " + ", ".join(
                f"{' '.join(map(str, k)) or 'nothing'} → {v:.1f}" for k, v in top) + "</p>"
        self._text.object = (
            "<div class='odds' data-testid='odds'><table><thead><tr><th>Open box</th>"
            "<th>now</th><th>chance this turn</th><th>value if scored now</th></tr></thead>"
            f"<tbody>{body}</tbody></table>{keeps}<p>{esc(words.yahtzee_note(o))}</p>"
            "<p><small>Values: expected points still to come with optimal solitaire play."
            "</small></p></div>")

    @staticmethod
    def _box_label(chance: dict, box: str, best) -> str:
        if box not in chance:
            return "filled"
        text = pct(chance[box]) if chance[box] is not None else ""
        return text + (" ★" if box == best else "")

    def __panel__(self):
        items = [pn.pane.HTML("<h3 style='margin:4px 0'>Odds right now</h3>", margin=0)]
        if self._chart is not None:
            items.append(self._chart)
        items.append(self._text)
        items.append(self._est)
        return pn.Column(*items, sizing_mode="stretch_width")
