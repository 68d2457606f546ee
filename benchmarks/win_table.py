"""Exact win tables (issue 16): building the two-seat Bones table, on this machine, against a
plain reference timed in the same run, its peak memory, and one lookup.

Reference ("plain"): a fixed numpy workload (50 products of 400x400 matrices), so the ratio
says how many of those a build costs whatever the load of the machine; CPU seconds are given
too (wall time on a shared 2-core machine mostly measures the other jobs). Each build runs in
a fresh process with no cache (peak RSS of that process). Goals: < 60 s and < 2 GB for the
default table (target 10,000, min on board 600); a lookup < 1 ms."""
import json
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # before numpy: one core per process
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _table import print_table, timed  # noqa: E402

import numpy as np  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from dicelab.odds import win
target, mob = int(sys.argv[1]), int(sys.argv[2])
r = win.win_rules("bones", target=target, min_on_board=mob)
w0, c0 = time.perf_counter(), time.process_time()
W, final, sweeps, w_floor, policy = win._build(r, progress=False)
out = {"wall": time.perf_counter() - w0, "cpu": time.process_time() - c0, "sweeps": sweeps,
       "start": float(W[0, 0]), "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
       "grid": len(final.ys)}
print(json.dumps(out))
"""


def reference() -> tuple[float, float]:
    rng = np.random.default_rng(0)
    a = rng.random((400, 400))
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(50):
        a = a @ a
        a /= np.abs(a).max()
    return time.perf_counter() - w0, time.process_time() - c0


def build(target, mob):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", CHILD, str(target), str(mob)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ref_wall, ref_cpu = reference()
    load = os.getloadavg()[0]
    rows = []
    for target, mob in ((10_000, 600), (10_000, 50), (2_000, 600)):
        b = build(target, mob)
        rows.append((f"bones {target:,}, min {mob}", f"{b['wall']:.1f}", f"{b['cpu']:.1f}",
                     f"{b['cpu'] / ref_cpu:.1f}x", f"{b['rss']:.0f}", b["sweeps"],
                     f"{b['start']:.6f}",
                     "yes" if b["cpu"] < 60 and b["rss"] < 2048 else "NO"))
    print_table(f"Two-seat Bones win table build (fresh process, no cache; load average "
                f"{load:.1f} on {os.cpu_count()} cores; plain reference {ref_cpu:.2f} s CPU)",
                ["table", "wall s", "CPU s", "CPU / plain", "peak MB", "turn sweeps",
                 "first player's chance", "< 60 s CPU, < 2 GB"], rows)

    from dicelab.odds import win
    t = win.table("bones", progress=False, cache=False, target=2000, min_on_board=600)
    looks = [
        ("start of a turn (table read)", lambda: t.readout(650, 1200)),
        ("mid-turn, turn already solved", lambda: t.readout(650, 1200, 300, 2)),
        ("final turn (reach table)", lambda: t.readout(650, 2000, 300, 2)),
    ]
    t.readout(650, 1200, 300, 2)
    rows = []
    for label, fn in looks:
        us = timed(fn, 2000)[0] * 1e6
        rows.append((label, f"{us:.1f}", "yes" if us < 1000 else "NO"))

    def first_mid_turn():
        t._turn.cache_clear()
        t.readout(650, 1200, 300, 2)
    ms = timed(first_mid_turn, 20)[0] * 1e3
    rows.append(("mid-turn, first of its turn (solves one turn)", f"{ms * 1e3:.1f}",
                 "yes" if ms < 1 else "NO"))
    print_table("One win-chance lookup (median; target 2,000)", ["lookup", "us", "< 1 ms"], rows)


if __name__ == "__main__":
    main()
