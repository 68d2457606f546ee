"""Yahtzee (docs/explanation/rules.md "Yahtzee"; seed 004): 13 boxes per card, one box filled per
round.

A turn is ``Roll()`` (all five dice), then up to ``rerolls`` times ``Reroll(positions)``, then
``Score(box)``. What a box may take comes from ``rules.yahtzee.scoring_options`` (the one home
of the forced joker rule). The game ends when every card is full; the highest total wins, and
a tie is shared (``winner`` None, ``over`` True, ``winners`` lists the tied seats).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from ..actions import Action, Reroll, Roll, Score, Stand
from ..dice import roll
from ..errors import RuleError
from ..i18n import L_, Joined, Ln_
from ..rules import yahtzee as rules
from ..rules.yahtzee import BOXES, LABELS, LOWER, UPPER, label
from ..settings import YahtzeeSettings
from .base import Event, Game, put, register

_INDEX = {b: i for i, b in enumerate(BOXES)}
_YAHTZEE = _INDEX["yahtzee"]
_EMPTY_CARD = (None,) * len(BOXES)
# every non-empty set of positions, smallest sets first
_REROLLS = tuple(Reroll(c) for k in range(1, 6) for c in combinations(range(5), k))
_SCORES = tuple(Score(b) for b in BOXES)  # built once: legal_actions runs on every step


@dataclass(frozen=True)
class YahtzeeState:
    current: int
    cards: tuple[tuple[int | None, ...], ...]  # per seat, one entry per box in BOXES order
    dice: tuple[int, ...] = ()                 # the dice on the table; () until the turn's roll
    rolls: int = 0                             # rolls thrown this turn, the first one included
    yahtzee_bonuses: tuple[int, ...] = ()      # per seat: further Yahtzees that earned the bonus
    bonus_points: tuple[int, ...] = ()         # per seat: Yahtzee bonus points
    wasted: tuple[int, ...] = ()               # per seat: rounds wasted on a filled box
    turn: int = 0                              # turns finished in the game, wasted ones included
    winner: int | None = None
    over: bool = False


def _open_boxes(card) -> list[str]:
    return [b for b, v in zip(BOXES, card) if v is None]


def _upper_total(card) -> int:
    return sum(v for v in card[:len(UPPER)] if v is not None)


@register
class YahtzeeGame(Game):
    """Yahtzee for 1 to 8 players, each with a card of 13 boxes."""

    variant = "yahtzee"
    Settings = YahtzeeSettings
    State = YahtzeeState

    # ----- read-only helpers for the board and the terminal ---------------------------------
    def card(self, seat: int | None = None) -> dict[str, int | None]:
        """Box -> points (None while open) on ``seat``'s card (default: the player on turn)."""
        return dict(zip(BOXES, self._state.cards[self._seat(seat)]))

    def open_boxes(self, seat: int | None = None) -> list[str]:
        return _open_boxes(self._state.cards[self._seat(seat)])

    def upper_total(self, seat: int | None = None) -> int:
        """Aces..Sixes added up (what the upper bonus is measured against)."""
        return _upper_total(self._state.cards[self._seat(seat)])

    def upper_bonus(self, seat: int | None = None) -> int:
        s = self.config
        return rules.upper_bonus_due(self.upper_total(seat), s.upper_bonus_threshold,
                                     s.upper_bonus)

    def yahtzee_bonus(self, seat: int | None = None) -> int:
        """Yahtzee bonus points earned so far."""
        return self._state.bonus_points[self._seat(seat)]

    def total(self, seat: int | None = None) -> int:
        """Boxes + upper bonus + Yahtzee bonuses."""
        return self._total(self._state, self._seat(seat))

    def totals(self) -> tuple[int, ...]:
        """Every seat's total now."""
        return tuple(self._total(self._state, i) for i in range(self.n_seats))

    @property
    def dice(self) -> tuple[int, ...]:
        return self._state.dice

    @property
    def rolls_left(self) -> int:
        """Rolls the player on turn may still throw this turn, the first roll included."""
        if self.is_over:
            return 0
        return self.config.rerolls + 1 - self._state.rolls

    @property
    def rerolls_left(self) -> int:
        """Re-rolls left this turn (all of them before the first roll)."""
        if self.is_over:
            return 0
        return self.config.rerolls - max(self._state.rolls - 1, 0)

    def options_now(self) -> dict[str, int]:
        """Box -> points for the dice on the table: only the boxes that may be filled now."""
        st = self._state
        if self.is_over or not st.rolls:
            return {}
        return self._options(st, st.current)

    # ----- the state machine ---------------------------------------------------------------
    def _initial_state(self, starter: int) -> YahtzeeState:
        n = self.n_seats
        return YahtzeeState(current=starter, cards=(_EMPTY_CARD,) * n,
                            yahtzee_bonuses=(0,) * n, bonus_points=(0,) * n, wasted=(0,) * n)

    def _legal_actions(self, state: YahtzeeState) -> list[Action]:
        if state.over or state.winner is not None:
            return []
        if not state.rolls:
            return [Roll()]
        actions: list[Action] = list(_REROLLS) if state.rolls <= self.config.rerolls else []
        options = self._options(state, state.current)
        wastes = self.config.filled_box_wastes_round
        card = state.cards[state.current]
        # with filled_box_wastes_round, naming a filled box is allowed: it wastes the round
        actions += [a for a, b, v in zip(_SCORES, BOXES, card)
                    if b in options or (wastes and v is not None)]
        return actions

    def _transition(self, state: YahtzeeState, action: Action):
        if state.over or state.winner is not None:
            raise RuleError(L_("the game is over: no more actions"))
        if isinstance(action, Roll):
            return self._roll(state, action)
        if isinstance(action, Reroll):
            return self._reroll(state, action)
        if isinstance(action, Score):
            return self._score(state, action.box)
        if isinstance(action, Stand):
            raise RuleError(L_("Yahtzee has no stand: roll, re-roll chosen dice, then score a "
                               "box"))
        raise RuleError(L_("Yahtzee's actions are roll, reroll and score; not {action}",
                           action=repr(action)))

    def _roll(self, state, action: Roll):
        if action.keep is not None:
            raise RuleError(L_("Yahtzee: a roll takes no keep; choose dice to roll again with "
                               "reroll"))
        if state.rolls:
            raise RuleError(L_("Yahtzee: the turn's first roll is thrown; re-roll chosen dice "
                               "or score a box"))
        seat = state.current
        dice = roll(self._rng, 5)
        shown = " ".join(map(str, dice))
        text = (L_("You roll {dice}.", dice=shown) if self._you(seat) else
                L_("{name} rolls {dice}.", name=self._shown(seat), dice=shown))
        return replace(state, dice=dice, rolls=1), [Event("roll", seat, text, {"dice": dice})]

    def _reroll(self, state, action: Reroll):
        rerolls = self.config.rerolls
        if not state.rolls:
            raise RuleError(L_("a turn begins with a roll: roll all five dice before "
                               "re-rolling"))
        if not action.positions:
            raise RuleError(L_("Yahtzee: a re-roll names at least one die (positions 1 to 5)"))
        if state.rolls > rerolls:
            raise RuleError(Ln_("Yahtzee: {n} re-roll a turn at most (setting rerolls); score a "
                                "box now", "Yahtzee: {n} re-rolls a turn at most (setting "
                                "rerolls); score a box now", rerolls))
        seat = state.current
        new = roll(self._rng, len(action.positions))
        dice = state.dice
        for p, v in zip(action.positions, new):
            dice = put(dice, p, v)
        left = rerolls - state.rolls
        v = {"positions": ", ".join(str(p + 1) for p in action.positions),
             "dice": " ".join(map(str, dice))}
        text = (Ln_("You roll again die {positions}: {dice} ({n} re-roll left).",
                    "You roll again die {positions}: {dice} ({n} re-rolls left).", left, **v)
                if self._you(seat) else
                Ln_("{name} rolls again die {positions}: {dice} ({n} re-roll left).",
                    "{name} rolls again die {positions}: {dice} ({n} re-rolls left).", left,
                    name=self._shown(seat), **v))
        return (replace(state, dice=dice, rolls=state.rolls + 1),
                [Event("reroll", seat, text, {"dice": dice, "positions": action.positions})])

    def _score(self, state, box: str):
        if not state.rolls:
            raise RuleError(L_("a turn begins with a roll: roll the dice before scoring a box"))
        s = self.config
        seat, label_ = state.current, label(box)
        you, name = self._you(seat), self._shown(seat)
        card = state.cards[seat]
        if card[_INDEX[box]] is not None:
            if not s.filled_box_wastes_round:
                raise RuleError(L_("Yahtzee: the {box} box is already filled", box=label_))
            text = L_("{name}: the {box} box is already filled, so this round scores nothing "
                      "and is wasted.", name=name, box=label_)
            state = replace(state, wasted=put(state.wasted, seat, state.wasted[seat] + 1))
            return self._end_turn(state, seat, [Event("wasted", seat, text, {"box": box})])
        options = self._options(state, seat)
        if box not in options:
            raise RuleError(L_("Yahtzee forced joker rule: this Yahtzee of {face}s may go only "
                               "in {allowed}, not in {box}", face=state.dice[0],
                               allowed=Joined(label(b) for b in options), box=label_))
        points = options[box]
        joker = self._joker_applies(state, seat)
        # measured on the card before this box is filled: a first Yahtzee earns no bonus
        due = rules.yahtzee_bonus_due(state.dice, card[_YAHTZEE], s.yahtzee_bonus)
        upper_before = _upper_total(card)
        card = put(card, _INDEX[box], points)
        state = replace(state, cards=put(state.cards, seat, card))
        if due:
            state = replace(state,
                            yahtzee_bonuses=put(state.yahtzee_bonuses, seat,
                                                state.yahtzee_bonuses[seat] + 1),
                            bonus_points=put(state.bonus_points, seat,
                                             state.bonus_points[seat] + due))
        total = self._total(state, seat)
        v = {"points": points, "box": label_}
        if joker:
            text = (L_("You score {points} in {box} (joker).", **v) if you else
                    L_("{name} scores {points} in {box} (joker).", name=name, **v))
        else:
            text = (L_("You score {points} in {box}.", **v) if you else
                    L_("{name} scores {points} in {box}.", name=name, **v))
        events = [Event("score", seat, text, {"box": box, "points": points, "joker": joker,
                                              "total": total})]
        if due:
            count = state.yahtzee_bonuses[seat]
            events.append(Event("yahtzee_bonus", seat, L_(
                "You earn a Yahtzee bonus of {points} (Yahtzee bonus number {count}).",
                points=due, count=count) if you else L_(
                "{name} earns a Yahtzee bonus of {points} (Yahtzee bonus number {count}).",
                name=name, points=due, count=count), {"points": due, "total": total}))
        upper = _upper_total(card)
        if s.upper_bonus and upper_before < s.upper_bonus_threshold <= upper:
            b = {"upper": upper, "bonus": s.upper_bonus}
            events.append(Event("upper_bonus", seat, L_(
                "You reach {upper} in Aces to Sixes: upper bonus {bonus}.", **b) if you else L_(
                "{name} reaches {upper} in Aces to Sixes: upper bonus {bonus}.", name=name, **b),
                {"points": s.upper_bonus, "total": total}))
        return self._end_turn(state, seat, events)

    def _end_turn(self, state, seat: int, events: list[Event]):
        n = self.n_seats
        # seats whose card is full (possible after wasted rounds) are passed over
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if None in state.cards[nxt]:
                return replace(state, dice=(), rolls=0, turn=state.turn + 1, current=nxt), events
        return self._finish(replace(state, dice=(), rolls=0, turn=state.turn + 1), events)

    def _finish(self, state, events: list[Event]):
        totals = [self._total(state, i) for i in range(self.n_seats)]
        best = max(totals)
        top = [i for i, t in enumerate(totals) if t == best]
        best_ = str(best)  # as the English text always showed it (ungrouped)
        if len(top) == 1:
            you, name = self._you(top[0]), self._shown(top[0])
            if self.n_seats > 1:
                text = (L_("You win with {best}.", best=best_) if you else
                        L_("{name} wins with {best}.", name=name, best=best_))
            else:
                text = (L_("Your card is full: total {best}.", best=best_) if you else
                        L_("{name}'s card is full: total {best}.", name=name, best=best_))
            return (replace(state, winner=top[0], over=True),
                    events + [Event("win", top[0], text, {"totals": tuple(totals)})])
        names = self._shown(top[0])
        for i in top[1:]:
            names = L_("{first} and {second}", first=names, second=self._shown(i))
        return (replace(state, winner=None, over=True),
                events + [Event("tie", None, L_("{names} tie with {best}.", names=names,
                                                best=best_),
                                {"totals": tuple(totals), "winners": tuple(top)})])

    # ----- pieces --------------------------------------------------------------------------
    @property
    def winners(self) -> tuple[int, ...]:
        st = self._state
        if st.winner is not None:
            return (st.winner,)
        if not st.over:
            return ()
        totals = self.totals()
        return tuple(i for i, t in enumerate(totals) if t == max(totals))

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            return self._state.current
        if not 0 <= seat < self.n_seats:
            raise RuleError(L_("seats are 0 to {last}, got {seat}", last=self.n_seats - 1,
                               seat=repr(seat)[:60]))
        return seat

    def _options(self, state, seat: int) -> dict[str, int]:
        card = state.cards[seat]
        return rules.scoring_options(state.dice, _open_boxes(card), card[_YAHTZEE],
                                     self.config.joker)

    def _joker_applies(self, state, seat: int) -> bool:
        return (self.config.joker and state.cards[seat][_YAHTZEE] is not None
                and rules.is_yahtzee(state.dice))

    def _total(self, state, seat: int) -> int:
        s = self.config
        card = state.cards[seat]
        return (sum(v for v in card if v is not None)
                + rules.upper_bonus_due(_upper_total(card), s.upper_bonus_threshold,
                                        s.upper_bonus)
                + state.bonus_points[seat])


__all__ = ["BOXES", "LABELS", "LOWER", "UPPER", "YahtzeeGame", "YahtzeeState"]
