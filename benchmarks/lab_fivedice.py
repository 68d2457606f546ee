"""Strategy lab speed (issue 4): the vectorised Bones turn simulator against a plain-Python loop
of the same player and rules, timed in the same run. Goal: >= 100x and >= 1,000,000 turns/s."""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, print_table  # noqa: E402

from dicelab.lab.fivedice import Policy, plain_turns, simulate_turns  # noqa: E402


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    rows = []
    for name, t in (("chicken", 100), ("aggressive", 200), ("gambler", 300)):
        n_vec, n_plain = 2_000_000, 40_000
        tv, xv = best_of(lambda: simulate_turns("bones", Policy(name, t), n_vec, seed=1))
        tp, xp = best_of(lambda: plain_turns("bones", t, n_plain, seed=1), repeat=1)
        vec_rate, plain_rate = n_vec / tv, n_plain / tp
        rows.append((name, f"{vec_rate:,.0f}", f"{plain_rate:,.0f}",
                     f"{vec_rate / plain_rate:.0f}x", f"{np.mean(xv):.1f}", f"{np.mean(xp):.1f}",
                     met(vec_rate / plain_rate >= 100 and vec_rate >= 1_000_000)))
    print_table("Bones turns per second: vectorised vs plain Python (goal >= 100x, >= 1,000,000/s)",
                ["player", "vectorised turns/s", "plain turns/s", "ratio", "mean (vec)",
                 "mean (plain)", ">= 100x and 1,000,000/s"], rows)


if __name__ == "__main__":
    main()
