"""Exact chance to win a two-seat game of Thousand ("1000") under play that maximises it.

docs/explanation/rules.md "Thousand": opening, pits, the barrel with its attempts and fall,
bolts in a row and their penalty; a stand from the barrel that reaches the target wins at once
(no final round).

A player's standing between turns is a *status*: banked total (units of 5), opened, bolts in a
row, and on the barrel with the attempts used (``rules.fivedice.Standing``). W[i, j] is the
chance that the player on turn with status i beats the other with status j. A turn of i against
j is the five-dice turn (turn total, dice left): every counting roll adds points, so the turn is
acyclic; standing at a running total c is worth 1 - W[j, status after the stand] (the barrel's
status from the barrel up), a bust 1 - W[j, status after the bust]. On the barrel the turn is
only "reach the target" (``fivedice.solve_reach``), so its value is a closed form.

Totals can fall (the bolt penalty, the barrel's fall), so the banked states are not acyclic and
there are no monotone layers: the whole table is solved by value iteration. Each sweep visits
the pairs of statuses in layers of equal banked sum from the top down (a stand only raises the
sum, so every stand reads a value already updated in this sweep: Gauss-Seidel), and within a
layer from the most bolts and barrel attempts down (a bust that adds a bolt or an attempt lands
on the same layer one level up, already updated too); a penalty or fall reads a lower layer
(last sweep's values). A layer's turns run in a compiled loop over the non-zero roll outcomes
(``win_kernels``, numba). Sweeps stop once no value changed by more than ``TOL`` (1e-9) in a
sweep; then one more sweep records the policy's stand bits (its largest change is reported as
the residual).

The rules set no lower limit on a total, so a table must stop somewhere, and the effect of
where it stops must be bounded. The table goes down to a ``floor`` (default: ``DEPTH`` = 11
bolt penalties or barrel falls below zero, -1100 with the default settings); a bust that would
take a total below it counts as a lost game. A player gets there only after many penalties in
a row far behind, so the floor's effect shrinks fast with its depth: at the small settings of
the tests, moving the floor from 450 to 900 below zero changed chances from 0 up by at most
3.3e-9, from -150 up by 2.1e-6, from -300 up by 9.8e-4. The chances from ``exact_from`` (the
floor plus ``DEPTH`` steps: 0 by default) up are exact to the tolerance: a floor twice as deep
moves none of them by more than 1e-9 (tests/test_win_thousand.py builds the small tables both
ways); below it they are less exact the closer to the floor. Lookups of a standing below the
floor read the floor's. Stand bits (the policy) are kept only for pairs from ``bits_from``
(three steps below ``exact_from``) up, so the table's memory is that of the old floor's; a
standing below plays as if there.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import RuleError
from .. import i18n
from ..i18n import L_
from ..rules import fivedice as turn
from ..rules.fivedice import FiveDiceRules, Standing
from . import fivedice as fd
from .cachefile import save_npz
from . import win as _win
from .win import TOL, WinReadout, win_readout

FORMAT = 2            # 2: stand bits only from bits_from up
DEPTH = 11           # steps of the floor below zero, and of exact_from above the floor
FLOOR = -1100        # the default settings' floor
BLOCK = 1        # pairs per block of layers (memory: ~6 * 8 bytes per pair and turn total)


@dataclass(frozen=True)
class ThousandWinRules:
    """What a two-seat Thousand game's win chances depend on: the turn rules and the floor."""

    five: FiveDiceRules
    floor: int = FLOOR

    @property
    def unit(self) -> int:
        return self.five.unit

    @property
    def exact_from(self) -> int:
        """The lowest total whose chances are exact to the tolerance (module docstring)."""
        return self.floor + DEPTH * _step(self.five)

    @property
    def bits_from(self) -> int:
        """The lowest total with stand bits of its own (three steps below ``exact_from`` or
        zero: the old floor); a standing below plays as if there (``stands_at``)."""
        return max(self.floor, min(self.exact_from, 0) - 3 * _step(self.five))

    @property
    def key(self) -> str:
        f = self.five
        pits = "_".join(f"{lo}-{hi}" for lo, hi in f.pits) or "none"
        return (f"thousand-{f.opening}-{pits}-{f.barrel}-{f.target}-{f.barrel_attempts}-"
                # i18n: not shown (a file name)
                f"{f.barrel_fall}-{f.bolts_per_penalty}-{f.bolt_penalty}-{self.floor}")


