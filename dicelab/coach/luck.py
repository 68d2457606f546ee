"""Luck and skill, exact (issue 35): the value of the position before and after every action
of a game, so that each roll's luck and each decision's change add up to the whole change.

A variant's ``LuckModel`` (registered with its ``Variant``) values the position for the player
on turn in one unit (the unit the coach judges that decision in; the chance to win where an
exact solver covers it). For every action:

- ``before``: the value of the position, best play from there (the best option's value);
- ``chosen``: the value of the action taken, before any die falls (for a roll the exact average
  over every outcome; for a decision the chosen option's value);
- ``after``: the value of the position the action led to (best play from there).

``change = chosen - before`` is the decision's change (0 for the best play; an error is a
fall), ``luck = after - chosen`` is what the dice made of it (0 for an action that throws none,
up to rounding, which the tests check). A **segment** is a stretch valued in one unit from one
point of view, and along it ``after`` of one action is ``before`` of the next, so

    value(end) - value(start) = sum of luck + sum of changes        (exactly, per segment).

Segments: ``turn`` (expected points of the turn in Bones and Thousand, the chance to win the
round in Under40, a final turn's chance to win: one seat's run of actions, its end the turn's
result), ``seat`` (Yahtzee's expected final score: one seat's whole game, ending at its final
score) and ``duel`` (the chance to win a two-seat game: one segment for the whole stretch, seen
by each seat; the other seat's luck and errors count against you: their luck is your loss).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import Stand
from ..games.base import Game

TURN, SEAT, DUEL = "turn", "seat", "duel"


@dataclass(frozen=True)
class Step:
    """One action of a game, valued in its unit (``unit_key``), from the actor's side."""

    index: int            # the action's position in the game
    turn: int             # the game's turn (Under40: round) number, from 1
    seat: int
    player: str
    computer: bool
    unit_key: str
    segment: tuple        # (kind, ...): steps with the same segment add up (module doc)
    before: float
    chosen: float
    after: float
    rolled: bool          # the action threw dice
    dice: tuple           # the dice it threw (() when none)
    decision: bool        # the rules left a choice (the review judged it)

    @property
    def luck(self) -> float:
        """What the dice made of the action: the value after it minus the exact average."""
        return self.after - self.chosen

    @property
    def change(self) -> float:
        """The decision's change: 0 for the best play, negative for an error."""
        return self.chosen - self.before

    @property
    def kind(self) -> str:
        return self.segment[0]

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "seat": self.seat,
                "player": self.player, "computer": self.computer, "unit": self.unit_key,
                "segment": self.kind, "before": self.before, "chosen": self.chosen,
                "after": self.after, "luck": self.luck, "change": self.change,
                "rolled": self.rolled, "dice": list(self.dice), "decision": self.decision}


class LuckModel:
    """How a variant values positions for luck (subclass per variant; ``value`` is the only
    method every model needs). ``Valued`` below is what ``value`` answers."""

    def value(self, game: Game, d: Any) -> Valued | None:
        """The position now for the player on turn: its unit, segment kind and value (None:
        not valued here). ``d`` is the coach's ``Decision`` now (None where the rules leave one
        action or the coach does not judge it): its option values are reused."""
        raise NotImplementedError

    def ended(self, before: Any, action, game: Game, seat: int, v: Valued,
              chosen: float) -> float | None:
        """A ``turn`` segment: the value for ``seat`` once its action ended its run (the
        turn's result), or None when the run goes on (``before``: the state before it,
        ``chosen``: the action's value)."""
        return None

    def over(self, game: Game, seat: int, v: Valued) -> float | None:
        """The value for ``seat`` in a finished game: by default won (1) or lost (0)."""
        return 1.0 if game.state.winner == seat else 0.0

    def final(self, game: Game, seat: int, v: Valued) -> float | None:
        """The value for ``seat`` when the replay stops: the game over (``over``), or a
        game still going valued as it stands (None where unknown)."""
        if game.is_over:
            return self.over(game, seat, v)
        now = self.value(game, None)
        if now is None or now.unit_key != v.unit_key:
            return None
        if game.current_player == seat:
            return now.value
        return 1.0 - now.value if v.kind == DUEL else None


@dataclass(frozen=True)
class Valued:
    unit_key: str
    kind: str                 # TURN, SEAT or DUEL
    value: float              # for the player on turn
    options: dict | None = None  # option key -> value (a decision's options in this unit)
    key_of: Any = None        # action -> option key (the source's ``key_of``)


def options_in(d: Any, unit_key: str) -> tuple[dict, Any] | None:
    """A decision's option values in ``unit_key`` (its own source or a later one), and the
    function giving an action's key; None when it has none in that unit."""
    if d is None:
        return None
    if d.source.UNIT == unit_key:
        return {o.key: o.value for o in d.options}, d.source.key_of
    for src, opts in d.extra:
        if src.UNIT == unit_key and opts:
            return {o.key: o.value for o in opts}, src.key_of
    return None


def valued_options(d: Any, src: Any, game: Game, kind: str, now: bool = True) -> Valued | None:
    """The options of the decision in ``src``'s unit at their best: the coach's ``Decision``
    ``d`` has them, else (``now``) ``src`` values them; None when there are none."""
    got = options_in(d, src.UNIT)
    if got is None and now:
        opts = src.options(game)
        got = ({o.key: o.value for o in opts}, src.key_of) if opts else None
    return None if got is None else Valued(src.UNIT, kind, max(got[0].values()), *got)


def rolled_dice(before: Any, after: Any, action) -> tuple:
    """The dice ``action`` threw (() for a stand, a stop or a box scored)."""
    if isinstance(action, Stand):
        return ()
    if type(action).__name__ == "Score":
        return ()
    return tuple(getattr(after, "dice", ()) or ())


