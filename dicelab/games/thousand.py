"""Thousand, "1000" (RULES.md "Thousand"): opening, pits, the barrel and bolts."""
from __future__ import annotations

from dataclasses import dataclass

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
    rule_name = "Thousand"

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
        if goal == "open":
            return need, f"Thousand opening: a first stand needs {s.opening}", "open"
        if goal == "barrel":
            return (need, f"Thousand barrel: from the barrel only a turn reaching {s.target} "
                    "may stand", "win from the barrel")
        if goal == "pit":
            return (need, f"Thousand pit: from {total} a stand must climb out of the pit to "
                    f"{total + need}", "climb out of the pit")
        return need, "Thousand", "stand"

    def _bank(self, state, seat):
        s = self.config
        name = self._name(seat)
        after, won = turn.stand(self.turn_rules, self.standing(state, seat), state.turn_total)
        total = after.total
        text = f"{name} stands with {state.turn_total}"
        state = self._with_standing(state, seat, after)
        if won:
            return evolve(state, winner=seat, phase="over"), [
                Event("win", seat, f"{text}: {total} — {name} wins!", {"total": total})]
        if after.on_barrel:
            return state, [Event("barrel", seat, f"{text}: on the barrel at {s.barrel}; "
                                 f"{s.barrel_attempts} turns to reach {s.target}.",
                                 {"total": s.barrel})]
        pit = self.pit(total)
        return state, [Event("stand", seat, f"{text}: total {total}"
                             + (f" (in the pit {pit[0]}-{pit[1]})" if pit else "") + ".",
                             {"banked": state.turn_total, "total": total})]

    def _bust(self, state, seat):
        s = self.config
        name = self._name(seat)
        before = self.standing(state, seat)
        after = turn.bust(self.turn_rules, before)
        state = self._with_standing(state, seat, after)
        if before.on_barrel:
            tries = before.barrel_turns + 1
            if after.on_barrel:
                return state, [Event("barrel_attempt", seat, f"{name}: barrel attempt {tries} "
                                     f"of {s.barrel_attempts} failed.", {"attempt": tries})]
            return state, [Event("fall", seat, f"{name} falls off the barrel after {tries} "
                                 f"attempts: -{s.barrel_fall}, total {after.total}.",
                                 {"total": after.total})]
        bolts = before.bolts + 1
        events = [Event("bolt", seat, f"{name} gets a bolt ({bolts} in a row).",
                        {"bolts": bolts})]
        if after.bolts == 0 and s.bolt_penalty:  # the count starts again after a penalty
            events.append(Event("penalty", seat, f"{name} loses {s.bolt_penalty} for "
                                f"{s.bolts_per_penalty} bolts in a row: total {after.total}.",
                                {"total": after.total}))
        return state, events

    def status(self, seat: int) -> dict:
        """What the status column shows for a player."""
        st = self._state
        return {"opened": st.on_board[seat], "pit": self.pit(st.totals[seat]),
                "on_barrel": st.on_barrel[seat],
                "barrel_attempts_left": turn.attempts_left(self.turn_rules,
                                                           self.standing(st, seat)),
                "bolts": st.bolts[seat]}