def _step(five: FiveDiceRules) -> int:
    """The largest fall of a total: the bolt penalty or the barrel's fall, at least a unit."""
    return max(five.bolt_penalty, five.barrel_fall if five.barrel else 0, five.unit)


def default_floor(five: FiveDiceRules) -> int:
    """``DEPTH`` steps (``_step``) below zero, so that ``exact_from`` is 0."""
    return -DEPTH * _step(five)


def thousand_win_rules(rules: Any = "thousand", floor: int | None = None,
                       **over) -> ThousandWinRules:
    """From ``"thousand"`` (defaults), ThousandSettings, a game config, FiveDiceRules or
    ThousandWinRules; keyword arguments override settings (target=..., barrel=...); the floor
    defaults to ``default_floor``."""
    if isinstance(rules, ThousandWinRules):
        floor = rules.floor if floor is None else floor
        rules = rules.five
    if over:
        from ..settings import ThousandSettings

        base = fd.as_rules(rules)
        values = {k: getattr(base, k) for k in turn.RULE_FIELDS["thousand"]}
        values["pits"] = [tuple(p) for p in values["pits"]]
        five = ThousandSettings(**{**values, **over}).turn_rules()
    else:
        five = fd.as_rules(rules)
    if five.variant != "thousand":
        raise RuleError(L_("this win table is for Thousand"))
    if floor is None:
        floor = default_floor(five)
    u = five.unit
    if isinstance(floor, bool) or not isinstance(floor, (int, np.integer)) or floor > 0 \
            or floor % u:
        raise RuleError(L_("the floor is a multiple of {unit} points <= 0, got {value}",
                           unit=u, value=repr(floor)))
    if five.barrel and five.barrel_fall == 0:
        raise RuleError(L_("the Thousand win table needs a barrel fall above 0 (with 0 a "
                           "fallen player stays at the barrel's total off the barrel)"))
    top = five.barrel or five.target
    for lo, hi in five.pits:
        if lo < top < hi:
            raise RuleError(L_("the Thousand win table: the pit {low}-{high} reaches past {top}",
                               low=str(lo), high=str(hi), top=str(top)))
    return ThousandWinRules(five, int(floor))


