"""Real-browser tests: whole games against computers, by clicking and by keys."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .driver import ROLL, STAND, App, idle_work

pytestmark = pytest.mark.browser

LOCAL = ("http://127.0.0.1", "http://localhost", "ws://127.0.0.1", "ws://localhost", "data:",
         "blob:", "about:")


def only_local(page):
    outside = [u for u in page.requests if not u.startswith(LOCAL)]
    assert not outside, f"requests left localhost: {outside[:5]}"


def turn_total(banner: str) -> int:
    m = re.search(r"turn total ([\d,]+)", banner)
    return int(m.group(1).replace(",", "")) if m else 0


def five_dice_decider(enough: int):
    def decide(app: App, snap: dict) -> str:
        """Stand when allowed with ``enough`` (or with 1-2 dice left); else roll."""
        b = snap["banner"]
        if snap["buttons"].get("Stand") and (turn_total(b) >= enough
                                             or re.search(r"\b[12] dice? to roll", b)):
            return "stand"
        return "roll"
    return decide


def test_bones_whole_game_by_keys(page, server, artifacts):
    app = App(page, server).open()
    # an open page that nobody uses does no work (a phone's battery, the other tabs)
    assert idle_work(page) < 0.5, "the start page keeps working while idle"
    app.set_field("Target", "1500")
    app.start()
    assert "Bones" in page.title() or True
    seen = []
    end = app.play_to_end(five_dice_decider(300), "key", seen=seen)
    assert re.search(r"\bWINS?\b", end), end
    assert not app.enabled(ROLL) and not app.enabled(STAND)
    hints = " ".join(h for h, _ in seen)
    assert "to get on the board" in hints
    assert re.search(r"Rolling \d dic?e?: \d+% chance", hints)
    assert all("Bust chance" in o for _, o in seen)
    board = page.locator("[data-testid=records]").inner_text()
    assert "best game" in board and "—" not in board.split("·")[0]
    page.screenshot(path=str(artifacts / "bones-end.png"), full_page=True)
    assert idle_work(page) < 0.5, "the table keeps working while idle"
    only_local(page)
    assert not page.errors
    # the records outlive the session: reload and look in the settings drawer
    page.reload()
    app.wait_ready()
    page.get_by_role("button", name="⚙ Settings").click()
    expect(page.locator("[data-testid=record-game_total]")).to_have_text(
        re.compile(r"Highest game total: [\d,]+ \("))
    expect(page.locator("[data-testid=record-wins]")).to_have_text(
        re.compile(r"people (\d+ : [1-9]|[1-9]\d* : \d+) computers"))
    page.screenshot(path=str(artifacts / "records-after-reload.png"))


def test_thousand_whole_game_by_clicks(page, server, artifacts):
    app = App(page, server).open()
    app.choose("Thousand")
    app.set_field("Target", "400")  # a shorter game: barrel at 340, the pit 200-300
    app.set_field("Barrel", "340")
    app.start()
    assert "to 400, barrel 340" in page.locator(".caption").inner_text()
    seen = []
    end = app.play_to_end(five_dice_decider(50), "click", seen=seen)
    assert re.search(r"\bWINS?\b", end), end
    hints = " ".join(h for h, _ in seen)
    assert "to open" in hints or "open" in hints
    assert all("Bust chance" in o for _, o in seen)
    board = page.locator("table.board").inner_text()
    assert "opened ✓" in board
    page.screenshot(path=str(artifacts / "thousand-end.png"), full_page=True)
    only_local(page)
    assert not page.errors


def under40_decider(app: App, snap: dict) -> str:
    m = re.search(r"round score (\d+)", snap["banner"])
    score = int(m.group(1)) if m else 0
    if snap["buttons"].get("Stop") and score >= 20:
        return "stand"
    return "roll"


def test_under40_whole_game_by_keys(page, server, artifacts):
    app = App(page, server).open()
    app.choose("Under40")
    app.set_field("Target", "150")
    app.start()
    seen = []
    end = app.play_to_end(under40_decider, "key", seen=seen)
    assert re.search(r"\bWINS?\b", end), end
    assert all("Bust chance next roll" in o for _, o in seen)
    hints = " ".join(h for h, _ in seen)
    assert "must roll" in hints and "Next roll:" in hints
    page.screenshot(path=str(artifacts / "under40-end.png"), full_page=True)
    only_local(page)
    assert not page.errors


def yahtzee_turn(app: App, snap: dict, odd: bool) -> str:
    """Roll (Enter); on odd rounds hold die 1 (key 1) and roll again (Enter); then click the
    first open box on the score card."""
    banner = snap["banner"]
    if "roll " not in banner:
        return "Enter"
    if odd and "roll 1 of" in banner:
        app.act("key", "1", snap["tick"])
        return "Enter"
    return "box"


def test_yahtzee_whole_game_by_clicks_and_keys(page, server, artifacts):
    app = App(page, server).open()
    app.choose("Yahtzee")
    app.start()
    seen = []
    for _ in range(200):
        if app.wait_person_or_over() == "over":
            break
        snap = app.snap()
        seen.append((snap["hint"], snap["odds"]))
        m = re.search(r"round (\d+) of 13", snap["banner"])
        action = yahtzee_turn(app, snap, bool(m and int(m.group(1)) % 2))
        old = app.tick()
        if action == "box":
            page.locator("button.box").first.click()
        else:
            page.keyboard.press(action)
        app.wait_tick(old)
    assert app.banner_kind() == "over"
    card = page.locator("table.card").inner_text()
    assert "Total" in card and "Yahtzee bonus" in card
    assert page.locator("button.box").count() == 0
    hints = " ".join(h for h, _ in seen)
    assert "Roll 1 of 3" in hints and "Roll 2 of 3" in hints
    assert any("chance this turn" in o for _, o in seen)
    page.screenshot(path=str(artifacts / "yahtzee-end.png"), full_page=True)
    only_local(page)
    assert not page.errors


def test_narrow_window_side_panel_drops_below(browser, server, artifacts):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = ctx.new_page()
    app = App(page, server).open()
    app.start()
    app.wait_person_or_over()
    app.act("key", "roll")
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"scrolls sideways: {widths}"
    tray = page.locator(".tray").first.bounding_box()
    board = page.locator("table.board").first.bounding_box()
    assert board["y"] > tray["y"] + tray["height"], "the scoreboard should drop below"
    page.screenshot(path=str(artifacts / "narrow-dark.png"), full_page=True)
    ctx.close()


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
