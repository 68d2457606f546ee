"""Yahtzee computers (issue 4): greedy, optimal (the solver), and a skill slider between them."""
from __future__ import annotations

import numpy as np
import param

from ..i18n import N_
from ..actions import Reroll, Roll, Score
from .registry import register, spec_value


def _situation(view):
    seat = view.current_player
    card = view.card(seat)
    return ([b for b, v in card.items() if v is None], view.upper_total(seat), card["yahtzee"])


def _action(view, choice):
    """A ("keep", dice) or ("box", name) choice as a game action."""
    kind, what = choice
    if kind == "box":
        return Score(what)
    pool = list(what)
    reroll = []
    for i, d in enumerate(view.dice):
        if d in pool:
            pool.remove(d)
        else:
            reroll.append(i)
    return Reroll(tuple(reroll))


class YahtzeeOptimalPlayer(param.Parameterized):
    """Maximises the expected final score (dicelab.odds.yahtzee's solver for the game's rules),
    except in its last round against others: there it maximises its chance to finish above
    them (dicelab.odds.yahtzee_race), where that chance and the points part."""

    spec = "optimal"

    def choose(self, view):
        from ..odds.yahtzee import solve
        from ..odds.yahtzee_race import race

        r = race(view)
        if r is not None and r.differs:
            return r.choice
        open_boxes, upper, ybox = _situation(view)
        table = solve(view.settings, progress=False)
        best = table.advise(open_boxes, upper, ybox, view.dice, view.rerolls_left).best
        return best

    def act(self, view):
        if view.state.rolls == 0:
            return Roll()
        return _action(view, self.choose(view))


class YahtzeeGreedyPlayer(param.Parameterized):
    """Best box for this turn only: keeps for the highest expected box score at the end of the
    turn, then fills the box that scores most now."""

    spec = "greedy"

    def choose(self, view):
        from ..odds.yahtzee_greedy import greedy_choice

        open_boxes, _, _ = _situation(view)
        return greedy_choice(open_boxes, view.dice, view.rerolls_left, view.config.joker,
                             view.config.rerolls)

    def act(self, view):
        if view.state.rolls == 0:
            return Roll()
        return _action(view, self.choose(view))


class YahtzeeSkillPlayer(param.Parameterized):
    """Plays each decision optimally with chance ``skill``, greedily otherwise."""

    skill = param.Number(default=0.5, bounds=(0.0, 1.0), step=0.05,
                         doc=N_("0: greedy, 1: optimal."))
    seed = param.Integer(default=0, doc=N_("Seed of the player's own coin."))

    def __init__(self, **params):
        super().__init__(**params)
        self._rng = np.random.default_rng(self.seed)
        self._optimal, self._greedy = YahtzeeOptimalPlayer(), YahtzeeGreedyPlayer()

    @property
    def spec(self) -> str:
        return f"skill:{self.skill:g}"

    def act(self, view):
        if view.state.rolls == 0:
            return Roll()
        expert = self._rng.random() < self.skill
        return _action(view, (self._optimal if expert else self._greedy).choose(view))


def _skill(spec: str):
    return YahtzeeSkillPlayer(skill=spec_value(spec, YahtzeeSkillPlayer, "skill")[0])


register("yahtzee", "greedy")(lambda spec: YahtzeeGreedyPlayer())
register("yahtzee", "optimal")(lambda spec: YahtzeeOptimalPlayer())
register("yahtzee", "skill")(_skill)
