"""The documentation and the package metadata say what the program does."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import dicelab

ROOT = Path(__file__).resolve().parent.parent


def test_every_environment_variable_the_code_reads_is_in_the_docs_table():
    read = set()
    for path in (ROOT / "dicelab").rglob("*.py"):
        read |= set(re.findall(r"\bDICELAB_[A-Z_]+\b", path.read_text(encoding="utf-8")))
    table = (ROOT / "docs" / "reference" / "environment.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(DICELAB_[A-Z_]+)`", table, re.M))
    assert read, "no DICELAB_ variable found: the scan is broken"
    assert read <= documented, f"not in docs/reference/environment.md: {sorted(read - documented)}"


def test_version_is_one_number_everywhere():
    out = subprocess.run([str(Path(sys.executable).parent / "dicelab"), "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"dicelab {dicelab.__version__}"
    from importlib.metadata import version
    assert version("dicelab") == dicelab.__version__
    assert f"## {dicelab.__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
