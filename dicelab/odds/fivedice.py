"""Exact odds for the five-dice games, Bones and Thousand (docs/explanation/rules.md "Bones",
"Thousand").

One roll: every sorted outcome of n dice is enumerated with its number of orderings
(``rules.*.table``), so the distribution of (points, counting dice) is exact (``Fraction``) and
its floats come from the same enumeration.

One turn: a state is (turn total t, dice the next roll throws n). With n = 5 and t > 0 the dice
are hot. The expected-points values solve

    R(t, n) = P(bust) * bust_value + sum over non-bust outcomes of p * D(t + points, n'),
    D(t, n) = max(stand gain g(t), R(t, n)) where standing is allowed, else R(t, n),

with n' = n - counting dice, or 5 when all have counted (hot dice). Every non-bust roll adds
points, so t only grows and the recursion is solved exactly from the top of a finite grid down
(turn totals in units of 50 for Bones, 5 for Thousand). Above the grid's top, standing is
provably optimal (see ``_cap_units``) and the values have closed forms (``_tail``).

What "expected points" means: the expected change of the player's banked total over this one
turn. Bones: the turn total if banked, 0 on a bust or a turn that never reaches the minimum on
board. Thousand: the same, with the barrel rule (a stand reaching the barrel sets the total to
exactly the barrel, so the gain is at most barrel - banked), a win from the barrel gains the
turn total, and a bust costs what this turn's bolt would cost given the bolts already in a row
(``bolts``; with the default 3 per penalty and no bolt yet, nothing) or, on the barrel, the
fall after the last attempt. Later turns' penalties, and what a stand is worth for winning the
game, are not part of it: ``dicelab.odds.win`` gives the chance to win (two-seat Bones).

Readouts (``turn_readout``) are lookups in tables built once per rules and situation and cached.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import Any

import numpy as np

from ..errors import RuleError
from ..i18n import L_
from ..rules import bones as bones_rules
from ..rules import thousand as thousand_rules
from ..rules.fivedice import (STRATEGIES, THRESHOLD_RANGE, UNIT, FiveDiceRules, Standing,
                              bust, check_standing, gain_cap, stand_need)


# ----- rules -> a hashable description ---------------------------------------------------------
@cache
def _default_rules(variant: str) -> FiveDiceRules:
    from ..settings import BonesSettings, ThousandSettings

    return (BonesSettings if variant == "bones" else ThousandSettings)().turn_rules()


def as_rules(rules: Any) -> FiveDiceRules:
    """``"bones"``/``"thousand"`` (default settings), a BonesSettings/ThousandSettings, a game's
    ``config`` namespace, or a FiveDiceRules."""
    if isinstance(rules, FiveDiceRules):
        return rules
    if isinstance(rules, str):
        if rules not in UNIT:
            raise RuleError(L_("five-dice odds are for bones and thousand, not {rules}",
                               rules=repr(rules)))
        return _default_rules(rules)
    if callable(getattr(rules, "turn_rules", None)):  # BonesSettings, ThousandSettings
        return rules.turn_rules()
    for variant, key in (("thousand", "barrel"), ("bones", "min_on_board")):
        if hasattr(rules, key):  # a game's ``config`` namespace
            return FiveDiceRules.of(variant, vars(rules))
    raise RuleError(L_("five-dice odds need Bones or Thousand settings, got {rules}",
                       rules=repr(rules)))


# ----- one roll --------------------------------------------------------------------------------
def check_n(n) -> int:
    """The number of dice of a five-dice roll, checked (RuleError otherwise)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 5:
        raise RuleError(L_("a five-dice roll throws 1 to 5 dice, got {n}", n=repr(n)))
    return int(n)




def _table(kernel_key, n: int):
    variant, preset, _ = kernel_key
    return bones_rules.table(n, preset) if variant == "bones" else thousand_rules.table(n)


