"""Optimal solitaire Yahtzee: the maximum expected final score for any ``YahtzeeSettings``.

A state is a card at the start of a turn: the filled boxes, the upper total (capped at the
threshold, kept only with an upper bonus) and whether the Yahtzee box holds 50 (kept only with a
Yahtzee bonus). Bonuses count when they are earned, the upper bonus when the total reaches the
threshold, so a state's value is the expected number of points still to come (as in
yatzy-solver). Upper totals from which the bonus can no longer be earned, or that have earned
it, are one state.

Backward induction runs over the number of open boxes, all states of one count together. Within
a turn the classic chain is solved on the 252 sorted outcomes of five dice and the 462 keeps:
the final roll goes in its best box (options from ``rules.yahtzee.scoring_options``); a keep's
value is the average over one more die, added one die at a time; a roll's value is the best of
its keeps. Everything is float64, vectorised over states (arrays of shape (keeps, states));
the final roll and the chain run in ``_yahtzee_kernel`` (C) where it is built, else in numpy.
Tables live in the one cache of solved tables (``cachefile.TABLES``); the official one is also
shipped in the package (``load_shipped``).

    table = solve("official")            # the shipped table, or a solve with a progress bar
    table.expected_score                 # 254.5877...
    table.value(State(frozenset(BOXES) - {"chance"}, 0, None))
    table.advise(open_boxes, upper_total, yahtzee_box, dice, rerolls_left)
"""
from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..dice import check_dice, multisets
from ..errors import RuleError
from .. import i18n
from ..i18n import L_
from ..rules.yahtzee import (
    BOXES,
    UPPER,
    box_name,
    options_of_checked,
    scoring_options,
    upper_bonus_due,
    yahtzee_bonus_due,
)
from ..settings import YahtzeeSettings
from .cachefile import TABLES, load_with_meta, save_npz
from .worker import run_elsewhere

try:  # the turn chain compiled (setup.py; optional: numpy does the same without it)
    from . import _yahtzee_kernel as _kernel
except ImportError:  # pragma: no cover - a machine without a C compiler
    _kernel = None

__all__ = ["FORMAT", "Advice", "State", "YahtzeeTable", "cache_dir", "solve"]

FORMAT = 1  # bump when the table layout or its meaning changes
NBOX = len(BOXES)
FULL = (1 << NBOX) - 1
INDEX = {b: i for i, b in enumerate(BOXES)}
BIT = {b: 1 << i for i, b in enumerate(BOXES)}
YAHTZEE_BIT = BIT["yahtzee"]
CHANCE = BOXES.index("chance")
YAHTZEE = BOXES.index("yahtzee")
# lower boxes that score on some rolls only
PATTERN_BOXES = tuple(BOXES.index(b) for b in ("three_of_a_kind", "four_of_a_kind",
                                                 "full_house", "small_straight",
                                                 "large_straight"))
CHUNK = 256  # states per block: a block's arrays stay in the core's cache
GROUP = 8 * CHUNK  # at most this many states have their box values prepared together
NEG = -np.inf


# ----- dice: outcomes, keeps and the one-die-at-a-time maps -------------------------------------
@cache
def _lex_points() -> tuple[list, np.ndarray]:
    """The 252 outcomes in lexicographic order and (13, 252) their points in every box (all
    boxes open, Yahtzee box open), from ``scoring_options``."""
    outcomes = [m for m, _ in multisets(5)]
    options = [scoring_options(o, BOXES, None, False) for o in outcomes]
    return outcomes, np.array([[opt[b] for opt in options] for b in BOXES], dtype=np.int64)


def _outcome_order(points: np.ndarray) -> np.ndarray:
    """An order of the outcomes in which the rolls that score in each of Three and Four of a
    Kind, Full House, the straights and Yahtzee are one slice (the sets nest or are apart)."""
    S = {b: points[BOXES.index(b)] > 0 for b in
         ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
          "large_straight", "yahtzee")}
    cls = np.select([S["large_straight"], S["small_straight"], ~S["three_of_a_kind"],
                     S["yahtzee"], S["four_of_a_kind"], S["full_house"]],
                    [1, 0, 2, 6, 5, 4], 3)
    return np.argsort(cls, kind="stable")


