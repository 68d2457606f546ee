"""Fixtures for the UI tests: a served app on a free localhost port and headless Chromium."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 120.0) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            # a loaded 2-core machine takes several seconds to render a first page: a short
            # timeout here never saw the server come up
            with urllib.request.urlopen(url, timeout=30) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not come up")


def wait_port(port: int, proc, timeout: float = 120.0) -> None:
    """Until a server listens on ``port`` (no HTTP request: it would make a page)."""
    end = time.time() + timeout
    while time.time() < end and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port}")


def stop_process(proc, wait: float = 10.0) -> None:
    """Terminate a server this test started; kill it if it does not stop."""
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()


class Server:
    def __init__(self, records: Path):
        self.records = records
        self.port = free_port()
        self.proc = None

    def start(self, open_page: bool = True):
        """``open_page``: wait for the app's page (which makes a session); else for the port
        alone, so that the first page the server ever makes is the test's."""
        env = {**os.environ, "DICELAB_RECORDS": str(self.records), "DICELAB_SOUND": "off"}
        # network games in a store of the test run's own, not the user's (a test that needs
        # another store sets DICELAB_ROOMS itself); ``rooms`` for a RoomService of the test's
        env.setdefault("DICELAB_ROOMS", "sqlite://" + str(self.records.parent / "rooms.sqlite3"))
        self.rooms = env["DICELAB_ROOMS"]
        cmd = [sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "dicelab_app.py"),
               "--port", str(self.port), "--address", "127.0.0.1",
               f"--allow-websocket-origin=127.0.0.1:{self.port}",
               f"--allow-websocket-origin=localhost:{self.port}"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        if open_page:
            wait_http(self.url)
        else:
            wait_port(self.port, self.proc)
        return self

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/dicelab_app"


@pytest.fixture(scope="session")
def records_path(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("records") / "records.sqlite3"


@pytest.fixture(scope="session")
def server(records_path):
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    srv = Server(records_path).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    pg.requests = []
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