@cache
def _roll_distribution(kernel_key, n: int) -> dict[tuple[int, int], Fraction]:
    ways: dict[tuple[int, int], int] = {}
    for _dice, w, points, counting in _table(kernel_key, n):
        ways[points, counting] = ways.get((points, counting), 0) + w
    return {k: Fraction(w, 6 ** n) for k, w in sorted(ways.items())}


def roll_distribution(rules, n: int) -> dict[tuple[int, int], Fraction]:
    """(points, counting dice) of one roll of ``n`` dice -> exact probability; (0, 0) is a bust."""
    return dict(_roll_distribution(as_rules(rules).kernel_key, check_n(n)))


def bust_chance(rules, n: int, exact: bool = False) -> float | Fraction:
    """Chance that a roll of ``n`` dice has no counting die."""
    p = _roll_distribution(as_rules(rules).kernel_key, check_n(n)).get((0, 0), Fraction(0))
    return p if exact else float(p)


def counting_chance(rules, n: int, exact: bool = False) -> float | Fraction:
    """Chance that a roll of ``n`` dice has at least one counting die."""
    p = 1 - bust_chance(rules, n, exact=True)
    return p if exact else float(p)


def expected_roll_points(rules, n: int, exact: bool = False) -> float | Fraction:
    """Points one roll of ``n`` dice scores on average (a bust scores 0; the turn total it
    loses is not counted here)."""
    d = _roll_distribution(as_rules(rules).kernel_key, check_n(n))
    e = sum((p * pts for (pts, _c), p in d.items()), Fraction(0))
    return e if exact else float(e)


# ----- the roll kernel used by the turn solver ------------------------------------------------
@dataclass(frozen=True)
class RollKernel:
    """All rolls of 1..5 dice as flat arrays. Outcomes with the same choices are grouped; each
    group has options (points in units, next dice); ``n_start`` splits groups by n."""

    unit: int
    opt_pts: np.ndarray
    opt_next: np.ndarray
    grp_start: np.ndarray      # first option of each group
    grp_prob: np.ndarray
    n_start: np.ndarray        # first group of each n = 1..5
    single: bool               # one option per group (no keep choice)
    bust: np.ndarray           # [6] bust chance per n (index 0 unused)
    counting: np.ndarray       # [6] chance of at least one counting die per n
    exp_points: np.ndarray     # [6] expected roll points per n (auto keep), in points
    max_units: int             # most units one roll can add
    # 5-dice roll split for the hot-dice closed forms (auto keep)
    p_nohot5: float
    e_nohot5: float            # sum of p * points over non-bust rolls that leave dice
    p_hot5: float
    e_hot5: float
    e_max: float               # most expected points of one roll, over n and keep choices


def kernel_key_rules(kernel_key) -> FiveDiceRules:
    variant, preset, choose = kernel_key
    if variant == "bones":
        return FiveDiceRules("bones", preset=preset, choose_keepers=choose)
    return FiveDiceRules("thousand")


def _sub_multisets(dice: tuple[int, ...]):
    faces = sorted(set(dice))
    for counts in product(*(range(dice.count(f) + 1) for f in faces)):
        sub = tuple(f for f, c in zip(faces, counts) for _ in range(c))
        if sub:
            yield sub


@cache
def _keeps(kernel_key, dice: tuple[int, ...], choose: bool):
    """(dice set aside, points, counting dice) for each way to set dice aside from a sorted
    roll: all counting dice, or with choose_keepers any set of counting dice / whole groups
    that count on their own (as the game's Roll(keep=...) checks)."""
    variant, preset, _ = kernel_key
    score = (lambda d: bones_rules.score(d, preset)) if variant == "bones" else thousand_rules.score
    full = score(dice)
    if full.counting == 0:
        return ()
    auto = tuple(sorted(d for d, c in zip(dice, full.mask) if c))
    out = {auto: (full.points, full.counting)}
    if choose:
        for sub in _sub_multisets(dice):
            sc = score(sub)
            if sc.counting == len(sub):
                out[sub] = (sc.points, sc.counting)
    return tuple((k, p, c) for k, (p, c) in sorted(out.items()))