class _Dice:
    """Keeps are the multisets of 0..5 dice by level (number of dice), stored as rows
    ``off[n] .. off[n+1]``; level 5 is the 252 outcomes of a full roll.

    Levels 0..4 are in lexicographic order: adding a 1 to the level-n keeps then gives the first
    ``size[n]`` keeps of level n+1 in the same order, so that face needs no gather. Level 5 is in
    ``_outcome_order`` instead, so that a box's scoring rolls are a slice."""

    def __init__(self):
        lex, points = _lex_points()
        order = _outcome_order(points)
        self.levels = [list(combinations_with_replacement(range(1, 7), n)) for n in range(5)]
        self.levels.append([lex[i] for i in order])
        self.points = points[:, order]
        self.size = [len(lv) for lv in self.levels]
        self.off = [0]
        for s in self.size:
            self.off.append(self.off[-1] + s)
        self.keeps = [k for lv in self.levels for k in lv]  # global row -> sorted dice
        self.row = {k: i for i, k in enumerate(self.keeps)}
        self.outcomes = self.levels[5]
        ways = dict(multisets(5))
        self.prob = np.array([ways[o] for o in self.outcomes], dtype=np.float64) / 6 ** 5
        self.outcome = {k: i for i, k in enumerate(self.outcomes)}
        self.count = np.array([[o.count(f) for f in range(1, 7)] for o in self.outcomes],
                              dtype=np.intp)  # (252, 6)
        self.count_c = np.ascontiguousarray(self.count, dtype=np.intc)  # (the compiled kernel)
        self.yahtzee_rows = np.array([self.outcome[(f,) * 5] for f in range(1, 7)])

        def add(k, f):
            return tuple(sorted(k + (f,)))
        # E-step of level n: rows of k + f, face-major; face 1 is a slice below level 4
        self.e_faces = [2 if n < 4 else 1 for n in range(5)]
        for n in range(4):
            assert [self.row[add(k, 1)] for k in self.levels[n]] == \
                list(range(self.off[n + 1], self.off[n + 1] + self.size[n]))
        self.e_take = [np.array([self.row[add(k, f)] for f in range(self.e_faces[n], 7)
                                 for k in self.levels[n]], dtype=np.intp) for n in range(5)]
        # max-step of level n: the keep itself, then the keep without its j-th die, j-major
        self.m_take = [None] + [
            np.array([self.row[k] for k in self.levels[n]]
                     + [self.row[k[:j] + k[j + 1:]] for j in range(n) for k in self.levels[n]],
                     dtype=np.intp) for n in range(1, 6)]
        # the same steps for the compiled chain: E rows level 4..0 with their six faces' rows;
        # M rows level 1..5 with their distinct sub-keeps (one die less), CSR
        self.e_rows = np.array([self.off[n] + i for n in range(4, -1, -1)
                                for i in range(self.size[n])], dtype=np.intc)
        self.e_kids = np.array([[self.row[add(k, f)] for f in range(1, 7)]
                                for n in range(4, -1, -1) for k in self.levels[n]], dtype=np.intc)
        subs = [[self.row[k[:j] + k[j + 1:]] for j in range(n) if j == 0 or k[j] != k[j - 1]]
                for n in range(1, 6) for k in self.levels[n]]
        self.m_rows = np.arange(self.off[1], self.off[6], dtype=np.intc)
        self.m_ptr = np.cumsum([0] + [len(x) for x in subs], dtype=np.intc)
        self.m_subs = np.array([r for x in subs for r in x], dtype=np.intc)

    @cached_property
    def sub(self) -> list[np.ndarray]:
        """The rows of each outcome's distinct keeps (for advice)."""
        out = []
        for o in self.outcomes:
            subs = {()}
            for d in o:
                subs |= {tuple(sorted(s + (d,))) for s in subs}
            out.append(np.array(sorted(self.row[s] for s in subs), dtype=np.intp))
        return out


@cache
def dice_table() -> _Dice:
    return _Dice()


class Block:
    """Work arrays for ``n`` states, with each step of the chain prebuilt as views.

    ``be`` holds a value per keep (rows, as in ``_Dice``) and state (columns); its last 252
    rows, ``rolls``, are the rolls' values."""

    def __init__(self, n: int, dtype=np.float64):
        self.n = n
        self.be = np.empty((462, n), dtype)
        self.rolls = self.be[dice_table().off[5]:]

    @cached_property
    def w(self) -> np.ndarray:  # (the numpy steps' work arrays: only made where used)
        return np.empty((252, self.n))

    @cached_property
    def w2(self) -> np.ndarray:
        return np.empty((252, self.n))

    @cached_property
    def e_ops(self) -> list:
        self._ops()
        return self.e_ops

    @cached_property
    def m_ops(self) -> list:
        self._ops()
        return self.m_ops

    def _ops(self) -> None:
        D, be, n = dice_table(), self.be, self.n
        tmp = np.empty((1512, n), be.dtype)
        # level 4 .. 0: a keep is the average of it plus one die
        self.__dict__["e_ops"] = e_ops = []
        for lv in range(4, -1, -1):
            k, first = D.size[lv], D.e_faces[lv]
            t = tmp[:(7 - first) * k]
            t3 = list(t.reshape(7 - first, k, n))
            a = be[D.off[lv + 1]:D.off[lv + 1] + k] if first == 2 else t3.pop(0)  # face 1
            e_ops.append((D.e_take[lv], t, a, t3, be[D.off[lv]:D.off[lv + 1]]))
        self.__dict__["m_ops"] = m_ops = []  # level 1 .. 5: the best of it and its sub-keeps
        for lv in range(1, 6):
            k = D.size[lv]
            t = tmp[:(lv + 1) * k]
            m_ops.append((D.m_take[lv], t, t.reshape(lv + 1, k, n),
                               be[D.off[lv]:D.off[lv + 1]]))

    def estep(self) -> None:
        """Keeps' values from the rolls' values, one die at a time."""
        take = self.be.take
        for idx, t, a, parts, dst in self.e_ops:
            take(idx, axis=0, out=t, mode="clip")  # 'clip': no hidden copy of out
            np.add(a, parts[0], out=dst)
            for p in parts[1:]:
                np.add(dst, p, out=dst)
            np.multiply(dst, 1 / 6, out=dst)

    def mstep(self) -> None:
        """Each keep becomes the best of its sub-keeps; the rolls then hold their values with
        the best keep."""
        take = self.be.take
        for idx, t, t3, dst in self.m_ops:
            take(idx, axis=0, out=t, mode="clip")
            np.maximum.reduce(t3, axis=0, out=dst)

    def chain(self, rerolls: int) -> None:
        """``rolls``: values of final rolls in, of first rolls (``rerolls`` to go) out."""
        if _kernel is not None and self.be.dtype == np.float64:
            D = dice_table()
            _kernel.chain(self.be, rerolls, D.e_rows, D.e_kids, D.m_rows, D.m_ptr, D.m_subs)
            return
        for _ in range(rerolls):
            self.estep()
            self.mstep()


