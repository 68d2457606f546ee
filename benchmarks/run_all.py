"""Run every benchmark script in this folder and print their tables (rooms_load.py, the network
games under load, takes about 5 minutes). A script that exits (as rooms_load.py and
ui_latency.py do, non-zero when a goal is missed) does not stop the others; run_all exits
non-zero if any did."""
import runpy
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
missed = []
for script in sorted(here.glob("*.py")):
    if script.name.startswith("_") or script.name == "run_all.py":
        continue
    print(f"\n=== {script.name} ===", flush=True)
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            missed.append(f"{script.name} (exit {exc.code})")
if missed:
    print("\nmissed a goal or failed: " + ", ".join(missed))
    sys.exit(1)
