"""Yahtzee at the table: hold dice between up to three rolls, then score a box on the card."""
from __future__ import annotations

from bokeh.models import ColumnDataSource, LabelSet, Range1d

from ...actions import Reroll, Roll
from ...i18n import _, p_, percent
from ...rules.yahtzee import BOXES, LABELS
from ..odds_view import yahtzee_odds
from ..phrases import decimal, pct, preset_name, says_you, shown
from .base import (HI, LO, VariantUI, board_head_row, die, esc, odds_figure, register, set_data,
                   winner_mark)


def box(b: str) -> str:
    """A box's name on the card, in the current language."""
    return shown(LABELS[b])


def names() -> list[str]:
    return [box(b) for b in BOXES]


def dec(x: float) -> str:
    """Expected points to one decimal, the language's way (24.5 / 24,5)."""
    return decimal(x, 1)


@register
class YahtzeeUI(VariantUI):
    variant = "yahtzee"
    @property
    def title(self) -> str:
        return p_("game", "Yahtzee")
    has_stand = False
    enter_rolls = True
    score_card = True
    history_shown = 4  # the last few events above the 13-row card, in sight without scrolling

    def settings_title(self, c) -> str:
        return _("Yahtzee ({preset} rules, {rolls} rolls)", preset=preset_name(c.preset),
                 rolls=c.rerolls + 1)

    # ----- the person's choices --------------------------------------------------------------
    def roll_action(self, play):
        if not play.game.state.rolls:
            return Roll()
        return Reroll(tuple(i for i in range(5) if i not in play.held))

    def stand_action(self, play):
        return None

    def roll_refusal(self, play) -> str:
        if play.game.state.rolls and len(play.held) == 5:
            return _("All five dice are held: release a die to roll it, or score a box.")
        return ""

    def stand_refusal(self, play) -> str:
        return _("Yahtzee has no stand: choose a box on the score card.")

    def toggled(self, play, pos: int):
        g = play.game
        if not g.state.rolls:
            return _("Roll first: then click dice (or press 1-5) to hold them.")
        if g.rerolls_left <= 0:
            return _("No rolls left this turn: choose a box on the score card.")
        if not 0 <= pos < 5:
            return None
        return {"held": tuple(sorted(set(play.held) ^ {pos}))}

    def drops_held(self, state, seat: int) -> bool:
        return state.current != seat or not state.rolls

    def roll_label(self, play) -> str:
        g = play.game
        if not g.state.rolls:
            return _("Roll (Enter)")
        return _("Roll again (Enter) · {n} left", n=g.rerolls_left)

    # ----- what the table shows ----------------------------------------------------------------
    def banner_parts(self, play) -> list[str]:
        g = play.game
        st = g.state
        filled = 13 - len(g.open_boxes(st.current))
        parts = [_("round {round} of 13", round=min(filled + 1, 13))]
        if st.rolls:
            parts.append(_("roll {roll} of {rolls}", roll=st.rolls, rolls=g.config.rerolls + 1))
        return parts

    def tray(self, play, view, roller, last, fresh):
        g = play.game
        st = g.state
        rolled = []
        view["show_keep"] = False
        held = set(play.held)
        can_hold = play.person_on_turn and bool(st.rolls) and g.rerolls_left > 0
        you = says_you(roller)
        if st.dice:
            view["rolled_label"] = (_("click dice or press 1-5 to hold") if can_hold
                                    else _("Your dice") if you
                                    else _("{name}'s dice", name=roller))
            for i, d in enumerate(st.dice):
                h = i in held
                rolled.append(die(d, i, "held" if h else "",
                                  _("HELD {pos}", pos=i + 1) if h else f"{i + 1}",
                                  _("die {pos}: {face}, held", pos=i + 1, face=d) if h
                                  else _("die {pos}: {face}", pos=i + 1, face=d),
                                  i in fresh, click=can_hold, sel=h))
        else:
            view["rolled_label"] = _("dice")
            if last is not None and last.seat is not None:
                view["rolled_label"] = (_("Your last dice") if you
                                        else _("{name}'s last dice", name=roller))
                for i, d in enumerate(last.data["dice"]):
                    rolled.append(die(d, i, "old", "", f"{d}"))
        return rolled, []

    def board_head(self) -> str:
        return board_head_row(_("Boxes filled"))

    def board_cell(self, play, seat, won) -> str:
        filled = 13 - len(play.game.open_boxes(seat))
        return f"<td>{filled}/13{winner_mark() if won else ''}</td>"

    def board_note(self, play) -> str:
        return ""

    def turn_points(self, event, before_turn_total):
        return event.data.get("points") if event.kind == "score" else None

    # ----- odds and the hint -------------------------------------------------------------------
    def odds(self, play):
        return yahtzee_odds(play)

    def turn_hint(self, play, odds, name) -> str:
        g = play.game
        st = g.state
        total_rolls = g.config.rerolls + 1
        if not st.rolls:
            return (_("{name} rolls all five dice (Roll, Enter or .).", name=name)
                    if name is not None else
                    _("Roll all five dice (click Roll, or press Enter or .): {n} rolls this "
                      "turn.", n=total_rolls))
        left = g.rerolls_left
        roll, rolls = st.rolls, total_rolls
        if left and name is None:
            text = _("Roll {roll} of {rolls}: click dice (or press 1-5) to hold them, then Roll "
                     "again (Enter) — or choose a box on the score card.", roll=roll,
                     rolls=rolls)
        elif left:
            text = _("Roll {roll} of {rolls}: {name} may roll again or score a box.", roll=roll,
                     rolls=rolls, name=name)
        elif name is None:
            text = _("Roll {roll} of {rolls}: no rolls left — choose a box on the score card.",
                     roll=roll, rolls=rolls)
        else:
            text = _("Roll {roll} of {rolls}: {name} must score a box.", roll=roll,
                     rolls=rolls, name=name)
        best = best_sentence(odds)
        if best:
            text += " " + best
        return text

    def odds_chart(self):
        """The chance of each open box by the end of the turn."""
        shown_names = names()
        src = ColumnDataSource(dict(y=shown_names, x=[0.0] * 13, color=[LO] * 13,
                                    label=[""] * 13))
        f = odds_figure("", height=330, y_range=list(reversed(shown_names)))
        f.hbar(y="y", right="x", height=0.7, color="color", source=src)
        f.add_layout(LabelSet(x="x", y="y", text="label", source=src, x_offset=4,
                              y_offset=-6, text_font_size="11px", text_font_style="bold"))
        f.x_range = Range1d(0, 1.25)
        f.xaxis.ticker = [0, 0.5, 1]
        f.ygrid.grid_line_color = None
        self.label_chart(f)
        return f, src

    def label_chart(self, f) -> None:
        f.title.text = _("Chance of scoring in each open box this turn")
        f.xaxis.major_label_overrides = {t: percent(t) for t in (0, 0.5, 1)}
        factors = list(reversed(names()))
        if list(f.y_range.factors) != factors:  # the box names in another language
            f.y_range.factors = factors

    def draw_odds(self, o, src, play) -> str:
        chance = {r["box"]: r.get("chance") for r in o.rows}
        set_data(src, dict(
            y=names(), x=[chance.get(b) or 0.0 for b in BOXES],
            color=[HI if b == o.best else (LO if b in chance else "#e0e0e0") for b in BOXES],
            label=[box_label(chance, b, o.best) for b in BOXES]))
        rows = []
        for r in o.rows:
            value = "—" if r.get("value") is None else dec(r["value"])
            star = "★ " if r["box"] == o.best else ""
            rows.append(f"<tr><td>{star}{esc(box(r['box']))}</td><td>{esc(str(r['now']))}"
                        f"</td><td>{esc(pct(r.get('chance')))}</td><td>{value}</td></tr>")
        keeps = ""
        adv = getattr(o, "advice", None)
        if adv is not None and adv.keeps:
            top = sorted(adv.keeps.items(), key=lambda kv: -kv[1])[:3]
            keeps = "<p>" + esc(_("Best holds: {holds}", holds=", ".join(
                f"{dice_words(k)} → {dec(v)}" for k, v in top))) + "</p>"
        head = "".join(f"<th>{esc(t)}</th>" for t in (
            _("Open box"), _("now"), _("chance this turn"), _("value if scored now")))
        values = _("Values: expected points still to come with optimal solitaire play.")
        return (f"<div class='odds' data-testid='odds'><table><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>{keeps}<p>{esc(yahtzee_note(o))}</p>"
                f"<p><small>{esc(values)}</small></p></div>")


