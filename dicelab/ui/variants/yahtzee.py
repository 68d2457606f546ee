"""Yahtzee at the table: hold dice between up to three rolls, then score a box on the card."""
from __future__ import annotations

from bokeh.models import ColumnDataSource, LabelSet, Range1d

from ...actions import Reroll, Roll
from ...rules.yahtzee import BOXES, LABELS
from ..odds_view import yahtzee_odds
from ..phrases import cap, pct, possessive
from .base import HI, LO, VariantUI, die, esc, odds_figure, register

NAMES = [LABELS[b] for b in BOXES]


@register
class YahtzeeUI(VariantUI):
    variant = "yahtzee"
    title = "Yahtzee"
    has_stand = False
    enter_rolls = True
    score_card = True
    history_shown = 4  # the last few events above the 13-row card, in sight without scrolling

    def settings_title(self, c) -> str:
        return f"Yahtzee ({c.preset} rules, {c.rerolls + 1} rolls)"

    # ----- the person's choices --------------------------------------------------------------
    def roll_action(self, play):
        if not play.game.state.rolls:
            return Roll()
        return Reroll(tuple(i for i in range(5) if i not in play.held))

    def stand_action(self, play):
        return None

    def roll_refusal(self, play) -> str:
        if play.game.state.rolls and len(play.held) == 5:
            return "All five dice are held: release a die to roll it, or score a box."
        return ""

    def stand_refusal(self, play) -> str:
        return "Yahtzee has no stand: choose a box on the score card."

    def toggled(self, play, pos: int):
        g = play.game
        if not g.state.rolls:
            return "Roll first: then click dice (or press 1-5) to hold them."
        if g.rerolls_left <= 0:
            return "No rolls left this turn: choose a box on the score card."
        if not 0 <= pos < 5:
            return None
        return {"held": tuple(sorted(set(play.held) ^ {pos}))}

    def drops_held(self, state, seat: int) -> bool:
        return state.current != seat or not state.rolls

    def roll_label(self, play) -> str:
        g = play.game
        if not g.state.rolls:
            return "Roll (Enter)"
        return f"Roll again (Enter) · {g.rerolls_left} left"

    # ----- what the table shows ----------------------------------------------------------------
    def banner_parts(self, play) -> list[str]:
        g = play.game
        st = g.state
        filled = 13 - len(g.open_boxes(st.current))
        parts = [f"round {min(filled + 1, 13)} of 13"]
        if st.rolls:
            parts.append(f"roll {st.rolls} of {g.config.rerolls + 1}")
        return parts

    def tray(self, play, view, roller, last, fresh):
        g = play.game
        st = g.state
        rolled = []
        view["show_keep"] = False
        held = set(play.held)
        can_hold = play.person_on_turn and bool(st.rolls) and g.rerolls_left > 0
        if st.dice:
            view["rolled_label"] = ("click dice or press 1-5 to hold" if can_hold
                                    else cap(f"{possessive(roller)} dice"))
            for i, d in enumerate(st.dice):
                h = i in held
                rolled.append(die(d, i, "held" if h else "", f"HELD {i + 1}" if h else
                                  f"{i + 1}", f"die {i + 1}: {d}" + (", held" if h else ""),
                                  i in fresh, click=can_hold, sel=h))
        else:
            view["rolled_label"] = "dice"
            if last is not None and last.seat is not None:
                view["rolled_label"] = cap(f"{possessive(roller)} last dice")
                for i, d in enumerate(last.data["dice"]):
                    rolled.append(die(d, i, "old", "", f"{d}"))
        return rolled, []

    def board_head(self) -> str:
        return "<tr><th>Player</th><th class='num'>Total</th><th>Boxes filled</th></tr>"

    def board_cell(self, play, seat, won) -> str:
        filled = 13 - len(play.game.open_boxes(seat))
        return f"<td>{filled}/13{' <b>★ winner</b>' if won else ''}</td>"

    def board_note(self, play) -> str:
        return ""

    def turn_points(self, event, before_turn_total):
        return event.data.get("points") if event.kind == "score" else None

    # ----- odds and the hint -------------------------------------------------------------------
    def odds(self, play):
        return yahtzee_odds(play)

    def turn_hint(self, play, odds, who, s) -> str:
        g = play.game
        st = g.state
        total_rolls = g.config.rerolls + 1
        if not st.rolls:
            return (f"{who} roll{s} all five dice (Roll, Enter or .)." if who != "You"
                    else f"Roll all five dice (click Roll, or press Enter or .): "
                         f"{total_rolls} rolls this turn.")
        left = g.rerolls_left
        text = f"Roll {st.rolls} of {total_rolls}: "
        if left and who == "You":
            text += ("click dice (or press 1-5) to hold them, then Roll again (Enter) "
                     "— or choose a box on the score card.")
        elif left:
            text += f"{who} may roll again or score a box."
        else:
            text += "no rolls left — choose a box on the score card." if who == "You" \
                else f"{who} must score a box."
        note = yahtzee_note(odds)
        if note and "Best play" in note:
            text += " " + note.split(" Holding")[0]
        return text

    def odds_chart(self):
        """The chance of each open box by the end of the turn."""
        src = ColumnDataSource(dict(y=NAMES, x=[0.0] * 13, color=[LO] * 13, label=[""] * 13))
        f = odds_figure("Chance of scoring in each open box this turn", height=330,
                        y_range=list(reversed(NAMES)))
        f.hbar(y="y", right="x", height=0.7, color="color", source=src)
        f.add_layout(LabelSet(x="x", y="y", text="label", source=src, x_offset=4,
                              y_offset=-6, text_font_size="11px", text_font_style="bold"))
        f.x_range = Range1d(0, 1.25)
        f.xaxis.ticker = [0, 0.5, 1]
        f.xaxis.major_label_overrides = {0: "0%", 0.5: "50%", 1: "100%"}
        f.ygrid.grid_line_color = None
        return f, src

    def draw_odds(self, o, src, play) -> str:
        chance = {r["box"]: r.get("chance") for r in o.rows}
        src.data = dict(
            y=NAMES, x=[chance.get(b) or 0.0 for b in BOXES],
            color=[HI if b == o.best else (LO if b in chance else "#e0e0e0") for b in BOXES],
            label=[box_label(chance, b, o.best) for b in BOXES])
        rows = []
        for r in o.rows:
            value = "—" if r.get("value") is None else f"{r['value']:.1f}"
            star = "★ " if r["box"] == o.best else ""
            rows.append(f"<tr><td>{star}{esc(LABELS[r['box']])}</td><td>{esc(str(r['now']))}"
                        f"</td><td>{esc(pct(r.get('chance')))}</td><td>{value}</td></tr>")
        keeps = ""
        adv = getattr(o, "advice", None)
        if adv is not None and adv.keeps:
            top = sorted(adv.keeps.items(), key=lambda kv: -kv[1])[:3]
            keeps = "<p>Best holds: " + ", ".join(
                f"{' '.join(map(str, k)) or 'nothing'} → {v:.1f}" for k, v in top) + "</p>"
        return ("<div class='odds' data-testid='odds'><table><thead><tr><th>Open box</th>"
                "<th>now</th><th>chance this turn</th><th>value if scored now</th></tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>{keeps}<p>{esc(yahtzee_note(o))}</p>"
                "<p><small>Values: expected points still to come with optimal solitaire play."
                "</small></p></div>")