# ----- scoring tables, all from rules.yahtzee.scoring_options ----------------------------------
def _points() -> np.ndarray:
    """(13, 252) points of every outcome (in ``_Dice`` order) in every box, all boxes open."""
    return dice_table().points


def _joker_card_of(mask: int) -> np.ndarray:
    """(6 faces, 13 boxes) for a card with the Yahtzee box filled, under the forced joker rule:
    the points of five of a face in each box they may fill, -1 where they may not."""
    out = np.full((6, NBOX), -1, dtype=np.int16)
    open_boxes = frozenset(b for b in BOXES if not mask & BIT[b])
    for f in range(6):
        for b, pts in options_of_checked((f + 1,) * 5, open_boxes, 50, True).items():
            out[f, INDEX[b]] = pts
    return out


def _joker_options(jp: np.ndarray) -> np.ndarray:
    """Joker points (..., 6 faces, 13 boxes) as an additive float mask (..., 19 options, 6):
    options 0..6 the lower boxes (points, or -inf where five of the face may not go), 7..12
    scoring 0 in an upper box, 13..18 the five dice in their upper box (0 or -inf). With a
    state's values of those options added, the best is the roll's value."""
    jp = np.swapaxes(jp, -1, -2)
    up, low = jp[..., :6, :], jp[..., 6:, :]
    assert ((up <= 0) | (up == 5 * np.arange(1, 7)[:, None])).all()  # five of a face, or 0
    return np.concatenate([np.where(low >= 0, low, NEG), np.where(up == 0, 0.0, NEG),
                           np.where(up > 0, 0.0, NEG)], axis=-2)


_joker_card = cache(_joker_card_of)   # (advice: the cards asked about)


@cache
def _joker_cards() -> np.ndarray:
    """``_joker_card`` of every card (8192 masks; rows without the Yahtzee box unused)."""
    jp = np.full((FULL + 1, 6, NBOX), -1, dtype=np.int16)
    for mask in range(YAHTZEE_BIT, FULL + 1):
        if mask & YAHTZEE_BIT:
            jp[mask] = _joker_card_of(mask)
    return jp


class _AllJokerCards:
    """``_joker_options`` of the cards asked for, from every card's points (a solve: 1.3 MB
    kept rather than 7.5 MB of options)."""

    def __getitem__(self, masks) -> np.ndarray:
        return _joker_options(_joker_cards()[masks])


class _JokerCards:
    """``_joker_options`` of a few cards, computed as they are asked for (advice)."""

    def __init__(self):
        self.rows: dict[int, np.ndarray] = {}

    def __getitem__(self, masks) -> np.ndarray:
        for m in map(int, masks):
            if m not in self.rows:
                self.rows[m] = _joker_options(_joker_card(m))
        return np.stack([self.rows[int(m)] for m in masks])


def options_matrix(mask: int, joker: bool) -> np.ndarray:
    """(13, 252): the points of each outcome in each box that may be filled now, -1 elsewhere."""
    S = np.where([[not mask & BIT[b]] for b in BOXES], _points(), -1)
    if joker and mask & YAHTZEE_BIT:
        S[:, dice_table().yahtzee_rows] = _joker_card(mask).T
    return S


