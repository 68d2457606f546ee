"""Bones and Thousand at the table: dice set aside to a keep area, a turn total, stand or roll."""
from __future__ import annotations

from bokeh.models import ColumnDataSource, LabelSet, Range1d

from ...actions import Roll, Stand
from ..odds_view import (FiveDiceOdds, bones_win_odds, fivedice_odds, thousand_race,
                         thousand_win_odds)
from ..phrases import cap, num, pct, points_vs_win, possessive, win_pair
from .base import HI, LO, VariantUI, die, esc, odds_figure, odds_list, register

DICE = ["1", "2", "3", "4", "5"]


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
            return "Only counting dice can be set aside."
        keep = set(play.keep_positions()) ^ {pos}
        if not keep:
            return "Set aside at least one counting die."
        return {"keep": tuple(sorted(keep))}

    def roll_label(self, play) -> str:
        st = play.game.state
        return "Roll again (.)" if st.phase == "decide" or st.hot_dice else "Roll (.)"

    # ----- what the table shows ----------------------------------------------------------------
    def banner_parts(self, play) -> list[str]:
        st = play.game.state
        parts = [f"turn total {num(st.turn_total)}"]
        if st.phase == "decide" or st.hot_dice:
            parts.append("hot dice: 5 dice to roll" if st.hot_dice
                         else f"{st.dice_left} {'die' if st.dice_left == 1 else 'dice'} to roll")
        if getattr(st, "final_from", None) is not None:
            parts.append("final turns")
        return parts

    def tray(self, play, view, roller, last, fresh):
        st = play.game.state
        rolled, kept = [], []
        view["show_keep"] = True
        view["keep_label"] = "keep ✓"
        mine = st.phase == "decide" or st.hot_dice
        if play.choosing:
            keep = set(play.keep_positions())
            view["rolled_label"] = (f"{roller} rolled — click counting dice to set aside (1-5)"
                                    if play.person_on_turn else f"{roller} rolled")
            for i, d in enumerate(st.dice):
                if st.counting[i]:
                    sel = i in keep
                    rolled.append(die(d, i, "choose count" if sel else "choose", "✓ set aside"
                                      if sel else "counts", f"die {i + 1}: {d}, counting, "
                                      + ("set aside" if sel else "not set aside"),
                                      i in fresh, click=play.person_on_turn, sel=sel))
                else:
                    rolled.append(die(d, i, "", "", f"die {i + 1}: {d}, does not count",
                                      i in fresh))
            kept = [die(d, 100 + j, "count", "✓", f"{d}, kept earlier")
                    for j, d in enumerate(st.before_kept)]
        elif mine and st.dice:
            # last roll: non-counting dice stay to be rolled again, counting ones move to keep
            view["rolled_label"] = (f"{roller} rolled" if not st.hot_dice
                                    else "hot dice: all five roll again")
            n_new = sum(st.counting)
            for i, d in enumerate(st.dice):
                if not st.counting[i]:
                    rolled.append(die(d, i, "", "", f"{d}, does not count", i in fresh))
            old = len(st.kept) - n_new
            for j, d in enumerate(st.kept):
                new = j >= old
                kept.append(die(d, 100 + j, "count", "✓",
                                f"{d}, counting, kept" + (" this roll" if new else ""),
                                fresh=new and bool(fresh)))
        elif st.dice:
            bust = last is not None and last.kind == "bust"
            view["rolled_label"] = (cap(f"{possessive(roller)} last roll")
                                    + (" — bust" if bust else ""))
            for i, d in enumerate(st.dice):
                c = st.counting[i] if i < len(st.counting) else False
                rolled.append(die(d, i, "bust" if bust else "old", "✗" if bust else
                                  ("✓" if c else ""),
                                  f"{d}" + (", no counting die" if bust else ""),
                                  fresh=i in fresh and bust))
            if bust:
                view["badge"], view["badge_kind"] = "BUST", "bust"
        else:
            view["rolled_label"] = "dice"
        if st.hot_dice:
            view["badge"], view["badge_kind"] = "HOT DICE", "hot"
        return rolled, kept

    def board_head(self) -> str:
        return "<tr><th>Player</th><th class='num'>Total</th><th>Status</th></tr>"

    def board_cell(self, play, seat, won) -> str:
        status = self.status(play, seat)
        if won:
            status += " <b>★ winner</b>"
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

    def turn_hint(self, play, odds, who, s) -> str:
        g = play.game
        st = g.state
        need, _rule = g.need_to_stand()
        tt = st.turn_total
        if play.choosing and play.keep is not None and isinstance(odds, FiveDiceOdds):
            tt = odds.readout.turn_total
        goal = g.stand_goal()
        lines = []
        if st.phase == "roll" and tt == 0:
            lines.append(f"{who} roll{s} to start the turn." if who != "You"
                         else "Roll to start your turn (press . or click Roll).")
            if need:
                lines.append(f"{who} need{s} {num(need)} in this turn to {goal}.")
        elif st.hot_dice and g.hot_dice_compulsory:
            lines.append(f"Hot dice! All five must be rolled again (turn total {num(tt)}).")
        else:
            if st.hot_dice:
                lines.append(f"Hot dice! {who} may roll all five again, keeping {num(tt)}.")
            if tt < need:
                lines.append(f"{who} need{s} {num(need - tt)} more this turn to {goal}"
                             f" ({num(need)} in all).")
            elif need and not st.hot_dice:
                lines.append(f"{num(tt)} is enough to {goal}: "
                             f"{who.lower() if who == 'You' else who} may stand.")
        if isinstance(odds, FiveDiceOdds):
            lines.append(self._odds_words(odds, tt, who))
        return " ".join(lines)

    def _odds_words(self, odds, tt, who) -> str:
        ro = odds.readout
        n = ro.dice_left
        risk = f"Rolling {n} {'die' if n == 1 else 'dice'}: {pct(ro.bust_chance)} chance"
        risk += f" to lose {num(tt)}." if tt else " of a bust."
        if odds.final:
            # Bones' final turn: only passing the leader counts, not the points
            must, leader, chance = odds.final
            done = f"Final turn: {num(tt)} passes {num(leader)}. Best play: stand and win."
            todo = (f"Final turn: {who.lower() if who == 'You' else who} must reach "
                    f"{num(must)} this turn to pass {num(leader)} ({pct(chance)} chance "
                    f"from here). Best play: roll.")
        elif odds.race:
            # Thousand's race: a stand short of the barrel leaves the opponent the game
            p, must, chance = odds.race
            done = f"{num(tt)} reaches the barrel. Best play: stand."
            todo = (f"An opponent on the barrel wins next turn with {pct(p)} chance, so only "
                    f"reaching the barrel counts: {num(must)} this turn ({pct(chance)} "
                    f"chance from here). Best play: roll.")
        if odds.final or odds.race:
            best = done if tt >= must and ro.may_stand else todo
        else:
            best = (f"Best play: {ro.decision} (rolling is worth {num(ro.roll_value)}"
                    + (f" vs {num(ro.stand_value)} standing)." if ro.stand_value is not None
                       else ", standing is not allowed yet)."))
            w = odds.win
            if w is not None and w.stand_win_chance is not None and w.decision != ro.decision:
                best += f" To win, though: {w.decision} ({win_pair(w)} chance to win)."
        return risk + " " + best

    def odds_chart(self):
        src = ColumnDataSource(dict(x=DICE, y=[0.0] * 5, color=[LO] * 5, label=[""] * 5,
                                    hatch=[" "] * 5))
        f = odds_figure("Chance to score, by dice rolled", x_range=DICE)
        f.vbar(x="x", top="y", width=0.7, color="color", hatch_pattern="hatch",
               hatch_color="white", hatch_alpha=0.5, source=src)
        f.add_layout(LabelSet(x="x", y="y", text="label", source=src, text_align="center",
                              y_offset=3, text_font_size="11px", text_font_style="bold"))
        f.y_range = Range1d(0, 1.18)
        f.yaxis.ticker = [0, 0.25, 0.5, 0.75, 1]
        f.yaxis.major_label_overrides = {0: "0%", 0.25: "25%", 0.5: "50%", 0.75: "75%",
                                         1: "100%"}
        f.xaxis.axis_label = "dice rolled (current: ▲)"
        return f, src

    def draw_odds(self, o, src, play) -> str:
        ro = o.readout
        n = o.dice_now
        src.data = dict(
            x=DICE, y=o.counting,
            color=[HI if i + 1 == n else LO for i in range(5)],
            label=[("▲ " if i + 1 == n else "") + pct(p) for i, p in enumerate(o.counting)],
            hatch=[" " if i + 1 == n else "/" for i in range(5)])
        st = play.state
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
            said = points_vs_win(ro, w)
            if said:
                best += f"<br>{esc(said)}"
        elif o.win_note:
            best += f"<br><span class='na'>{esc(o.win_note)}</span>"
        return odds_list(rows, best)