def yahtzee_choice(choice) -> str:
    """("keep", (6, 6, 6)) -> "keep 6 6 6"; ("keep", ()) -> "reroll all";
    ("box", "chance") -> "score Chance now"."""
    kind, what = choice
    if kind == "box":
        return f"score {LABELS[what]} now"
    return f"keep {' '.join(map(str, what))}" if what else "reroll all"


def yahtzee_note(odds) -> str:
    """The Yahtzee odds' advice sentence: the points advice, or in the last box against others
    the play to win, with the points contrast where they part."""
    note = getattr(odds, "note", "")
    r = getattr(odds, "race", None)
    if r is None:
        return note
    if r.differs:
        return f"Best play to win: {yahtzee_choice(r.choice)}. {race_points_vs_win(r)}"
    return f"{note} Chance to win: {pct(r.win_chance)}."


def race_points_vs_win(r) -> str:
    """Yahtzee's last box (odds.yahtzee_race.Race), where points and the chance to win part:
    "For points, keep 6 6 6 (expected 24.5). To win, reroll all: 31% vs 18%." ("" where they
    agree)."""
    if not r.differs:
        return ""
    return (f"For points, {yahtzee_choice(r.points_choice)} (expected "
            f"{r.points_choice_points:.1f}). To win, {yahtzee_choice(r.choice)}: "
            f"{pct(r.win_chance)} vs {pct(r.points_choice_win)}.")


def box_label(chance: dict, box: str, best) -> str:
    if box not in chance:
        return "filled"
    text = pct(chance[box]) if chance[box] is not None else ""
    return text + (" ★" if box == best else "")
