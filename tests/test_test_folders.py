"""Tests write only inside the run's temporary folder (tests/conftest.py): the user cache and
data dirs that dicelab's tables, records and rooms default to, here and in a process a test
starts (a served app inherits the environment)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _defaults() -> list[Path]:
    from dicelab.odds import win, yahtzee
    from dicelab.rooms.stores import default_spec
    from dicelab.ui.records import default_path

    return [yahtzee.cache_dir(), win.cache_dir(), default_path(),
            Path(default_spec().removeprefix("sqlite://"))]


def test_the_user_folders_are_the_runs_own():
    home = Path(os.environ["DICELAB_TEST_HOME"])
    assert home.is_relative_to(Path(os.environ.get("TMPDIR", "/tmp")).resolve()) or \
        "dicelab-tests-" in home.name
    for path in _defaults():
        assert path.is_relative_to(home), path


def test_a_started_process_inherits_them():
    code = ("import platformdirs as p; "
            "print(p.user_cache_dir('dicelab'), p.user_data_dir('dicelab'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    home = Path(os.environ["DICELAB_TEST_HOME"])
    assert len(out) == 2 and all(Path(p).is_relative_to(home) for p in out), out
