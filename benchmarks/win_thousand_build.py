"""The two-seat Thousand win table at the default settings (issue 37 item 1): CPU seconds and
peak memory of a whole build from no cache, in a fresh process, with the goal beside each.

Goals: at most 60 s of CPU and 500 MB peak, to the 1e-9 tolerance. The numba compile of the
turn loop is timed apart (it is cached once per machine, ``cache=True``); the plain reference
(50 products of 400x400 matrices, as benchmarks/win_table.py) says what a CPU second was worth
in this run. Small settings (target 150, barrel 100) are built too: seconds, for comparison.
With ``--cpu-limit S`` (make bench: 240) a build is stopped after S seconds of CPU: its row
says MISSED with the sweeps done by then and the last sweep's largest change.
Run: .venv/bin/python benchmarks/win_thousand_build.py [--small-only] [--cpu-limit S]
"""
import json
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # before numpy: one core per process
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _table import print_table  # noqa: E402

import numpy as np  # noqa: E402

CPU_GOAL, RSS_GOAL = 60.0, 500.0

CHILD = r"""
import json, resource, sys, time
c0 = time.process_time()
from dicelab.odds import win_thousand as wt
from dicelab.rules.fivedice import Standing
kw = json.loads(sys.argv[1])
tr = wt.thousand_win_rules("thousand", **kw)
tiny = wt.thousand_win_rules("thousand", target=150, barrel=100, pits=[(25, 50)],
                             barrel_fall=50, bolt_penalty=50, floor=-50)
s = wt._Solver(tiny); s.layers(); s.sweep(wt._start_values(s.st.n))   # compile / load cache
compile_cpu = time.process_time() - c0
w0, c0 = time.perf_counter(), time.process_time()
def seen(k, ch):
    print(json.dumps({"sweep": k, "change": ch, "cpu": time.process_time() - c0}), flush=True)
W, bits, sweeps, residual, solver = wt._build(tr, progress=False, callback=seen)
i0 = solver.st.index(Standing(0, False), tr.unit)
print(json.dumps({"wall": time.perf_counter() - w0, "cpu": time.process_time() - c0,
                  "compile": compile_cpu, "sweeps": sweeps, "residual": residual,
                  "statuses": solver.st.n, "floor": tr.floor, "start": float(W[i0, i0]),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

SETTINGS = [("default", {}),
            ("target 150, barrel 100", dict(target=150, barrel=100, pits=[[25, 50]],
                                            barrel_fall=50, bolt_penalty=50))]


def reference() -> float:
    rng = np.random.default_rng(0)
    a = rng.random((400, 400))
    c0 = time.process_time()
    for _ in range(50):
        a = a @ a
        a /= np.abs(a).max()
    return time.process_time() - c0


def build(kw, cpu_limit: float | None = None) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "NUMBA_NUM_THREADS": "1"}

    def limit():
        if cpu_limit:
            import resource
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit), int(cpu_limit) + 5))

    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(kw)], env=env,
                         capture_output=True, text=True, preexec_fn=limit)
    lines = [json.loads(x) for x in out.stdout.strip().splitlines() if x.startswith("{")]
    if out.returncode:
        sweeps = [x for x in lines if "sweep" in x]
        if sweeps and cpu_limit and out.returncode in (-24, -9):     # SIGXCPU, SIGKILL
            last = sweeps[-1]
            return {"error": f"stopped at {cpu_limit:.0f} s CPU after {last['sweep']} sweeps, "
                             f"last change {last['change']:.1e}"}
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return lines[-1]


def main(argv=()):
    argv = list(argv)
    cpu_limit = float(argv[argv.index("--cpu-limit") + 1]) if "--cpu-limit" in argv else None
    ref = reference()
    load = os.getloadavg()[0]
    rows = []
    for label, kw in SETTINGS[1:] if "--small-only" in argv else SETTINGS:
        b = build(kw, cpu_limit)
        if "error" in b:
            rows.append((label, "-", "-", "-", "-", "-", "-", "-", "-", f"MISSED ({b['error']})"))
            continue
        met = b["cpu"] <= CPU_GOAL and b["rss"] <= RSS_GOAL
        rows.append((label, b["statuses"], b["floor"], b["sweeps"], f"{b['cpu']:.1f}",
                     f"{b['cpu'] / ref:.1f}x", f"{b['compile']:.1f}", f"{b['rss']:.0f}",
                     f"{b['start']:.7f}",
                     ("met" if met else "MISSED") if label == "default" else "-"))
    print_table(f"Two-seat Thousand win table, whole build from no cache (fresh process; load "
                f"average {load:.1f} on {os.cpu_count()} cores; plain reference {ref:.2f} s "
                f"CPU)", ["settings", "statuses", "floor", "sweeps", "CPU s", "CPU / plain",
                          "compile/cache CPU s", "peak MB", "first player's chance",
                          f"goal <= {CPU_GOAL:.0f} s CPU, <= {RSS_GOAL:.0f} MB"], rows)


if __name__ == "__main__":
    main(sys.argv[1:])
