"""Under40 (docs/explanation/rules.md "Under40"; seed 001): two dice, rounds, get to 40 without
passing it.

A round: every player builds a round score from 0 by rolling. A player may stop only with a round
score above the best standing score of the others; exactly 40 wins the round at once, over 40
busts. The last player left unbusted wins the busted scores. Only round winners gain points.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action, Roll, Stand
from ..dice import roll
from ..errors import RuleError
from ..i18n import L_, _
from ..rules import under40 as rules
from ..settings import Under40Settings
from .base import Event, Game, evolve, put, register

GOAL = rules.GOAL

# a seat's place in the current round
WAITING = "waiting"    # has not had a turn this round
ROLLING = "rolling"    # on turn
STOPPED = "stopped"    # stopped with their round score, which stands
BUSTED = "busted"      # went over 40: out of the round


@dataclass(frozen=True)
class Under40State:
    current: int
    starter: int                       # who started this round
    totals: tuple[int, ...]
    round_scores: tuple[int, ...]
    status: tuple[str, ...]            # per seat: waiting, rolling, stopped or busted
    round: int = 1
    phase: str = "roll"                # roll: the turn's first roll is due; decide: roll or stop
    dice: tuple[int, ...] = ()         # the last roll of the game (kept across rounds)
    roll_points: int = 0
    roller: int | None = None          # who threw ``dice``
    pot: int = 0                       # busted round scores so far this round
    round_winner: int | None = None    # result of the last finished round
    round_award: int = 0
    winner: int | None = None


@register
class Under40Game(Game):
    """Under40: Roll, or Stand (stop) once your round score beats the best standing score."""

    variant = "under40"
    Settings = Under40Settings
    State = Under40State
    min_seats = 2
    rolloff_dice = 2

    # ----- what the UI and the terminal read ------------------------------------------------
    def best_standing(self, seat: int | None = None) -> int:
        """The highest round score of the other players who have stopped and not busted
        (0 before anyone stops)."""
        seat = self._state.current if seat is None else seat
        return _best_standing(self._state, seat)[0]

    def must_beat(self) -> int:
        """The round score the player on turn must exceed to stop."""
        return self.best_standing(self._state.current)

    def leader(self) -> int | None:
        """The seat holding the best standing score of the round (None before anyone stops)."""
        return _best_standing(self._state, None)[1]

    def round_others(self) -> tuple[int, ...]:
        """Round scores of the other players still in the round (busted ones left out), in
        seat order after the player on turn; 0 for one who has not had a turn yet. What
        ``dicelab.odds.under40.readout`` takes."""
        st = self._state
        n = self.n_seats
        seats = ((st.current + k) % n for k in range(1, n))
        return tuple(st.round_scores[i] for i in seats if st.status[i] != BUSTED)

    @property
    def may_stop(self) -> bool:
        """True when the player on turn may stop now."""
        st = self._state
        return (not self.is_over and st.phase == "decide"
                and st.round_scores[st.current] > self.must_beat())

    def status(self, seat: int) -> dict:
        """What the status column shows for a player."""
        st = self._state
        return {"status": st.status[seat], "round_score": st.round_scores[seat],
                "total": st.totals[seat], "on_turn": seat == st.current and not self.is_over}

    def hint(self) -> str:
        """One line saying what the player on turn may do."""
        st = self._state
        if self.is_over:
            return (_("You have won the game.") if self._you(st.winner) else
                    _("{name} has won the game.", name=self._shown(st.winner)))
        you, name = self._you(st.current), self._shown(st.current)
        if st.phase == "roll":
            return (_("You must roll: a turn begins with a roll.") if you else
                    _("{name} must roll: a turn begins with a roll.", name=name))
        beat, holder = _best_standing(st, st.current)
        score = st.round_scores[st.current]
        if score > beat:
            if holder is None:
                return (_("You may stop with {score} or roll on.", score=score) if you else
                        _("{name} may stop with {score} or roll on.", name=name, score=score))
            if you:
                return _("You may stop with {score} or roll on ({score} beats {holder}'s "
                         "{beat}).", score=score, holder=self._shown(holder), beat=beat)
            if self._you(holder):
                return _("{name} may stop with {score} or roll on ({score} beats your {beat}).",
                         name=name, score=score, beat=beat)
            return _("{name} may stop with {score} or roll on ({score} beats {holder}'s "
                     "{beat}).", name=name, score=score, holder=self._shown(holder), beat=beat)
        if you:
            return _("You must roll on: stopping needs more than {beat} ({holder}'s standing "
                     "score).", beat=beat, holder=self._shown(holder))
        if self._you(holder):
            return _("{name} must roll on: stopping needs more than {beat} (your standing "
                     "score).", name=name, beat=beat)
        return _("{name} must roll on: stopping needs more than {beat} ({holder}'s standing "
                 "score).", name=name, beat=beat, holder=self._shown(holder))

    # ----- the rules --------------------------------------------------------------------------
    def _initial_state(self, starter: int) -> Under40State:
        n = self.n_seats
        return Under40State(current=starter, starter=starter, totals=(0,) * n,
                            round_scores=(0,) * n, status=_round_status(n, starter))

    def _legal_actions(self, state) -> list[Action]:
        actions: list[Action] = [Roll()]
        if state.phase == "decide" and \
                state.round_scores[state.current] > _best_standing(state, state.current)[0]:
            actions.append(Stand())
        return actions

    def _transition(self, state, action: Action):
        if state.winner is not None:
            raise RuleError(L_("the game is over: no more actions"))
        if not isinstance(action, (Roll, Stand)):
            raise RuleError(L_("Under40 has two actions, roll and stop; not {action}",
                               action=repr(action)))
        if action.keep is not None:
            raise RuleError(L_("Under40: both dice are rolled every time; there are no dice to "
                               "keep"))
        if isinstance(action, Stand):
            return self._stop(state)
        return self._roll(state)

    def _roll(self, state: Under40State):
        seat = state.current
        you, name = self._you(seat), self._shown(seat)
        dice = roll(self._rng, 2)
        points = rules.roll_points(*dice)
        score = state.round_scores[seat] + points
        state = evolve(state, dice=dice, roll_points=points, roller=seat,
                        round_scores=put(state.round_scores, seat, score))
        shown = f"{dice[0]} {dice[1]}"
        text = (L_("You rolled {dice}: {points}, round score {score}.", dice=shown,
                   points=points, score=score) if you else
                L_("{name} rolled {dice}: {points}, round score {score}.", name=name, dice=shown,
                   points=points, score=score))
        events = [Event("roll", seat, text,
                        {"dice": dice, "points": points, "round_score": score})]
        if score == GOAL:
            award = GOAL * self.n_seats
            return self._end_round(state, seat, award, events, "exact")
        if score > GOAL:
            status = put(state.status, seat, BUSTED)
            state = evolve(state, status=status, pot=state.pot + score)
            events.append(Event("bust", seat, L_("You bust with {score}.", score=score) if you
                                else L_("{name} busts with {score}.", name=name, score=score),
                                {"round_score": score, "pot": state.pot}))
            left = [i for i, s in enumerate(status) if s != BUSTED]
            if len(left) == 1:
                return self._end_round(state, left[0], state.pot, events, "last")
            return self._pass_turn(state, seat), events
        return evolve(state, phase="decide"), events

    def _stop(self, state: Under40State):
        seat = state.current
        if state.phase != "decide":
            raise RuleError(L_("Under40: a turn begins with a roll: you may not stop before "
                               "rolling"))
        beat, holder = _best_standing(state, seat)
        score = state.round_scores[seat]
        if score <= beat:
            raise RuleError(L_("Under40: to stop, your round score must beat the best standing "
                               "score, {beat} ({name}); yours is {score}", beat=beat,
                               name=self._shown(holder), score=score))
        state = evolve(state, status=put(state.status, seat, STOPPED))
        text = (L_("You stop at {score}.", score=score) if self._you(seat) else
                L_("{name} stops at {score}.", name=self._shown(seat), score=score))
        events = [Event("stop", seat, text, {"round_score": score})]
        return self._pass_turn(state, seat), events

    def _pass_turn(self, state: Under40State, seat: int) -> Under40State:
        """To the next seat that has not busted (there are at least two)."""
        nxt = self._next_seat(seat)
        while state.status[nxt] == BUSTED:
            nxt = self._next_seat(nxt)
        return evolve(state, current=nxt, phase="roll", status=put(state.status, nxt, ROLLING))

    def _end_round(self, state: Under40State, seat: int, award: int, events: list[Event],
                   how: str):
        """``how``: "exact" (hit 40) or "last" (everyone else busted)."""
        total = state.totals[seat] + award
        state = evolve(state, totals=put(state.totals, seat, total), round_winner=seat,
                        round_award=award)
        you, name = self._you(seat), self._shown(seat)
        v = {"award": award, "total": total}
        if how == "exact":
            text = (L_("You hit {goal} exactly and win the round: +{award} (total {total}).",
                       goal=GOAL, **v) if you else
                    L_("{name} hits {goal} exactly and wins the round: +{award} (total "
                       "{total}).", name=name, goal=GOAL, **v))
        else:
            text = (L_("You are the last player left and win the round: +{award} (total "
                       "{total}).", **v) if you else
                    L_("{name} is the last player left and wins the round: +{award} (total "
                       "{total}).", name=name, **v))
        events.append(Event("round_won", seat, text,
                            {"round": state.round, "award": award, "total": total, "how": how}))
        if total >= self.config.target:
            events.append(Event("win", seat, L_("You reach {total} and win the game!",
                                                total=total) if you else
                                L_("{name} reaches {total} and wins the game!", name=name,
                                   total=total), {"total": total}))
            return evolve(state, winner=seat, phase="over", current=seat), events
        starter = self._next_seat(state.starter)
        n = self.n_seats
        state = evolve(state, round=state.round + 1, starter=starter, current=starter,
                        phase="roll", round_scores=(0,) * n, status=_round_status(n, starter),
                        pot=0)
        events.append(Event("round", starter, L_("Round {round}: You start.", round=state.round)
                            if self._you(starter) else
                            L_("Round {round}: {name} starts.", round=state.round,
                               name=self._shown(starter)), {"round": state.round}))
        return state, events


def _round_status(n: int, starter: int) -> tuple[str, ...]:
    return put((WAITING,) * n, starter, ROLLING)


def _best_standing(state: Under40State, seat: int | None) -> tuple[int, int | None]:
    """(best standing score of the players other than ``seat``, who holds it)."""
    best, holder = 0, None
    for i, (s, score) in enumerate(zip(state.status, state.round_scores)):
        if i != seat and s == STOPPED and score > best:
            best, holder = score, i
    return best, holder
