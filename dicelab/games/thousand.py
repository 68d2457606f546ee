"""Thousand, "1000" (RULES.md "Thousand"): opening, pits, the barrel and bolts."""
from __future__ import annotations

from dataclasses import dataclass

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
        for low, high in self.config.pits:
            if low <= total < high:
                return low, high
        return None

    def stand_requirement(self, state, seat):
        s = self.config
        total = state.totals[seat]
        needs = [(0, "Thousand", "stand")]
        if not state.on_board[seat]:
            needs.append((s.opening, f"Thousand opening: a first stand needs {s.opening}", "open"))
        if state.on_barrel[seat]:
            needs.append((s.target - total, f"Thousand barrel: from the barrel only a turn "
                          f"reaching {s.target} may stand", "win from the barrel"))
        elif (pit := self.pit(total)) is not None:
            needs.append((pit[1] - total, f"Thousand pit: from {total} a stand must climb out "
                          f"of the pit to {pit[1]}", "climb out of the pit"))
        return max(needs, key=lambda n: n[0])

    def _bank(self, state, seat):
        s = self.config
        name = self._name(seat)
        total = state.totals[seat] + state.turn_total
        state = evolve(state, on_board=_put(state.on_board, seat, True),
                        bolts=_put(state.bolts, seat, 0))
        text = f"{self._says(seat, 'stands')} with {state.turn_total}"
        if state.on_barrel[seat] or (not s.barrel and total >= s.target):
            state = evolve(state, totals=_put(state.totals, seat, total), winner=seat,
                            phase="over")
            return state, [Event("win", seat, f"{text}: {total} — {self._says(seat, 'wins')}!",
                                 {"total": total})]
        if s.barrel and total >= s.barrel:
            state = evolve(state, totals=_put(state.totals, seat, s.barrel),
                            on_barrel=_put(state.on_barrel, seat, True),
                            barrel_turns=_put(state.barrel_turns, seat, 0))
            return state, [Event("barrel", seat, f"{text}: on the barrel at {s.barrel}; "
                                 f"{s.barrel_attempts} turns to reach {s.target}.",
                                 {"total": s.barrel})]
        state = evolve(state, totals=_put(state.totals, seat, total))
        pit = self.pit(total)
        return state, [Event("stand", seat, f"{text}: total {total}"
                             + (f" (in the pit {pit[0]}-{pit[1]})" if pit else "") + ".",
                             {"banked": state.turn_total, "total": total})]

    def _bust(self, state, seat):
        s = self.config
        name = self._name(seat)
        if state.on_barrel[seat]:
            tries = state.barrel_turns[seat] + 1
            if tries < s.barrel_attempts:
                return evolve(state, barrel_turns=_put(state.barrel_turns, seat, tries)), [
                    Event("barrel_attempt", seat, f"{name}: barrel attempt {tries} of "
                          f"{s.barrel_attempts} failed.", {"attempt": tries})]
            total = state.totals[seat] - s.barrel_fall
            return evolve(state, totals=_put(state.totals, seat, total),
                           on_barrel=_put(state.on_barrel, seat, False),
                           barrel_turns=_put(state.barrel_turns, seat, 0)), [
                Event("fall", seat, f"{self._says(seat, 'falls')} off the barrel after {tries} "
                      f"attempts: "
                      f"-{s.barrel_fall}, total {total}.", {"total": total})]
        bolts = state.bolts[seat] + 1
        events = [Event("bolt", seat, f"{self._says(seat, 'gets')} a bolt ({bolts} in a row).",
                        {"bolts": bolts})]
        if bolts >= s.bolts_per_penalty:
            total = state.totals[seat] - s.bolt_penalty
            state = evolve(state, totals=_put(state.totals, seat, total))
            bolts = 0
            if s.bolt_penalty:
                events.append(Event("penalty", seat, f"{self._says(seat, 'loses')} "
                                    f"{s.bolt_penalty} for "
                                    f"{s.bolts_per_penalty} bolts in a row: total {total}.",
                                    {"total": total}))
        return evolve(state, bolts=_put(state.bolts, seat, bolts)), events

    def status(self, seat: int) -> dict:
        """What the status column shows for a player."""
        st = self._state
        return {"opened": st.on_board[seat], "pit": self.pit(st.totals[seat]),
                "on_barrel": st.on_barrel[seat],
                "barrel_attempts_left": self.config.barrel_attempts - st.barrel_turns[seat]
                if st.on_barrel[seat] else None,
                "bolts": st.bolts[seat]}
