"""A page opened on a room's link makes the start screen only when it is asked for (issue 15:
opening a page holds up every page of the server, and a class opens theirs at once). Checked
on a fresh server whose first page ever is a room's link, so that nothing an earlier page made
is there to help: the start screen made later must work in full, and so must the lobby."""
from __future__ import annotations

import pytest

from dicelab.rooms import RoomService

from .conftest import Server

pytestmark = [pytest.mark.browser]


@pytest.fixture
def fresh_server(tmp_path, monkeypatch):
    """``panel serve`` that has served no page yet."""
    monkeypatch.setenv("DICELAB_ROOMS", "sqlite://" + str(tmp_path / "rooms.db"))
    srv = Server(tmp_path / "r.sqlite3").start(open_page=False)
    yield srv.url, RoomService(srv.rooms)
    srv.stop()


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