@register
class BonesUI(FiveDiceUI):
    variant = "bones"
    title = "Bones"

    def settings_title(self, c) -> str:
        extra = ", choose keepers" if c.choose_keepers else ""
        return f"Bones ({c.preset} rules, to {c.target:,}, on board at {c.min_on_board}{extra})"

    def choosing(self, play) -> bool:
        g = play.game
        return (g.config.choose_keepers and not g.is_over and g.state.phase == "decide"
                and bool(g.state.dice))

    def status(self, play, seat) -> str:
        st = play.game.state
        status = "on board ✓" if st.on_board[seat] else "not on board —"
        if st.final_from == seat:
            status += " · reached target"
        return status

    def board_note(self, play) -> str:
        g = play.game
        final = " · <span class='final'>final turns</span>" \
            if g.state.final_from is not None else ""
        return f"Target {g.config.target:,}{final}"

    def odds(self, play):
        return fivedice_odds(play, win=bones_win_odds)


@register
class ThousandUI(FiveDiceUI):
    variant = "thousand"
    title = "Thousand (1000)"

    def settings_title(self, c) -> str:
        return f"Thousand (to {c.target}, barrel {c.barrel or 'off'})"

    def status(self, play, seat) -> str:
        g = play.game
        s = g.status(seat)
        bits = ["opened ✓" if s["opened"] else "not opened —"]
        if s["on_barrel"] and not g.is_over:  # attempts left mean nothing after a win
            bits.append(f"🛢 barrel {s['barrel_attempts_left']}/"
                        f"{g.config.barrel_attempts} left")
        elif s["pit"]:
            bits.append(f"⛏ pit {s['pit'][0]}-{s['pit'][1]}")
        if s["bolts"]:
            bits.append("⚡" * s["bolts"] + f" {s['bolts']} bolt"
                        + ("s" if s["bolts"] > 1 else ""))
        return "".join(f"<span>{esc(b)}</span>" for b in bits)

    def odds(self, play):
        return fivedice_odds(play, win=thousand_win_odds, race=thousand_race)
