"""Exact win tables (issue 16): building the two-seat Bones table, on this machine, against a
plain reference timed in the same run, and its peak memory.

Reference ("plain"): a fixed numpy workload (50 products of 400x400 matrices), so the ratio
says how many of those a build costs whatever the load of the machine; CPU seconds are given
too (wall time on a shared 2-core machine mostly measures the other jobs). Each build runs in
a fresh process with no cache (peak RSS of that process). Goals: < 60 s and < 2 GB for the
default table (target 10,000, min on board 600). Lookups (< 1 ms): benchmarks/win_lookup.py.

Thousand (dicelab.odds.win_thousand): the full build of two small Thousand settings, and for the
default settings (too slow to build here: README "Chance to win") its size and the CPU of two
value-iteration sweeps, with how far they are from the 1e-9 tolerance.

    .venv/bin/python benchmarks/win_table.py [--quick]   (--quick: the default Bones table only)
"""
import json
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # before numpy: one core per process
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, print_table  # noqa: E402

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


THOUSAND_CHILD = r"""
import json, resource, sys, time
import numpy as np
from dicelab.odds import win_thousand as wt
kw = json.loads(sys.argv[1]); sweeps = int(sys.argv[2])
tr = wt.thousand_win_rules("thousand", **kw)
w0, c0 = time.perf_counter(), time.process_time()
if sweeps == 0:
    W, bits, n, res, solver = wt._build(tr, progress=False)
    i0 = solver.st.index(wt.Standing(0, False), 5)
    start, change = float(W[i0, i0]), res
else:
    solver = wt._Solver(tr); solver.layers()
    W = wt._start_values(solver.st.n)
    for n in range(1, sweeps + 1):
        change = solver.sweep(W)
    start = float("nan")
out = {"wall": time.perf_counter() - w0, "cpu": time.process_time() - c0, "sweeps": n,
       "statuses": solver.st.n, "rows": solver.n_bits, "change": change, "start": start,
       "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
print(json.dumps(out))
"""
THOUSAND = [("thousand T150 (barrel 100)", dict(target=150, barrel=100, pits=[[25, 50]],
                                                barrel_fall=50, bolt_penalty=50), 0),
            ("thousand T200 (barrel 150)", dict(target=200, barrel=150, pits=[[50, 100]],
                                                barrel_fall=50, bolt_penalty=50), 0),
            ("thousand default: 2 sweeps only", {}, 2)]


def thousand_build(kw, sweeps):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", THOUSAND_CHILD, json.dumps(kw), str(sweeps)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


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
    quick = "--quick" in sys.argv[1:]   # run_all: the default table only
    for target, mob in ((10_000, 600),) if quick else ((10_000, 600), (10_000, 50), (2_000, 600)):
        b = build(target, mob)
        rows.append((f"bones {target:,}, min {mob}", f"{b['wall']:.1f}", f"{b['cpu']:.1f}",
                     f"{b['cpu'] / ref_cpu:.1f}x", f"{b['rss']:.0f}", b["sweeps"],
                     f"{b['start']:.6f}",
                     met(b["cpu"] < 60 and b["rss"] < 2048)))
    print_table(f"Two-seat Bones win table build (fresh process, no cache; load average "
                f"{load:.1f} on {os.cpu_count()} cores; plain reference {ref_cpu:.2f} s CPU)",
                ["table", "wall s", "CPU s", "CPU / plain", "peak MB", "turn sweeps",
                 "first player's chance", "< 60 s CPU, < 2 GB"], rows)

    rows = []
    for label, kw, sweeps in THOUSAND:
        b = thousand_build(kw, sweeps)
        full = sweeps == 0
        rows.append((label, b["statuses"], f"{b['statuses'] ** 2:,}", f"{b['rows'] * 5:,}",
                     b["sweeps"], f"{b['cpu']:.1f}", f"{b['cpu'] / ref_cpu:.1f}x",
                     f"{b['cpu'] / b['sweeps']:.2f}", f"{b['rss']:.0f}", f"{b['change']:.1e}",
                     f"{b['start']:.6f}" if full else "-",
                     met(b["cpu"] < 60 and b["rss"] < 2048) if full else
                     "MISSED (2 sweeps: not built)"))
    print_table(f"Two-seat Thousand win table (fresh process, no cache; plain reference "
                f"{ref_cpu:.2f} s CPU)",
                ["table", "statuses", "start states", "turn states per sweep", "sweeps",
                 "CPU s", "CPU / plain", "CPU s per sweep", "peak MB", "last change",
                 "first player's chance", "< 60 s CPU, < 2 GB"], rows)
    # lookups: benchmarks/win_lookup.py


if __name__ == "__main__":
    main()
