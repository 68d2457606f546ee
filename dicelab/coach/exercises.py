"""Practise your mistakes (issue 35): the costliest decisions of one or more reviews as
exercises, each with its options' exact values, the best answer and what every choice costs.

    ex = dicelab.coach.exercises(review)          # or a list of reviews; ``seat="Ann"``
    ex[0].position, [o.label for o in ex[0].options]
    ex[0].answer(ex[0].options[1].key)             # -> Answer: correct?, cost, best
    dicelab.coach.score([a1, a2, ...])             # -> Score: correct, total cost
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..errors import RuleError
from ..i18n import L_, tr
from .decision import Entry
from .values import Option, source_for_unit


@dataclass(frozen=True)
class Answer:
    """A choice made in an exercise: its value, the best one's, what it cost (0 for the best,
    in the exercise's unit) and whether it was the best (within the unit's tolerance)."""

    key: tuple
    label: str
    value: float
    best_value: float
    cost: float
    correct: bool
    unit_key: str

    @property
    def cost_words(self) -> str:
        return source_for_unit(self.unit_key).fmt_loss(self.cost)


@dataclass(frozen=True)
class Exercise:
    """One decision of a reviewed game, to replay: the position in words and as numbers,
    every option with its exact value, the best one, and what the player chose then."""

    entry: Entry
    review_index: int = 0          # which review it came from (``exercises`` of several)
    game_json: str = field(default="", repr=False)  # the game, to open the position again

    @property
    def position(self) -> str:
        return self.entry.state

    @property
    def situation(self) -> dict:
        return self.entry.situation

    @property
    def player(self) -> str:
        return self.entry.player

    @property
    def index(self) -> int:
        """The action's index in the game: the position is the game before it."""
        return self.entry.index

    @property
    def options(self) -> tuple[Option, ...]:
        return self.entry.options

    @property
    def best(self) -> Option:
        return self.entry.best

    @property
    def played(self) -> Option:
        return self.entry.chosen

    @property
    def unit(self) -> str:
        return tr(self.entry.unit_key)

    def cost(self, key: tuple) -> float:
        """What choosing ``key`` costs against the best option (0 for the best)."""
        return max(self.best.value - self._option(key).value, 0.0)

    def answer(self, key: tuple) -> Answer:
        """Judge a choice (an option's ``key``; RuleError for a key not among the options)."""
        o = self._option(key)
        cost = self.cost(key)
        tol = source_for_unit(self.entry.unit_key).tolerance
        return Answer(o.key, o.label, o.value, self.best.value, cost, cost <= tol,
                      self.entry.unit_key)

    def _option(self, key: tuple) -> Option:
        key = tuple(key)
        for o in self.options:
            if o.key == key:
                return o
        raise RuleError(L_("no option {key} in this exercise; the options are {keys}",
                           key=repr(key), keys=", ".join(repr(o.key) for o in self.options)))

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "player": self.player, "position": self.position,
                "situation": self.situation, "unit": self.unit,
                "options": [{"key": list(o.key), "option": o.label, "value": o.value,
                             "cost": self.cost(o.key)} for o in self.options],
                "best": self.best.label, "played": self.played.label,
                "played_cost": self.entry.lost}


@dataclass(frozen=True)
class Score:
    answered: int
    correct: int
    cost: dict  # unit (English key) -> the answers' total cost in it

    @property
    def words(self) -> str:
        costs = "; ".join(source_for_unit(u).fmt_loss(c) for u, c in self.cost.items())
        return tr(L_("{correct} of {answered} best; cost {cost}", correct=self.correct,
                     answered=self.answered, cost=costs or "0"))


def exercises(reviews: Any, n: int = 10, seat: str | None = None,
              mistakes_only: bool = True) -> list[Exercise]:
    """The ``n`` costliest decisions of ``reviews`` (one review or several; only ``seat``'s
    when given) as exercises, costliest first. Costs are compared within a unit: decisions
    judged by the chance to win come first (a final turn thrown away decides a game), then
    the others by their loss. ``mistakes_only``: only choices that lost more than the
    tolerance."""
    many = list(reviews) if isinstance(reviews, (list, tuple)) else [reviews]
    found = []
    for i, r in enumerate(many):
        for e in r.entries:
            if seat is not None and e.player != seat:
                continue
            if mistakes_only and not e.mistake:
                continue
            other_unit = e.unit_key != r.unit_key  # a final turn, judged by the chance to win
            found.append(((not other_unit, -e.lost, i, e.index), Exercise(e, i, r.game_json)))
    found.sort(key=lambda t: t[0])
    return [ex for _key, ex in found[:n]]


def score(answers: Iterable[Answer]) -> Score:
    """The score of a practice: how many answers were the best and what the others cost."""
    answers = list(answers)
    cost: dict[str, float] = {}
    for a in answers:
        cost[a.unit_key] = cost.get(a.unit_key, 0.0) + a.cost
    return Score(len(answers), sum(a.correct for a in answers), cost)
