"""Under40 at the table: rounds to 40, bust over it, stop or roll on."""
from __future__ import annotations

from bokeh.models import BoxAnnotation, ColumnDataSource, Label, NumeralTickFormatter, Range1d, Span

from ..odds_view import Under40Odds, under40_odds
from ..phrases import pct
from .base import BUST, GOOD, HI, LO, VariantUI, die, esc, odds_figure, odds_list, register

STATUS = {"waiting": "waiting", "rolling": "rolling", "stopped": "stopped",
          "busted": "BUST (over 40)"}


@register
class Under40UI(VariantUI):
    variant = "under40"
    title = "Under40"
    stand_label = "Stop (0)"
    chance_points = True
    turn_word = "round"

    def settings_title(self, c) -> str:
        return f"Under40 (to {c.target:,})"

    def banner_parts(self, play) -> list[str]:
        g = play.game
        st = g.state
        parts = [f"round {st.round}", f"round score {st.round_scores[st.current]}"]
        beat = g.must_beat()
        if beat:
            parts.append(f"beat {beat}")
        return parts

    def tray(self, play, view, roller, last, fresh):
        st = play.game.state
        rolled = []
        view["show_keep"] = False
        if st.dice:
            pts = st.roll_points
            view["rolled_label"] = f"{roller} rolled: {pts} points"
            bust = last is not None and any(e.kind == "bust" for e in play.last_events)
            exact = any(e.kind == "round_won" and e.data.get("how") == "exact"
                        for e in play.last_events)
            for i, d in enumerate(st.dice):
                rolled.append(die(d, i, "bust" if bust else "", "", f"{d}", i in fresh))
            if bust:
                view["badge"], view["badge_kind"] = "BUST", "bust"
            elif exact:
                view["badge"], view["badge_kind"] = "EXACTLY 40!", "good"
            elif pts:
                view["badge"], view["badge_kind"] = f"+{pts}", "good"
        else:
            view["rolled_label"] = "dice"
        return rolled, []

    def board_head(self) -> str:
        return ("<tr><th>Player</th><th class='num'>Total</th><th>Round score (of 40)</th>"
                "</tr>")

    def board_cell(self, play, seat, won) -> str:
        g = play.game
        st = g.state
        rs = st.round_scores[seat]
        status = st.status[seat]
        beat = g.must_beat()
        fill = "bust" if status == "busted" else ("win" if rs == 40 else "")
        width = min(rs, 40) / 40 * 100
        label = STATUS[status]
        if seat == g.leader():
            label += " · ★ leader"
        bar = (f"<div class='bar' role='img' aria-label='{rs} of 40, {label}'>"
               f"<div class='fill {fill}' style='width:{width:.0f}%'></div>"
               + (f"<div class='beat' style='left:{beat / 40 * 100:.0f}%'></div>"
                  if beat and seat == st.current else "") + "</div>")
        extra = " <b>★ winner</b>" if won else ""
        return f"<td><b>{rs}</b> {esc(label)}{extra}{bar}</td>"

    def turn_points(self, event, before_turn_total):
        return event.data.get("award") if event.kind == "round_won" else None

    def odds(self, play):
        return under40_odds(play.game)

    def turn_hint(self, play, odds, who, s) -> str:
        text = play.game.hint()
        if isinstance(odds, Under40Odds):
            text += (f" Next roll: {pct(odds.bust)} bust (over 40), {pct(odds.exact)} "
                     "exactly 40.")
            if odds.decision:
                text += f" Best play: {odds.decision}."
        return text

    def odds_chart(self):
        src = ColumnDataSource(dict(x=[], y=[], color=[], hatch=[]))
        f = odds_figure("Next roll: round score after it", height=220)
        f.vbar(x="x", top="y", width=1.6, color="color", hatch_pattern="hatch",
               hatch_color="white", hatch_alpha=0.6, source=src)
        f.add_layout(BoxAnnotation(left=41, fill_color=BUST, fill_alpha=0.08, line_color=None))
        f.add_layout(Span(location=40.9, dimension="height", line_color=BUST,
                          line_dash="dashed", line_width=2))
        f.add_layout(Label(x=42, y=118, x_units="data", y_units="screen", text="BUST →",
                           text_color=BUST, text_font_style="bold", text_font_size="12px"))
        f.add_layout(Label(x=39, y=118, x_units="data", y_units="screen", text="40",
                           text_align="right", text_font_style="bold", text_font_size="12px"))
        f.x_range = Range1d(0, 112)
        f.yaxis.formatter = NumeralTickFormatter(format="0%")
        f.xaxis.axis_label = "round score after the roll (over 40 = bust, hatched red)"
        return f, src

    def draw_odds(self, o, src, play) -> str:
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
        src.data = dict(x=xs, y=ys, color=cs, hatch=hs)
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
        return odds_list(rows, foot)
