"""A double click, two quick clicks, two quick key presses and a replayed protocol message are
each played once: every action a page sends carries the mark (log length) the page showed."""
from __future__ import annotations

import json
import re
import time
from urllib.parse import quote_plus

from .driver import ROLL, App

# every frame the page sends on its websocket, in order (to replay one message)
RECORD = """
window.__sent = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__sent.push(typeof data === "string" ? data : null);
  window.__ws = this;
  return send.call(this, data);
};
"""


def stored(service, room) -> int:
    return len(service.log(room.name))


def settled(service, room, n: int, quiet: float = 1.5) -> int:
    """Wait until the room's log holds ``n`` actions, then ``quiet`` seconds more (time for
    a second, wrong, action to land); returns the length then."""
    end = time.time() + 30
    while stored(service, room) < n and time.time() < end:
        time.sleep(0.05)
    time.sleep(quiet)
    return stored(service, room)


def page_shows(page, n: int) -> None:
    """Until the page has shown the game at log length ``n`` (dice stopped rolling)."""
    page.wait_for_function("(n) => (document.documentElement.dataset.dlSeen || '')"
                           ".endsWith('.' + n)", arg=n, timeout=15_000)


def test_a_double_click_a_quick_second_click_and_a_replay_are_played_once(browser, server):
    from dicelab.rooms import RoomService

    service = RoomService(server.rooms)
    room, token = service.create(f"double click {time.time_ns() % 10**9}", "yahtzee", {},
                                 "You")
    service.start(room.name, token)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('dicelab.seats', "
                        f"{json.dumps(json.dumps({room.key: token}))})")
    ctx.add_init_script(RECORD)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        app = App(page, server)
        # the default roll animation (400 ms): the page has shown a roll once it stopped
        page.goto(f"{server.url}?room={quote_plus(room.name)}&sound=off")
        app.wait_ready()
        page.locator(".banner.you").first.wait_for()
        page_shows(page, 0)
        roll = page.get_by_role("button", name=ROLL)
        roll.dblclick()  # a real double click
        assert settled(service, room, 1) == 1
        page_shows(page, 1)
        expect_label(page, "2 left")
        box = roll.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.click(x, y)  # two clicks 100 ms apart
        page.wait_for_timeout(100)
        page.mouse.click(x, y)
        assert settled(service, room, 2) == 2
        page_shows(page, 2)
        # the last roll's message, sent again as it was: refused (it showed log length 2)
        frames = page.evaluate("window.__sent")
        i = max(k for k, f in enumerate(frames) if f and '"act"' in f and '"roll"' in f)
        assert '"seen"' in frames[i]
        replayed = page.evaluate("(fs) => { fs.forEach((f) => window.__ws.send(f)); "
                                 "return fs.length; }", frames[i - 2:i + 1])
        assert replayed == 3
        assert settled(service, room, 3, quiet=1.5) == 2
        # the control: the same frames with the mark the page shows now are played (so the
        # replay above did reach the server, and was refused for its mark alone)
        now = page.evaluate("document.documentElement.dataset.dlSeen")
        fresh = re.sub(r'(\["seen",\s*")[^"]*"', lambda m: m.group(1) + now + '"', frames[i])
        assert fresh != frames[i]
        page.evaluate("(fs) => fs.forEach((f) => window.__ws.send(f))",
                      [*frames[i - 2:i], fresh])
        assert settled(service, room, 3, quiet=0.5) == 3
        page_shows(page, 3)
        # a double click on the score card: one box scored
        page.locator("button.box:not([disabled])").first.dblclick()
        assert settled(service, room, 4) == 4
        page_shows(page, 4)
        # a key pressed twice at once: one action (Enter rolls in Yahtzee)
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        assert settled(service, room, 5) == 5
        assert errors == []
    finally:
        ctx.close()
        service.close()


def expect_label(page, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name=ROLL)).to_have_text(re.compile(re.escape(text)))
