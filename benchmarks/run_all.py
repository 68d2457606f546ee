"""Run every benchmark script in this folder and print their tables."""
import runpy
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
for script in sorted(here.glob("*.py")):
    if script.name.startswith("_") or script.name == "run_all.py":
        continue
    print(f"\n=== {script.name} ===", flush=True)
    runpy.run_path(str(script), run_name="__main__")
