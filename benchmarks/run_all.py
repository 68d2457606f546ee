"""Run every benchmark script in this folder, each in a process of its own, and print their
tables, then one line per script: how long it took, whether it ran to the end, and how many of
its goals it printed as met and as MISSED.

    .venv/bin/python benchmarks/run_all.py [script names...]   (`make bench`: all of them)

A missed goal is a finding, printed beside its figure: it does not fail the run. Nor does a
script that crashes (a traceback, a non-zero exit) or runs past ``TIMEOUT`` (killed, with its
children): on a loaded machine a benchmark's own waits can run out, so its row says "MISSED
(exit N)" or "MISSED (timed out)", the goals it did not get to print count as missed, and the
next script runs; run_all exits 0 whenever every script was run. ``ARGS`` gives the scripts
that would take long their shorter run here (about 15 minutes in all on a quiet 2-core machine,
rooms_load.py's 5 of them included); run a script alone for its full run (see its docstring).
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
from _table import print_table  # noqa: E402

ARGS = {
    "win_duels.py": ["10000"],        # games per matchup (alone: 200,000)
    "win_table.py": ["--quick"],      # the default Bones table and the small Thousand ones
    "yahtzee_solver.py": ["--repeat", "5"],   # the check: median of 5 pairs
    # the default Thousand build stops at 4x its 60 s CPU goal (a MISSED row, not minutes more)
    "win_thousand_build.py": ["--cpu-limit", "240"],
}
TIMEOUT = 45 * 60     # seconds of wall time per script: generous, for a loaded machine


def run(script: Path, timeout: float = TIMEOUT) -> tuple[float, int | None, int, int]:
    """Seconds, exit code (None: killed after ``timeout`` s), goals met and missed (as the
    script printed them)."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-u", str(script), *ARGS.get(script.name, [])],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=here.parent, start_new_session=True)
    killed: list[bool] = []
    timer = threading.Timer(timeout, lambda: killed.append(_kill_group(proc)))
    timer.start()
    met = missed = 0
    try:
        for line in proc.stdout:
            print(line, end="", flush=True)
            met += len(re.findall(r"\bmet\b", line))
            missed += len(re.findall(r"\bMISSED\b", line))
        code = proc.wait()
    finally:
        timer.cancel()
    return time.perf_counter() - t, None if killed else code, met, missed


def _kill_group(proc: subprocess.Popen) -> bool:
    """The script and every process it started (a server, a browser, a build)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return True


def main(names) -> int:
    scripts = [s for s in sorted(here.glob("*.py"))
               if not s.name.startswith("_") and s.name != "run_all.py"
               and (not names or s.name in names or s.stem in names)]
    rows, failed = [], []
    for script in scripts:
        print(f"\n=== {script.name} {' '.join(ARGS.get(script.name, []))} ===", flush=True)
        seconds, code, met, missed = run(script)
        if code != 0:
            failed.append(script.name)
            missed += 1                 # at least its unprinted goals
        run_as = "ran" if code == 0 else ("MISSED (timed out)" if code is None
                                           else f"MISSED (exit {code})")
        rows.append((script.name, f"{seconds:.0f}", run_as, met, missed))
    print_table(f"make bench: {len(scripts)} scripts (load average now "
                f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
                ["script", "seconds", "run", "goals met", "goals MISSED"], rows)
    if failed:
        print("\ndid not run to the end (their output above says why; counted as missed "
              "goals): " + ", ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
