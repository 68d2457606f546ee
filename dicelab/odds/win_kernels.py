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
