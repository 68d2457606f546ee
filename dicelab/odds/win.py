"""Exact chance to win a two-seat game of Bones under play that maximises it.

The way Neller and Presser solved Pig: a state is (my banked total b, the other's banked total
o, my turn total t, dice the next roll throws n), in units of 50, plus what the rules make part
of it: being on the board is b > 0 (a stand needs a positive turn total), and the final turn
after someone reached the target (docs/explanation/rules.md "Bones": every other player gets
one final turn; the highest total wins and a tie goes to the player who reached it first).

- Final turn (the other has o >= target): I win exactly if this turn ends with a stand above o,
  so the chance is the chance to reach o - b + 1 units (and the minimum on board) this turn,
  rolling until then: ``reach[d, n]``, one table for every distance d.
- Regular turn: W(b, o) is my chance at the start of my turn. Running total c = b + t:
  standing at c < target is worth 1 - W(o, c); at c >= target, 1 - reach[c - o + 1] (the other's
  final turn); a bust is worth 1 - W(o, b). Every non-bust roll adds points, so the turn is
  acyclic in c; a stand moves to a layer of larger banked sum b + o, a bust to the same layer's
  mirror pair (o, b). Layers are solved from the largest sum down; in a layer the pairs
  (b, o) and (o, b) are coupled only through each other's bust value, a 2-by-2 fixed point
  that is solved by Newton steps on the turn values (each is convex and piecewise linear in
  the bust value, so Newton ends once the policy settles) to ``TOL``.
- Above the target, turn totals are tabled up to ``margin`` units past it; from there the
  player stands (the other's chance to make up that lead in one turn is below ``TOL`` times
  the smallest bust chance; ``_margin`` checks it).

With auto keep the turns below the target run in a compiled loop over the 81 non-zero roll
chances (``win_kernels.bones_turns``; 2026-12-04: the default table 5.5x less CPU than the
dense products it replaces, same values to 1e-15 and the same policy bits).

Built once per settings (a tqdm bar), cached in memory and on disk (``cache_dir``). A lookup of
a turn's start is a table read; a mid-turn lookup solves that one turn (b, o) once and caches it.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from bisect import bisect_right
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from .. import config
from ..errors import RuleError
from .. import i18n
from ..i18n import L_
from ..rules import fivedice as turn
from . import fivedice as fd
from .cachefile import TABLES, load_with_meta, save_npz

TOL = 1e-9
FORMAT = 2


# ----- settings -> a hashable key ---------------------------------------------------------------
@dataclass(frozen=True)
class WinRules:
    """What a two-seat Bones game's win chances depend on."""

    preset: str = "hypercard"
    choose_keepers: bool = False
    min_on_board: int = 600
    target: int = 10_000

    @property
    def five(self) -> fd.FiveDiceRules:
        return fd.FiveDiceRules("bones", preset=self.preset, choose_keepers=self.choose_keepers,
                                min_on_board=self.min_on_board)

    @property
    def unit(self) -> int:
        return fd.UNIT["bones"]

    @property
    def key(self) -> str:
        return (f"bones-{self.preset}-{int(self.choose_keepers)}-"  # i18n: not shown
                f"{self.min_on_board}-{self.target}")


def win_rules(rules: Any = "bones", **over) -> WinRules:
    """WinRules from ``"bones"`` (defaults), a BonesSettings / game config, or a WinRules;
    keyword arguments override (target=..., min_on_board=...)."""
    if isinstance(rules, WinRules):
        base = rules
    elif isinstance(rules, str):
        if rules != "bones":
            if rules == "thousand":
                raise RuleError(L_("this is Bones' win table; Thousand's is "
                                   "dicelab.odds.win_thousand.table"))
            raise RuleError(L_("exact win chances are for bones, not {rules}",
                               rules=repr(rules)))
        base = WinRules()
    elif hasattr(rules, "min_on_board"):
        base = WinRules(rules.preset, bool(rules.choose_keepers), int(rules.min_on_board),
                        int(rules.target))
    else:
        raise RuleError(L_("win chances need Bones settings, got {rules}", rules=repr(rules)))
    r = WinRules(**{**base.__dict__, **over})
    u = r.unit
    for name in ("min_on_board", "target"):
        v = getattr(r, name)
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0 or v % u:
            raise RuleError(L_("target is a positive multiple of {unit}, got {value}",
                               unit=u, value=repr(v)) if name == "target" else
                            L_("min_on_board is a positive multiple of {unit}, got {value}",
                               unit=u, value=repr(v)))
    if r.target < r.min_on_board:
        raise RuleError(L_("the target ({target}) is below the minimum on board ({least})",
                           target=str(r.target), least=str(r.min_on_board)))
    r.five  # checks the preset
    from ..rules import bones as bones_rules

    bones_rules.check_preset(r.preset)
    return r


# ----- the turn kernel, and the one rule of standing --------------------------------------------
def _kernel(r: WinRules) -> fd.RollKernel:
    return fd.roll_kernel(r.five.kernel_key, auto=False)


