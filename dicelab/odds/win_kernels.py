"""Compiled inner loops of the two-seat win tables (numba; imported only when a table is built).

Kept apart from the solvers so that importing ``dicelab.odds`` does not load numba/LLVM; the
first call compiles (``cache=True``: once per machine, into numba's cache folder).
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, fastmath=True)
def thousand_turns(W, j, b, need, y, star, c_lo, top, F, e_n, e_pts, e_nxt, e_w, bust,
                   p_on, p_hot, start, bit_off, bits, R):
    """The five-dice turns of a block of pairs (., j) off the barrel, sorted by my total b,
    under play that maximises the win chance, from the top running total down. A roll of n
    dice is the non-zero outcomes e (``e_n`` = n - 1, points ``e_pts`` in units, next dice
    ``e_nxt``, chance ``e_w``) plus a bust worth y; standing at c < top is worth
    1 - W[j, c - F] (allowed from c - b >= need), from the top up ``star`` (barrel or win).
    Writes each pair's start value; with ``bits`` non-empty the stand bits of n = 1..4 at
    bits[bit_off[p] + c - b] (none where bit_off < 0); with ``R`` non-empty the roll values
    R[c - c_lo, n - 1, p].
    Only the non-zero outcomes are summed (95 of 330), over the pairs side by side."""
    P = len(b)
    L = top - c_lo
    V = np.empty(((L + 1) * 6, P))
    acc = np.empty((5, P))
    rec = len(bits) > 0
    keep = R.shape[0] > 0
    for p in range(P):
        m = max(star[p], y[p])
        for n in range(1, 5):
            V[L * 6 + n, p] = m
        V[L * 6 + 5, p] = (p_on * m + bust[4] * y[p]) / (1.0 - p_hot)
    kk = P
    E = len(e_w)
    for c in range(top - 1, c_lo - 1, -1):
        while kk > 0 and b[kk - 1] > c:
            kk -= 1
        for n in range(5):
            q = bust[n]
            an = acc[n]
            for p in range(kk):
                an[p] = q * y[p]
        for e in range(E):
            row = (min(c + e_pts[e], top) - c_lo) * 6 + e_nxt[e]
            w = e_w[e]
            vr = V[row]
            an = acc[e_n[e]]
            for p in range(kk):
                an[p] += w * vr[p]
        r0 = (c - c_lo) * 6
        for p in range(kk):
            sv = 1.0 - W[j[p], c - F]
            may = c - b[p] >= need[p]
            code = 0
            for n in range(4):
                a = acc[n, p]
                if may and sv >= a:
                    V[r0 + 1 + n, p] = sv
                    code |= 1 << n
                else:
                    V[r0 + 1 + n, p] = a
            V[r0 + 5, p] = acc[4, p]
            if b[p] == c:
                start[p] = acc[4, p]
            elif rec and bit_off[p] >= 0:
                bits[bit_off[p] + c - b[p]] = code
            if keep:
                for n in range(5):
                    R[c - c_lo, n, p] = acc[n, p]


@njit(cache=True, nogil=True, fastmath=False)
def bones_turns(VD, W, b, o, y, need, c_lo, T, opt_pts, opt_next, opt_n, opt_w, bust,
                start, dstart, lo, hi, bits, R):
    """The Bones turns below the target of pairs (b, o) with the bust worth y (``win._TurnSolver
    .run``), each pair on its own from the target down to its total b: value and slope d/dy
    of every roll (option ``e`` of ``opt_n[e]`` + 1 dice, chance ``opt_w``, adds ``opt_pts``
    units, throws ``opt_next`` dice next; 81 with auto keep, where a dense product of the
    [options, 5] weights would do five times the work), the stand decisions, and the interval
    [lo, hi] of bust values over which none of them flips. ``VD`` [P, width, 6, 2] holds the
    values and slopes from the target up and receives those below; ``bits`` (if not empty)
    [P, T - c_lo, 5] the stands, ``R`` (if not empty) [P, width, 6] the roll values."""
    P = len(b)
    E = len(opt_w)
    rec = bits.shape[0] > 0
    keep = R.shape[0] > 0
    roll = np.empty(5)
    droll = np.empty(5)
    for p in range(P):
        yp = y[p]
        for c in range(T - 1, b[p] - 1, -1):
            i = c - c_lo
            for n in range(5):
                roll[n] = bust[n] * yp
                droll[n] = bust[n]
            for e in range(E):
                r = i + opt_pts[e]
                x = opt_next[e]
                n = opt_n[e]
                w = opt_w[e]
                roll[n] += w * VD[p, r, x, 0]
                droll[n] += w * VD[p, r, x, 1]
            if c == b[p]:
                start[p] = roll[4]
                dstart[p] = droll[4]
            sv = 1.0 - W[o[p], c]
            may = c - b[p] >= need[p]
            for n in range(5):
                stand = may and sv >= roll[n]
                if droll[n] > 0:
                    flip = yp + (sv - roll[n]) / droll[n]
                elif stand:
                    flip = np.inf
                else:
                    flip = -np.inf
                if stand:
                    if flip < hi[p]:
                        hi[p] = flip
                    VD[p, i, 1 + n, 0] = sv
                    VD[p, i, 1 + n, 1] = 0.0
                else:
                    if may and flip > lo[p]:
                        lo[p] = flip
                    VD[p, i, 1 + n, 0] = roll[n]
                    VD[p, i, 1 + n, 1] = droll[n]
                if rec:
                    bits[p, i, n] = stand
                if keep:
                    R[p, i, 1 + n] = roll[n]
