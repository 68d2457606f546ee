"""Under40's last rounds played for the game (issue 16): two players, exact chances to win the
GAME where both totals are within ``reach`` of the target (docs/explanation/rules.md "Under40").

``odds.under40`` maximises the chance to win the round. The game is decided at the end of a
round, by points: the round's winner earns 40 x players on an exact 40, else the busted score
(42..110), and the first to the target wins. So a win of the round is not always worth the
same: near the end, a player a little more than 42 short prefers a round won by an exact 40
(80 points: game over) to one won by a bust (maybe too few), and an opponent's bust that pays
too little lets the game go on. This module solves the game itself over the last stretch:
only the round's winner gains and totals never fall, so the states with both totals at least
``target - reach`` only ever lead to states of the same kind, and the region is solved exactly
on its own, with no estimate at its edge.

Values. R(x, y) is the chance that the round's starter wins the game, starter at x, the other
at y, both playing to win the game (zero-sum: one player's gain is the other's loss; a player
indifferent between stopping and rolling stops, as in ``odds.under40``). The round is the
two-player round of ``odds.under40`` (scores only grow, a stop hands the turn over, and the
player on turn may stop only above the other's score) with the end of the round valued by
what follows: the starter wins the round with p points -> 1 if x + p reaches the target, else
1 - R(y, x + p) (the other starts the next round); the other wins it -> 0 or 1 - R(y + p, x).
A round's values depend only on states whose total is at least 42 higher, so bands of 21
totals (all their pairs at once, as numpy arrays) are solved from the top down.

    game = solve(target=1000, reach=200)
    game.readout(me=920, other=950, starter_is_me=True, mine=12, theirs=20)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import RuleError
from ..i18n import L_
from ..rules.under40 import GOAL, distribution

__all__ = ["GameReadout", "Under40Game", "solve", "REACH"]

REACH = 200          # the last stretch solved: both totals at least target - REACH
SCORES = range(0, GOAL, 2)


def _dist():
    return [(x, w / 36) for x, w in distribution().items()]


def _roll_value(score: int, on_40, on_bust, go_on):
    """The value of one roll from ``score``: ``on_40`` for exactly 40, ``on_bust(s)`` for a
    bust at s, ``go_on(s)`` for a score s still in play."""
    v = 0.0
    for d, p in _dist():
        s = score + d
        v = v + p * (on_40 if s == GOAL else on_bust(s) if s > GOAL else go_on(s))
    return v


@dataclass(frozen=True)
class GameReadout:
    """The player on turn's chance to win the game by rolling and by stopping (None: not
    allowed), both then playing for the game; ``decision`` the better (stop on a tie)."""

    roll_win: float
    stop_win: float | None
    decision: str

    @property
    def win(self) -> float:
        return self.roll_win if self.decision == "roll" else self.stop_win


class Under40Game:
    """Exact two-player game values over the last stretch (see the module docstring)."""

    def __init__(self, target: int, reach: int = REACH, policy=("game", "game")):
        if not isinstance(target, int) or target < GOAL:
            raise RuleError(L_("Under40: a target of at least {least}, got {value}", least=GOAL,
                               value=repr(target)))
        self.target, self.reach = target, reach
        self.low = max(0, target - reach)
        self.low += self.low % 2  # totals are even
        self.policy = policy
        self.n = len(range(self.low, target, 2))
        self.R = np.full((2, self.n, self.n), np.nan)  # [who starts, x index, y index]
        self._solve()

    # -- the region -----------------------------------------------------------------------------
    def _i(self, total: int) -> int:
        return (total - self.low) // 2

    def inside(self, me: int, other: int) -> bool:
        return self.low <= me < self.target and self.low <= other < self.target

    def _next(self, who: int, x: np.ndarray, y: np.ndarray, p: int, starter_wins: bool):
        """The round's starter's chance to win the game after the round, for arrays of its
        totals x and the other's y: the next round is started by the other (seat 1 - who)."""
        T = self.target
        if starter_wins:
            won = x + p >= T
            nxt = self.R[1 - who, self._i(y), np.minimum(self._i(x + p), self.n - 1)]
            return np.where(won, 1.0, 1.0 - nxt)
        won = y + p >= T
        nxt = self.R[1 - who, np.minimum(self._i(y + p), self.n - 1), self._i(x)]
        return np.where(won, 0.0, 1.0 - nxt)

    def _round(self, who: int, x, y, round_rule: bool = False):
        """X0[ms][mo] (starter on turn) and X1[ms][mo] (other on turn): the starter's chance,
        for pair arrays x, y; ``who`` the seat that starts (for mixed policies).
        ``round_rule``: the values of winning and losing the round are 1 and 0."""
        W = {}  # starter wins the round with p points
        L = {}

        def win(p):
            if p not in W:
                W[p] = 1.0 if round_rule else self._next(who, x, y, p, True)
            return W[p]

        def lose(p):
            if p not in L:
                L[p] = 0.0 if round_rule else self._next(who, x, y, p, False)
            return L[p]
        X0, X1 = {}, {}
        self.rolls = rolls = {}  # (side, ms, mo) -> the value of rolling (for the review)
        starter_game = self.policy[who] == "game" or round_rule
        other_game = self.policy[1 - who] == "game" or round_rule
        rule = None if round_rule else self._round_rule
        for total in range(2 * (GOAL - 2), -1, -2):
            pairs = [(m, total - m) for m in SCORES if total - m in SCORES]
            for ms, mo in sorted(pairs, key=lambda p: p[0] != p[1]):
                # starter on turn; then the other on turn (order: a must-roll side first)
                for side in ((1, 0) if ms > mo else (0, 1)):
                    if side == 0:  # the starter rolls from ms: maximises its chance
                        roll = _roll_value(ms, win(2 * GOAL), lose, lambda t: X0[t, mo])
                        stop = X1[ms, mo] if ms > mo else None
                        play, rule_key, best = starter_game, (ms, mo), np.maximum
                    else:          # the other rolls from mo: minimises the starter's chance
                        roll = _roll_value(mo, lose(2 * GOAL), win, lambda t: X1[ms, t])
                        stop = X0[ms, mo] if mo > ms else None
                        play, rule_key, best = other_game, (mo, ms), np.minimum
                    rolls[side, ms, mo] = roll
                    if stop is None:
                        value = roll
                    elif play:
                        value = best(roll, stop)
                    else:
                        value = np.where(rule[rule_key] == "stop", stop, roll)
                    (X0 if side == 0 else X1)[ms, mo] = value
        return X0, X1

    @property
    def _round_rule(self):
        from .under40 import round_decision

        return {(m, o): round_decision(m, o) for m in SCORES for o in SCORES if m > o}

    def _solve(self):
        idx = np.arange(self.n)
        xs, ys = np.meshgrid(idx, idx, indexing="ij")
        sums = (xs + ys).ravel()
        xs, ys = xs.ravel(), ys.ravel()
        top = sums.max()
        band = GOAL // 2 + 1  # 21 index steps = 42 points: no state of a band needs another
        hi = top
        while hi >= 0:
            sel = (sums <= hi) & (sums > hi - band)
            xi, yi = xs[sel], ys[sel]
            x, y = self.low + 2 * xi, self.low + 2 * yi
            for who in (0, 1):
                X0, _ = self._round(who, x, y)
                self.R[who, xi, yi] = X0[0, 0]
            hi -= band

    # -- readouts -------------------------------------------------------------------------------
    def start_chance(self, starter: int, other: int, who: int = 0) -> float:
        """The round's starter's chance to win the game at the start of a round."""
        if not self.inside(starter, other):
            raise RuleError(L_("Under40: these totals are outside the solved last stretch"))
        return float(self.R[who, self._i(starter), self._i(other)])

    def readout(self, me: int, other: int, starter_is_me: bool, mine: int, theirs: int,
                who: int = 0) -> GameReadout:
        """For the player on turn (total ``me``, round score ``mine``) against ``other``
        (round score ``theirs``: standing, or 0 before their first roll)."""
        if not self.inside(me, other):
            raise RuleError(L_("Under40: these totals are outside the solved last stretch"))
        if starter_is_me:
            x, y, ms, mo, side = me, other, mine, theirs, 0
        else:
            x, y, ms, mo, side = other, me, theirs, mine, 1
        who_starts = who if starter_is_me else 1 - who
        X0, X1, rolls = self._values(who_starts, x, y)
        if side == 0:  # the values of rolling (then best play) and of stopping now
            roll, stop = rolls[0, ms, mo], (X1[ms, mo] if ms > mo else None)
        else:
            roll = 1 - rolls[1, ms, mo]
            stop = 1 - X0[ms, mo] if mo > ms else None
        decision = "stop" if stop is not None and stop >= roll - 1e-12 else "roll"
        return GameReadout(roll, stop, decision)

    @lru_cache(maxsize=64)
    def _values(self, who, x, y):
        out = self._round(who, np.array([x]), np.array([y])) + (self.rolls,)
        return tuple({k: float(np.ravel(v)[0]) for k, v in d.items()} for d in out)


@lru_cache(maxsize=8)
def solve(target: int = 1000, reach: int = REACH) -> Under40Game:
    """The game values of the last stretch for this target (both playing for the game)."""
    return Under40Game(target, reach)