def dice_words(dice) -> str:
    """(6, 6, 6) -> "6 6 6"; () -> "nothing"."""
    return " ".join(map(str, dice)) or _("nothing")


def yahtzee_choice(choice) -> str:
    """("keep", (6, 6, 6)) -> "keep 6 6 6"; ("keep", ()) -> "reroll all";
    ("box", "chance") -> "score Chance now"."""
    kind, what = choice
    if kind == "box":
        return _("score {box} now", box=box(what))
    return _("keep {dice}", dice=" ".join(map(str, what))) if what else _("reroll all")


def points_note(odds) -> str:
    """The points advice of the Yahtzee odds (dicelab.odds.yahtzee), in words."""
    if getattr(odds, "advice_best", None) is None:
        start = getattr(odds, "start_value", None)
        if start is None:
            return ""
        return _("Expected points still to come with best play: {value}. Roll to see each "
                 "box's chances.", value=dec(start))
    best = best_play_words(odds)
    if odds.holding:
        best += " " + _("Holding {dice} now is worth {value}.", dice=dice_words(odds.holding),
                        value=dec(odds.holding_value))
    elif odds.holding is not None:
        best += " " + _("Holding nothing now is worth {value}.", value=dec(odds.holding_value))
    return best


def best_play_words(odds) -> str:
    kind, what = odds.advice_best
    if kind == "box":
        return _("Best play: score {box} (worth {value} points to come).", box=box(what),
                 value=dec(odds.advice_value))
    if not what:
        return _("Best play: roll all five again (worth {value} points to come).",
                 value=dec(odds.advice_value))
    return _("Best play: keep {dice} and roll again (worth {value} points to come).",
             dice=dice_words(what), value=dec(odds.advice_value))