# ----- the solver -------------------------------------------------------------------------------
class _Rules:
    """What the values depend on, and the state layout: values are a dense array
    ``V[mask, y, u]`` (filled-box mask, 1 if the Yahtzee box holds 50, capped upper total)."""

    def __init__(self, s: YahtzeeSettings):
        self.rerolls = s.rerolls
        self.upper_bonus = s.upper_bonus
        self.threshold = s.upper_bonus_threshold if s.upper_bonus else 0
        self.yahtzee_bonus = s.yahtzee_bonus
        self.joker = bool(s.joker)
        self.U = self.threshold + 1 if self.upper_bonus else 1
        self.Y = 2 if self.yahtzee_bonus else 1
        T = self.threshold
        # exact upper totals reachable with these upper boxes filled
        self.reach = []
        for F in range(64):
            totals = {0}
            for f in range(6):
                if F >> f & 1:
                    totals = {t + (f + 1) * c for t in totals for c in range(6)}
            self.reach.append(frozenset(totals))
        # canonical capped total: u while the bonus is still to be earned, else T
        self.canon = np.full((64, self.U), T, dtype=np.intp)
        self.canon_flat = self.canon.ravel()  # a view: filled in below
        if self.upper_bonus:
            for F in range(64):
                most = sum(5 * (f + 1) for f in range(6) if not F >> f & 1)
                for u in range(T):
                    if u + most >= T:
                        self.canon[F, u] = u
        self.classes = [np.unique(self.canon[F, [min(t, T) if self.upper_bonus else 0
                                                 for t in self.reach[F]]]) for F in range(64)]

    @property
    def key(self) -> str:
        return (  # i18n: not shown (a file name)
            f"v{FORMAT}-r{self.rerolls}-ub{self.upper_bonus}-t{self.threshold}"
            f"-yb{self.yahtzee_bonus}-j{int(self.joker)}")

    def index(self, mask, y, u):
        return (mask * self.Y + y) * self.U + u

    def states(self, n_open: int):
        """The distinct states with ``n_open`` open boxes, as arrays (mask, y, u), ordered by
        upper boxes first so a block of states shares most of its open boxes."""
        masks = np.flatnonzero(_open_counts() == n_open)
        masks = masks[np.argsort((masks & 63) * 128 + (masks >> 6), kind="stable")]
        ncls = np.array([len(c) for c in self.classes])
        width = ncls.max()
        cls = np.zeros((64, width), dtype=np.intp)
        for F, c in enumerate(self.classes):
            cls[F, :len(c)] = c
        F = masks & 63
        ny = np.where((self.Y == 2) & (masks & YAHTZEE_BIT != 0), 2, 1)
        nu = ncls[F]
        per = ny * nu
        m = np.repeat(masks, per)
        j = np.arange(per.sum()) - np.repeat(np.cumsum(per) - per, per)
        nur = np.repeat(nu, per)
        y = j // nur
        u = cls[m & 63, j % nur]
        return m, y, u


@cache
def _open_counts() -> np.ndarray:
    """The number of open boxes of every mask."""
    bits = (np.arange(FULL + 1)[:, None] >> np.arange(NBOX)) & 1
    return NBOX - bits.sum(axis=1)


class _Level:
    """Per-state values of the boxes for a group of states (arrays over the states):
    ``lower[b - 6]`` the next state's value after filling lower box b (the Yahtzee box with 0),
    ``y50`` after filling the Yahtzee box with 50, ``G[g, c]`` upper box g with c dice of its
    face (points, upper bonus earned and the next state's value), -inf where a box is filled;
    ``zero`` the best of scoring 0 somewhere; ``jrows`` the six Yahtzee rolls' values of the
    states ``jsel`` where the forced joker rule restricts them."""

    __slots__ = ("G", "jrows", "jsel", "lower", "m", "shut", "u", "y", "y50", "zero")


