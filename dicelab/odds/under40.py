"""Exact odds for Under40 (docs/explanation/rules.md "Under40"; seed 001).

A roll of two dice adds an even number of 2..72 points (``rules.under40.distribution``), so a
round score that is still in play is one of 0, 2, ..., 38: everything here is exact over that
small space (``Fraction`` for two players, float64 enumeration for more).

Two-player round. The player on turn has round score ``m``; the other player's score is ``o``
(their standing score once they have stopped; 0 before they have rolled). The player on turn
may stop only when ``m > o`` (the starter's first turn starts at 0 against 0, so it must roll
at least once; a follower must get above the best standing score, and a player whose turn comes
round again starts below the other's standing score, so this one rule covers all three).
A roll to exactly 40 wins the round at once; over 40 is a bust, which in a two-player round
ends it at once with the other player the winner. Scores only grow and a stop is always followed
by a roll, so the round ends.

"Win probability" is the chance that a player wins this round (not the game, and not the points
the round pays), when both players play to maximise their own chance of winning the round. As
exactly one player wins the round, this is a zero-sum game solved by backward induction:

    W(m, o) = max( sum_x p(x) * [1 if m + x == 40, 0 if m + x > 40, else W(m + x, o)],
                   1 - W(o, m)   if m > o ).

N-player round (docs/explanation/rules.md "Under40": a follower must roll until above the best
standing score; exactly 40 wins the round at once; over 40 busts the player out of the round; the
last player left wins it). Busted players no longer matter, and a stop needs a score strictly above
every other standing score, so on every turn the players still in the round are, in seat order after
the player on turn: those who have not had a turn yet (round score 0, only in the round's first
lap), then the stopped players with strictly rising scores. A position is therefore the set
``F`` of the stopped scores (plus the on-turn player's when it is above them all) and the number
of players still in the round. Pots and game totals are left out: this is the round alone.

Game-theoretic assumption: every player maximises their own chance of winning the round (not
its points, not the game), and the others are known to do the same; a player indifferent
between stopping and rolling stops (as in the two-player solve). Backward induction over the
positions gives this subgame-perfect play, with every player's chance of winning the round.
For N >= 3 the values are float64 sums over the 36 two-dice outcomes (exact enumeration, no
sampling; a tie is "stop >= roll - 1e-12"); ``readout`` with two players in the round uses the
exact ``Fraction`` solve above, so two-player answers are unchanged (the float two-player table,
reached after busts in bigger rounds, agrees with it to 1e-12 with the same decisions: tested).

Tables per number of players still in the round, n (``_table(n)``), indexed by a 19-bit mask of
the scores 2..38 (bit s // 2 - 1):

- ``D[F]`` the on-turn player is at ``max(F)`` and above everyone: may stop or roll; the others,
  in seat order: ``n - |F|`` players at 0 (no turn yet), then ``F - {max F}`` rising.
- ``S[F]`` turn start with the stopped scores ``F``: the on-turn player is the first one with no
  turn yet (if ``n > |F|``) or the lowest in ``F``, and must roll until above ``max F``.
- ``A`` the round start (nobody has stopped).

A value is the vector of round-win chances in seat order from the player on turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from ..errors import RuleError
from ..i18n import L_
from ..rules.under40 import GOAL, distribution

SCORES = tuple(range(0, GOAL, 2))  # round scores still in play


@cache
def _dist() -> tuple[tuple[int, Fraction], ...]:
    return tuple((pts, Fraction(w, 36)) for pts, w in distribution().items())


def roll_distribution() -> dict[int, Fraction]:
    """Points of one roll -> exact probability."""
    return dict(_dist())


def check_score(score, what=None) -> int:
    """``score`` if it is a round score in play; else RuleError saying ``what`` it is (a
    message; "a round score" when None)."""
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score < GOAL \
            or score % 2:
        raise RuleError(L_("Under40: {what} in play is an even number from 0 to {top} (every "
                           "roll adds an even number; 40 ends the round), got {value}",
                           what=L_("a round score") if what is None else what,
                           top=GOAL - 2, value=repr(score)))
    return score


def bust_chance(score: int) -> Fraction:
    """Chance that the next roll takes ``score`` over 40."""
    s = check_score(score)
    return sum((p for x, p in _dist() if s + x > GOAL), Fraction(0))


def exact_40_chance(score: int) -> Fraction:
    """Chance that the next roll lands on exactly 40 (winning the round)."""
    s = check_score(score)
    return sum((p for x, p in _dist() if s + x == GOAL), Fraction(0))


@cache
def _above(s: int, leader: int) -> Fraction:
    if s > leader:
        return Fraction(1)
    out = Fraction(0)
    for x, p in _dist():
        if s + x > GOAL:
            continue
        out += p * (1 if s + x == GOAL else _above(s + x, leader))
    return out


def above_chance(score: int, leader: int) -> Fraction:
    """Chance to get strictly above ``leader`` without going over 40, rolling until then
    (1 if already above)."""
    return _above(check_score(score), check_score(leader, L_("a leader's score")))


@cache
def _round() -> dict[tuple[int, int], tuple[Fraction, Fraction | None]]:
    """(m, o) -> (value of rolling, value of stopping or None) for the player on turn."""
    table: dict[tuple[int, int], tuple[Fraction, Fraction | None]] = {}

    def win(m, o):
        roll, stop = table[m, o]
        return roll if stop is None else max(roll, stop)

    for total in range(2 * (GOAL - 2), -1, -2):
        pairs = [(m, total - m) for m in SCORES if total - m in SCORES]
        # must-roll states first: a stop leads to one of them with the same total
        for m, o in sorted(pairs, key=lambda mo: mo[0] > mo[1]):
            roll = Fraction(0)
            for x, p in _dist():
                if m + x == GOAL:
                    roll += p
                elif m + x < GOAL:
                    roll += p * win(m + x, o)
            stop = 1 - win(o, m) if m > o else None
            table[m, o] = (roll, stop)
    return table


@dataclass(frozen=True)
class RoundReadout:
    """The two-player round from the point of view of the player on turn."""

    score: int
    other: int
    may_stop: bool
    roll_win: Fraction          # chance to win the round by rolling (then playing on best)
    stop_win: Fraction | None   # chance to win the round by stopping now (None: not allowed)
    decision: str               # "roll" or "stop" (stop on a tie)
    win: Fraction               # chance to win the round with the best decision


def round_readout(score: int, other: int) -> RoundReadout:
    """Optimal play of a two-player round for the player on turn (score ``score``) against
    ``other`` (the other player's standing score, 0 if they have not rolled)."""
    m, o = check_score(score), check_score(other, L_("the other player's score"))
    roll, stop = _round()[m, o]
    decision = "stop" if stop is not None and stop >= roll else "roll"
    return RoundReadout(m, o, stop is not None, roll, stop, decision,
                        roll if decision == "roll" else stop)


def round_win_chance(score: int, other: int, my_turn: bool = True) -> Fraction:
    """Chance that I (round score ``score``) win the round against ``other``, both playing
    optimally; ``my_turn`` False: the other player is on turn (rolling on from ``other``)."""
    if my_turn:
        return round_readout(score, other).win
    return 1 - round_readout(other, score).win


def round_decision(score: int, other: int) -> str:
    """"roll" or "stop" for the player on turn."""
    return round_readout(score, other).decision


# ----- rounds of 2 to 8 players ---------------------------------------------------------------


MAX_PLAYERS = 8
_TIE = 1e-12
_BITS = GOAL // 2 - 1                       # scores 2..38
_FULL = 1 << _BITS


def _bit(score: int) -> int:
    return score // 2 - 1


@cache
def _masks():
    """Per mask of 19 bits: popcount, lowest and highest bit (-1 for the empty mask)."""
    m = np.arange(_FULL, dtype=np.int64)
    pop = np.zeros(_FULL, dtype=np.int64)
    high = np.full(_FULL, -1, dtype=np.int64)
    for b in range(_BITS):
        on = (m >> b) & 1
        pop += on
        high[on == 1] = b
    low = np.where(m > 0, high[m & -m], -1)  # the lowest bit alone has its highest bit there
    return pop, low, high


@cache
def _landing():
    """From score s rolling until above a leader M (s <= M): chance of stopping at t
    (M < t < 40), of exactly 40, of a bust; as arrays [s//2, M//2, t//2], [s//2, M//2]."""
    k = GOAL // 2
    land = np.zeros((k, k, k))
    hit = np.zeros((k, k))
    bust = np.zeros((k, k))
    dist = [(x, float(p)) for x, p in _dist()]
    for M in SCORES:
        j = M // 2
        for s in range(M, -1, -2):  # from the top: s + x <= M has been done
            i = s // 2
            for x, p in dist:
                y = s + x
                if y == GOAL:
                    hit[i, j] += p
                elif y > GOAL:
                    bust[i, j] += p
                elif y > M:
                    land[i, j, y // 2] += p
                else:
                    land[i, j] += p * land[y // 2, j]
                    hit[i, j] += p * hit[y // 2, j]
                    bust[i, j] += p * bust[y // 2, j]
    return land, hit, bust


@dataclass(frozen=True)
class _Table:
    n: int
    index: np.ndarray        # mask -> row (-1: not a position of n players)
    D: np.ndarray            # (rows, n) with the on-turn player's best decision
    S: np.ndarray            # (rows, n) turn start
    stop: np.ndarray         # (rows,) bool: the best decision at D is to stop
    A: np.ndarray            # (n,) round start


def _prepend_zero(v: np.ndarray) -> np.ndarray:
    return np.concatenate([np.zeros(v.shape[:-1] + (1,)), v], axis=-1)


def _bust_values(n: int, rest: np.ndarray) -> np.ndarray:
    """Values when the player on turn busts and ``rest`` (masks) stay with n - 1 players."""
    if n == 2:
        return np.tile([0.0, 1.0], (len(rest), 1))
    low = _table(n - 1)
    out = np.empty((len(rest), n - 1))
    empty = rest == 0
    out[empty] = low.A
    out[~empty] = low.S[low.index[rest[~empty]]]
    return _prepend_zero(out)


@cache
def _table(n: int) -> _Table:
    """The solved positions with n players still in the round (needs the n - 1 table)."""
    if not 2 <= n <= MAX_PLAYERS:
        raise RuleError(L_("Under40 rounds are solved for 2 to {most} players, got {n}",
                           most=MAX_PLAYERS, n=n))
    pop, low, high = _masks()
    masks = np.flatnonzero((pop >= 1) & (pop <= n))
    index = np.full(_FULL, -1, dtype=np.int32)
    index[masks] = np.arange(len(masks))
    D = np.zeros((len(masks), n))
    S = np.zeros((len(masks), n))
    stop = np.zeros(len(masks), dtype=bool)
    land, hit, bust = _landing()
    e0 = np.zeros(n)
    e0[0] = 1.0
    dist = [(x, float(p)) for x, p in _dist()]
    for b in reversed(range(_BITS)):        # by the highest score, from 38 down
        F = masks[high[masks] == b]
        rows = index[F]
        m = 2 * (b + 1)
        # S: the turn passes to the first player with no turn yet, or the lowest stopped one
        waiting = pop[F] < n
        s = np.where(waiting, 0, 2 * (low[F] + 1))
        G = np.where(waiting, F, F & ~(1 << np.maximum(low[F], 0)))
        val = hit[s // 2, m // 2][:, None] * e0 + \
            bust[s // 2, m // 2][:, None] * _bust_values(n, G)
        for t in range(m + 2, GOAL, 2):
            val += land[s // 2, m // 2, t // 2][:, None] * D[index[G | (1 << _bit(t))]]
        S[rows] = val
        # D: the player on turn is at m, above everyone
        rest = F & ~(1 << b)
        roll = np.zeros((len(F), n))
        for x, p in dist:
            if m + x < GOAL:
                roll += p * D[index[rest | (1 << _bit(m + x))]]
            elif m + x == GOAL:
                roll += p * e0
            else:
                roll += p * _bust_values(n, rest)
        stand = np.roll(val, 1, axis=1)     # the stopper becomes the last in seat order
        st = stand[:, 0] >= roll[:, 0] - _TIE
        stop[rows] = st
        D[rows] = np.where(st[:, None], stand, roll)
    # round start: the first player rolls from 0 and lands anywhere (above 0)
    A = np.zeros(n)
    for x, p in dist:
        if x < GOAL:
            A += p * D[index[1 << _bit(x)]]
        elif x == GOAL:
            A += p * e0
        else:
            A += p * (_prepend_zero(np.array([1.0])) if n == 2 else
                      _prepend_zero(_table(n - 1).A))
    return _Table(n, index, D, S, stop, A)


def _check_others(others) -> tuple[int, ...]:
    others = tuple(check_score(o, L_("another player's round score")) for o in others)
    if not 1 <= len(others) < MAX_PLAYERS:
        raise RuleError(L_("Under40: a round has 2 to {most} players still in it, got {n}",
                           most=MAX_PLAYERS, n=len(others) + 1))
    waiting = 0
    while waiting < len(others) and others[waiting] == 0:
        waiting += 1
    stopped = others[waiting:]
    if any(a >= b for a, b in zip(stopped, stopped[1:])) or 0 in stopped:
        raise RuleError(L_("Under40: in seat order after the player on turn come the players "
                           "with no turn yet (0), then stopped scores that rise (each stop beat "
                           "the ones before it); {scores} cannot happen", scores=str(others)))
    return others


@dataclass(frozen=True)
class TableReadout:
    """A round of any size from the point of view of the player on turn (see above)."""

    score: int
    others: tuple[int, ...]     # the others still in the round, in seat order after me
    may_stop: bool
    roll_win: float | Fraction  # chance to win the round by rolling (then everyone plays best)
    stop_win: float | Fraction | None
    decision: str               # "roll" or "stop" (stop on a tie)
    win: float | Fraction
    chances: tuple              # each player's chance to win the round, me first, seat order


def readout(score: int, others) -> TableReadout:
    """Optimal play for the player on turn at round score ``score``; ``others`` are the round
    scores of the other players still in the round (busted players left out) in seat order
    after the player on turn, 0 for one who has not had a turn yet. Two players: the exact
    ``Fraction`` solve (``round_readout``); more: the float tables (``_table``)."""
    m = check_score(score)
    others = _check_others(others)
    if len(others) == 1:
        r = round_readout(m, others[0])
        return TableReadout(m, others, r.may_stop, r.roll_win, r.stop_win, r.decision, r.win,
                            (r.win, 1 - r.win))
    n = len(others) + 1
    tab = _table(n)
    rest = 0
    for o in others:
        if o:
            rest |= 1 << _bit(o)
    lead = max(others)
    if m > lead:
        F = rest | (1 << _bit(m))
        row = tab.index[F]
        stand = np.roll(tab.S[row], 1)
        roll = np.zeros(n)
        for x, p in _dist():
            if m + x < GOAL:
                roll += float(p) * tab.D[tab.index[rest | (1 << _bit(m + x))]]
            elif m + x == GOAL:
                roll[0] += float(p)
            else:
                roll += float(p) * _bust_values(n, np.array([rest]))[0]
        stop = bool(tab.stop[row])
        best = stand if stop else roll
        return TableReadout(m, others, True, float(roll[0]), float(stand[0]),
                            "stop" if stop else "roll", float(best[0]), tuple(best.tolist()))
    # must roll until above the leader
    land, hit, bust = _landing()
    v = bust[m // 2, lead // 2] * _bust_values(n, np.array([rest]))[0]
    v[0] += hit[m // 2, lead // 2]
    for t in range(lead + 2, GOAL, 2):
        v += land[m // 2, lead // 2, t // 2] * tab.D[tab.index[rest | (1 << _bit(t))]]
    return TableReadout(m, others, False, float(v[0]), None, "roll", float(v[0]),
                        tuple(v.tolist()))


def stop_choices(n: int, masks) -> np.ndarray:
    """The best decisions in bulk (for vectorised play, dicelab.lab): positions where the player
    on turn is above every other standing score, with ``n`` players still in the round and
    ``masks`` the bits (``1 << (s // 2 - 1)``) of the stopped scores and of the on-turn
    player's. True: stop. (For two players these equal ``round_decision``; tested.)"""
    tab = _table(n)
    rows = tab.index[np.asarray(masks, dtype=np.int64)]
    if (rows < 0).any():
        raise RuleError(L_("Under40: not a position of {n} players in the round", n=n))
    return tab.stop[rows]
