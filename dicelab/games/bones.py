"""Bones (docs/explanation/rules.md "Bones"): five dice, first to the target, final turns for the
others."""
from __future__ import annotations

from dataclasses import dataclass

from ..i18n import L_
from ..rules import bones as rules
from ..rules import fivedice as turn
from ..settings import BonesSettings
from .base import Event, evolve, put as _put, register
from .fivedice import FiveDiceGame, FiveDiceState


@dataclass(frozen=True)
class BonesState(FiveDiceState):
    final_from: int | None = None      # who reached the target first: the others get one turn
    reached_at: tuple[int, ...] = ()   # turn at which each total was reached (breaks ties)


@register
class BonesGame(FiveDiceGame):
    """Bones: all counting dice are kept, hot dice may be rolled again, BONES is 10,000."""

    variant = "bones"
    Settings = BonesSettings
    State = BonesState
    rule_name = L_("Bones")

    def score_roll(self, dice):
        return rules.score(dice, self.config.preset)

    def choose_keepers(self) -> bool:
        return self.config.choose_keepers

    def _initial_state(self, starter):
        return evolve(super()._initial_state(starter), reached_at=(0,) * self.n_seats)

    def stand_requirement(self, state, seat):
        goal, need = turn.stand_goal(self.turn_rules, state.totals[seat], state.on_board[seat])
        if goal == "stand":
            return need, self.rule_name, "stand"
        return (need, L_("Bones: to get on the board a turn needs {need}", need=need),
                "get on the board")  # i18n: not shown (the goal is a key)

    def _bank(self, state, seat):
        after, _ = turn.stand(self.turn_rules, self.standing(state, seat), state.turn_total)
        total = after.total
        you, name, banked = self._you(seat), self._shown(seat), state.turn_total
        text = (L_("You stand and bank {banked}: total {total}.", banked=banked, total=total)
                if you else L_("{name} stands and banks {banked}: total {total}.", name=name,
                               banked=banked, total=total))
        events = [Event("stand", seat, text, {"banked": state.turn_total, "total": total})]
        state = evolve(state, totals=_put(state.totals, seat, total),
                        on_board=_put(state.on_board, seat, after.on_board),
                        reached_at=_put(state.reached_at, seat, state.turn))
        if turn.starts_final_turns(total, self.config.target, state.final_from):
            state = evolve(state, final_from=seat)
            if self.n_seats > 1:
                target = self.config.target
                events.append(Event("final", seat, L_(
                    "You reached {target}: every other player gets one final turn.",
                    target=target) if you else L_(
                    "{name} reached {target}: every other player gets one final turn.",
                    name=name, target=target), {}))
        return state, events

    def _after_turn(self, state, seat):
        nxt = self._next_seat(seat)
        if state.final_from is not None and turn.final_turns_over(state.final_from, nxt):
            winner = turn.bones_winner(state.totals, state.reached_at)
            return evolve(state, winner=winner, phase="over")
        return evolve(state, current=nxt)

    @property
    def final_turns(self) -> bool:
        return self._state.final_from is not None
