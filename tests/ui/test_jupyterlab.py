"""dicelab in JupyterLab and in Notebook 7 (the classic notebook) with no network: a notebook
shows ``dicelab.app()``, a game starts and rolls in it; ``DiceTray(g)`` in one cell follows
``g.apply("roll")`` run in a later cell; and
every request the page makes goes to the local Jupyter server (the page's other requests are
blocked, as in a classroom without internet). Screenshots go to docs/screenshots/.

JupyterLab runs bound to 127.0.0.1 without a token, with its own temporary config, data,
runtime and root directories; its kernel is this test environment's Python."""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from .conftest import CHROMIUM, ROOT, free_port, stop_process, wait_http

# JupyterLab's start takes ~60 s
pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = ROOT / "docs" / "screenshots"
LOCAL = ("127.0.0.1", "localhost")
CELLS = [
    "import dicelab\napp = dicelab.app()\napp.prefs.pace = 0.1  # computers: quick turns\napp",
    "import dicelab\nfrom dicelab.ui import DiceTray\n"
    "g = dicelab.new_game('bones', ['Ann', 'Bob'], seed=1)\n"
    "DiceTray(g)",
    "g.apply('roll')\ng.state.dice",
]


@contextlib.contextmanager
def jupyter(front_end: str):
    """JupyterLab ("lab") or Notebook 7 ("notebook", the classic notebook's successor) serving
    a notebook of CELLS; yields its address."""
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium")
    with tempfile.TemporaryDirectory(prefix="dicelab-lab-") as d:
        d = Path(d)
        root = d / "root"
        root.mkdir()
        nbformat.write(new_notebook(cells=[new_code_cell(c) for c in CELLS],
                                    metadata={"kernelspec": {"name": "python3",
                                                             "display_name": "Python 3",
                                                             "language": "python"}}),
                       root / "dicelab.ipynb")
        port = free_port()
        log = d / "jupyter.log"
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(d / "config"),
               "JUPYTER_DATA_DIR": str(d / "data"), "JUPYTER_RUNTIME_DIR": str(d / "runtime"),
               "IPYTHONDIR": str(d / "ipython"), "DICELAB_RECORDS": str(d / "records.sqlite3"),
               "DICELAB_SOUND": "off"}
        env.pop("DICELAB_CDN", None)
        only_lab = ["--LabApp.news_url=", "--LabApp.extension_manager=readonly",
                    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", front_end, "--no-browser",
             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
             "--IdentityProvider.token=", "--ServerApp.password=",
             f"--ServerApp.root_dir={root}", "--allow-root",
             *(only_lab if front_end == "lab" else [])],
            cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))
        try:
            up = f"http://127.0.0.1:{port}/api"
            end = time.time() + 180
            while proc.poll() is None and time.time() < end:
                try:
                    wait_http(up, timeout=2)
                    break
                except RuntimeError:
                    pass
            else:
                raise RuntimeError(f"jupyter {front_end} did not start:\n"
                                   + log.read_text()[-3000:])
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_process(proc, 15)


@pytest.fixture(scope="module")
def lab():
    with jupyter("lab") as url:
        yield url


@pytest.fixture(scope="module")
def classic():
    pytest.importorskip("notebook", reason="needs the notebook package (the notebook extra)")
    with jupyter("notebook") as url:
        yield url


def offline(browser, url: str):
    """A page at ``url`` whose requests outside this machine are blocked (and recorded);
    returns (context, page, requests, blocked, page errors)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    requests, blocked, errors = [], [], []

    def route(r):
        requests.append(r.request.url)
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host in LOCAL:
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    return ctx, page, requests, blocked, errors


def assert_local(requests, blocked, errors):
    assert requests, "the page made no requests"
    outside = sorted({u for u in requests if not u.startswith(("data:", "blob:"))
                      and urlparse(u).hostname not in LOCAL})
    assert outside == sorted(set(blocked)) == [], f"the page asked the network: {outside}"
    assert not [e for e in errors if "dicelab" in e.lower()], errors


def run_cell(page, index: int, timeout: float = 120.0):
    """Run cell ``index`` (Shift+Enter) and wait until its execution count appears. A key press
    the page drops (the notebook still settling) leaves the prompt at "[ ]:": press again
    (the cell never ran, so it does not run twice)."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    prompt = cell.locator(".jp-InputArea-prompt")
    end = time.time() + timeout
    pressed = 0.0
    while time.time() < end:
        text = prompt.inner_text().strip()
        if text and "*" not in text and text != "[ ]:":
            return cell
        if text in ("", "[ ]:") and time.time() - pressed > 10:
            cell.locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            pressed = time.time()
        time.sleep(0.25)
    raise AssertionError(f"cell {index} did not finish: prompt {prompt.inner_text()!r}")