# ----- statuses ----------------------------------------------------------------------------------
class Statuses:
    """Every status of one player, numbered: first the opened totals floor..top-1 with no bolt
    (so the status after a stand at c is c - floor), then the other bolt counts, the unopened
    totals (0 and lower by whole penalties) and the barrel's attempts."""

    def __init__(self, tr: ThousandWinRules):
        r = tr.five
        u = r.unit
        self.F = F = tr.floor // u
        self.top = top = (r.barrel or r.target) // u
        self.B = B = r.bolts_per_penalty if r.bolt_penalty else 1
        rows = []                                       # (total units, opened, bolts, turns, on)
        for bolts in range(B):
            rows += [(c, True, bolts, 0, False) for c in range(F, top)]
        pen = r.bolt_penalty // u
        lows = [0] + ([-pen * k for k in range(1, -F // pen + 1)] if pen else [])
        for bolts in range(B):
            rows += [(c, False, bolts, 0, False) for c in lows]
        A = r.barrel_attempts if r.barrel else 0
        rows += [(top, True, 0, k, True) for k in range(A)]
        a = np.array(rows, dtype=np.int64)
        self.total, self.opened, self.bolts, self.turns = a[:, 0], a[:, 1].astype(bool), \
            a[:, 2], a[:, 3]
        self.on_barrel = a[:, 4].astype(bool)
        self.n = len(rows)
        self.barrel0 = self.n - A if A else -1
        self._lookup = np.full((top - F + 1, 2, B, max(A, 1), 2), -1, dtype=np.int64)
        self._lookup[a[:, 0] - F, a[:, 1], a[:, 2], a[:, 3], a[:, 4]] = np.arange(self.n)
        self.lowest_unopened = min(lows)
        # the rules module says what a stand needs and what a bust does
        pts = self.standing(r)
        need = turn.stand_need(r, pts.total, pts.on_board, pts.on_barrel)
        self.need = np.maximum(1, -(-np.asarray(need) // u))
        after = turn.bust(r, pts)
        # a bust that would take the total below the floor loses the game: status n, "lost"
        below = np.asarray(after.total) // u < F
        self.bust = np.where(below, self.n, self.index(after, u))
        # a stand at c (from any status off the barrel): the status it leads to
        c = np.arange(F, top + 1)
        first = Standing(np.full(len(c), F * u), True, False, 0, 0)
        stood, won = turn.stand(r, first, (c - F) * u)
        won = np.broadcast_to(np.asarray(won), c.shape)
        idx = self.index(Standing(stood.total, np.broadcast_to(stood.on_board, c.shape),
                                  stood.on_barrel, stood.barrel_turns,
                                  np.broadcast_to(stood.bolts, c.shape)), u)
        assert (idx[:-1] == np.arange(top - F)).all() and not np.any(won[:-1])
        self.win_at_top = bool(won[-1])          # no barrel: reaching top wins
        assert self.win_at_top or idx[-1] == self.barrel0
        # the status whose stand bits a status uses: its total raised to bits_from (unopened:
        # to the nearest total an unopened player can have)
        K = tr.bits_from // u
        t_k = np.maximum(self.total, K)
        if pen:
            t_k = np.where(self.opened, t_k, -((-t_k) // pen) * pen)
        self.kept = self._lookup[t_k - F, self.opened.astype(int), self.bolts, self.turns,
                                 self.on_barrel.astype(int)]
        assert (self.kept >= 0).all()

    def standing(self, r: FiveDiceRules) -> Standing:
        u = r.unit
        return Standing(self.total * u, self.opened, self.on_barrel, self.turns, self.bolts)

    def index(self, s: Standing, unit: int) -> np.ndarray:
        """Status numbers of standings (points; arrays); totals below the floor count as it."""
        total = np.asarray(s.total) // unit
        opened = np.asarray(s.on_board, dtype=bool)
        total = np.where(opened, np.maximum(total, self.F),
                         np.maximum(total, self.lowest_unopened))
        on = np.asarray(s.on_barrel, dtype=bool)
        turns = np.where(on, np.asarray(s.barrel_turns), 0)
        bolts = np.where(on, 0, np.asarray(s.bolts) % self.B)
        out = self._lookup[total - self.F, opened.astype(int), bolts, turns, on.astype(int)]
        if np.any(out < 0):
            raise RuleError(L_("not a standing of this Thousand win table"))
        return out


# ----- the turn kernel --------------------------------------------------------------------------
class _Kernel:
    """The five-dice rolls as distinct (points, next dice) rows and a [5, rows] chance matrix."""

    def __init__(self, r: FiveDiceRules):
        k = fd.roll_kernel(r.kernel_key, auto=True)
        pairs = sorted(set(zip(k.opt_pts.tolist(), k.opt_next.tolist())))
        pos = {p: q for q, p in enumerate(pairs)}
        self.pts = np.array([p for p, _ in pairs])
        self.nxt = np.array([n for _, n in pairs])
        self.mix = np.zeros((5, len(pairs)))
        ends = list(k.n_start[1:]) + [len(k.grp_prob)]
        for n in range(5):
            for o in range(k.n_start[n], ends[n]):
                self.mix[n, pos[int(k.opt_pts[o]), int(k.opt_next[o])]] += k.grp_prob[o]
        self.bust = k.bust[1:].copy()
        # the non-zero chances, for the compiled turn (95 of 330 with five dice)
        n, q = np.nonzero(self.mix)
        self.e_n, self.e_pts, self.e_nxt = n.astype(np.int64), self.pts[q].astype(np.int64), \
            self.nxt[q].astype(np.int64)
        self.e_w = self.mix[n, q].copy()
        self.p_hot = k.p_hot5
        self.p_on = 1.0 - k.bust[5] - k.p_hot5       # 5 dice: counts and leaves dice


# ----- the solver ---------------------------------------------------------------------------------
@dataclass
class _Block:
    i: np.ndarray        # my status (turn DP pairs sorted by my total, then the barrel's pairs)
    j: np.ndarray        # the other's status
    b: np.ndarray        # my total (units), turn DP pairs only
    need: np.ndarray
    c_lo: int
    level: np.ndarray    # bolts and barrel attempts of both: a bust without a fall adds one
    levels: list["_Block"] = None   # the block's pairs by level, most bolts first


def _bit_offsets(st: Statuses) -> tuple[np.ndarray, int]:
    """Where each pair's stand bits start: one byte per running total c = b .. top - 1, for
    the pairs of two statuses from ``bits_from`` up (-1: none)."""
    S = st.n
    own = st.kept == np.arange(S)
    flat = (np.where(st.on_barrel | ~own, 0, st.top - st.total)[:, None]
            * own[None, :]).ravel()
    off = np.zeros(S * S, dtype=np.int64)
    off[1:] = np.cumsum(flat)[:-1]
    off[flat == 0] = -1
    return off.reshape(S, S), int(flat.sum())


class _Solver:
    def __init__(self, tr: ThousandWinRules):
        self.tr = tr
        self.st = st = Statuses(tr)
        self.k = _Kernel(tr.five)
        self.barrel_rows = np.flatnonzero(st.on_barrel)
        self.reach = 0.0
        if len(self.barrel_rows):
            a_u = int(st.need[self.barrel_rows[0]])
            self.reach = float(fd.solve_reach(tr.five.kernel_key, a_u, True).roll[5, 0])
        # policy bits: one byte per (pair, running total), bits n = 1..4
        self.bit_off, self.n_bits = _bit_offsets(st)
        self.blocks: list[_Block] = []

    def layers(self) -> None:
        """Group the pairs into blocks of layers of equal banked sum (the sweep's order)."""
        st = self.st
        S = st.n
        off = np.flatnonzero(~st.on_barrel)
        ii, jj = np.meshgrid(off, np.arange(S), indexing="ij")
        ii, jj = ii.ravel(), jj.ravel()
        s = st.total[ii] + st.total[jj]
        order = np.argsort(-s, kind="stable")
        ii, jj, s = ii[order], jj[order], s[order]
        # blocks of whole layers, about BLOCK pairs each
        cuts = [0]
        for x in np.flatnonzero(np.diff(s)) + 1:
            if x - cuts[-1] >= BLOCK:
                cuts.append(int(x))
        cuts.append(len(s))
        # the barrel's pairs (closed form) go with the block holding their sum
        bar_i = np.repeat(self.barrel_rows, S)
        bar_j = np.tile(np.arange(S), len(self.barrel_rows))
        lows = s[np.array(cuts[1:]) - 1]                 # each block's lowest sum
        where = np.minimum(np.searchsorted(-lows, -(st.top + st.total[bar_j]), side="left"),
                           len(lows) - 1)
        lvl = st.bolts + st.turns
        self.blocks = []
        for z, (a, e) in enumerate(zip(cuts[:-1], cuts[1:])):
            bi, bj = ii[a:e], jj[a:e]
            sel = where == z
            ai, aj = bar_i[sel], bar_j[sel]
            level = lvl[bi] + lvl[bj]
            alevel = lvl[ai] + lvl[aj]
            subs = []
            for lv in range(int(max(level.max(), alevel.max(initial=0))), -1, -1):
                ti, tj = bi[level == lv], bj[level == lv]
                o = np.argsort(st.total[ti], kind="stable")
                ti, tj = ti[o], tj[o]
                b = st.total[ti]
                ui, uj = ai[alevel == lv], aj[alevel == lv]
                if len(ti) + len(ui):
                    subs.append(_Block(np.concatenate([ti, ui]), np.concatenate([tj, uj]), b,
                                       st.need[ti], int(b.min()) if len(b) else 0,
                                       np.full(len(ti) + len(ui), lv)))
            self.blocks.append(_Block(np.concatenate([bi, ai]), np.concatenate([bj, aj]),
                                      np.zeros(0, dtype=np.int64), np.zeros(0), 0,
                                      np.zeros(0), subs))

    def sweep(self, W: np.ndarray, bits: np.ndarray | None = None) -> float:
        """One sweep over every pair, in place; the largest change. Each block's pairs go
        from the most bolts and barrel attempts down, so a bust that stays in the block (one
        more bolt or attempt, same totals) reads the value this sweep gave it."""
        st = self.st
        change = 0.0
        for blk in self.blocks:
            for sub in blk.levels:
                i, j = sub.i, sub.j
                y = 1.0 - W[j, st.bust[i]]
                m = len(sub.b)
                new = np.empty(len(i))
                if m:
                    new[:m] = self._turns(sub, W, y[:m], bits)
                new[m:] = self.reach + (1.0 - self.reach) * y[m:]
                change = max(change, float(np.abs(new - W[i, j]).max()))
                W[i, j] = new
        return change

    def _turns(self, blk: _Block, W: np.ndarray, y: np.ndarray,
               bits: np.ndarray | None = None, keep: bool = False):
        """The start values of the block's turn pairs (``win_kernels.thousand_turns``);
        ``keep``: (start, roll values [c - c_lo, n - 1, pair], region value M)."""
        from .win_kernels import thousand_turns

        st, k = self.st, self.k
        P = len(blk.b)
        i, j = blk.i[:P], blk.j[:P]
        star = np.ones(P) if st.win_at_top else 1.0 - W[j, st.barrel0]
        start = np.empty(P)
        R = np.empty((st.top - blk.c_lo if keep else 0, 5, P))
        off = self.bit_off[i, j] if bits is not None else np.zeros(0, dtype=np.int64)
        thousand_turns(W, j, blk.b, blk.need, y, star, blk.c_lo, st.top, st.F, k.e_n,
                       k.e_pts, k.e_nxt, k.e_w, k.bust, k.p_on, k.p_hot, start, off,
                       bits if bits is not None else np.zeros(0, dtype=np.uint8), R)
        if keep:
            return start, R, np.maximum(star, y)
        return start


def _start_values(S: int) -> np.ndarray:
    """W [S + 1, S + 1] to iterate from; the last status is "lost": beaten by anyone."""
    W = np.full((S + 1, S + 1), 0.5)
    W[:, S] = 1.0
    W[S, :] = 0.0
    return W


def _build(tr: ThousandWinRules, progress: bool = True, tol: float = TOL,
           max_sweeps: int = 500, callback=None):
    """W [S, S], stand bits, the sweeps it took and the last sweep's largest change."""
    solver = _Solver(tr)
    solver.layers()
    S = solver.st.n
    W = _start_values(S)
    from tqdm.auto import tqdm

    history = []
    with tqdm(total=int(np.ceil(-np.log10(tol))), desc=i18n._("Thousand win table"),
              unit=i18n.p_("progress unit", "digit"), disable=not progress) as bar:
        for sweep in range(max_sweeps):
            ch = solver.sweep(W)
            history.append(ch)
            digits = min(bar.total, int(max(0.0, -np.log10(max(ch, 1e-300)))))
            if digits > bar.n:
                bar.update(digits - bar.n)
            if callback is not None:
                callback(sweep + 1, ch)
            if ch <= tol:
                break
        else:
            raise RuntimeError(f"Thousand win table: no convergence in {max_sweeps} sweeps")
    bits = np.zeros(solver.n_bits, dtype=np.uint8)
    residual = solver.sweep(W, bits)
    return W, bits, len(history) + 1, residual, solver


# ----- the table ----------------------------------------------------------------------------------
def _standing(tr: ThousandWinRules, s) -> Standing:
    """A Standing from a Standing or a banked total (points): opened when not 0, on the barrel
    (no attempt used) when it is the barrel's total, no bolts."""
    if isinstance(s, Standing):
        return s
    r = tr.five
    if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
        raise RuleError(L_("a banked total is a whole number, got {value}", value=repr(s)))
    return Standing(int(s), s != 0, bool(r.barrel) and s == r.barrel, 0, 0)


class ThousandWinTable:
    """Win chances of a two-seat Thousand game under play that maximises them."""

    def __init__(self, rules: ThousandWinRules, W: np.ndarray, bits: np.ndarray,
                 sweeps: int = 0, residual: float = float("nan")):
        self.rules = rules
        self.W = W
        self.bits = bits
        self.sweeps = sweeps
        self.residual = residual
        self._solver = _Solver(rules)
        self.st = self._solver.st
        self.offsets = self._solver.bit_off
        k = self._solver.k
        self._pass = _win.TurnPass(k.pts, k.nxt, k.mix.T, k.bust)
        self._turn = lru_cache(maxsize=64)(self._solve_turn)

    @property
    def n_states(self) -> int:
        return self.st.n ** 2

    def status(self, s) -> int:
        """The status number of a player's standing (``Standing`` or a banked total)."""
        p = _standing(self.rules, s)
        turn.check_standing(self.rules.five, p)
        if p.total % self.rules.unit:
            raise RuleError(L_("Thousand totals are multiples of {unit}, got {value}",
                               unit=self.rules.unit, value=str(p.total)))
        if not p.on_board and p.total > 0:
            raise RuleError(L_("a player who has not opened has banked nothing"))
        return int(self.st.index(p, self.rules.unit))

    def start_chance(self, me=0, other=0) -> float:
        """Chance of the player whose turn starts now (standings or banked totals)."""
        return float(self.W[self.status(me), self.status(other)])

    def _solve_turn(self, i: int, j: int):
        """One turn of the pair (i, j) off the barrel: roll values [c - b, n - 1] for c below
        the top, and the values of the region from the top up. The build's values, in one
        pass down the running totals (``win.TurnPass``: a first mid-turn lookup under 1 ms)."""
        st, k = self.st, self._solver.k
        b = int(st.total[i])
        y = 1.0 - float(self.W[j, st.bust[i]])
        star = 1.0 if st.win_at_top else 1.0 - float(self.W[j, st.barrel0])
        M = max(star, y)
        top = np.full((self._pass.top_rows, 5), M)     # from the top up: stand there
        top[:, 4] = (k.p_on * M + k.bust[4] * y) / (1.0 - k.p_hot)
        floor = np.full((st.top - b, 5), -np.inf)      # hot dice (5) must be rolled
        floor[int(st.need[i]):, :4] = (1.0 - self.W[j, b - st.F:st.top - st.F])[
            int(st.need[i]):, None]
        return self._pass.run(top, floor, y), M, y

    def readout(self, me, other, turn_total: int = 0, dice_left: int = 5) -> WinReadout:
        """The player on turn (``me``) against ``other`` (each a ``Standing`` or a banked
        total, see ``_standing``); this turn so far has ``turn_total`` and the next roll
        throws ``dice_left`` (5 with a turn total > 0: hot dice, which must be rolled)."""
        i, j = self.status(me), self.status(other)
        u = self.rules.unit
        t_pts = fd.check_total(self.rules.five, turn_total)
        n = fd.check_n(dice_left)
        st, k = self.st, self._solver.k
        if t_pts == 0:
            if n != 5:
                raise RuleError(L_("a turn starts with all five dice"))
            return win_readout(float(self.W[i, j]), None, False, None)
        t = t_pts
        y = 1.0 - self.W[j, st.bust[i]]
        need = int(st.need[i])
        hot = n == 5
        may = t >= need and not hot
        if st.on_barrel[i]:
            sol = fd.solve_reach(self.rules.five.kernel_key, need, True)
            p = fd.solution_roll_value(sol, n, t)
            roll_c = p + (1.0 - p) * y
            return win_readout(float(roll_c), 1.0 if may else None, False, (need - t) * u
                            if t < need else None)
        c = int(st.total[i]) + t
        R, M, _y = self._turn(i, j)
        if c < st.top:
            roll_c = float(R[c - int(st.total[i]), n - 1])
            stand_c = 1.0 - float(self.W[j, c - st.F])
        else:
            v5 = (k.p_on * M + k.bust[4] * y) / (1.0 - k.p_hot)
            vreg = np.where(k.nxt == 5, v5, M)
            roll_c = float(k.mix[n - 1] @ vreg + k.bust[n - 1] * y)
            stand_c = 1.0 if st.win_at_top else 1.0 - float(self.W[j, st.barrel0])
        return win_readout(roll_c, stand_c if may else None, False, None)

    def stands_at(self, i, j, t, n) -> np.ndarray:
        """Arrays of status numbers i (on turn), j, turn totals t (units, > 0) and dice n:
        whether the max-win policy stands there (asked where the rules allow a stand)."""
        st = self.st
        i, j, t, n = (np.asarray(v) for v in (i, j, t, n))
        i, j = st.kept[i], st.kept[j]        # below bits_from: as if there
        b = st.total[i]
        c = b + t
        low = (c < st.top) & ~st.on_barrel[i]
        idx = np.where(low, np.maximum(self.offsets[i, j], 0) + t, 0)
        bit = (self.bits[idx] >> np.clip(n - 1, 0, 7)) & 1
        y = 1.0 - self.W[j, st.bust[i]]
        star = 1.0 if st.win_at_top else 1.0 - self.W[j, max(st.barrel0, 0)]
        high = star >= y
        out = np.where(st.on_barrel[i], True, np.where(low, bit.astype(bool), high))
        return out & (n < 5)


# ----- solve and cache ----------------------------------------------------------------------------
def table(rules: Any = "thousand", progress: bool = True,
          cache: bool | str | os.PathLike = True, floor: int | None = None,
          **over) -> ThousandWinTable:
    """The win table of these Thousand rules; solved on first use with a progress bar, then
    kept in memory and in a file under the user cache dir (``cache=True``), another folder
    (``cache=path``) or nowhere (``cache=False``); as ``win.table``."""
    tr = thousand_win_rules(rules, floor, **over)
    return _win.cached_table(tr.key, lambda: _new(tr, progress), lambda p: _load(p, tr), _save,
                             cache)


BIG = 500  # more statuses take many minutes to build (default 1227; target 150/200: 429/459)


def table_if_cached(rules: Any = "thousand", **over) -> ThousandWinTable | None:
    """The table if it is in memory or in the cache folder, else None (nothing is built)."""
    tr = thousand_win_rules(rules, **over)
    return _win.cached_table(tr.key, lambda: None, lambda p: _load(p, tr), lambda p, t: None,
                             True)


def is_big(tr: ThousandWinRules) -> bool:
    """Whether building this table takes many minutes (more than ``BIG`` statuses)."""
    return Statuses(tr).n > BIG


def table_for_play(rules: Any, wait: bool = True) -> ThousandWinTable | None:
    """The table a computer plays from: a built one (memory, cache folder); else a small one
    built now (``wait``) or in another process (None meanwhile); never a big one on demand."""
    tr = thousand_win_rules(rules)
    t = table_if_cached(tr)
    if t is not None or is_big(tr):
        return t
    return table(tr, progress=False) if wait else table_if_ready(tr)


def table_if_ready(rules: Any = "thousand", **over) -> ThousandWinTable | None:
    """The table if it is in memory or in the cache folder; otherwise None, after starting
    one build in the shared worker (as ``win.table_if_ready``)."""
    tr = thousand_win_rules(rules, **over)
    return _win.ready_table(tr.key, lambda p: _load(p, tr), partial(_win.write_table, table, tr))


def _new(tr: ThousandWinRules, progress: bool) -> ThousandWinTable:
    W, bits, sweeps, residual, _solver = _build(tr, progress)
    return ThousandWinTable(tr, W, bits, sweeps, residual)


def _load(path: Path, tr: ThousandWinRules) -> ThousandWinTable | None:
    z, meta = _win.read_with_meta(path, "W", "bits")
    if not z:
        return None
    st = Statuses(tr)
    W, bits = z["W"], z["bits"]
    if meta.get("key") != tr.key or meta.get("format") != FORMAT \
            or W.shape != (st.n + 1, st.n + 1) \
            or not np.all(np.isfinite(W)) or W.min() < 0 or W.max() > 1 \
            or bits.dtype != np.uint8 or bits.shape != (_bit_offsets(st)[1],):
        return None
    return ThousandWinTable(tr, W, bits, int(meta.get("sweeps", 0)),
                            float(meta.get("residual", "nan")))


def _save(path: Path, t: ThousandWinTable) -> None:
    meta = json.dumps({"key": t.rules.key, "format": FORMAT, "sweeps": t.sweeps,
                       "residual": t.residual})
    save_npz(path, W=t.W, bits=t.bits, meta=np.array(meta))
