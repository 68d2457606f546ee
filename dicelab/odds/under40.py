"""Exact odds for Under40 (RULES.md "Under40"; seed 001).

A roll of two dice adds an even number of 2..72 points (``rules.under40.distribution``), so a
round score that is still in play is one of 0, 2, ..., 38: everything here is exact
(``Fraction``) over that small space.

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
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ..errors import RuleError
from ..rules.under40 import GOAL, distribution

SCORES = tuple(range(0, GOAL, 2))  # round scores still in play


@cache
def _dist() -> tuple[tuple[int, Fraction], ...]:
    return tuple((pts, Fraction(w, 36)) for pts, w in distribution().items())


def roll_distribution() -> dict[int, Fraction]:
    """Points of one roll -> exact probability."""
    return dict(_dist())


def check_score(score, what: str = "a round score") -> int:
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score < GOAL \
            or score % 2:
        raise RuleError(f"Under40: {what} in play is an even number from 0 to {GOAL - 2} "
                        f"(every roll adds an even number; 40 ends the round), got {score!r}")
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
    return _above(check_score(score), check_score(leader, "a leader's score"))


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
    m, o = check_score(score), check_score(other, "the other player's score")
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