def test_jupyterlab_offline(lab, browser):
    ctx, page, requests, blocked, errors = offline(browser, f"{lab}/lab/tree/dicelab.ipynb")
    page.get_by_text(re.compile(r"\| Idle")).first.wait_for(timeout=120_000)  # the kernel
    news = page.get_by_role("button", name="No", exact=True)
    if news.count():  # JupyterLab asks whether to fetch its news (it must not)
        news.first.click()

    app_cell = run_cell(page, 0)
    start = app_cell.get_by_role("button", name="Start new game")
    start.wait_for(timeout=180_000)  # the whole app, inline: tens of MB on a busy machine
    # no words about a missing front end: Panel's front end ran and removed them
    assert app_cell.locator(".dicelab-note").count() == 0
    start.click()
    app_cell.locator(".banner").first.wait_for()
    roll = app_cell.get_by_role("button", name=re.compile(r"^Roll"))
    # the first turn may be a computer's: wait until a person can roll
    roll.wait_for()
    try:
        page.wait_for_function("(b) => !b.disabled", arg=roll.element_handle(),
                               timeout=120_000)
    finally:
        page.screenshot(path=str(SHOTS.parent.parent / "test-artifacts" / "lab_roll.png"))
    tray = app_cell.locator(".tray >> visible=true").first  # not the hidden preloaded one
    rolled = tray.get_attribute("data-roll-id")
    end = time.time() + 120
    # a person is on turn: the next roll is theirs (a click can land while the button is
    # redrawn: click again until the roll shows)
    while tray.get_attribute("data-roll-id") == rolled:
        assert time.time() < end, "the roll did not show in the app"
        if roll.is_enabled():
            roll.click()
        time.sleep(3)
    SHOTS.mkdir(parents=True, exist_ok=True)
    app_cell.locator(".tray").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "notebook_app.png"))

    tray_cell = run_cell(page, 1)
    tray = tray_cell.locator(".tray").first
    tray.wait_for()
    assert tray_cell.get_by_text("no dice rolled yet").count() == 1
    run_cell(page, 2)
    # the tray of the earlier cell follows the game: the dice are shown
    tray_cell.locator(".tray .die").first.wait_for(timeout=20_000)
    assert tray_cell.get_by_text("no dice rolled yet").count() == 0
    page.locator(".jp-Notebook .jp-Cell").nth(2).scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "notebook_tray.png"))

    ctx.unroute_all(behavior="ignoreErrors")
    ctx.close()
    assert_local(requests, blocked, errors)


def test_classic_notebook_offline(classic, browser):
    """Notebook 7 (the classic notebook interface): a DiceTray renders with no network and
    follows g.apply('roll') run in a later cell."""
    ctx, page, requests, blocked, errors = offline(browser,
                                                   f"{classic}/notebooks/dicelab.ipynb")
    # keys typed before the kernel is up are lost
    page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(timeout=180_000)
    tray_cell = run_cell(page, 1)
    tray = tray_cell.locator(".tray").first
    tray.wait_for(timeout=120_000)
    assert tray_cell.get_by_text("no dice rolled yet").count() == 1
    assert tray_cell.locator(".dicelab-note").count() == 0  # the front end ran
    run_cell(page, 2)
    tray_cell.locator(".tray .die").first.wait_for(timeout=20_000)
    assert tray_cell.get_by_text("no dice rolled yet").count() == 0
    dice = tray_cell.locator(".tray .die")
    assert dice.count() == 5  # RULES.md Bones: five dice, rolled and kept all shown
    page.screenshot(path=str(SHOTS.parent.parent / "test-artifacts" / "classic_tray.png"))
    ctx.unroute_all(behavior="ignoreErrors")
    ctx.close()
    assert_local(requests, blocked, errors)
