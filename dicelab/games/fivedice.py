"""The five-dice push-your-luck engine shared by Bones and Thousand.

The turn flow lives here once: roll the free dice, set the counting ones aside, bust on a roll
with none, hot dice when all five have counted, stand to bank. A variant supplies its scoring,
what a player must reach to stand, and what happens on a bust or a stand.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from ..actions import Action, Roll, Stand
from ..dice import roll
from ..errors import RuleError
from ..i18n import L_, Ln_, Msg
from ..rules import fivedice as turn
from ..rules.common import RollScore
from .base import Event, Game, evolve


@dataclass(frozen=True)
class FiveDiceState:
    current: int
    totals: tuple[int, ...]
    on_board: tuple[bool, ...]       # Bones: has banked a turn; Thousand: has opened
    phase: str = "roll"              # roll: must roll; decide: may roll or stand
    dice: tuple[int, ...] = ()       # the last roll of this turn
    counting: tuple[bool, ...] = ()  # which of those dice count
    roll_points: int = 0
    kept: tuple[int, ...] = ()       # dice set aside since all five were last free
    dice_left: int = 5               # dice the next roll throws
    hot_dice: bool = False           # all five have counted: the next roll throws five again
    turn_total: int = 0
    turn: int = 0                    # turns finished in the game
    winner: int | None = None
    # before the last roll, so a choose_keepers player can set aside fewer dice
    before_total: int = 0
    before_kept: tuple[int, ...] = ()


class FiveDiceGame(Game):
    """Roll / Stand flow for five dice; variants override the hooks below."""

    hot_dice_compulsory: ClassVar[bool] = False
    rule_name: ClassVar[Msg | str] = ""  # the variant's name in messages (lazy)

    @cached_property
    def turn_rules(self) -> turn.FiveDiceRules:
        """The turn rules in force (dicelab.rules.fivedice), fixed like ``config``."""
        return self.settings.turn_rules()

    def standing(self, state, seat: int) -> turn.Standing:
        """What the turn rules know of ``seat`` between turns."""
        return turn.Standing(state.totals[seat], state.on_board[seat])

    # ----- hooks ------------------------------------------------------------------------------
    def score_roll(self, dice) -> RollScore:
        raise NotImplementedError

    def choose_keepers(self) -> bool:
        return False

    def stand_requirement(self, state, seat: int) -> tuple[int, Msg, str]:
        """(turn total ``seat`` needs to stand now, the rule's words (a lazy Msg), its goal as a
        key in English words: "get on the board", "open", "climb out of the pit", "win from
        the barrel", "stand"; callers word a whole sentence for each goal)."""
        raise NotImplementedError

    def stand_minimum(self, state, seat: int) -> tuple[int, Msg]:
        """The turn total ``seat`` needs to stand now, and the rule that sets it."""
        return self.stand_requirement(state, seat)[:2]

    def _bust(self, state, seat: int) -> tuple[FiveDiceState, list[Event]]:
        return state, []

    def _bank(self, state, seat: int) -> tuple[FiveDiceState, list[Event]]:
        raise NotImplementedError

    def _after_turn(self, state, seat: int) -> FiveDiceState:
        """Pass the dice on (the variant may end the game here)."""
        return evolve(state, current=self._next_seat(seat))

    # ----- the flow ---------------------------------------------------------------------------
    def _initial_state(self, starter: int):
        n = self.n_seats
        return self.State(current=starter, totals=(0,) * n, on_board=(False,) * n)

    def need_to_stand(self) -> tuple[int, Msg]:
        """(turn total needed to stand, the rule's words) for the player on turn."""
        return self.stand_minimum(self._state, self._state.current)

    def state_after_keep(self, keep: tuple[int, ...] | None):
        """The state if the player set aside ``keep`` (positions in the last roll) instead of
        every counting die; RuleError if that is not allowed. The game does not change."""
        return self._with_keep(self._state, keep)

    def stand_goal(self) -> str:
        """What standing achieves for the player on turn, in a few words."""
        return self.stand_requirement(self._state, self._state.current)[2]

    def _legal_actions(self, state) -> list[Action]:
        if state.phase != "decide":
            return [Roll()]
        actions: list[Action] = [Roll()]
        need = self.stand_minimum(state, state.current)[0]
        if not (state.hot_dice and self.hot_dice_compulsory) and state.turn_total >= need:
            actions.append(Stand())
        if self.choose_keepers():  # None keeps every counting die; these are the choices
            for keep, points in self._keep_choices(state):
                actions.append(Roll(keep=keep))
                if state.before_total + points >= need:
                    actions.append(Stand(keep=keep))
        return actions

    def _keep_choices(self, state) -> list[tuple[tuple[int, ...], int]]:
        """Every set of positions in the last roll that may be set aside (counting dice only),
        with its points."""
        out = []
        positions = range(len(state.dice))
        for mask in range(1, 1 << len(state.dice)):
            keep = tuple(p for p in positions if mask >> p & 1)
            sc = self.score_roll(tuple(state.dice[p] for p in keep))
            if sc.counting == len(keep):
                out.append((keep, sc.points))
        return out

    def _with_keep(self, state, keep: tuple[int, ...] | None):
        """The state after setting aside ``keep`` (positions in the last roll) instead of all
        counting dice."""
        if keep is None:
            return state
        if state.phase != "decide" or not state.dice:
            raise RuleError(L_("{game}: there is no roll to set dice aside from yet",
                               game=self.rule_name))
        if not self.choose_keepers():
            raise RuleError(L_("{game}: all counting dice are kept automatically "
                               "(choose_keepers is off)", game=self.rule_name))
        if not keep:
            raise RuleError(L_("choose_keepers: set aside at least one counting die"))
        if keep[-1] >= len(state.dice):
            raise RuleError(Ln_("choose_keepers: the last roll has {n} die",
                                "choose_keepers: the last roll has {n} dice", len(state.dice)))
        values = tuple(state.dice[p] for p in keep)
        sc = self.score_roll(values)
        if sc.counting != len(values):
            bad = len(values) - sc.counting
            raise RuleError(Ln_("choose_keepers: only counting dice or whole groups may be set "
                                "aside; in {dice}, {n} die does not count",
                                "choose_keepers: only counting dice or whole groups may be set "
                                "aside; in {dice}, {n} dice do not count", bad,
                                dice=" ".join(map(str, values))))
        left = len(state.dice) - len(keep)
        return evolve(state, turn_total=state.before_total + sc.points,
                       kept=state.before_kept + values, dice_left=left or 5, hot_dice=left == 0)

    def _transition(self, state, action: Action):
        if state.winner is not None:
            raise RuleError(L_("the game is over: no more actions"))
        seat = state.current
        if isinstance(action, Roll):
            return self._roll(self._with_keep(state, action.keep), seat)
        if isinstance(action, Stand):
            return self._stand(self._with_keep(state, action.keep), seat)
        raise RuleError(L_("{game} has two actions, roll and stand; not {action}",
                           game=self.rule_name, action=repr(action)))

    def _roll(self, state, seat: int):
        if state.phase == "decide" and not state.dice:
            raise AssertionError("internal: decide without a roll")  # pragma: no cover
        kept = () if state.hot_dice else state.kept
        n = state.dice_left
        dice = roll(self._rng, n)
        sc = self.score_roll(dice)
        you, name = self._you(seat), self._shown(seat)
        shown = " ".join(map(str, dice))
        if sc.bust:
            lost = state.turn_total
            if lost:
                text = (L_("You rolled {dice}: no counting die, bust (loses {lost}).",
                           dice=shown, lost=lost) if you else
                        L_("{name} rolled {dice}: no counting die, bust (loses {lost}).",
                           name=name, dice=shown, lost=lost))
            else:
                text = (L_("You rolled {dice}: no counting die, bust.", dice=shown) if you else
                        L_("{name} rolled {dice}: no counting die, bust.", name=name, dice=shown))
            events = [Event("bust", seat, text, {"dice": dice, "mask": sc.mask, "lost": lost})]
            state = evolve(state, dice=dice, counting=sc.mask, roll_points=0, kept=kept,
                            turn_total=0)
            state, more = self._bust(state, seat)
            return self._end_turn(state, seat), events + more
        counted = tuple(d for d, c in zip(dice, sc.mask) if c)
        left = n - sc.counting
        hot = left == 0
        new = evolve(state, dice=dice, counting=sc.mask, roll_points=sc.points,
                      kept=kept + counted, dice_left=left or 5, hot_dice=hot,
                      turn_total=state.turn_total + sc.points,
                      before_total=state.turn_total, before_kept=kept,
                      phase="roll" if hot and self.hot_dice_compulsory else "decide")
        # English numbers of events stay as they were (ungrouped), so no language groups them
        n, values = sc.counting, {"dice": shown, "points": str(sc.points),
                                  "total": str(new.turn_total)}
        if not hot:
            text = (Ln_("You rolled {dice}: {points} from {n} counting die, turn total {total}.",
                        "You rolled {dice}: {points} from {n} counting dice, turn total "
                        "{total}.", n, **values) if you else
                    Ln_("{name} rolled {dice}: {points} from {n} counting die, turn total "
                        "{total}.", "{name} rolled {dice}: {points} from {n} counting dice, "
                        "turn total {total}.", n, name=name, **values))
        elif not self.hot_dice_compulsory:
            text = (Ln_("You rolled {dice}: {points} from {n} counting die, turn total {total}; "
                        "hot dice, all five may be rolled again.",
                        "You rolled {dice}: {points} from {n} counting dice, turn total "
                        "{total}; hot dice, all five may be rolled again.", n, **values)
                    if you else
                    Ln_("{name} rolled {dice}: {points} from {n} counting die, turn total "
                        "{total}; hot dice, all five may be rolled again.",
                        "{name} rolled {dice}: {points} from {n} counting dice, turn total "
                        "{total}; hot dice, all five may be rolled again.", n, name=name,
                        **values))
        else:
            text = (Ln_("You rolled {dice}: {points} from {n} counting die, turn total {total}; "
                        "hot dice, all five must be rolled again.",
                        "You rolled {dice}: {points} from {n} counting dice, turn total "
                        "{total}; hot dice, all five must be rolled again.", n, **values)
                    if you else
                    Ln_("{name} rolled {dice}: {points} from {n} counting die, turn total "
                        "{total}; hot dice, all five must be rolled again.",
                        "{name} rolled {dice}: {points} from {n} counting dice, turn total "
                        "{total}; hot dice, all five must be rolled again.", n, name=name,
                        **values))
        return new, [Event("roll", seat, text,
                           {"dice": dice, "mask": sc.mask, "points": sc.points,
                            "counting": sc.counting})]

    def _stand(self, state, seat: int):
        if state.phase == "roll":
            if state.hot_dice and self.hot_dice_compulsory:
                raise RuleError(L_("{game}: after hot dice all five must be rolled again",
                                   game=self.rule_name))
            raise RuleError(L_("a turn begins with a roll: you may not stand before rolling"))
        need, rule = self.stand_minimum(state, seat)
        if state.turn_total < need:
            raise RuleError(L_("{rule}: you need a turn total of {need} to stand, you have "
                               "{have}", rule=rule, need=need, have=state.turn_total))
        state, events = self._bank(state, seat)
        return self._end_turn(state, seat), events

    def _end_turn(self, state, seat: int):
        state = evolve(state, phase="roll", kept=(), dice_left=5, hot_dice=False, turn_total=0,
                        before_total=0, before_kept=(), turn=state.turn + 1)
        if state.winner is not None:
            return state
        return self._after_turn(state, seat)