class _Solver:
    """Backward induction over the states of ``_Rules`` into the flat value array ``V``;
    ``dtype`` is the chain's (float32 is an option measured in the benchmark, not used)."""

    def __init__(self, rules: _Rules, V: np.ndarray | None = None, dtype=np.float64,
                 all_cards: bool = True):
        self.r = rules
        self.D = dice_table()
        self.Sf = np.ascontiguousarray(_points(), dtype=np.float64)
        self.slices = {}  # a box's scoring rolls, one slice in _Dice's order
        for b in PATTERN_BOXES + (YAHTZEE,):
            rows = np.flatnonzero(self.Sf[b] > 0)
            assert (np.diff(rows) == 1).all()
            self.slices[b] = slice(rows[0], rows[-1] + 1)
        yr = self.D.yahtzee_rows
        assert (yr == np.arange(self.slices[YAHTZEE].start, 252)).all()
        self.JP = None
        if rules.joker:  # every card for a solve; only those asked about for advice
            self.JP = _AllJokerCards() if all_cards else _JokerCards()
        self.ybonus = np.array([yahtzee_bonus_due((f,) * 5, 50, rules.yahtzee_bonus)
                                for f in range(1, 7)], dtype=np.float64)[:, None]
        self.dtype = np.dtype(dtype)
        if V is None:
            V = np.full((FULL + 1) * rules.Y * rules.U, np.nan)
            V[rules.index(FULL, np.arange(rules.Y)[:, None], np.arange(rules.U))] = 0.0
        self.V = V

    def level(self, m, y, u) -> _Level:
        r, V = self.r, self.V
        n = len(m)
        L = _Level()
        L.m, L.y, L.u = m, y, u
        L.shut = int(np.bitwise_and.reduce(m))  # boxes filled in every state
        # lower boxes: the next state's value, -inf where filled
        bits = (1 << np.arange(6, NBOX))[:, None]
        filled = (m & bits) != 0
        ny = np.where(bits == YAHTZEE_BIT, 0, y)
        L.lower = V[r.index(m | bits, ny, u)]
        L.lower[filled] = NEG
        L.y50 = V[r.index(m | YAHTZEE_BIT, r.Y - 1, u)]  # the Yahtzee box then holds 50
        L.y50[filled[YAHTZEE - 6]] = NEG
        # upper box g with c dice of its face: (6 g, 6 c, n), for the boxes open somewhere
        T, B = r.threshold, r.upper_bonus
        L.G = G = np.full((6, 6, n), NEG)
        go = np.array([g for g in range(6) if not L.shut >> g & 1])
        if len(go):
            gb = (1 << go)[:, None, None]
            face = (go + 1)[:, None, None] * np.arange(6)[:, None]  # points
            nm = m | gb
            tot = u + face
            val = V[r.index(nm, y, r.canon_flat[(nm & 63) * r.U + np.minimum(tot, T)])]
            val += face
            if B:
                val += B * ((u < T) & (tot >= T))
            val[np.broadcast_to((m & gb) != 0, val.shape)] = NEG
            G[go] = val
        # Scoring 0 in an open box is never better than that box's real score (values do not
        # fall as the upper total rises), so the best zero is a floor for every roll.
        L.zero = np.maximum(L.lower.max(axis=0), G[:, 0].max(axis=0))
        L.jsel = L.jrows = None
        if self.JP is not None:
            sel = np.flatnonzero(m & YAHTZEE_BIT)
            if len(sel):
                opts = np.concatenate([L.lower[:, sel], G[:, 0, sel], G[:, 5, sel]]).T
                best = (self.JP[m[sel]] + opts[:, :, None]).max(axis=1)  # (k, 6 faces)
                L.jsel, L.jrows = sel, best.T + self.ybonus * (y[sel] == 1)
        return L

    def final_roll(self, L: _Level, i: int, j: int, out: np.ndarray,
                   tmp: np.ndarray) -> np.ndarray:
        """(252, j - i) into ``out``: each final roll of states i..j scored in its best box."""
        zero = L.zero[i:j]
        shut = L.shut
        if _kernel is not None and out.dtype == np.float64 and out.flags.c_contiguous:
            _kernel.final(out, self.Sf, self.D.count_c, L.lower, L.y50, L.G, L.zero, i, shut)
        elif not shut & BIT["chance"]:
            np.add(self.Sf[CHANCE][:, None], L.lower[CHANCE - 6, i:j], out=out)
            np.maximum(out, zero, out=out)
        else:
            out[:] = zero
        if _kernel is None or out.dtype != np.float64 or not out.flags.c_contiguous:
            self._final_roll_numpy(L, i, j, out, tmp)
        ys = self.slices[YAHTZEE]
        if L.jsel is not None:
            a, b = np.searchsorted(L.jsel, (i, j))
            if b - a == j - i:
                out[ys] = L.jrows[:, a:b]
            elif b > a:
                out[np.ix_(self.D.yahtzee_rows, L.jsel[a:b] - i)] = L.jrows[:, a:b]
        elif self.r.yahtzee_bonus:
            sel = np.flatnonzero(L.y[i:j] == 1)
            if len(sel):
                out[np.ix_(self.D.yahtzee_rows, sel)] += self.ybonus
        return out

    def _final_roll_numpy(self, L: _Level, i: int, j: int, out: np.ndarray,
                          tmp: np.ndarray) -> None:
        """The pattern and upper boxes of ``final_roll`` (chance and zero already in ``out``)."""
        shut = L.shut
        for b, sl in self.slices.items():
            if not shut & (1 << b):
                c = L.y50 if b == YAHTZEE else L.lower[b - 6]
                np.add(self.Sf[b][sl, None], c[i:j], out=tmp[sl])
                np.maximum(out[sl], tmp[sl], out=out[sl])
        for g in range(6):
            if not shut & (1 << g):
                np.take(L.G[g][:, i:j], self.D.count[:, g], axis=0, out=tmp, mode="clip")
                np.maximum(out, tmp, out=out)

    def block(self, L: _Level, i: int, j: int, blk: Block) -> np.ndarray:
        """Values at the start of the turn of states i..j."""
        if blk.n != j - i:
            blk = Block(j - i, self.dtype)
        prob = self.D.prob
        if self.dtype == np.float64:
            self.final_roll(L, i, j, blk.rolls, blk.w)
            blk.chain(self.r.rerolls)
            return prob @ blk.rolls
        # float32 chain on values less their mean: averages and maxima commute with it, and
        # what is left is points-sized, where float32 keeps ~1e-5
        self.final_roll(L, i, j, blk.w, blk.w2)
        base = prob @ blk.w
        np.subtract(blk.w, base, out=blk.rolls, casting="same_kind")
        blk.chain(self.r.rerolls)
        return base + prob @ blk.rolls.astype(np.float64)

    def solve(self, max_open: int = NBOX, progress: bool = False, threads: int | None = None):
        r = self.r
        # one level's states at a time (all of them at once: 8 MB more at the peak)
        levels = (r.states(k) for k in range(1, max_open + 1))
        total = sum(len(r.states(k)[0]) for k in range(1, max_open + 1)) if progress else None
        threads = threads or 1   # (more: less wall time, more CPU and memory in all)
        local = threading.local()

        from tqdm.auto import tqdm
        with tqdm(total=total, unit=i18n.p_("progress unit", "state"),
                  desc=i18n._("Yahtzee solve"),
                  disable=not progress, leave=False) as bar, ThreadPoolExecutor(threads) as pool:
            for m, y, u in levels:
                out = np.empty(len(m))
                # small groups on small levels, so no thread waits long for the last one
                size = CHUNK * max(1, min(GROUP // CHUNK, len(m) // (4 * threads * CHUNK)))

                def work(i, m=m, y=y, u=u, out=out, size=size):
                    blk = getattr(local, "blk", None)
                    if blk is None:
                        blk = local.blk = Block(CHUNK, self.dtype)
                    j = min(i + size, len(m))
                    L = self.level(m[i:j], y[i:j], u[i:j])
                    for a in range(0, j - i, CHUNK):
                        b = min(a + CHUNK, j - i)
                        out[i + a:i + b] = self.block(L, a, b, blk)
                    return j - i

                starts = range(0, len(m), size)
                for done in (pool.map(work, starts) if threads > 1 else map(work, starts)):
                    bar.update(done)
                self.V[r.index(m, y, u)] = out
        return self.V


# ----- public API -------------------------------------------------------------------------------
class State(NamedTuple):
    """A card at the start of a turn."""

    open_boxes: frozenset = frozenset(BOXES)
    upper_total: int = 0            # Aces..Sixes so far, uncapped
    yahtzee_box: int | None = None  # None while open, else its points (0 or 50)


@dataclass(frozen=True)
class Advice:
    """Every option of a situation valued as expected points still to come in the game (this
    turn's box and the bonuses still to earn included; add the score so far for the final)."""

    rerolls_left: int
    keeps: dict     # sorted kept dice -> value; empty with no re-roll left
    boxes: dict     # each box that may be filled now -> value of filling it now
    points: dict    # each box that may be filled now -> its points for these dice
    chances: dict   # each open box -> chance of a non-zero score there by the end of the turn
    best: tuple     # ("keep", dice) or ("box", name)
    value: float    # the best option's value


class YahtzeeTable:
    """Optimal values of every state of one set of Yahtzee rules (see ``solve``)."""

    def __init__(self, settings: YahtzeeSettings, values: np.ndarray):
        self.settings = settings.copy()
        self._rules = _Rules(settings)
        self._values = values
        self._solver_ = None
        self._bonus_at_start = upper_bonus_due(0, self._rules.threshold, settings.upper_bonus)
        self._turns: dict = {}
        self._hits: dict = {}

    def __repr__(self):
        return (  # i18n: not shown (a developer's repr)
            f"YahtzeeTable({self.settings.preset}, {self.settings.rerolls} re-rolls, "
            f"expected score {self.expected_score:.4f})")

    @property
    def _solver(self) -> _Solver:  # built on the first advice only: loading stays quick
        if self._solver_ is None:
            self._solver_ = _Solver(self._rules, self._values, all_cards=False)
        return self._solver_

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a game, bonuses included."""
        return self._bonus_at_start + self.value(State())

    def _state(self, open_boxes, upper_total, yahtzee_box) -> tuple[int, int, int]:
        """(mask, y, u) of a card, checked."""
        try:
            names = {box_name(b) for b in open_boxes}
        except TypeError:
            raise RuleError(L_("open boxes are box names, got {value}",
                               value=repr(open_boxes))) from None
        mask = FULL & ~sum(BIT[b] for b in names)
        if (not isinstance(upper_total, (int, np.integer))
                or upper_total not in self._rules.reach[mask & 63]):
            filled = ", ".join(b for b in UPPER if b not in names)
            raise RuleError(L_("an upper total of {total} cannot be made with the filled upper "
                               "boxes ({boxes})", total=repr(upper_total), boxes=filled)
                            if filled else
                            L_("an upper total of {total} cannot be made with the filled upper "
                               "boxes (none)", total=repr(upper_total)))
        if ("yahtzee" in names) != (yahtzee_box is None):
            raise RuleError(L_("yahtzee_box is None exactly while the Yahtzee box is open"))
        if yahtzee_box not in (None, 0, 50):
            raise RuleError(L_("the Yahtzee box holds 0 or 50, got {value}",
                               value=repr(yahtzee_box)))
        return self._key(mask, upper_total, yahtzee_box)

    def _key(self, mask: int, upper_total: int, yahtzee_box) -> tuple[int, int, int]:
        r = self._rules
        u = int(r.canon[mask & 63, min(upper_total, r.threshold)]) if r.upper_bonus else 0
        return mask, (1 if r.Y == 2 and yahtzee_box == 50 else 0), u

    def value(self, state: State | tuple) -> float:
        """Expected points still to come from the start of a turn in ``state`` (0 when the card
        is full), under optimal play."""
        mask, y, u = self._state(*state)
        v = float(self._values[self._rules.index(mask, y, u)])
        if np.isnan(v):
            raise RuleError(L_("this table was solved only for fewer open boxes"))
        return v

    def _turn(self, mask: int, y: int, u: int) -> tuple[list, list]:
        """One state's turn: ``W[t]`` each roll's value with t re-rolls left (252) and ``E[t]``
        each keep's value when keeping it with t re-rolls left (462; t >= 1)."""
        key = (mask, y, u)
        if key not in self._turns:
            sv = self._solver
            blk = Block(1)
            L = sv.level(np.array([mask]), np.array([y]), np.array([u]))
            sv.final_roll(L, 0, 1, blk.rolls, blk.w)
            W, E = [blk.rolls[:, 0].copy()], [None]
            for _ in range(self._rules.rerolls):
                blk.estep()
                E.append(blk.be[:, 0].copy())
                blk.mstep()
                W.append(blk.rolls[:, 0].copy())
            if len(self._turns) >= 4096:
                self._turns.clear()
            self._turns[key] = W, E
        return self._turns[key]

    def _chances(self, mask: int) -> list:
        """``H[t]`` (252, open boxes): the chance of a non-zero score in each open box by the end
        of the turn from each roll with t re-rolls left, keeping for that box."""
        if mask not in self._hits:
            opened = [i for i in range(NBOX) if not mask & (1 << i)]
            hits = (options_matrix(mask, self.settings.joker)[opened] > 0).T
            blk = Block(len(opened))
            blk.rolls[:] = hits
            H = [hits.astype(np.float64)]
            for _ in range(self._rules.rerolls):
                blk.chain(1)
                H.append(blk.rolls.copy())
            if len(self._hits) >= 4096:
                self._hits.clear()
            self._hits[mask] = H
        return self._hits[mask]

    def advise(self, open_boxes, upper_total: int, yahtzee_box: int | None, dice,
               rerolls_left: int) -> Advice:
        """Every option of a situation with its value, the best one, and the chance of each open
        box: ``open_boxes`` box names, ``upper_total`` Aces..Sixes so far, ``yahtzee_box`` None
        while open else 0 or 50, ``dice`` the five dice showing, ``rerolls_left`` 0..rerolls."""
        s, D = self.settings, self._solver.D
        dice = tuple(sorted(check_dice(dice, 5)))
        if not isinstance(rerolls_left, (int, np.integer)) or not 0 <= rerolls_left <= s.rerolls:
            raise RuleError(L_("rerolls left is 0..{most}, got {value}", most=s.rerolls,
                               value=repr(rerolls_left)))
        mask, y, u = self._state(open_boxes, upper_total, yahtzee_box)
        if mask == FULL:
            raise RuleError(L_("the card is full: the game is over"))
        opened = [b for b in BOXES if not mask & BIT[b]]
        points = scoring_options(dice, opened, yahtzee_box, s.joker)
        bonus = yahtzee_bonus_due(dice, yahtzee_box, s.yahtzee_bonus)
        before = upper_bonus_due(upper_total, s.upper_bonus_threshold, s.upper_bonus)
        boxes = {}
        for b, pts in points.items():
            total = upper_total + (pts if b in UPPER else 0)
            earned = (pts + bonus
                      + upper_bonus_due(total, s.upper_bonus_threshold, s.upper_bonus) - before)
            nxt = self._key(mask | BIT[b], total, pts if b == "yahtzee" else yahtzee_box)
            boxes[b] = earned + float(self._values[self._rules.index(*nxt)])
        best_box = max(boxes, key=boxes.get)
        best, value = ("box", best_box), boxes[best_box]
        o = D.outcome[dice]
        keeps = {}
        if rerolls_left:
            E = self._turn(mask, y, u)[1][rerolls_left]
            keeps = {D.keeps[k]: float(E[k]) for k in D.sub[o]}
            k_best = max(keeps, key=keeps.get)
            if keeps[k_best] > value + 1e-9:  # a tie: score now
                best, value = ("keep", k_best), keeps[k_best]
        hits = self._chances(mask)[rerolls_left][o]
        chances = {b: float(p) for b, p in zip(opened, hits)}
        return Advice(rerolls_left, keeps, boxes, points, chances, best, value)


# ----- solve and cache --------------------------------------------------------------------------
DISK_TABLES = 12    # table files kept in a cache folder (least recently used removed first)
_MEMORY = TABLES    # (tests clear it) the one cache of solved tables: odds.cachefile


def _rules_of(settings: YahtzeeSettings) -> _Rules:
    """``_Rules`` of these settings, built once per distinct values (a build takes ~10 ms and
    every computer decision asks for its table)."""
    return _rules_cached(settings.rerolls, settings.upper_bonus, settings.upper_bonus_threshold,
                         settings.yahtzee_bonus, bool(settings.joker))


@lru_cache(maxsize=16)
def _rules_cached(rerolls, upper_bonus, threshold, yahtzee_bonus, joker) -> _Rules:
    return _Rules(YahtzeeSettings(rerolls=rerolls, upper_bonus=upper_bonus,
                                  upper_bonus_threshold=threshold, yahtzee_bonus=yahtzee_bonus,
                                  joker=joker))


def _settings(settings_or_preset) -> YahtzeeSettings:
    if isinstance(settings_or_preset, YahtzeeSettings):
        return settings_or_preset
    if settings_or_preset is None or isinstance(settings_or_preset, str):
        return YahtzeeSettings(preset=settings_or_preset)
    raise RuleError(L_("expected YahtzeeSettings or a preset name, got {value}",
                       value=repr(settings_or_preset)))


def cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("dicelab")) / "yahtzee"


def solve(settings_or_preset: YahtzeeSettings | str = "official", progress: bool = True,
          cache: bool | str | os.PathLike = True, elsewhere: bool = False) -> YahtzeeTable:
    """The optimal-play table of these rules (a YahtzeeSettings or a preset name).

    Solved on first use (a few seconds; a progress bar with ``progress``), then kept in memory
    and in a file under the user cache dir (``cache=True``), another folder (``cache=path``), or
    nowhere (``cache=False``: always solved afresh, nothing read or written). Rules that differ
    only in settings the values do not depend on share one table. ``elsewhere``: a solve runs in
    this thread's worker process (``odds.worker.run_elsewhere``: a ``WORKER`` job's).
    """
    settings = _settings(settings_or_preset)
    rules = _rules_of(settings)
    if cache is False:
        return YahtzeeTable(settings, _Solver(rules).solve(progress=progress))
    folder = cache_dir() if cache is True else Path(cache)
    return TABLES.get(  # identical work is done once: a second caller waits and reads the result
        ("yahtzee", rules.key, str(folder)), folder / f"yahtzee-{rules.key}.npz",  # i18n: not shown
        lambda p: _load(p, settings, rules) or load_shipped(settings),
        lambda: YahtzeeTable(settings, run_elsewhere(solved_values, settings) if elsewhere
                             else _Solver(rules).solve(progress=progress)),
        lambda p, t: _save(p, t, rules), keep=DISK_TABLES)


def solved_values(settings: YahtzeeSettings) -> np.ndarray:
    """The values of these rules solved afresh (what a worker process sends back)."""
    return _Solver(_rules_of(settings)).solve()


def cached(settings_or_preset: YahtzeeSettings | str = "official") -> YahtzeeTable | None:
    """The table of these rules if it is in memory now (no solve, no file read), else None."""
    return TABLES.peek(("yahtzee", _rules_of(_settings(settings_or_preset)).key, str(cache_dir())))


def rules_key(settings_or_preset: YahtzeeSettings | str = "official") -> str:
    """Rules that differ only in settings the values do not depend on share this key."""
    return _rules_of(_settings(settings_or_preset)).key


def _load(path: Path, settings, rules: _Rules) -> YahtzeeTable | None:
    z, meta = load_with_meta(path, "values")
    if not z:
        return None
    values = z["values"]
    if meta.get("key") != rules.key or values.shape != ((FULL + 1) * rules.Y * rules.U,):
        return None
    return YahtzeeTable(settings, values)


# ----- tables shipped in the package: the first readout of a fresh install needs no solve ---------
SHIPPED = Path(__file__).with_name("data")
CHECK_CARDS = 6    # a shipped table is checked at every state of 6 cards of each level


def _state_rows(rules: _Rules) -> np.ndarray:
    """Where the values of the states with open boxes are in ``V``, level by level."""
    return np.concatenate([rules.index(*rules.states(k)) for k in range(1, NBOX + 1)])


def ship(settings_or_preset: YahtzeeSettings | str = "official", folder: Path = SHIPPED) -> Path:
    """Solve these rules and write the table the package ships (maintainers: run after any change
    to the rules or the solver; the package checks it on every load)."""
    settings = _settings(settings_or_preset)
    rules = _rules_of(settings)
    V = _Solver(rules).solve()
    path = folder / f"yahtzee-{rules.key}.npz"  # i18n: not shown
    folder.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, values=V[_state_rows(rules)],
                        meta=np.array(json.dumps({"key": rules.key, "format": FORMAT})))
    return path


