"""A page opened on a room's link makes the start screen only when it is asked for (issue 15:
opening a page holds up every page of the server, and a class opens theirs at once). Checked
on a fresh server whose first page ever is a room's link, so that nothing an earlier page made
is there to help: the start screen made later must work in full, and so must the lobby."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from dicelab.rooms import RoomService

from .conftest import ROOT, free_port, stop_process

pytestmark = [pytest.mark.browser]


@pytest.fixture
def fresh_server(tmp_path):
    """``panel serve`` that has served no page yet (no HTTP request made to see it is up)."""
    port = free_port()
    rooms = "sqlite://" + str(tmp_path / "rooms.db")
    env = {**os.environ, "DICELAB_ROOMS": rooms, "DICELAB_RECORDS": str(tmp_path / "r.sqlite3"),
           "DICELAB_SOUND": "off"}
    proc = subprocess.Popen([sys.executable, "-m", "panel", "serve",
                             str(ROOT / "apps" / "dicelab_app.py"), "--port", str(port),
                             "--address", "127.0.0.1",
                             f"--allow-websocket-origin=127.0.0.1:{port}"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    end = time.time() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            break
        except OSError:
            if time.time() > end or proc.poll() is not None:
                stop_process(proc)
                raise RuntimeError("the server did not come up")
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}/dicelab_app", RoomService(rooms)
    stop_process(proc)


def test_start_screen_and_lobby_made_after_a_room_page_opened_first(page, fresh_server):
    url, service = fresh_server
    room, _token = service.create("Class 1", "bones", {}, "Teacher")
    page.set_default_timeout(30_000)
    page.goto(url + "?room=Class%201")
    page.get_by_text("Seats (1 of 8)").wait_for()
    # New game: the start screen, made now, with everything it has on a page of its own
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name="Choose Thousand").click()
    page.get_by_text("✓ Thousand chosen").wait_for()
    page.get_by_label("Seat 2 name").wait_for()
    page.get_by_label("Seed (optional)").fill("7")
    page.get_by_role("button", name="Thousand rules").click()
    page.get_by_text("Thousand (1000) — rules").wait_for()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Start new game").click()
    page.get_by_role("button", name="Roll").first.wait_for()
    page.get_by_text("Thousand (to 1000, barrel 880)").wait_for()
    # and the lobby, from the same page
    page.get_by_role("button", name="Network games").click()
    page.get_by_role("button", name="Join Class 1").wait_for()
    assert page.errors == []
