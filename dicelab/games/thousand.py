"""Thousand, "1000" (docs/explanation/rules.md "Thousand"): opening, pits, the barrel and bolts."""
from __future__ import annotations

from dataclasses import dataclass

from ..i18n import L_, Ln_
from ..rules import fivedice as turn
from ..rules import thousand as rules
from ..settings import ThousandSettings
from .base import Event, evolve, put as _put, register
from .fivedice import FiveDiceGame, FiveDiceState


@dataclass(frozen=True)
class ThousandState(FiveDiceState):
    bolts: tuple[int, ...] = ()          # bolts in a row, since the last penalty or banked turn
    on_barrel: tuple[bool, ...] = ()
    barrel_turns: tuple[int, ...] = ()   # failed turns on the barrel so far


@register
class ThousandGame(FiveDiceGame):
    """Thousand: hot dice must be rolled again; busts give bolts; the barrel wins the game."""

    variant = "thousand"
    Settings = ThousandSettings
    State = ThousandState
    hot_dice_compulsory = True
    rule_name = L_("Thousand")

    def score_roll(self, dice):
        return rules.score(dice)

    def _initial_state(self, starter):
        n = self.n_seats
        return evolve(super()._initial_state(starter), bolts=(0,) * n,
                       on_barrel=(False,) * n, barrel_turns=(0,) * n)

    def pit(self, total: int) -> tuple[int, int] | None:
        return turn.pit(self.turn_rules, total)

    def standing(self, state, seat):
        return turn.Standing(state.totals[seat], state.on_board[seat], state.on_barrel[seat],
                             state.barrel_turns[seat], state.bolts[seat])

    def _with_standing(self, state, seat, p: turn.Standing):
        return evolve(state, totals=_put(state.totals, seat, p.total),
                      on_board=_put(state.on_board, seat, p.on_board),
                      on_barrel=_put(state.on_barrel, seat, p.on_barrel),
                      barrel_turns=_put(state.barrel_turns, seat, p.barrel_turns),
                      bolts=_put(state.bolts, seat, p.bolts))

    def stand_requirement(self, state, seat):
        s = self.config
        total = state.totals[seat]
        goal, need = turn.stand_goal(self.turn_rules, total, state.on_board[seat],
                                     state.on_barrel[seat])
        # the goals are keys in English words (callers word a sentence for each)
        if goal == "open":
            return need, L_("Thousand opening: a first stand needs {opening}",
                            opening=s.opening), "open"
        if goal == "barrel":
            return (need, L_("Thousand barrel: from the barrel only a turn reaching {target} "
                             "may stand", target=s.target),
                    "win from the barrel")  # i18n: not shown
        if goal == "pit":
            return (need, L_("Thousand pit: from {total} a stand must climb out of the pit to "
                             "{to}", total=total, to=total + need),
                    "climb out of the pit")  # i18n: not shown
        return need, self.rule_name, "stand"

    def _bank(self, state, seat):
        s = self.config
        you, name = self._you(seat), self._shown(seat)
        after, won = turn.stand(self.turn_rules, self.standing(state, seat), state.turn_total)
        total = after.total
        # numbers as the English texts always showed them (ungrouped: "total 1000")
        v = {"banked": str(state.turn_total), "total": str(total)}
        state = self._with_standing(state, seat, after)
        if won:
            text = (L_("You stand with {banked}: {total} — You win!", **v) if you else
                    L_("{name} stands with {banked}: {total} — {name} wins!", name=name, **v))
            return evolve(state, winner=seat, phase="over"), [
                Event("win", seat, text, {"total": total})]
        if after.on_barrel:
            n, b = s.barrel_attempts, {"barrel": str(s.barrel), "target": str(s.target)}
            text = (Ln_("You stand with {banked}: on the barrel at {barrel}; {n} turns to reach "
                        "{target}.", "You stand with {banked}: on the barrel at {barrel}; {n} "
                        "turns to reach {target}.", n, banked=v["banked"], **b) if you else
                    Ln_("{name} stands with {banked}: on the barrel at {barrel}; {n} turns to "
                        "reach {target}.", "{name} stands with {banked}: on the barrel at "
                        "{barrel}; {n} turns to reach {target}.", n, name=name,
                        banked=v["banked"], **b))
            return state, [Event("barrel", seat, text, {"total": s.barrel})]
        pit = self.pit(total)
        if pit:
            p = {"low": str(pit[0]), "high": str(pit[1])}
            text = (L_("You stand with {banked}: total {total} (in the pit {low}-{high}).", **v,
                       **p) if you else
                    L_("{name} stands with {banked}: total {total} (in the pit {low}-{high}).",
                       name=name, **v, **p))
        else:
            text = (L_("You stand with {banked}: total {total}.", **v) if you else
                    L_("{name} stands with {banked}: total {total}.", name=name, **v))
        return state, [Event("stand", seat, text,
                             {"banked": state.turn_total, "total": total})]

    def _bust(self, state, seat):
        s = self.config
        you, name = self._you(seat), self._shown(seat)
        before = self.standing(state, seat)
        after = turn.bust(self.turn_rules, before)
        state = self._with_standing(state, seat, after)
        if before.on_barrel:
            tries = before.barrel_turns + 1
            if after.on_barrel:
                return state, [Event("barrel_attempt", seat, L_(
                    "{name}: barrel attempt {attempt} of {attempts} failed.", name=name,
                    attempt=tries, attempts=s.barrel_attempts), {"attempt": tries})]
            f = {"fall": str(s.barrel_fall), "total": str(after.total)}
            text = (Ln_("You fall off the barrel after {n} attempts: -{fall}, total {total}.",
                        "You fall off the barrel after {n} attempts: -{fall}, total {total}.",
                        tries, **f) if you else
                    Ln_("{name} falls off the barrel after {n} attempts: -{fall}, total "
                        "{total}.", "{name} falls off the barrel after {n} attempts: -{fall}, "
                        "total {total}.", tries, name=name, **f))
            return state, [Event("fall", seat, text, {"total": after.total})]
        bolts = before.bolts + 1
        events = [Event("bolt", seat, L_("You get a bolt ({bolts} in a row).", bolts=bolts)
                        if you else L_("{name} gets a bolt ({bolts} in a row).", name=name,
                                       bolts=bolts), {"bolts": bolts})]
        if after.bolts == 0 and s.bolt_penalty:  # the count starts again after a penalty
            n, pen = s.bolts_per_penalty, {"penalty": str(s.bolt_penalty),
                                           "total": str(after.total)}
            text = (Ln_("You lose {penalty} for {n} bolts in a row: total {total}.",
                        "You lose {penalty} for {n} bolts in a row: total {total}.", n, **pen)
                    if you else
                    Ln_("{name} loses {penalty} for {n} bolts in a row: total {total}.",
                        "{name} loses {penalty} for {n} bolts in a row: total {total}.", n,
                        name=name, **pen))
            events.append(Event("penalty", seat, text, {"total": after.total}))
        return state, events

    def status(self, seat: int) -> dict:
        """What the status column shows for a player."""
        st = self._state
        return {"opened": st.on_board[seat], "pit": self.pit(st.totals[seat]),
                "on_barrel": st.on_barrel[seat],
                "barrel_attempts_left": turn.attempts_left(self.turn_rules,
                                                           self.standing(st, seat)),
                "bolts": st.bolts[seat]}
