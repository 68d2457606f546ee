"""Under40 at the table: rounds to 40, bust over it, stop or roll on."""
from __future__ import annotations

from bokeh.models import BoxAnnotation, ColumnDataSource, Label, NumeralTickFormatter, Range1d, Span

from ...i18n import N_, _, p_
from ..odds_view import Under40Odds, under40_odds
from ..phrases import decision, pct, percent_ticks, says_you, shown
from .base import (BUST, GOOD, HI, LO, VariantUI, board_head_row, die, esc, odds_figure,
                   odds_list, register, set_data, winner_mark)

STATUS = {"waiting": N_("waiting"), "rolling": N_("rolling"), "stopped": N_("stopped"),
          "busted": N_("BUST (over 40)")}


@register
class Under40UI(VariantUI):
    variant = "under40"
    @property
    def title(self) -> str:
        return p_("game", "Under40")
    chance_points = True

    @property
    def stand_label(self) -> str:
        return _("Stop (0)")

    @property
    def turn_word(self) -> str:
        return _("round")

    def settings_title(self, c) -> str:
        return _("Under40 (to {target})", target=c.target)

    def banner_parts(self, play) -> list[str]:
        g = play.game
        st = g.state
        parts = [_("round {round}", round=st.round),
                 _("round score {points}", points=st.round_scores[st.current])]
        beat = g.must_beat()
        if beat:
            parts.append(_("beat {points}", points=beat))
        return parts

    def tray(self, play, view, roller, last, fresh):
        st = play.game.state
        rolled = []
        view["show_keep"] = False
        if st.dice:
            pts = st.roll_points
            view["rolled_label"] = (_("You rolled: {points} points", points=pts)
                                    if says_you(roller) else
                                    _("{name} rolled: {points} points", name=roller,
                                      points=pts))
            bust = last is not None and any(e.kind == "bust" for e in play.last_events)
            exact = any(e.kind == "round_won" and e.data.get("how") == "exact"
                        for e in play.last_events)
            for i, d in enumerate(st.dice):
                rolled.append(die(d, i, "bust" if bust else "", "", f"{d}", i in fresh))
            if bust:
                view["badge"], view["badge_kind"] = _("BUST"), "bust"
            elif exact:
                view["badge"], view["badge_kind"] = _("EXACTLY 40!"), "good"
            elif pts:
                view["badge"], view["badge_kind"] = f"+{pts}", "good"
        else:
            view["rolled_label"] = _("dice")
        return rolled, []

    def board_head(self) -> str:
        return board_head_row(_("Round score (of 40)"))

    def board_cell(self, play, seat, won) -> str:
        g = play.game
        st = g.state
        rs = st.round_scores[seat]
        status = st.status[seat]
        beat = g.must_beat()
        fill = "bust" if status == "busted" else ("win" if rs == 40 else "")
        width = min(rs, 40) / 40 * 100
        label = shown(STATUS[status])
        if seat == g.leader():
            label += " · " + _("★ leader")
        aria = esc(_("{points} of 40, {status}", points=rs, status=label), quote=True)
        bar = (f"<div class='bar' role='img' aria-label='{aria}'>"
               f"<div class='fill {fill}' style='width:{width:.0f}%'></div>"
               + (f"<div class='beat' style='left:{beat / 40 * 100:.0f}%'></div>"
                  if beat and seat == st.current else "") + "</div>")
        extra = winner_mark() if won else ""
        return f"<td><b>{rs}</b> {esc(label)}{extra}{bar}</td>"

    def turn_points(self, event, before_turn_total):
        return event.data.get("award") if event.kind == "round_won" else None

    def odds(self, play):
        return under40_odds(play.game)

    def turn_hint(self, play, odds, name) -> str:
        text = str(play.game.hint())
        if isinstance(odds, Under40Odds):
            text += " " + _("Next roll: {bust} bust (over 40), {exact} exactly 40.",
                            bust=pct(odds.bust), exact=pct(odds.exact))
            if odds.decision == "roll":
                text += " " + _("Best play: roll.")
            elif odds.decision:
                text += " " + _("Best play: stop.")
        return text

    def odds_chart(self):
        src = ColumnDataSource(dict(x=[], y=[], color=[], hatch=[]))
        f = odds_figure("", height=220)
        f.vbar(x="x", top="y", width=1.6, color="color", hatch_pattern="hatch",
               hatch_color="white", hatch_alpha=0.6, source=src)
        f.add_layout(BoxAnnotation(left=41, fill_color=BUST, fill_alpha=0.08, line_color=None))
        f.add_layout(Span(location=40.9, dimension="height", line_color=BUST,
                          line_dash="dashed", line_width=2))
        f.add_layout(Label(x=42, y=118, x_units="data", y_units="screen", text="",
                           text_color=BUST, text_font_style="bold", text_font_size="12px",
                           name="bust"))
        f.add_layout(Label(x=39, y=118, x_units="data", y_units="screen", text="40",
                           text_align="right", text_font_style="bold", text_font_size="12px"))
        f.x_range = Range1d(0, 112)
        f.yaxis.formatter = NumeralTickFormatter(format="0%")
        self.label_chart(f)
        return f, src

    def label_chart(self, f) -> None:
        f.title.text = _("Next roll: round score after it")
        f.xaxis.axis_label = _("round score after the roll (over 40 = bust, hatched red)")
        for r in f.select(name="bust"):
            r.text = _("BUST →")
        f.yaxis.formatter.format = percent_ticks()

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
        set_data(src, dict(x=xs, y=ys, color=cs, hatch=hs))
        rows = [(_("Round score"), str(o.score)),
                (_("Must beat (to stop)"), str(o.beat)),
                (_("Bust chance next roll (over 40)"), pct(o.bust)),
                (_("Exactly 40 next roll"), pct(o.exact))]
        if o.above is not None and o.score <= o.beat:
            rows.append((_("Chance to get above {points} without busting", points=o.beat),
                         pct(o.above)))
        foot = ""
        if o.roll_win is not None:
            rows.append((_("Win the round if you roll on"), pct(o.roll_win)
                         + (" ★" if o.decision == "roll" else "")))
            rows.append((_("Win the round if you stop"),
                         _("not allowed") if o.stop_win is None else pct(o.stop_win)
                         + (" ★" if o.decision == "stop" else "")))
            play_word = f"<b class='best'>{esc(decision(o.decision).upper())}</b>"
            if o.players == 2:
                foot = _("Best play now: {play} ★ (chance to win the round, both playing best)",
                         play=play_word)
            else:
                foot = _("Best play now: {play} ★ (chance to win the round, all {n} players in "
                         "the round each playing to win it)", play=play_word, n=o.players)
        return odds_list(rows, foot)