def best_sentence(odds) -> str:
    """The hint's part of the advice: the best play (and the play to win where it differs)."""
    if getattr(odds, "advice_best", None) is None:
        return ""
    r = getattr(odds, "race", None)
    if r is not None and r.differs:
        return yahtzee_note(odds)
    best = best_play_words(odds)
    if r is not None and odds.holding is None:
        best += " " + _("Chance to win: {chance}.", chance=pct(r.win_chance))
    return best


def yahtzee_note(odds) -> str:
    """The Yahtzee odds' advice sentence: the points advice, or in the last box against others
    the play to win, with the points contrast where they part."""
    if isinstance(odds, str) or not hasattr(odds, "rows"):
        return str(odds) if odds else ""
    note = points_note(odds)
    r = getattr(odds, "race", None)
    if r is None:
        return note
    if r.differs:
        return _("Best play to win: {choice}.", choice=yahtzee_choice(r.choice)) + " " + \
            race_points_vs_win(r)
    return note + " " + _("Chance to win: {chance}.", chance=pct(r.win_chance))


def race_points_vs_win(r) -> str:
    """Yahtzee's last box (odds.yahtzee_race.Race), where points and the chance to win part:
    "For points, keep 6 6 6 (expected 24.5). To win, reroll all: 31% vs 18%." ("" where they
    agree)."""
    if not r.differs:
        return ""
    return _("For points, {choice} (expected {points}). To win, {win_choice}: {win} vs "
             "{other}.", choice=yahtzee_choice(r.points_choice),
             points=dec(r.points_choice_points), win_choice=yahtzee_choice(r.choice),
             win=pct(r.win_chance), other=pct(r.points_choice_win))


def box_label(chance: dict, b: str, best) -> str:
    if b not in chance:
        return _("filled")
    text = pct(chance[b]) if chance[b] is not None else ""
    return text + (" ★" if b == best else "")