def keep_options(rules, dice) -> list[tuple[tuple[int, ...], int, int]]:
    """Ways to set dice aside after rolling ``dice``: (dice set aside, points, dice left for
    the next roll, 5 after hot dice). One way (all counting dice) unless choose_keepers."""
    r = as_rules(rules)
    from ..dice import check_dice

    d = tuple(sorted(check_dice(dice, (1, 5))))
    return [(k, p, len(d) - c or 5) for k, p, c in _keeps(r.kernel_key, d, r.choose_keepers)]


@cache
def roll_kernel(kernel_key, auto: bool = True) -> RollKernel:
    variant, _preset, choose = kernel_key
    unit = UNIT[variant]
    choose = choose and not auto
    groups: dict[tuple[int, tuple], int] = {}
    bust = np.zeros(6)
    counting_p = np.zeros(6)
    exp_points = np.zeros(6)
    e_max = 0.0
    p_nohot5 = e_nohot5 = p_hot5 = e_hot5 = 0.0
    for n in range(1, 6):
        total = 6 ** n
        best_e = 0.0
        bust[n] = float(bust_chance(kernel_key_rules(kernel_key), n, exact=True))
        counting_p[n] = float(counting_chance(kernel_key_rules(kernel_key), n, exact=True))
        exp_points[n] = float(expected_roll_points(kernel_key_rules(kernel_key), n, exact=True))
        for dice, w, points, counting in _table(kernel_key, n):
            p = w / total
            if counting == 0:
                continue
            if n == 5:
                if counting == 5:
                    p_hot5 += p
                    e_hot5 += p * points
                else:
                    p_nohot5 += p
                    e_nohot5 += p * points
            opts = {(pts // unit, n - c or 5) for _k, pts, c in _keeps(kernel_key, dice, choose)}
            best_e += p * max(o[0] for o in opts) * unit
            key = (n, tuple(sorted(opts)))
            groups[key] = groups.get(key, 0) + w
        e_max = max(e_max, best_e)
    opt_pts, opt_next, grp_start, grp_prob, n_start = [], [], [], [], []
    for (n, opts), w in sorted(groups.items()):
        if len(n_start) < n:
            n_start.append(len(grp_prob))
        grp_start.append(len(opt_pts))
        grp_prob.append(w / 6 ** n)
        for pts, nxt in opts:
            opt_pts.append(pts)
            opt_next.append(nxt)
    return RollKernel(unit, np.array(opt_pts), np.array(opt_next), np.array(grp_start),
                   np.array(grp_prob), np.array(n_start), not choose, bust, counting_p, exp_points,
                   max(opt_pts), p_nohot5, e_nohot5, p_hot5, e_hot5, e_max)


def _cap_units(k: RollKernel) -> int:
    """Turn total (units) from which standing beats rolling whenever standing is allowed and
    the gain is the turn total.

    Rolling from t with any policy for the rest of the turn gains at most
    (1 - q) * t + E[points still to come], where q >= q_min = min_n P(bust of n dice) (the
    turn total survives only if the next roll counts; a bust is worth <= 0). Each roll busts
    with chance >= q_min, so at most 1/q_min rolls are expected, each adding at most e_max
    points on average (Wald): E[points to come] <= e_max / q_min. So standing (t) is at least
    as good when q_min * t >= e_max / q_min, i.e. t >= e_max / q_min**2.
    """
    q = float(k.bust[1:].min())
    return math.ceil(k.e_max / q ** 2 / k.unit) + 1


# ----- situations ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Situation:
    """What a turn is worth depends on: the turn total needed to stand (units), the clamp on
    the gain (barrel - banked, points) or None, the value of a bust (points, <= 0), whether
    hot dice must be rolled (Thousand), and whether a stand now puts a Bones player on the
    board for the first time (the computers' hot-dice exception)."""

    kernel_key: tuple
    need: int
    clamp: float | None
    bust_value: float
    hot_compulsory: bool
    first_board: bool


def _situation(r: FiveDiceRules, banked: int = 0, on_board: bool = True,
               on_barrel: bool = False, barrel_turns: int = 0, bolts: int = 0) -> _Situation:
    need = max(0, -(-stand_need(r, banked, on_board, on_barrel) // r.unit))
    if r.variant == "bones":
        return _Situation(r.kernel_key, need, None, 0.0, False, not on_board)
    cap = gain_cap(r, banked, on_barrel)
    clamp = None if cap is None else float(cap)
    before = Standing(banked, on_board, on_barrel, barrel_turns, bolts)
    bust_value = float(bust(r, before).total - banked)
    return _Situation(r.kernel_key, need, clamp, bust_value, True, False)


# ----- the solver ------------------------------------------------------------------------------
# Solved grids kept per kind (LRU): a grid is at most ~100 KB (settings bound the turn totals it
# tables to 1000 units), so the three caches stay under ~80 MB however many rule sets and
# situations a server meets.
SOLVES = 256

@dataclass(frozen=True)
class _Solution:
    unit: int
    top: int                   # grid size: t < top is tabled
    roll: np.ndarray           # [6, top] value of rolling n dice at t
    value: np.ndarray          # [6, top] value of the state under the policy
    tail: Any                  # tail(n, t_units array) -> value, for t >= top
    kernel: RollKernel
    bust_value: float


def _tail_hot(k: RollKernel, bust_value: float):
    """Closed form of a hot five-dice roll when every later non-hot state stands with gain
    t (linear) or G (constant) and every later hot state rolls: f(t) = a*t + b."""
    a = k.p_nohot5 / (1 - k.p_hot5)
    b = (k.e_nohot5 + a * k.e_hot5 + k.bust[5] * bust_value) / (1 - k.p_hot5)
    return a, b


def _run(k: RollKernel, top: int, tail, stand: np.ndarray, stand_mask: np.ndarray,
         choose_max: np.ndarray | None, bust_value: float) -> _Solution:
    """Backward induction over t = top-1 .. 0. ``stand``: gain [top]; ``stand_mask`` [6, top]:
    the policy stands; ``choose_max`` [6, top]: where set, the better of stand and roll."""
    m = k.max_units
    width = top + m + 1
    value = np.zeros((6, width))
    tt = np.arange(top, width)
    for n in range(1, 6):
        value[n, top:] = tail(n, tt)
    roll = np.zeros((6, top))
    bust_term = k.bust[1:] * bust_value
    opt_pts, opt_next, grp_prob = k.opt_pts, k.opt_next, k.grp_prob
    for t in range(top - 1, -1, -1):
        vals = value[opt_next, t + opt_pts]
        if not k.single:
            vals = np.maximum.reduceat(vals, k.grp_start)
        r = np.add.reduceat(grp_prob * vals, k.n_start) + bust_term
        roll[1:, t] = r
        col = np.where(stand_mask[1:, t], stand[t], r)
        if choose_max is not None:
            col = np.where(choose_max[1:, t], np.maximum(stand[t], r), col)
        value[1:, t] = col
    return _Solution(k.unit, top, roll, value[:, :top].copy(), tail, k, bust_value)


def _gain(sit: _Situation, unit: int, t_units):
    g = np.asarray(t_units, dtype=float) * unit
    return g if sit.clamp is None else np.minimum(g, sit.clamp)


def _allowed(sit: _Situation, top: int) -> np.ndarray:
    t = np.arange(top)
    ok = np.broadcast_to((t >= sit.need) & (t > 0), (6, top)).copy()
    if sit.hot_compulsory:
        ok[5] = False
    ok[0] = False
    return ok


@lru_cache(maxsize=SOLVES)
def _solve_optimal(sit: _Situation) -> _Solution:
    k = roll_kernel(sit.kernel_key, auto=False)
    u = k.unit
    if sit.clamp is not None:
        # gain <= clamp: from t >= clamp (and allowed) standing takes the most there is
        top = max(sit.need, math.ceil(max(sit.clamp, 0) / u), 1)
        c_hot = (k.p_nohot5 * sit.clamp + k.bust[5] * sit.bust_value) / (1 - k.p_hot5)

        def tail(n, t):
            return np.full(len(t), c_hot if n == 5 and sit.hot_compulsory else sit.clamp)
    else:
        top = max(sit.need, _cap_units(k), 1)
        a, b = _tail_hot(k, sit.bust_value)

        def tail(n, t):
            g = t * float(u)
            return a * g + b if n == 5 and sit.hot_compulsory else g
    stand = _gain(sit, u, np.arange(top))
    no = np.zeros((6, top), dtype=bool)
    return _run(k, top, tail, stand, no, _allowed(sit, top), sit.bust_value)


@lru_cache(maxsize=SOLVES)
def _solve_threshold(sit: _Situation, threshold: int, habit: bool) -> _Solution:
    """The computer of seed 000: stands as soon as t >= threshold (units) and it may stand;
    with hot dice (habit) it rolls all five again unless this stand puts it on the board for
    the first time. It keeps every counting die."""
    k = roll_kernel(sit.kernel_key, auto=True)
    u = k.unit
    roll_hot = sit.hot_compulsory or (habit and not sit.first_board)
    top = max(sit.need, threshold, 1)
    if sit.clamp is not None:
        top = max(top, math.ceil(max(sit.clamp, 0) / u))
        c_hot = (k.p_nohot5 * sit.clamp + k.bust[5] * sit.bust_value) / (1 - k.p_hot5)

        def tail(n, t):
            return np.full(len(t), c_hot if n == 5 and roll_hot else sit.clamp)
    else:
        a, b = _tail_hot(k, sit.bust_value)

        def tail(n, t):
            g = t * float(u)
            return a * g + b if n == 5 and roll_hot else g
    stand = _gain(sit, u, np.arange(top))
    mask = _allowed(sit, top) & (np.arange(top) >= threshold)
    if roll_hot:
        mask[5] = False
    return _run(k, top, tail, stand, mask, None, sit.bust_value)


@lru_cache(maxsize=SOLVES)
def solve_reach(kernel_key, amount: int, hot_compulsory: bool) -> _Solution:
    """Chance to end the turn standing with a turn total >= amount (units), rolling until
    then with the keep choices that maximise it."""
    k = roll_kernel(kernel_key, auto=False)
    c_hot = k.p_nohot5 / (1 - k.p_hot5) if hot_compulsory else 1.0
    top = max(amount, 1)

    def tail(n, t):
        return np.full(len(t), c_hot if n == 5 else 1.0)
    no = np.zeros((6, top), dtype=bool)
    return _run(k, top, tail, np.zeros(top), no, None, 0.0)


def solution_roll_value(sol: _Solution, n: int, t: int) -> float:
    if t < sol.top:
        return float(sol.roll[n, t])
    # beyond the table every later state is in the closed-form tail
    k = sol.kernel
    lo, hi = k.n_start[n - 1], (k.n_start[n] if n < 5 else len(k.grp_prob))
    o_lo = k.grp_start[lo]
    o_hi = k.grp_start[hi] if hi < len(k.grp_start) else len(k.opt_pts)
    pts = k.opt_pts[o_lo:o_hi]
    nxt = k.opt_next[o_lo:o_hi]
    vals = np.empty(len(pts))
    for m in range(1, 6):
        sel = nxt == m
        if sel.any():
            vals[sel] = sol.tail(m, t + pts[sel])
    if not k.single:
        vals = np.maximum.reduceat(vals, k.grp_start[lo:hi] - o_lo)
    return float(k.grp_prob[lo:hi] @ vals) + float(k.bust[n]) * sol.bust_value


# ----- strategies ------------------------------------------------------------------------------
def parse_strategy(name: str, variant: str = "bones") -> tuple[int, bool]:
    """``chicken`` | ``aggressive`` | ``gambler`` | ``threshold:T`` | ``threshold:T:nohabit``
    -> (T in points, hot-dice habit)."""
    if not isinstance(name, str):
        raise RuleError(L_("a strategy is a name, got {name}", name=repr(name)))
    if name in STRATEGIES[variant]:
        return STRATEGIES[variant][name], True
    parts = name.split(":")
    if parts[0] == "threshold" and len(parts) in (2, 3):
        habit = True
        if len(parts) == 3:
            if parts[2] not in ("habit", "nohabit"):
                raise RuleError(L_("strategy {name}: the third part is habit or nohabit",
                                   name=repr(name)))
            habit = parts[2] == "habit"
        try:
            t = int(parts[1])
        except ValueError:
            raise RuleError(L_("strategy {name}: T is a whole number of points",
                               name=repr(name))) from None
        return check_threshold(t, variant), habit
    lo, hi = THRESHOLD_RANGE[variant]
    raise RuleError(L_("unknown strategy {name}; the strategies are chicken, aggressive, "
                       "gambler, threshold:T and threshold:T:nohabit (T {lo}..{hi})",
                       name=repr(name), lo=str(lo), hi=str(hi)))


def check_threshold(t: int, variant: str) -> int:
    lo, hi = THRESHOLD_RANGE[variant]
    u = UNIT[variant]
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not lo <= t <= hi \
            or t % u:
        words = (L_("a thousand strategy threshold is {lo}..{hi} in steps of {step}, got "
                    "{value}", lo=str(lo), hi=str(hi), step=u, value=repr(t))
                 if variant == "thousand" else
                 L_("a bones strategy threshold is {lo}..{hi} in steps of {step}, got {value}",
                    lo=str(lo), hi=str(hi), step=u, value=repr(t)))
        raise RuleError(words)
    return int(t)


# ----- public turn values ----------------------------------------------------------------------
def optimal_turn_ev(rules, *, on_board: bool = True, banked: int = 0, on_barrel: bool = False,
                    barrel_turns: int = 0, bolts: int = 0) -> float:
    """Expected points of a fresh turn (see the module doc) under the policy that maximises
    them. Bones: ``on_board`` False applies min_on_board. Thousand: ``on_board`` is "opened";
    ``banked`` sets the pit and the barrel clamp; ``on_barrel`` needs banked == barrel."""
    r = as_rules(rules)
    check_standing(r, Standing(banked, on_board, on_barrel, barrel_turns, bolts))
    sol = _solve_optimal(_situation(r, banked, on_board, on_barrel, barrel_turns, bolts))
    return float(sol.roll[5, 0])


def threshold_turn_ev(rules, threshold: int, hot_dice_habit: bool = True, *,
                      on_board: bool = True, banked: int = 0, on_barrel: bool = False,
                      barrel_turns: int = 0, bolts: int = 0) -> float:
    """Expected points of a fresh turn of the threshold computer (docs/explanation/rules.md "Bones":
    stands as soon as the turn total is >= threshold and it may stand; with the hot-dice habit it
    rolls hot dice again unless that stand puts it on the board for the first time). Thousand's hot
    dice are always rolled, so the habit does not matter there."""
    r = as_rules(rules)
    check_standing(r, Standing(banked, on_board, on_barrel, barrel_turns, bolts))
    t = check_threshold(threshold, r.variant)
    sit = _situation(r, banked, on_board, on_barrel, barrel_turns, bolts)
    sol = _solve_threshold(sit, t // r.unit, bool(hot_dice_habit) or sit.hot_compulsory)
    return float(sol.roll[5, 0])


def strategy_turn_ev(rules, strategy: str, **state) -> float:
    """``threshold_turn_ev`` for a strategy name (``parse_strategy``)."""
    r = as_rules(rules)
    t, habit = parse_strategy(strategy, r.variant)
    return threshold_turn_ev(r, t, habit, **state)


def reach_chance(rules, amount: int, turn_total: int = 0, dice_left: int = 5, *,
                 on_board: bool = True, banked: int = 0, on_barrel: bool = False) -> float:
    """Chance that this turn ends with a stand at a turn total >= ``amount`` (and >= what the
    rules need to stand), rolling until then with the choices that maximise that chance.
    Thousand: hot dice reached at the amount must still be rolled once more."""
    r = as_rules(rules)
    check_standing(r, Standing(banked, on_board, on_barrel))
    t_u = check_total(r, turn_total)
    n = check_n(dice_left)
    sit = _situation(r, banked, on_board, on_barrel)
    top = _highest_target(r)
    if (isinstance(amount, bool) or not isinstance(amount, (int, np.integer))
            or not 0 <= amount <= top):
        got = repr(amount)[:120]
        raise RuleError(L_("an amount to reach is a whole number from 0 to {top} (the highest "
                           "thousand target), got {value}", top=str(top), value=got)
                        if r.variant == "thousand" else
                        L_("an amount to reach is a whole number from 0 to {top} (the highest "
                           "bones target), got {value}", top=str(top), value=got))
    a_u = max(-(-int(amount) // r.unit), sit.need, 1)
    sol = solve_reach(r.kernel_key, a_u, sit.hot_compulsory)
    if t_u > 0 and n == 5 and not sit.hot_compulsory and t_u >= a_u:
        return 1.0
    if t_u > 0 and t_u >= a_u and n < 5:
        return 1.0
    if t_u >= sol.top:
        return float(sol.tail(n, np.array([t_u]))[0])
    return float(sol.roll[n, t_u])


def _highest_target(r: FiveDiceRules) -> int:
    """The variant's highest target setting: the solver's tables never need to reach beyond."""
    from ..settings import SETTINGS

    return SETTINGS[r.variant].param.target.bounds[1]


MAX_TURN_TOTAL = 10_000_000  # far beyond any turn; the closed-form tail takes floats only


def check_total(r: FiveDiceRules, turn_total) -> int:
    if isinstance(turn_total, bool) or not isinstance(turn_total, (int, np.integer)) \
            or not 0 <= turn_total <= MAX_TURN_TOTAL:
        raise RuleError(L_("a turn total is a whole number from 0 to {top}, got {value}",
                           top=MAX_TURN_TOTAL, value=repr(turn_total)[:150]))
    if turn_total % r.unit:
        raise RuleError(L_("thousand turn totals are multiples of {unit}, got {value}",
                           unit=r.unit, value=str(turn_total)) if r.variant == "thousand" else
                        L_("bones turn totals are multiples of {unit}, got {value}",
                           unit=r.unit, value=str(turn_total)))
    return int(turn_total) // r.unit


@dataclass(frozen=True)
class TurnReadout:
    """What the odds say about one turn state (values in points, chances in 0..1)."""

    variant: str
    turn_total: int
    dice_left: int
    hot_dice: bool
    need: int                   # turn total needed to stand (0: any)
    may_stand: bool
    bust_chance: float          # of the next roll
    counting_chance: float
    expected_roll_points: float  # what the next roll scores on average (a bust scores 0)
    stand_value: float | None   # gain to the banked total from standing now (None: not allowed)
    roll_value: float           # expected gain from rolling now, then playing EV-optimally
    decision: str               # "stand" or "roll" (the EV-optimal choice)
    reach_amount: int | None    # the turn total this turn must reach to be banked, if any
    reach_chance: float | None  # chance to reach it (policy that maximises that chance)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def turn_readout(rules, turn_total: int = 0, dice_left: int = 5, *, on_board: bool = True,
                 banked: int = 0, on_barrel: bool = False, barrel_turns: int = 0,
                 bolts: int = 0) -> TurnReadout:
    """Live readout of a turn state: ``turn_total`` so far and ``dice_left`` for the next roll
    (5 with a turn total > 0 means hot dice; turn total 0 is the start of a turn, which must
    roll). Values are expected points of the rest of the turn (module doc)."""
    r = as_rules(rules)
    n = check_n(dice_left)
    t_u = check_total(r, turn_total)
    check_standing(r, Standing(banked, on_board, on_barrel, barrel_turns, bolts))
    sit = _situation(r, banked, on_board, on_barrel, barrel_turns, bolts)
    sol = _solve_optimal(sit)
    hot = t_u > 0 and n == 5
    may = t_u > 0 and t_u >= sit.need and not (hot and sit.hot_compulsory)
    stand = float(_gain(sit, r.unit, t_u)) if may else None
    roll = solution_roll_value(sol, n, t_u)
    decision = "stand" if may and stand >= roll else "roll"
    need = max(0, stand_need(r, banked, on_board, on_barrel))
    amount = reach = None
    if need > 0:
        amount = need
        reach = reach_chance(r, need, turn_total, n, on_board=on_board, banked=banked,
                             on_barrel=on_barrel)
    k = sol.kernel
    return TurnReadout(r.variant, int(turn_total), n, hot, need, may, float(k.bust[n]),
                       float(k.counting[n]), float(k.exp_points[n]), stand, roll, decision,
                       amount, reach)


def keep_values(rules, dice, before_total: int = 0, **situation) -> list[tuple[tuple, TurnReadout]]:
    """For each way to set dice aside from the roll ``dice`` (``keep_options``), the readout of
    the state it leads to from the turn total ``before_total`` before that roll; the best keep
    is the one with the highest ``max(stand_value, roll_value)``."""
    return [(keep, turn_readout(rules, before_total + pts, left, **situation))
            for keep, pts, left in keep_options(rules, dice)]


def readout_for(rules, state, seat: int | None = None) -> TurnReadout:
    """``turn_readout`` for a five-dice game state (duck-typed: turn_total, dice_left, totals,
    on_board, and Thousand's on_barrel, barrel_turns, bolts) and the player on turn."""
    seat = state.current if seat is None else seat
    extra = {}
    if hasattr(state, "on_barrel") and state.on_barrel:
        extra = {"on_barrel": state.on_barrel[seat], "barrel_turns": state.barrel_turns[seat],
                 "bolts": state.bolts[seat]}
    return turn_readout(rules, state.turn_total, state.dice_left, on_board=state.on_board[seat],
                        banked=state.totals[seat], **extra)


def optimal_stand_table(rules, **state) -> np.ndarray:
    """Bool table [t // unit, dice left]: the EV-optimal policy stands there (and may). Its last
    row holds for every higher turn total (stand, except Thousand's compulsory hot dice)."""
    r = as_rules(rules)
    sit = _situation(r, **state)
    sol = _solve_optimal(sit)
    stand = _gain(sit, r.unit, np.arange(sol.top))
    table = np.zeros((sol.top + 1, 6), dtype=bool)
    table[:-1] = (_allowed(sit, sol.top) & (stand >= sol.roll)).T
    table[-1, 1:] = True
    if sit.hot_compulsory:
        table[-1, 5] = False
    return table


def stand_from(rules, **state) -> dict[int, list[tuple[int, int | None]]]:
    """Where the EV-optimal decision is "stand", per dice left: turn-total ranges [lo, hi)
    (hi None: and above), over the tabled totals."""
    r = as_rules(rules)
    sit = _situation(r, **state)
    sol = _solve_optimal(sit)
    ok = _allowed(sit, sol.top)
    stand = _gain(sit, r.unit, np.arange(sol.top))
    out: dict[int, list[tuple[int, int | None]]] = {}
    for n in range(1, 6):
        flag = ok[n] & (stand >= sol.roll[n])
        ranges, lo = [], None
        for t in range(sol.top):
            if flag[t] and lo is None:
                lo = t
            elif not flag[t] and lo is not None:
                ranges.append((lo * r.unit, t * r.unit))
                lo = None
        tail_stands = not (n == 5 and sit.hot_compulsory)
        if lo is not None or tail_stands:
            ranges.append(((sol.top if lo is None else lo) * r.unit, None))
        out[n] = ranges
    return out
