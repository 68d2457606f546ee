"""Shared test helpers: rigged dice and direct state set-up."""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# The suite runs beside browsers and servers on 2 cores: Hypothesis's timing checks (deadline,
# too_slow) fail on a busy machine with correct code. The examples drawn are the same.
hypothesis_settings.register_profile("dicelab", deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("dicelab")


def _test_home() -> tuple[Path, bool]:
    """One folder for the whole run: made by the first process (pytest, or xdist's controller),
    inherited through the environment by its workers and by the servers tests start."""
    home = os.environ.get("DICELAB_TEST_HOME")
    if home:
        return Path(home), False
    home = tempfile.mkdtemp(prefix="dicelab-tests-")
    os.environ["DICELAB_TEST_HOME"] = home
    return Path(home), True


# Tests never write into the user's folders: platformdirs' user cache and data dirs (solved
# tables, records, rooms) point into the run's folder, set before dicelab is imported. Tables
# solved there stay warm for every test file of the run, and are removed with it.
HOME, _OWN_HOME = _test_home()
for _var, _sub in (("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data"),
                   ("XDG_STATE_HOME", "state")):
    os.environ[_var] = str(HOME / _sub)
for _var in ("DICELAB_RECORDS", "DICELAB_ROOMS"):  # the user's own stores: defaults above
    os.environ.pop(_var, None)

from dicelab.config import value  # noqa: E402  (after the folders above)
from dicelab.errors import RuleError  # noqa: E402

# One slow mechanism: a test marked ``@pytest.mark.slow`` runs only with DICELAB_SLOW=1
# (.ci/run runs them in a step of their own: ``DICELAB_SLOW=1 pytest -m slow``). Each behaviour
# a slow test checks keeps a quicker test in the everyday suite.
SLOW = bool(value("DICELAB_SLOW"))


def pytest_collection_modifyitems(config, items):
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set DICELAB_SLOW=1")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


def pytest_unconfigure(config):
    if _OWN_HOME:
        shutil.rmtree(HOME, ignore_errors=True)

# the app builds a missing win table in a background process: not for every test run (the
# tests that need one build it in a temporary folder)
os.environ.setdefault("DICELAB_WIN_BUILD", "off")


class Rigged:
    """Replaces a game module's ``roll`` with a script of rolls (then falls back to the RNG)."""

    def __init__(self):
        self.script: list[tuple[int, ...]] = []

    def __call__(self, rng, n):
        if self.script:
            dice = tuple(self.script.pop(0))
            assert len(dice) == n, f"scripted roll {dice} but the game throws {n} dice"
            rng.integers(1, 7, size=n)  # keep the generator moving as a real roll would
            return dice
        return tuple(int(v) for v in rng.integers(1, 7, size=n))

    def add(self, *rolls):
        self.script.extend(tuple(r) for r in rolls)


@pytest.fixture
def rig(monkeypatch):
    """``rig(module).add((1, 5, 2, 3, 4), ...)`` scripts the next rolls of that game module."""
    made = {}

    def for_module(module):
        if module not in made:
            made[module] = Rigged()
            monkeypatch.setattr(module, "roll", made[module])
        return made[module]

    return for_module


def set_state(game, **changes):
    """Put a game into a chosen situation (tests only)."""
    game._state = game.state = replace(game.state, **changes)
    return game


def assert_refused(game, action, *words):
    """The action raises a RuleError naming the rule, and nothing changes."""
    before = game.snapshot()
    with pytest.raises(RuleError) as err:
        game.apply(action)
    assert game.snapshot() == before
    for w in words:
        assert w.lower() in str(err.value).lower(), (w, str(err.value))
    return err.value


@pytest.fixture
def no_win_table(tmp_path_factory, monkeypatch):
    """No two-seat Bones win table: an empty cache folder, nothing in memory (background
    builds are off above), so the coach shows the points alone."""
    from dicelab.odds import win

    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path_factory.getbasetemp() / "no-win")
    monkeypatch.setattr(win, "_MEMORY", {})


@pytest.fixture(autouse=True)
def _stop_live_estimates():
    """An odds panel or win chart of a game without an exact table starts play-outs in the
    background (dicelab.lab.win_live); none outlives its test."""
    yield
    from dicelab.lab import win_live

    win_live.stop_all()