class Tracker:
    """Builds the steps while a review replays a game (``step`` before each action,
    ``done`` after it; ``finish`` at the end)."""

    def __init__(self, model: LuckModel | None):
        self.model = model
        self.steps: list[Step] = []
        self._open: dict[tuple, dict] = {}  # segment -> the step awaiting its ``after``
        self._segment_no = 0
        self._generation: dict = {}  # a seat's (or the duel's) segment after a break starts anew
        self._cur: dict | None = None
        self._who: list = []  # (name, computer) per seat

    def step(self, game: Game, d: Any, index: int, turn: int, action) -> None:
        self._cur = None
        if self.model is None or game.is_over:
            return
        seat = game.current_player
        v = self.model.value(game, d)
        if v is None:
            self._break(seat)
            return
        if v.options is not None:
            key = v.key_of(game, action)
            if key not in v.options:  # a choice the source does not value: not valued
                self._break(seat)
                return
            chosen = v.options[key]
        else:
            chosen = v.value
        seg = self._segment(v, seat)
        prev = self._open.pop(seg, None)
        if prev is not None:  # the previous step of this segment ends where this one begins
            sign = 1.0 if prev["seat"] == seat else -1.0
            prev["after"] = v.value if sign > 0 else 1.0 - v.value
            self._emit(prev)
        if not self._who:
            self._who = [(n, s.is_computer) for n, s in zip(game.names, game.seats)]
        self._cur = dict(index=index, turn=turn, seat=seat, player=self._who[seat][0],
                         computer=self._who[seat][1], unit_key=v.unit_key,
                         segment=seg, before=v.value, chosen=chosen, decision=d is not None,
                         v=v, state=game.state, action=action)

    def done(self, game: Game) -> None:
        cur, self._cur = self._cur, None
        if cur is None:
            return
        cur["dice"] = rolled_dice(cur["state"], game.state, cur["action"])
        if cur["v"].kind == TURN:
            end = self.model.ended(cur["state"], cur["action"], game, cur["seat"], cur["v"],
                                   cur["chosen"])
            if end is not None or game.is_over:
                cur["after"] = end if end is not None else self.model.final(
                    game, cur["seat"], cur["v"])
                self._emit(cur)
                return
        if game.is_over:
            cur["after"] = self.model.final(game, cur["seat"], cur["v"])
            self._emit(cur)
            return
        self._open[cur["segment"]] = cur

    def finish(self, game: Game) -> list[Step]:
        for seg, cur in list(self._open.items()):
            cur["after"] = self.model.final(game, cur["seat"], cur["v"])
            self._emit(cur)
        self._open.clear()
        self.steps.sort(key=lambda s: s.index)
        return self.steps

    def _segment(self, v: Valued, seat: int) -> tuple:
        if v.kind == DUEL:
            return (DUEL, v.unit_key, self._generation.get(DUEL, 0))
        if v.kind == SEAT:
            return (SEAT, v.unit_key, seat, self._generation.get(seat, 0))
        # a turn: the run of this seat's actions since its last ended one
        for seg, cur in self._open.items():
            if seg[0] == TURN and cur["seat"] == seat and seg[1] == v.unit_key:
                return seg
        self._segment_no += 1
        return (TURN, v.unit_key, seat, self._segment_no)

    def _break(self, seat: int) -> None:
        """A position not valued: the open segments of that seat (and a duel) end unknown,
        so their last step is left out and the next valued step starts a new segment."""
        for seg, cur in list(self._open.items()):
            if cur["seat"] == seat or seg[0] == DUEL:
                del self._open[seg]
                key = DUEL if seg[0] == DUEL else seat
                self._generation[key] = self._generation.get(key, 0) + 1

    def _emit(self, cur: dict) -> None:
        if cur.get("after") is None:
            return  # its end is unknown: the step is left out (and its segment with it)
        self.steps.append(Step(cur["index"], cur["turn"], cur["seat"], cur["player"],
                               cur["computer"], cur["unit_key"], cur["segment"],
                               cur["before"], cur["chosen"], cur["after"],
                               bool(cur["dice"]), cur["dice"], cur["decision"]))


# ----- what the steps add up to --------------------------------------------------------------
@dataclass(frozen=True)
class Segment:
    """One segment's account (``segments``): from ``seat``'s side, ``end - start`` equals
    ``luck + change`` (``residue`` is the difference: rounding only)."""

    segment: tuple
    unit_key: str
    seat: int
    start: float
    end: float
    luck: float       # the seat's own rolls' luck, minus the other's in a duel
    change: float     # the seat's own decisions' changes, minus the other's in a duel
    steps: int

    @property
    def residue(self) -> float:
        return (self.end - self.start) - (self.luck + self.change)


def segments(steps: list[Step], n_seats: int = 2) -> list[Segment]:
    """Every segment's account; a duel is given from each seat's side."""
    by: dict[tuple, list[Step]] = {}
    for s in steps:
        by.setdefault(s.segment, []).append(s)
    out = []
    for seg, ss in by.items():
        seats = range(n_seats) if seg[0] == DUEL else [ss[0].seat]
        for me in seats:
            def mine(s: Step, x: float) -> float:
                return x if s.seat == me else 1.0 - x

            def sign(s: Step) -> float:
                return 1.0 if s.seat == me else -1.0
            out.append(Segment(seg, ss[0].unit_key, me, mine(ss[0], ss[0].before),
                               mine(ss[-1], ss[-1].after),
                               sum(sign(s) * s.luck for s in ss),
                               sum(sign(s) * s.change for s in ss), len(ss)))
    return out