def _need_units(r: WinRules, on_board: bool) -> int:
    """Turn total (units) a stand needs: the rules' minimum, and at least one unit (a turn
    total of 0 is the start of a turn, which must roll)."""
    return max(1, -(-turn.stand_need(r.five, 0, on_board) // r.unit))


def _roll(k: fd.RollKernel, vals: np.ndarray) -> np.ndarray:
    """vals [..., options] -> [..., 5]: the chance-weighted sum over rolls of n = 1..5 dice of
    the best option of each roll (the bust term is added by the caller)."""
    if not k.single:
        vals = np.maximum.reduceat(vals, k.grp_start, axis=-1)
    return np.add.reduceat(vals * k.grp_prob, k.n_start, axis=-1)


@lru_cache(maxsize=16)
def _reach(r: WinRules, top: int) -> tuple[np.ndarray, np.ndarray]:
    """reach[d, n]: chance that a turn with n dice to throw ends standing at least d units
    further on (d <= 0: 1, standing now), rolling until then; roll[d, n]: the same when this
    roll must be thrown first. d = 0 .. top - 1 (n = 0 unused)."""
    k = _kernel(r)
    m = k.max_units
    reach = np.ones((top + m + 1, 6))       # index d + m; d <= 0 -> 1
    roll = np.zeros((top, 6))
    idx = (m - k.opt_pts) * 6 + k.opt_next  # shifted by d below
    flat = reach.reshape(-1)
    for d in range(0, top):
        row = _roll(k, flat[idx + 6 * d])
        roll[d, 1:] = row
        if d > 0:
            reach[d + m, 1:] = row
    return reach[m:m + top], roll


# ----- the solver ---------------------------------------------------------------------------------
def _margin(r: WinRules, w_floor: float) -> int:
    """Lead (units, past the other's total, with mine at the target or more) from which
    standing is optimal whatever the bust is worth, as long as the other's chance at the start
    of their turn is at least ``w_floor``: rolling on can gain at most the other's chance to
    make up the lead in their final turn, reach(L + 1), and loses at least the bust chance q
    times what a bust costs, which is that chance W(o, b) >= w_floor. ``_build`` checks the
    floor against the table it builds."""
    k = _kernel(r)
    q = float(k.bust[1:].min())
    top = 2 * (r.target // r.unit) + 8 * k.max_units
    reach, _ = _reach(r, top)
    small = np.nonzero(reach[1:, 5] <= q * w_floor)[0]
    if not len(small):
        raise RuntimeError("Bones win table: no lead is safe enough; lower w_floor")
    return int(small[0])


class _FinalRegion:
    """My running total c at the target or past it, regular turn: standing is worth
    F(L) = 1 - reach(L + 1) with L = c - o my lead, whoever the players are, and a bust is worth
    y (1 - the other's chance at their turn's start). So the value there is one function
    G(L, n; y) for every pair: convex, piecewise linear and nondecreasing in y (each decision
    is "roll iff y is above a threshold"). It is tabled on the grid of all those thresholds,
    exactly, and read for any y by linear interpolation within a grid segment."""

    def __init__(self, r: WinRules, margin: int):
        k = _kernel(r)
        m = k.max_units
        T = r.target // r.unit
        self.rows = rows = max(margin, T) + 2 * m + 2
        reach, _ = _reach(r, rows + 2)
        F = 1.0 - reach[np.minimum(np.arange(rows) + 1, len(reach) - 1), 5]
        F[0] = np.nan   # lead 0 never happens here (c >= target > o)
        self.F = F
        cap = 5 * rows + 2
        # grid-major: one grid point's whole table is contiguous (new points copy rows fast)
        G = np.empty((cap, rows, 6))
        Rl = np.full((cap, rows, 6), np.nan)
        G[:2] = F[None, :, None]
        ys = [0.0, 1.0]        # grid points, in the order they were added
        srt = [0.0, 1.0]       # the same, sorted
        col = {0.0: 0, 1.0: 1}
        bust = k.bust[1:]
        mix = _mix(k)
        base = k.opt_pts * 6 + k.opt_next
        top = rows - m - 1      # rows from here up stand (their roll is past the table)
        Gf = G.reshape(cap, rows * 6)
        for L in range(top - 1, 0, -1):
            nc = len(ys)
            yv = np.array(ys)
            roll = np.empty((5, cap))
            roll[:, :nc] = _mixed(k, mix, Gf[:nc, base + 6 * L].T) + bust[:, None] * yv[None, :]
            # thresholds where roll crosses F(L) for some n: add them to the grid
            order = np.array([col[v] for v in srt])
            d = roll[:, :nc][:, order] - F[L]
            jj, ii = np.nonzero((d[:, :-1] < 0) & (d[:, 1:] > 0))
            new = sorted({srt[i] + (srt[i + 1] - srt[i]) * (-d[j, i]) / (d[j, i + 1] - d[j, i])
                          for j, i in zip(jj, ii)})
            for ystar in new:
                if ystar in col:
                    continue
                i = bisect_right(srt, ystar) - 1
                y0, y1 = srt[i], srt[i + 1]
                c0, c1 = col[y0], col[y1]
                w = (ystar - y0) / (y1 - y0)
                c = len(ys)
                G[c, L + 1:] = G[c0, L + 1:] * (1 - w) + G[c1, L + 1:] * w
                Rl[c, L + 1:] = Rl[c0, L + 1:] * (1 - w) + Rl[c1, L + 1:] * w
                roll[:, c] = roll[:, c0] * (1 - w) + roll[:, c1] * w
                ys.append(ystar)
                srt.insert(i + 1, ystar)
                col[ystar] = c
            nc = len(ys)
            Rl[:nc, L, 1:] = roll[:, :nc].T
            G[:nc, L, 1:] = np.maximum(F[L], roll[:, :nc].T)
        order = np.array([col[v] for v in srt])
        # back to [rows, 6, grid] for reads by lead
        self.ys = np.array(srt)
        self.G = G[order]           # [grid, lead, n]
        self.R = Rl[order]
        self.R[:, top:] = np.nan
        self.top = top
        self.G[:, 0] = np.nan
        self.ystar = self._thresholds()

    def _thresholds(self) -> np.ndarray:
        """ystar[L, n]: the policy stands at lead L with n dice iff the bust is worth at most
        this (the roll value is nondecreasing in it); +inf: always, -inf: never."""
        d = self.R - self.F[None, :, None]              # [grid, rows, 6]
        up = d > 0
        k = np.argmax(up, axis=0)
        never = ~up.any(axis=0)
        km = np.maximum(k - 1, 0)
        take = lambda a, i: np.take_along_axis(a, i[None], axis=0)[0]  # noqa: E731
        d0, d1 = take(d, km), take(d, k)
        y0, y1 = self.ys[km], self.ys[k]
        with np.errstate(divide="ignore", invalid="ignore"):
            ys = y0 + (y1 - y0) * (-d0) / (d1 - d0)
        ys = np.where(k == 0, -np.inf, ys)
        ys = np.where(never, np.inf, ys)
        ys[self.top:] = np.inf
        return ys

    def at(self, y: np.ndarray, L: np.ndarray):
        """For bust values y [P] and leads L [P, k]: (G [P, k, 6], slope dG/dy, segment lo,
        hi) on the grid segment holding each y."""
        j = np.clip(np.searchsorted(self.ys, y, side="right") - 1, 0, len(self.ys) - 2)
        y0, y1 = self.ys[j], self.ys[j + 1]
        g0 = self.G[j[:, None], L]
        g1 = self.G[j[:, None] + 1, L]
        slope = (g1 - g0) / (y1 - y0)[:, None, None]
        val = g0 + slope * (y - y0)[:, None, None]
        return val, slope, y0, y1

    def roll_table(self, y: float) -> np.ndarray:
        """Roll values [rows, 6] at bust value y (NaN from ``top`` up: standing there)."""
        j = int(np.clip(np.searchsorted(self.ys, y, side="right") - 1, 0, len(self.ys) - 2))
        y0, y1 = self.ys[j], self.ys[j + 1]
        return self.R[j] + (self.R[j + 1] - self.R[j]) * (y - y0) / (y1 - y0)

    def roll_at(self, L: int, n: int, y: float) -> float:
        j = int(np.clip(np.searchsorted(self.ys, y, side="right") - 1, 0, len(self.ys) - 2))
        y0, y1 = self.ys[j], self.ys[j + 1]
        r0, r1 = self.R[j, L, n], self.R[j + 1, L, n]
        return float(r0 + (r1 - r0) * (y - y0) / (y1 - y0))


def _mix(k: fd.RollKernel) -> np.ndarray | None:
    """[options, 5] chance weights summing each roll's options into n = 1..5 (auto keep)."""
    if not k.single:
        return None
    mix = np.zeros((len(k.opt_pts), 5))
    for j in range(5):
        end = k.n_start[j + 1] if j < 4 else len(k.grp_prob)
        mix[k.n_start[j]:end, j] = k.grp_prob[k.n_start[j]:end]
    return mix


def _mixed(k: fd.RollKernel, mix, vals: np.ndarray) -> np.ndarray:
    """vals [options, X] -> [5, X]: expected best option per n (no bust term)."""
    if mix is not None:       # one option per group: the sums of the non-zero weights only
        return np.add.reduceat(vals * k.grp_prob[:, None], k.n_start, axis=0)
    g = np.maximum.reduceat(vals, k.grp_start, axis=0)
    return np.add.reduceat(g * k.grp_prob[:, None], k.n_start, axis=0)


class TurnPass:
    """One pair's five-dice turn, all its running totals, for a lookup (not the build), when
    each roll's keep is fixed (auto keep): with options (points ``pts`` >= 1 in units, next
    dice ``nxt``) of chance ``mix[option, n - 1]`` for n dice,

        R(c, n) = sum over options of mix * V(c + pts, nxt) + bust[n] * y     (rolling)
        V(c, n) = max(R(c, n), floor(c, n))     (floor: what a stand is worth; -inf: no stand)

    from the top rows down. Every total depends on the next one (a single 5 adds one unit), so
    the pass is sequential; what makes it fast is doing two small numpy calls a total (the
    build's solver makes ~20, for slopes and many pairs). The bust term is folded into a
    shift: with U = V - beta and beta = y (I - M)^-1 bust (M: the chance of each next dice
    count), R = K U + beta, so a total is one dot over a window of the next ``near`` totals
    and one max. Options past ``near`` (three or more of a kind) are added per block of
    totals, from rows already done, through the window's first row's spare columns."""

    W = 10      # row width: U for n = 1..5, then the far options' sum for the row below

    def __init__(self, pts: np.ndarray, nxt: np.ndarray, mix: np.ndarray, bust: np.ndarray):
        pts, nxt = np.asarray(pts), np.asarray(nxt)
        gaps = np.flatnonzero(np.diff(np.unique(pts)) > 8)     # a gap in the points: far ones
        cut = np.unique(pts)[gaps[0]] if len(gaps) else int(pts.max())
        near = pts <= cut
        self.D = int(pts[near].max())
        self.K = np.zeros((self.D * self.W, 5))
        np.add.at(self.K, (pts[near] - 1) * self.W + nxt[near] - 1, mix[near])
        self.K[5 + np.arange(5), np.arange(5)] = 1.0
        self.KT = np.ascontiguousarray(self.K.T)     # matrix-vector is quicker this way round
        self.fp, self.fn, self.fmix = pts[~near], nxt[~near] - 1, mix[~near]
        self.block = int(self.fp.min()) if len(self.fp) else 1 << 30
        M = np.zeros((5, 5))
        np.add.at(M.T, nxt - 1, mix)
        self.g = np.linalg.solve(np.eye(5) - M, bust)
        self.top_rows = int(pts.max())

    def run(self, top: np.ndarray, floor: np.ndarray, y: float) -> np.ndarray:
        """R [rows, 5] (n = 1..5) for totals 0 .. rows - 1 of ``floor`` [rows, 5], given V
        [>= ``top_rows``, 5] of the totals from ``rows`` up."""
        W, D = self.W, self.D
        beta = y * self.g
        rows = len(floor)
        U = np.zeros((rows + len(top), W))
        U[rows:, :5] = top - beta
        F = floor - beta
        R = np.empty((rows, 5))
        # row i's window: rows i + 1 .. i + D of U, flat (a view per row, made in C)
        win = np.lib.stride_tricks.as_strided(U.reshape(-1)[W:], (rows, D * W),
                                              (W * U.itemsize, U.itemsize), writeable=False)
        U5 = U[:, :5]
        dot, mx, KT = np.dot, np.maximum, self.KT
        for hi in range(rows, 0, -self.block):
            lo = max(0, hi - self.block)
            if len(self.fp):
                i = np.arange(lo, hi)[:, None]
                U[lo + 1:hi + 1, 5:] = U[i + self.fp, self.fn] @ self.fmix
            down = slice(hi - 1, lo - 1 if lo else None, -1)
            for w, r, f, u in zip(win[down], R[down], F[down], U5[down]):
                dot(KT, w, out=r)
                mx(r, f, out=u)
        R += beta
        return R


class _TurnSolver:
    """Runs the turn DP below the target for a vector of pairs (b, o) with given bust values."""

    def __init__(self, r: WinRules, W: np.ndarray, final: _FinalRegion):
        self.r = r
        self.k = _kernel(r)
        self.T = r.target // r.unit
        self.W = W
        self.final = final
        self.need0 = _need_units(r, False)
        self.bust = self.k.bust[1:]
        self.mix = _mix(self.k)

    def stand_value(self, c: int, o: np.ndarray) -> np.ndarray:
        if c < self.T:
            return 1.0 - self.W[o, c]
        return self.final.F[c - o]

    def run(self, b: np.ndarray, o: np.ndarray, y: np.ndarray, keep: bool = False,
            bits: np.ndarray | None = None):
        """The turn of each pair (b, o) with the bust worth y. Returns the start value, its
        slope d/dy under the policy chosen at y, and the interval [lo, hi] of bust values over
        which every decision of that policy stays the same (so start + slope * (y' - y) is
        exact for y' in it); with ``keep`` also the value and roll tables [P, c - c_lo, 6]
        below the target and c_lo. ``bits`` [P, target - c_lo, 5] receives where the policy
        stands."""
        k = self.k
        T = self.T
        P = len(b)
        c_lo = int(b.min())
        m = k.max_units
        width = T - c_lo + m
        VD = np.zeros((P, width, 6, 2))
        L = np.arange(T, T + m)[None, :] - o[:, None]          # [P, m] leads
        gv, gd, lo, hi = self.final.at(y, L)
        VD[:, T - c_lo:, :, 0] = gv
        VD[:, T - c_lo:, :, 1] = gd
        lo, hi = lo.copy(), hi.copy()
        R = np.zeros((P, width, 6)) if keep else None
        flat = VD.reshape(P, -1, 2)
        base = k.opt_pts * 6 + k.opt_next
        need = np.where(b > 0, 1, self.need0)
        start = np.zeros(P)
        dstart = np.zeros(P)
        if self.mix is not None:        # auto keep: the compiled loop over the non-zero chances
            from .win_kernels import bones_turns

            opt_n = np.repeat(np.arange(5), np.diff(np.append(k.n_start, len(k.opt_pts))))
            bones_turns(VD, self.W, b.astype(np.int64), o.astype(np.int64),
                        np.ascontiguousarray(y, dtype=float), need.astype(np.int64), c_lo, T,
                        k.opt_pts.astype(np.int64), k.opt_next.astype(np.int64), opt_n,
                        k.grp_prob.astype(float), self.bust.astype(float), start, dstart, lo,
                        hi, bits if bits is not None else np.zeros((0, 1, 5), dtype=bool),
                        R if keep else np.zeros((0, 1, 6)))
            if keep:
                return start, dstart, lo, hi, VD[..., 0], R, c_lo
            return start, dstart, lo, hi
        bust_y = self.bust[None, :] * y[:, None]
        mix = self.mix
        if mix is None:
            sizes = np.diff(np.append(k.grp_start, len(base)))
        for c in range(T - 1, c_lo - 1, -1):
            i = c - c_lo
            g = flat[:, base + 6 * i, :]                  # [P, options, 2]
            if mix is not None:
                roll = g[:, :, 0] @ mix
                droll = g[:, :, 1] @ mix
            else:
                vals = g[:, :, 0]
                gmax = np.maximum.reduceat(vals, k.grp_start, axis=1)
                best = vals >= np.repeat(gmax, sizes, axis=1)
                dsel = np.maximum.reduceat(np.where(best, g[:, :, 1], -np.inf), k.grp_start,
                                           axis=1)
                roll = np.add.reduceat(gmax * k.grp_prob, k.n_start, axis=1)
                droll = np.add.reduceat(dsel * k.grp_prob, k.n_start, axis=1)
            roll += bust_y
            droll += self.bust
            at_start = b == c
            if at_start.any():
                start[at_start] = roll[at_start, 4]
                dstart[at_start] = droll[at_start, 4]
            sv = (1.0 - self.W[o, c])[:, None]
            may = ((c - b) >= need)[:, None]
            stand = may & (sv >= roll)
            # where the decision would flip: roll(y') = sv at y' = y + (sv - roll) / droll
            with np.errstate(divide="ignore", invalid="ignore"):
                flip = y[:, None] + (sv - roll) / droll
            flip = np.where(droll > 0, flip, np.where(stand, np.inf, -np.inf))
            hi = np.minimum(hi, np.where(stand, flip, np.inf).min(axis=1))
            lo = np.maximum(lo, np.where(may & ~stand, flip, -np.inf).max(axis=1))
            VD[:, i, 1:, 0] = np.where(stand, sv, roll)
            VD[:, i, 1:, 1] = np.where(stand, 0.0, droll)
            if bits is not None:
                bits[:, i] = stand
            if keep:
                R[:, i, 1:] = roll
        if mix is None:
            # a keep choice may flip too: no interval, the caller checks by solving again
            lo = hi = y.copy()
        if keep:
            return start, dstart, lo, hi, VD[..., 0], R, c_lo
        return start, dstart, lo, hi


W_FLOOR = 1e-4


def _build(r: WinRules, progress: bool = True, w_floor: float = W_FLOOR):
    """W[b, o] for b, o < target (units): the chance of the player on turn at a turn's start;
    with the final region, the margin and the number of turn sweeps it took."""
    T = r.target // r.unit
    margin = _margin(r, w_floor)
    final = _FinalRegion(r, margin)
    W = np.full((T, T), np.nan)
    solver = _TurnSolver(r, W, final)
    off = _offsets(T)
    policy = np.zeros(int(off[-1, -1]) + 5, dtype=bool)
    sweeps = 0
    from tqdm.auto import tqdm

    with tqdm(total=2 * T - 1, desc=i18n._("Bones win table ({target})", target=r.target),
              unit=i18n.p_("progress unit", "layer"),
              disable=not progress) as bar:
        for s in range(2 * T - 2, -1, -1):
            b = np.arange(max(0, s - T + 1), min(s, T - 1) + 1)
            o = s - b
            mirror = len(b) - 1 - np.arange(len(b))     # index of (o, b) in this layer
            # first guess of my bust value 1 - W(o, b): the pair one layer up
            g1 = W[o, np.minimum(b + 1, T - 1)]
            g2 = W[o, np.minimum(b + 2, T - 1)]
            guess = np.where(b + 2 < T, 2 * g1 - g2, g1)
            guess = np.clip(np.where(np.isnan(guess) | (b + 1 >= T), 0.5, guess), 0, 1)
            y = 1.0 - guess
            todo = np.ones(len(b), dtype=bool)
            start = np.zeros(len(b))
            slope = np.zeros(len(b))
            lo = np.zeros(len(b))
            hi = np.zeros(len(b))
            y_run = y.copy()
            for _ in range(60):
                # solve again only the pairs whose policy may have changed
                sel = np.nonzero(todo)[0]
                c_lo = int(b[sel].min())
                bits = np.zeros((len(sel), T - c_lo, 5), dtype=bool)
                st, sl, l_, h_ = solver.run(b[sel], o[sel], y[sel], bits=bits)
                for k, p in enumerate(sel):
                    bp, op = int(b[p]), int(o[p])
                    policy[off[bp, op]:off[bp, op] + (T - bp) * 5] = \
                        bits[k, bp - c_lo:].reshape(-1)
                sweeps += 1
                start[sel], slope[sel], lo[sel], hi[sel], y_run[sel] = st, sl, l_, h_, y[sel]
                # linearised: W1 = a1 + s1 (1 - W2), W2 = a2 + s2 (1 - W1)
                a = start - slope * y_run
                a2, s2 = a[mirror], slope[mirror]
                w1 = (a + slope * (1.0 - a2 - s2)) / (1.0 - slope * s2)
                y_new = 1.0 - w1[mirror]
                ok = (y_new >= lo - 1e-15) & (y_new <= hi + 1e-15)
                moved = np.abs(y_new - y_run) > TOL * 0.01
                y = y_new
                bad = ~ok & moved
                if not bad.any():
                    break
                todo = bad | bad[mirror]
            else:
                raise RuntimeError(f"Bones win table: layer {s} did not settle")
            W[b, o] = 1.0 - y[mirror]
            bar.update(1)
    if W.min() < w_floor:
        # the margin assumed every start chance is at least w_floor: widen it and solve again
        return _build(r, progress, W.min() / 2)
    return W, final, sweeps, w_floor, policy


def _offsets(T: int) -> np.ndarray:
    """Where the policy bits of each pair (b, o) start in the flat array: (T - b) turn totals
    times 5 dice counts per pair, pairs in row order."""
    sizes = np.repeat((T - np.arange(T)) * 5, T).reshape(T, T)
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).reshape(T, T)


# ----- the table ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class WinReadout:
    """Chances to win for the player on turn (0..1)."""

    win_chance: float
    roll_win_chance: float
    stand_win_chance: float | None   # None: standing is not allowed here
    decision: str                    # "stand" or "roll"
    final_turn: bool                 # the other has reached the target: beat them this turn
    must_reach: int | None           # final turn: the turn total that wins (points)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class WinTable:
    """Win chances of a two-seat Bones game under play that maximises them."""

    def __init__(self, rules: WinRules, W: np.ndarray, final: _FinalRegion, w_floor: float,
                 policy: np.ndarray):
        self.rules = rules
        self.W = W
        self.policy = policy            # flat stand bits below the target (``_offsets``)
        self.offsets = _offsets(rules.target // rules.unit)
        self.final = final
        self.w_floor = w_floor
        self.T = rules.target // rules.unit
        self._solver = _TurnSolver(rules, W, final)
        k = self._k = self._solver.k
        mix = self._solver.mix
        self._pass = None if mix is None else TurnPass(k.opt_pts, k.opt_next, mix, k.bust[1:])
        # choose_keepers: where each running total's roll options land (row + points, dice),
        # then a column for y; each roll outcome's chance per n (GT), the bust's last
        base = (k.opt_pts * 6 + k.opt_next)[None, :] + 6 * np.arange(self.T)[:, None]
        self._idx = np.concatenate([base, np.zeros((self.T, 1), dtype=base.dtype)], axis=1)
        self._gs = np.append(k.grp_start, len(k.opt_pts))
        groups = len(k.grp_start)
        self._GT = np.zeros((5, groups + 1))
        ends = list(k.n_start[1:]) + [groups]
        for n in range(5):
            self._GT[n, k.n_start[n]:ends[n]] = k.grp_prob[k.n_start[n]:ends[n]]
        self._GT[:, groups] = k.bust[1:]
        self._turn = lru_cache(maxsize=64)(self._solve_turn)

    # -- whole turns --
    def _solve_turn(self, b: int, o: int):
        """One regular turn of the pair (b, o): roll values [c - b, n] for c < target, and the
        final region's roll values at this pair's bust value. The same values as the build's
        ``_TurnSolver.run`` for one pair, in one pass down the running totals with a few small
        numpy calls each (``run`` spends ~60 us a total on bookkeeping a lookup needs not:
        slopes, intervals, many pairs), so a first mid-turn lookup stays under 1 ms."""
        T, m = self.T, self._k.max_units
        y = 1.0 - float(self.W[o, b])
        rows = T - b
        gv, _d, _lo, _hi = self.final.at(np.array([y]), (np.arange(T, T + m) - o)[None, :])
        need = 1 if b > 0 else self._solver.need0
        R = np.zeros((rows, 6))
        if self._pass is not None:
            floor = np.repeat((1.0 - self.W[o, b:T])[:, None], 5, axis=1)
            floor[:need] = -np.inf
            R[:, 1:] = self._pass.run(gv[0, :, 1:], floor, y)
            return R, self.final.roll_table(y)
        # choose_keepers: the best keep of each roll (a max per roll outcome), four numpy
        # calls a total; y sits after the totals as one more "roll" weighted by the bust
        V = np.zeros((rows + m) * 6 + 1)     # running totals c = b .. T + m - 1, then y
        V[rows * 6:-1] = gv[0].reshape(-1)
        V[-1] = y
        idx = self._idx[:rows].copy()
        idx[:, -1] = len(V) - 1
        floor = np.repeat((1.0 - self.W[o, b:T])[:, None], 5, axis=1)
        floor[:need] = -np.inf
        take, best, dot, mx = V.take, np.maximum.reduceat, np.dot, np.maximum
        gs, GT = self._gs, self._GT
        V6 = V[:-1].reshape(-1, 6)
        for ix, r, f, v in zip(idx[::-1], R[::-1], floor[::-1], V6[rows - 1::-1]):
            out = r[1:]
            dot(GT, best(take(ix), gs), out=out)
            mx(out, f, out=v[1:])
        return R, self.final.roll_table(y)

    def start_chance(self, banked: int = 0, opponent: int = 0) -> float:
        """Chance of the player whose turn starts now (points)."""
        return self.readout(banked, opponent).win_chance

    def readout(self, banked: int, opponent: int, turn_total: int = 0,
                dice_left: int = 5) -> WinReadout:
        """The player on turn has ``banked``, the other ``opponent``; this turn so far has
        ``turn_total`` and the next roll throws ``dice_left`` (5 with a turn total > 0: hot
        dice). If the other has reached the target this is my final turn."""
        b, o, t, n = _checked(self.rules, banked, opponent, turn_total, dice_left)
        T = self.T
        if o >= T:
            return final_readout(self.rules, banked, opponent, turn_total, dice_left)
        may = t >= _need_units(self.rules, b > 0)
        if t == 0:
            return win_readout(float(self.W[b, o]), None, False, None)
        c = b + t
        R, Rf = self._turn(b, o)
        if c < T:
            roll_c = float(R[t, n])
            stand_c = float(1.0 - self.W[o, c])
        else:
            L = c - o
            if L >= self.final.top:
                # so far ahead that standing is optimal (``_margin``); one roll, then standing
                L = self.final.top - 1
            roll_c = float(Rf[L, n])
            # (past the tabled leads the other's chance to catch up is below 1e-12)
            stand_c = float(self.final.F[min(c - o, len(self.final.F) - 1)])
        return win_readout(roll_c, stand_c if may else None, False, None)

    def stands(self, b: int, o: int) -> np.ndarray:
        """Bool [t, n] (units): the max-win policy stands at turn total t with n dice to throw
        in a regular turn with b, o banked (units). Past the last row it stands."""
        T = self.T
        top = self.final.top
        rows = max(T - b, top + o - b)
        out = np.ones((rows, 6), dtype=bool)
        start = self.offsets[b, o]
        out[:T - b, 1:] = self.policy[start:start + (T - b) * 5].reshape(T - b, 5)
        L = np.arange(T, top + o) - o
        out[T - b:] = (1.0 - self.W[o, b]) <= self.final.ystar[L]
        out[:, 0] = False
        return out

    def stands_at(self, b, o, c, n) -> np.ndarray:
        """The same for arrays of states (units; c = b + turn total > b, a regular turn)."""
        b, o, c, n = (np.asarray(v) for v in (b, o, c, n))
        low = c < self.T
        idx = self.offsets[b, o] + np.minimum(c - b, self.T - b - 1) * 5 + n - 1
        L = c - o
        y = 1.0 - self.W[o, b]
        high = (L >= self.final.top) | (y <= self.final.ystar[np.minimum(L, self.final.top - 1), n])
        return np.where(low, self.policy[idx], high)


def _units(r: WinRules, name: str, v) -> int:
    u = r.unit
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0 or v % u:
        raise RuleError(_not_units(name, u, v))
    return int(v) // u


def _not_units(name: str, u: int, v):
    if name == "banked":
        return L_("banked is a whole multiple of {unit} points >= 0, got {value}", unit=u,
                  value=repr(v))
    if name == "opponent":
        return L_("opponent is a whole multiple of {unit} points >= 0, got {value}", unit=u,
                  value=repr(v))
    return L_("turn total is a whole multiple of {unit} points >= 0, got {value}", unit=u,
              value=repr(v))


def _checked(r: WinRules, banked, opponent, turn_total, dice_left) -> tuple[int, int, int, int]:
    """(b, o, t, n) in units for a readout; RuleError for a state no turn can be in."""
    b, o = _units(r, "banked", banked), _units(r, "opponent", opponent)
    t, n = _units(r, "turn total", turn_total), fd.check_n(dice_left)  # i18n: not shown
    if b >= r.target // r.unit:
        raise RuleError(L_("a banked total of {banked} has reached the target ({target}): the "
                           "game or the other's final turn is on", banked=str(banked),
                           target=str(r.target)))
    if t == 0 and n != 5:
        raise RuleError(L_("a turn starts with all five dice"))
    return b, o, t, n


def final_readout(rules: Any, banked: int, opponent: int, turn_total: int = 0,
                  dice_left: int = 5) -> WinReadout:
    """My final turn (the other has reached the target, docs/explanation/rules.md "Bones"): I
    win exactly if this turn ends with a stand above ``opponent`` (a tie goes to who reached it
    first), so the chances are the chance to reach that far, rolling until then
    (``_reach``). Exact, and needs no win table: it holds for any target."""
    r = win_rules(rules)
    b, o, t, n = _checked(r, banked, opponent, turn_total, dice_left)
    if o < r.target // r.unit:
        raise RuleError(L_("a final turn comes after the other reached the target ({target}), "
                           "not at {opponent}", target=str(r.target), opponent=str(opponent)))
    need = _need_units(r, b > 0)
    d = max(o - b + 1, need)
    _reach_t, roll = _reach(r, max(d + 1, 2 * (r.target // r.unit)))  # one size: cached
    roll_c = float(roll[max(d - t, 0), n])
    stand_c = (1.0 if t >= d else 0.0) if t >= need else None
    return win_readout(roll_c, stand_c, True, d * r.unit)


def win_readout(roll_c: float, stand_c: float | None, final: bool, must: int | None) -> WinReadout:
    win = roll_c if stand_c is None else max(roll_c, stand_c)
    dec = "stand" if stand_c is not None and stand_c >= roll_c else "roll"
    return WinReadout(win, roll_c, stand_c, dec, final, must)


# ----- solve and cache ---------------------------------------------------------------------------
_MEMORY = TABLES   # (tests clear it) the one cache of solved tables: odds.cachefile
DISK_TABLES = 24   # win table files kept in the cache folder (least recently used removed first)


def cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("dicelab")) / "win"


def table(rules: Any = "bones", progress: bool = True,
          cache: bool | str | os.PathLike = True, **over):
    """The win table of these Bones rules (``win_rules``); solved on first use with a
    progress bar, then kept in memory and in a file under the user cache dir (``cache=True``),
    another folder (``cache=path``), or nowhere (``cache=False``). Thousand's table:
    ``win_thousand.table``."""
    r = win_rules(rules, **over)
    return cached_table(r.key, lambda: _new(r, progress), lambda p: _load(p, r), _save, cache)


def cached_table(key: str, new, load, save, cache):
    """The table of ``key`` from memory, else from its file (``load(path)``: None if missing
    or damaged), else ``new()`` written with ``save(path, table)``; ``cache`` as ``table``."""
    if cache is False:
        return new()
    folder = cache_dir() if cache is True else Path(cache)
    # one build per key however many threads ask (``new`` may decline to build: None)
    return TABLES.get(("win", key, str(folder)), folder / f"win-{key}.npz",  # i18n: not shown
                      load, new, save, keep=DISK_TABLES)


_ASKED: set = set()   # tables whose build this process started (one attempt each)


def table_if_ready(rules: Any = "bones", **over):
    """The table if it is in memory or in the cache folder; otherwise None, after starting
    one build in the shared worker (``odds.worker``: a process at the lowest priority, so a web
    page never waits for it, nor shares its CPU time with the page's thread); a later call
    finds it. Environment ``DICELAB_WIN_BUILD=off``: no build is started."""
    r = win_rules(rules, **over)
    return ready_table(r.key, lambda p: _load(p, r), partial(write_table, table, r))


def write_table(make, rules) -> None:
    """``make(rules)``'s table built into the cache folder (in the worker process: the table
    itself stays there, the server reads the file)."""
    make(rules, progress=False)


def ready_table(key: str, load, build):
    """``table_if_ready`` for the table of ``key``: ``load(path)`` reads its file, ``build()``
    (picklable: it runs in the worker process, as ``write_table``) writes it."""
    from .worker import WORKER, run_elsewhere

    folder = cache_dir()
    mem_key = ("win", key, str(folder))
    t = TABLES.peek(mem_key)
    if t is not None or WORKER.position(mem_key) is not None:
        return t
    path = folder / f"win-{key}.npz"  # i18n: not shown
    if path.exists():
        t = TABLES.get(mem_key, path, load, lambda: None)   # read it, never build it here
        if t is not None:
            return t
    if mem_key not in _ASKED and config.value("DICELAB_WIN_BUILD") != "off":
        try:
            WORKER.submit(mem_key, lambda: run_elsewhere(build), lambda result: None)
            _ASKED.add(mem_key)   # one attempt per process: a failed build is not retried
        except RuleError:         # the queue is full: asked again at the next readout
            pass
    return None


read_with_meta = load_with_meta   # (win_thousand reads its files with it too)


def _new(r: WinRules, progress: bool) -> WinTable:
    W, final, _sweeps, w_floor, policy = _build(r, progress)
    return WinTable(r, W, final, w_floor, policy)


def _load(path: Path, r: WinRules) -> WinTable | None:
    z, meta = read_with_meta(path, "W", "policy")
    try:
        w_floor = float(meta["w_floor"])
    except (ValueError, KeyError, TypeError):
        return None
    W = z["W"]
    T = r.target // r.unit
    if meta.get("key") != r.key or meta.get("format") != FORMAT or W.shape != (T, T) \
            or not np.all(np.isfinite(W)) or W.max() > 1 or not W.min() >= w_floor > 0:
        return None
    n_bits = int(_offsets(T)[-1, -1]) + 5
    packed = z["policy"]
    if packed.shape != ((n_bits + 7) // 8,) or packed.dtype != np.uint8:
        return None
    policy = np.unpackbits(packed)[:n_bits].astype(bool)
    return WinTable(r, W, _FinalRegion(r, _margin(r, w_floor)), w_floor, policy)


def _save(path: Path, t: WinTable) -> None:
    meta = json.dumps({"key": t.rules.key, "format": FORMAT, "w_floor": t.w_floor})
    save_npz(path, W=t.W, policy=np.packbits(t.policy), meta=np.array(meta))
