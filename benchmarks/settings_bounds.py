"""The worst settings the rules allow, as the odds solvers see them (issue 15).

    .venv/bin/python benchmarks/settings_bounds.py

For each case: wall time and peak memory (tracemalloc) of building the odds tables a player on
turn needs, against the default rules as the reference. Thousand: one situation (a banked total)
and a sweep over every banked total a game can reach (each situation is its own table, kept in
an LRU cache); Yahtzee: a whole solve of the rule set with the largest state space.
"""
from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _table import print_table

from dicelab.odds import fivedice
from dicelab.settings import ThousandSettings, YahtzeeSettings

WORST_THOUSAND = {
    "highest barrel and target, 10 pits": dict(
        target=10_000, barrel=4995, opening=500, barrel_attempts=20, bolts_per_penalty=20,
        pits=[[i * 500, i * 500 + 495] for i in range(10)]),
    "no barrel, widest pit from 0": dict(target=10_000, barrel=0, opening=500,
                                         pits=[[0, 1000]]),
}


def measure(fn, memory: bool = True):
    """Wall time of fn() on cold caches, then (run again, cold) its peak memory: tracemalloc
    slows allocation-heavy code, so the two are taken apart."""
    fivedice._solve_optimal.cache_clear()
    fivedice._solve_threshold.cache_clear()
    t = time.perf_counter()
    out = fn()
    wall = time.perf_counter() - t
    if not memory:
        return wall, out
    fivedice._solve_optimal.cache_clear()
    fivedice._solve_threshold.cache_clear()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return wall, peak


def thousand_one(s: ThousandSettings, banked: int):
    def run():
        fivedice.turn_readout(s, 0, 5, on_board=banked > 0, banked=banked)
        fivedice.threshold_turn_ev(s, 50, banked=banked, on_board=banked > 0)
    return run


def thousand_sweep(s: ThousandSettings, step: int):
    top = s.barrel or s.target

    def run():
        for banked in range(0, top, step):
            fivedice.turn_readout(s, 0, 5, banked=banked)
    return run


def main() -> int:
    fivedice.turn_readout(ThousandSettings(), 0, 5)  # kernels built once, outside the figures
    rows = []
    cases = {"default rules": {}, **WORST_THOUSAND}
    for name, kw in cases.items():
        s = ThousandSettings(**kw)
        w1, m1 = measure(thousand_one(s, 0))
        w2 = measure(thousand_sweep(s, 100), memory=False)[0]
        n = len(range(0, s.barrel or s.target, 100))
        rows.append((f"Thousand: {name}", f"{w1:.2f}", f"{m1:.1f}",
                     f"{n} totals: {w2:.1f} s"))
    from dicelab.odds import yahtzee as yz

    yz.dice_table(), yz._joker_cards(), yz._lex_points()  # shared tables, built once per process
    for name, kw in {"default (official)": {},
                     "largest: 5 re-rolls, threshold 105": dict(rerolls=5,
                                                                upper_bonus_threshold=105)}.items():
        from dicelab.odds.yahtzee import solve

        w, table = measure(lambda: solve(YahtzeeSettings(**kw), progress=False, cache=False),
                           memory=False)
        rows.append((f"Yahtzee: {name}", f"{w:.1f}", f"{table._values.nbytes / 1e6:.0f} (table)",
                     "-"))
    print_table("Odds tables of the worst allowed settings (one situation: optimal + threshold "
                "readouts; peak MB by tracemalloc)",
                ["rules", "one situation s", "peak MB", "sweep over banked totals (step 100)"],
                rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