def load_shipped(settings_or_preset: YahtzeeSettings | str = "official",
                 folder: Path = SHIPPED) -> YahtzeeTable | None:
    """The table shipped in the package for these rules, if there is one and it still matches
    the rules and the solver: its meta, its size, and the values of ``CHECK_CARDS`` cards of each
    level (all their upper totals) solved again from the shipped values below them (to 1e-9)."""
    settings = _settings(settings_or_preset)
    rules = _rules_of(settings)
    z, meta = load_with_meta(folder / f"yahtzee-{rules.key}.npz", "values")  # i18n: not shown
    if not z:
        return None
    rows, values = _state_rows(rules), z["values"]
    if (meta.get("key") != rules.key
            or meta.get("format") != FORMAT or values.shape != rows.shape
            or values.dtype != np.float64 or not np.isfinite(values).all()):
        return None
    V = np.full((FULL + 1) * rules.Y * rules.U, np.nan)
    V[rules.index(FULL, np.arange(rules.Y)[:, None], np.arange(rules.U))] = 0.0
    V[rows] = values
    sv = _Solver(rules, V, all_cards=False)
    for k in range(1, NBOX + 1):
        m, y, u = rules.states(k)
        cards = np.unique(m)
        pick = np.isin(m, cards[::max(1, len(cards) // CHECK_CARDS)])
        m, y, u = m[pick], y[pick], u[pick]
        L = sv.level(m, y, u)
        again = sv.block(L, 0, len(m), Block(len(m)))
        if not np.allclose(again, V[rules.index(m, y, u)], rtol=0, atol=1e-9):
            return None
    return YahtzeeTable(settings, V)


def _save(path: Path, table: YahtzeeTable, rules: _Rules) -> None:
    meta = json.dumps({"key": rules.key, "format": FORMAT})
    save_npz(path, values=table._values, meta=np.array(meta))
