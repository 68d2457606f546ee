"""Bones and Thousand at the table: dice set aside to a keep area, a turn total, stand or roll."""
from __future__ import annotations

from ...actions import Roll, Stand
from ...i18n import _, n_, p_
from ..odds_view import (FiveDiceOdds, bones_win_odds, fivedice_odds, thousand_race,
                         thousand_win_odds)
from ..phrases import preset_name, says_you
from .base import VariantUI, board_head_row, die, esc, register, winner_mark
from .fivedice_odds import draw_odds, goal_words, label_chart, odds_chart, odds_words


class FiveDiceUI(VariantUI):
    # ----- the person's choices --------------------------------------------------------------
    def keep_arg(self, play):
        """The set-aside choice to send with the action (None: all counting dice)."""
        if not play.choosing or play.keep is None:
            return None
        auto = tuple(i for i, c in enumerate(play.game.state.counting) if c)
        keep = tuple(sorted(play.keep))
        return None if keep == auto else keep

    def roll_action(self, play):
        return Roll(keep=self.keep_arg(play))

    def stand_action(self, play):
        return Stand(keep=self.keep_arg(play))

    def toggled(self, play, pos: int):
        if not play.choosing:
            return None
        st = play.game.state
        if not 0 <= pos < len(st.dice) or not st.counting[pos]:
            return _("Only counting dice can be set aside.")
        keep = set(play.keep_positions()) ^ {pos}
        if not keep:
            return _("Set aside at least one counting die.")
        return {"keep": tuple(sorted(keep))}

    def roll_label(self, play) -> str:
        st = play.game.state
        return _("Roll again (.)") if st.phase == "decide" or st.hot_dice else _("Roll (.)")

    # ----- what the table shows ----------------------------------------------------------------
    def banner_parts(self, play) -> list[str]:
        st = play.game.state
        parts = [_("turn total {points}", points=st.turn_total)]
        if st.phase == "decide" or st.hot_dice:
            parts.append(_("hot dice: 5 dice to roll") if st.hot_dice
                         else n_("{n} die to roll", "{n} dice to roll", st.dice_left))
        if getattr(st, "final_from", None) is not None:
            parts.append(_("final turns"))
        return parts

    def tray(self, play, view, roller, last, fresh):
        st = play.game.state
        rolled, kept = [], []
        view["show_keep"] = True
        view["keep_label"] = _("keep ✓")
        mine = st.phase == "decide" or st.hot_dice
        you = says_you(roller)
        if play.choosing:
            keep = set(play.keep_positions())
            if play.person_on_turn:
                view["rolled_label"] = (
                    _("You rolled — click counting dice to set aside (1-5)") if you else
                    _("{name} rolled — click counting dice to set aside (1-5)", name=roller))
            else:
                view["rolled_label"] = _("You rolled") if you else _("{name} rolled",
                                                                     name=roller)
            for i, d in enumerate(st.dice):
                if st.counting[i]:
                    sel = i in keep
                    rolled.append(die(
                        d, i, "choose count" if sel else "choose",  # i18n: not shown
                        _("✓ set aside") if sel else _("counts"),
                        _("die {pos}: {face}, counting, set aside", pos=i + 1, face=d) if sel
                        else _("die {pos}: {face}, counting, not set aside", pos=i + 1, face=d),
                        i in fresh, click=play.person_on_turn, sel=sel))
                else:
                    rolled.append(die(d, i, "", "", _("die {pos}: {face}, does not count",
                                                      pos=i + 1, face=d), i in fresh))
            kept = [die(d, 100 + j, "count", "✓", _("{face}, kept earlier", face=d))
                    for j, d in enumerate(st.before_kept)]
        elif mine and st.dice:
            # last roll: non-counting dice stay to be rolled again, counting ones move to keep
            if st.hot_dice:
                view["rolled_label"] = _("hot dice: all five roll again")
            else:
                view["rolled_label"] = _("You rolled") if you else _("{name} rolled",
                                                                     name=roller)
            n_new = sum(st.counting)
            for i, d in enumerate(st.dice):
                if not st.counting[i]:
                    rolled.append(die(d, i, "", "", _("{face}, does not count", face=d),
                                      i in fresh))
            old = len(st.kept) - n_new
            for j, d in enumerate(st.kept):
                new = j >= old
                kept.append(die(d, 100 + j, "count", "✓",
                                _("{face}, counting, kept this roll", face=d) if new
                                else _("{face}, counting, kept", face=d),
                                fresh=new and bool(fresh)))
        elif st.dice:
            bust = last is not None and last.kind == "bust"
            if bust:
                view["rolled_label"] = (_("Your last roll — bust") if you else
                                        _("{name}'s last roll — bust", name=roller))
            else:
                view["rolled_label"] = (_("Your last roll") if you else
                                        _("{name}'s last roll", name=roller))
            for i, d in enumerate(st.dice):
                c = st.counting[i] if i < len(st.counting) else False
                rolled.append(die(d, i, "bust" if bust else "old", "✗" if bust else
                                  ("✓" if c else ""),
                                  _("{face}, no counting die", face=d) if bust else f"{d}",
                                  fresh=i in fresh and bust))
            if bust:
                view["badge"], view["badge_kind"] = _("BUST"), "bust"
        else:
            view["rolled_label"] = _("dice")
        if st.hot_dice:
            view["badge"], view["badge_kind"] = _("HOT DICE"), "hot"
        return rolled, kept

    def board_head(self) -> str:
        return board_head_row(_("Status"))

    def board_cell(self, play, seat, won) -> str:
        status = self.status(play, seat)
        if won:
            status += winner_mark()
        return f"<td class='status'>{status}</td>"

    def status(self, play, seat) -> str:
        raise NotImplementedError

    def turn_points(self, event, before_turn_total):
        if event.kind in ("stand", "barrel", "win"):
            return event.data.get("banked", before_turn_total)
        return None

    # ----- odds and the hint -------------------------------------------------------------------
    def odds(self, play):
        return fivedice_odds(play)

    def turn_hint(self, play, odds, name) -> str:
        g = play.game
        st = g.state
        need, _rule = g.need_to_stand()
        tt = st.turn_total
        if play.choosing and play.keep is not None and isinstance(odds, FiveDiceOdds):
            tt = odds.readout.turn_total
        goal = goal_words(g.stand_goal())
        lines = []
        if st.phase == "roll" and tt == 0:
            lines.append(_("{name} rolls to start the turn.", name=name) if name is not None
                         else _("Roll to start your turn (press . or click Roll)."))
            if need:
                lines.append(
                    _("You need {need} in this turn to {goal}.", need=need, goal=goal)
                    if name is None else
                    _("{name} needs {need} in this turn to {goal}.", name=name, need=need,
                      goal=goal))
        elif st.hot_dice and g.hot_dice_compulsory:
            lines.append(_("Hot dice! All five must be rolled again (turn total {points}).",
                           points=tt))
        else:
            if st.hot_dice:
                lines.append(
                    _("Hot dice! You may roll all five again, keeping {points}.", points=tt)
                    if name is None else
                    _("Hot dice! {name} may roll all five again, keeping {points}.", name=name,
                      points=tt))
            if tt < need:
                lines.append(
                    _("You need {more} more this turn to {goal} ({need} in all).",
                      more=need - tt, goal=goal, need=need) if name is None else
                    _("{name} needs {more} more this turn to {goal} ({need} in all).",
                      name=name, more=need - tt, goal=goal, need=need))
            elif need and not st.hot_dice:
                lines.append(
                    _("{points} is enough to {goal}: you may stand.", points=tt, goal=goal)
                    if name is None else
                    _("{points} is enough to {goal}: {name} may stand.", points=tt, goal=goal,
                      name=name))
        if isinstance(odds, FiveDiceOdds):
            lines.append(odds_words(odds, tt, name))
        return " ".join(lines)

    def odds_chart(self):
        return odds_chart()

    def label_chart(self, fig) -> None:
        label_chart(fig)

    def draw_odds(self, o, src, play) -> str:
        return draw_odds(o, src, play)


