"""dicelab installed like any library: the wheel built from this checkout carries every file the
package reads, and from a directory outside the checkout the installed copy serves the app (a
game starts in Chromium), scores a roll on the command line and runs a notebook.

The new virtual environment gets dicelab only from the wheel (``pip install --no-deps``); its
dependencies come from the test environment through a ``.pth`` line (a path entry: the test
environment's editable dicelab is not activated by it, and the new environment's own
site-packages comes first), which keeps the test offline and quick. Every step asserts that
``import dicelab`` resolves to the installed copy, never the source tree."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

import pytest

from .conftest import CHROMIUM, ROOT, free_port, stop_process, wait_http
from .driver import App

# serving from the installed copy and running a notebook with it take ~50 s on 2 busy cores
SLOW = pytest.mark.slow


def tracked_package_files() -> list[str]:
    """Files of the package in git, except Python sources and caches."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          "dicelab"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return sorted(p for p in out if not p.endswith((".py", ".pyc")))


@pytest.fixture(scope="module")
def work():
    # not pytest's tmp_path: its numbered directories are shared by every pytest run of this
    # user and pruned to the last three, which can remove a venv in use by a long run
    with tempfile.TemporaryDirectory(prefix="dicelab-wheel-") as d:
        yield Path(d)


@pytest.fixture(scope="module")
def wheel(work) -> Path:
    dist = work / "dist"
    # a copy without build leftovers (build/, *.egg-info) so the wheel is built from scratch
    src = work / "src" / "dicelab-src"
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        if (ROOT / f).is_file():
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, src / f)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                    str(dist), str(src)], check=True, capture_output=True, text=True)
    (whl,) = dist.glob("dicelab-*.whl")
    return whl


@pytest.fixture(scope="module")
def venv(wheel, work) -> Path:
    env = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    py = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
                    "--quiet", str(wheel)], check=True, capture_output=True, text=True)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "zz_test_deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return env


@pytest.fixture(scope="module")
def outside(work) -> Path:
    d = work / "elsewhere"
    d.mkdir()
    assert ROOT not in d.parents
    return d


def run_env(venv: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}:{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    return env


def test_wheel_carries_every_package_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f for f in tracked_package_files() if f not in names]
    assert not missing, f"the wheel lacks {missing}: add them to package-data in pyproject.toml"
    assert {"dicelab/ui/tray.js", "dicelab/ui/card.css"} <= names
    # the solved official Yahtzee table (a fresh install's first readout needs no solve), and a
    # wheel that stays small with it
    assert "dicelab/odds/data/yahtzee-v1-r2-ub35-t63-yb100-j1.npz" in names
    assert wheel.stat().st_size <= 20e6
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "Requires-Dist: panel" in text and 'extra == "notebook"' in text
    entry = zipfile.ZipFile(wheel).read(meta.replace("METADATA", "entry_points.txt")).decode()
    assert "dicelab = dicelab.cli:main" in entry


def test_installed_copy_is_imported(venv, outside):
    out = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import dicelab, dicelab.ui, dicelab.ui.components as c; "
                          "print(dicelab.__file__); print(len(c.TrayView._esm))"],
                         cwd=outside, env=run_env(venv), capture_output=True, text=True,
                         check=True).stdout.split()
    assert Path(out[0]).is_relative_to(venv), out[0]
    assert int(out[1]) > 100  # tray.js was read from the installed package


def test_installed_cli_scores(venv, outside):
    out = subprocess.run([str(venv / "bin" / "dicelab"), "score", "bones", "1", "1", "1", "5",
                          "2", "--json"], cwd=outside, env=run_env(venv), capture_output=True,
                         text=True, check=True).stdout
    # RULES.md, Bones: three 1s are 1000, a single 5 is 50
    assert json.loads(out) == {"points": 1050, "counting": 4}


def test_installed_cli_copies_the_lessons(venv, outside):
    """Issue 40: the wheel carries the teaching notebooks; ``dicelab lessons DIR`` copies them."""
    shipped = sorted(p.name for p in (ROOT / "dicelab" / "lessons").glob("*.ipynb"))
    assert len(shipped) >= 7
    out = subprocess.run([str(venv / "bin" / "dicelab"), "lessons", "lessons"], cwd=outside,
                         env=run_env(venv), capture_output=True, text=True, check=True).stdout
    assert sorted(p.name for p in (outside / "lessons").glob("*.ipynb")) == shipped
    assert "jupyter lab lessons" in out


@SLOW
@pytest.mark.browser
def test_installed_app_serves_and_plays(venv, outside, browser):
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium")
    port = free_port()
    env = {**run_env(venv), "DICELAB_RECORDS": str(outside / "r.sqlite3"),
           "DICELAB_SOUND": "off"}
    proc = subprocess.Popen([str(venv / "bin" / "dicelab"), "serve", "--port", str(port)],
                            cwd=outside, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}/dicelab_app"
        wait_http(url, timeout=180)
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        app = App(page, type("S", (), {"url": url})()).open()
        app.start()
        snap = app.snap()
        assert snap["banner"] and snap["tick"] >= 0
        ctx.close()
        assert not errors, errors
    finally:
        stop_process(proc)


NB_CHECK = """
import dicelab, os
from pathlib import Path
assert Path(dicelab.__file__).is_relative_to({venv!r}), dicelab.__file__
assert not Path(os.getcwd()).is_relative_to({root!r})
"""

RUN_NB = """
import sys, nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell
nb = nbformat.read(sys.argv[1], as_version=4)
nb.cells.insert(0, new_code_cell(sys.argv[2]))
nb.cells.append(new_code_cell("from dicelab.ui import DiceTray\\n"
                              "g = dicelab.new_game('bones', ['Ann', 'Bob'], seed=1)\\n"
                              "DiceTray(g)"))
NotebookClient(nb, timeout=300, kernel_name="python3",
               resources={"metadata": {"path": sys.argv[3]}}).execute()
print("ok", len(nb.cells))
"""


@SLOW
def test_installed_copy_runs_a_notebook(venv, outside):
    # the notebook as a teacher gets it: copied by the installed `dicelab lessons`
    subprocess.run([str(venv / "bin" / "dicelab"), "lessons", "run"], cwd=outside,
                   env=run_env(venv), capture_output=True, check=True)
    nb = outside / "run" / "01_bones_odds.ipynb"
    check = NB_CHECK.format(venv=str(venv), root=str(ROOT))
    # the kernel is the new environment's python (jupyter_client uses sys.executable)
    out = subprocess.run([str(venv / "bin" / "python"), "-c", RUN_NB, str(nb), check,
                          str(outside)], cwd=outside, env=run_env(venv), capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("ok")