@register
class BonesUI(FiveDiceUI):
    variant = "bones"
    @property
    def title(self) -> str:
        return p_("game", "Bones")

    def settings_title(self, c) -> str:
        preset = preset_name(c.preset)
        if c.choose_keepers:
            return _("Bones ({preset} rules, to {target}, on board at {minimum}, choose "
                     "keepers)", preset=preset, target=c.target, minimum=c.min_on_board)
        return _("Bones ({preset} rules, to {target}, on board at {minimum})", preset=preset,
                 target=c.target, minimum=c.min_on_board)

    def choosing(self, play) -> bool:
        g = play.game
        return (g.config.choose_keepers and not g.is_over and g.state.phase == "decide"
                and bool(g.state.dice))

    def status(self, play, seat) -> str:
        st = play.game.state
        status = _("on board ✓") if st.on_board[seat] else _("not on board —")
        if st.final_from == seat:
            status += " · " + _("reached target")
        return status

    def board_note(self, play) -> str:
        g = play.game
        final = ""
        if g.state.final_from is not None:
            words = _("final turns")
            final = f" · <span class='final'>{words}</span>"
        return _("Target {target}", target=g.config.target) + final

    def odds(self, play):
        return fivedice_odds(play, win=bones_win_odds)


@register
class ThousandUI(FiveDiceUI):
    variant = "thousand"
    @property
    def title(self) -> str:
        return p_("game", "Thousand (1000)")

    def settings_title(self, c) -> str:
        # written as the game's name is ("1000"), not grouped
        if not c.barrel:
            return _("Thousand (to {target}, barrel off)", target=str(c.target))
        return _("Thousand (to {target}, barrel {barrel})", target=str(c.target),
                 barrel=str(c.barrel))

    def status(self, play, seat) -> str:
        g = play.game
        s = g.status(seat)
        bits = [_("opened ✓") if s["opened"] else _("not opened —")]
        if s["on_barrel"] and not g.is_over:  # attempts left mean nothing after a win
            bits.append("🛢 " + _("barrel {left}/{attempts} left", left=s["barrel_attempts_left"],
                                  attempts=g.config.barrel_attempts))
        elif s["pit"]:
            bits.append("⛏ " + _("pit {low}-{high}", low=s["pit"][0], high=s["pit"][1]))
        if s["bolts"]:
            bits.append("⚡" * s["bolts"] + " " + n_("{n} bolt", "{n} bolts", s["bolts"]))
        return "".join(f"<span>{esc(b)}</span>" for b in bits)

    def odds(self, play):
        return fivedice_odds(play, win=thousand_win_odds, race=thousand_race)

