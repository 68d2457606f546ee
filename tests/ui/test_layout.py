"""The table as a player sees it on a phone and a laptop, light and dark (issue 13): the turn
banner in view at the top, no block over another, the history's last line whole, nothing
scrolling sideways, Roll enabled the moment YOUR TURN shows; rules settings that say why a
value is refused, with no traceback in the server's log.

One served app (this module's, so its log can be read) and a page per viewport and theme. By
default a phone in light and a laptop in dark; DICELAB_SLOW=1 adds the other two."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, ROOT, Server, free_port, wait_http
from .driver import DEEP, App

pytestmark = pytest.mark.browser

VIEWS = [pytest.param(w, h, s, id=f"{w}x{h}-{s}", marks=[pytest.mark.slow] if slow else [])
         for w, h, s, slow in [(390, 844, "light", False), (1280, 900, "dark", False),
                               (390, 844, "dark", True), (1280, 900, "light", True)]]
TITLES = {"bones": "Bones", "thousand": "Thousand", "under40": "Under40", "yahtzee": "Yahtzee"}


class LoggedServer(Server):
    """The app served with its log in a file (to look for tracebacks)."""

    def start(self):
        self.log = self.records.parent / "server.log"
        env = {**os.environ, "DICELAB_RECORDS": str(self.records), "DICELAB_SOUND": "off"}
        self.port = free_port()
        cmd = [sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "dicelab_app.py"),
               "--port", str(self.port), "--address", "127.0.0.1",
               f"--allow-websocket-origin=127.0.0.1:{self.port}"]
        self._log = open(self.log, "w")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT)
        try:
            wait_http(self.url)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self):
        super().stop()
        self._log.close()

    def text(self) -> str:
        return Path(self.log).read_text()


@pytest.fixture(scope="module")
def app_server(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    srv = LoggedServer(tmp_path_factory.mktemp("layout") / "records.sqlite3").start()
    yield srv
    srv.stop()


# Boxes of the table's main blocks and buttons, what covers the banner's middle, the history's
# last line, sideways scrolling; in one round trip.
LAYOUT = DEEP + """
(() => {
  const one = window.__one, deep = window.__deep;
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
    return r.width && r.height ? {x: r.x, y: r.y, w: r.width, h: r.height} : null; };
  const at = (x, y) => { let e = document.elementFromPoint(x, y);
    while (e && e.shadowRoot) {
      const f = e.shadowRoot.elementFromPoint(x, y); if (!f || f === e) break; e = f; }
    return e; };
  const within = (e, outer) => {
    for (let n = e; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host))
      if (n === outer) return true;
    return false; };
  const header = one('.header'), banner = one('.banner');
  const blocks = {caption: box(one('.caption')), banner: box(banner), tray: box(one('.tray')),
    hint: box(one('[data-testid=hint]')), history: box(one('ol.history')),
    board: box(one('table.board')), odds: box(one('[data-testid=odds]')),
    card: box(one('table.card'))};
  for (const b of deep('button.bk-btn'))
    if (b.offsetParent !== null) blocks['button ' + b.innerText.trim()] = box(b);
  const bb = box(banner);
  const hit = bb ? at(bb.x + bb.w / 2, bb.y + Math.min(bb.h / 2, 20)) : null;
  const hist = one('ol.history');
  const lis = hist ? hist.querySelectorAll('li') : [];
  const last = lis.length ? box(lis[lis.length - 1]) : null;
  const main = one('.main-content');
  return {header: box(header), blocks, bannerOnTop: !!(hit && within(hit, banner)),
          history: hist ? {box: box(hist), last, scroll: hist.scrollHeight,
                           client: hist.clientHeight} : null,
          sideways: [document.documentElement.scrollWidth - window.innerWidth,
                     main ? main.scrollWidth - main.clientWidth : 0],
          innerHeight: window.innerHeight,
          red: getComputedStyle(hist || document.body).getPropertyValue('--dl-red').trim(),
          paper: getComputedStyle(hist || document.body).getPropertyValue('--dl-paper').trim()};
})()
"""

# The start screen: every field (Bokeh's input group: label and box) and button, and which of
# them contains which; the header's are left out (through the shadow roots).
START = DEEP + """
(() => {
  const deep = window.__deep;
  const inHeader = (e) => {
    for (let n = e; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host))
      if (n.classList && n.classList.contains('header')) return true;
    return false; };
  const els = [...deep('.bk-input-group'), ...deep('button')].filter(
    e => e.offsetParent !== null && !e.closest('.bk-input-group')
      && e.getBoundingClientRect().width > 0);
  const fields = deep('.bk-input-group').filter(e => e.offsetParent !== null);
  const all = [...new Set([...fields, ...els])].filter(e => !inHeader(e));
  const boxes = all.map(e => { const r = e.getBoundingClientRect();
    return {name: (e.innerText || e.textContent || '').trim().slice(0, 30),
            x: r.x, y: r.y, w: r.width, h: r.height}; });
  const inside = all.map(a => all.map(b => a !== b
    && (b.contains(a) || (a.getRootNode().host && b.contains(a.getRootNode().host)))));
  return {boxes, inside};
})()
"""

# Whose turn and whether Roll is enabled, at every frame where either changes.
WATCH = DEEP + """
window.__turns = [];
(function poll() {
  const b = window.__one('.banner');
  const roll = window.__deep('button.bk-btn').find(x => /^Roll/.test((x.innerText || '').trim()));
  const kind = b ? (['you', 'cpu', 'over'].find(c => b.classList.contains(c)) || '') : '';
  const s = [kind, roll ? !roll.disabled : null];
  const last = window.__turns[window.__turns.length - 1];
  if (!last || last[0] !== s[0] || last[1] !== s[1]) window.__turns.push(s);
  requestAnimationFrame(poll);
})();
"""


def overlap(a, b) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def luminance(color: str) -> float:
    color = color.strip()
    if color.startswith("#"):
        h = color[1:]
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    else:
        rgb = [int(float(v)) for v in re.findall(r"[\d.]+", color)[:3]]
    lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
           for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def check_start_screen(page, where):
    s = page.evaluate(START)
    boxes, inside = s["boxes"], s["inside"]
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            if inside[i][j] or inside[j][i]:
                continue
            assert overlap(a, boxes[j]) < 2, f"{where}: {a['name']!r} overlaps {boxes[j]['name']!r}"


def check_table(page, where, dark: bool, phone: bool):
    lay = page.evaluate(LAYOUT)
    header, blocks = lay["header"], {k: v for k, v in lay["blocks"].items() if v}
    banner = blocks["banner"]
    assert lay["bannerOnTop"], f"{where}: something covers the turn banner"
    assert banner["y"] >= header["y"] + header["h"] - 5, f"{where}: the header covers the banner"
    assert banner["y"] + banner["h"] <= lay["innerHeight"] * 0.5, f"{where}: banner not at the top"
    names = sorted(blocks)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert overlap(blocks[a], blocks[b]) < 2, f"{where}: {a} overlaps {b}"
    assert lay["sideways"][0] <= 0 and lay["sideways"][1] <= 0, f"{where}: scrolls sideways"
    hist = lay["history"]
    assert hist["scroll"] <= hist["client"] + 1, f"{where}: the history box scrolls"
    last = hist["last"]
    assert last["y"] + last["h"] <= hist["box"]["y"] + hist["box"]["h"] + 1, \
        f"{where}: the history's last line is cut"
    if phone:  # the side panel drops below the table
        assert blocks["board"]["y"] > blocks["tray"]["y"] + blocks["tray"]["h"], where
    if dark:  # red history lines readable on the dark page (WCAG AA: 4.5)
        assert lay["red"] and contrast(lay["red"], lay["paper"] or "#121212") >= 4.5, lay
    return lay


@pytest.mark.parametrize("width, height, scheme", VIEWS)
def test_every_variant_fits_the_screen(browser, app_server, artifacts, width, height, scheme):
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    app = App(page, app_server, pace=0.05).open()
    phone, dark = width < 600, scheme == "dark"
    check_start_screen(page, f"{width}x{height} {scheme} start")
    page.evaluate(WATCH)
    for variant, title in TITLES.items():
        where = f"{width}x{height} {scheme} {variant}"
        if variant != "bones":
            page.get_by_role("button", name="New game").click()
            app.choose(title)
        app.start()
        app.wait_person_or_over()
        app.act("key", "Enter" if variant == "yahtzee" else "roll")
        app.wait_person_or_over()
        check_table(page, where, dark, phone)
        if phone and variant in ("bones", "yahtzee"):
            page.screenshot(path=str(artifacts / f"layout-{variant}-{width}-{scheme}.png"))
    # Roll is enabled in the very frame YOUR TURN shows, and disabled when it goes
    turns = page.evaluate("window.__turns")  # [kind, Roll enabled] at each frame that changed
    assert ["cpu", True] not in turns[1:], f"Roll enabled on a computer's turn: {turns}"
    changes = [t for i, t in enumerate(turns) if i and t[0] != turns[i - 1][0]]
    assert any(k == "you" for k, _ in changes)
    for kind, roll in changes:
        if kind == "you" and roll is not None:
            assert roll, f"YOUR TURN showed over a disabled Roll: {turns}"
    assert not page.errors
    ctx.close()


# every rules field of every variant: (label, a refused value, words of the message)
BAD = {
    "bones": [("Min on board", "-50", "at least"), ("Target", "300", "at least 500")],
    "thousand": [("Opening", "-5", "at least"), ("Barrel", "1005", "below the target"),
                 ("Target", "-5", "at least"), ("Barrel attempts", "0", "at least"),
                 ("Barrel fall", "-5", "at least"), ("Bolts per penalty", "0", "at least"),
                 ("Bolt penalty", "-50", "at least")],
    "under40": [("Target", "5", "at least")],
    "yahtzee": [("Rerolls", "-1", "at least"), ("Upper bonus", "-5", "at least"),
                ("Upper bonus threshold", "-1", "at least"), ("Yahtzee bonus", "-50", "at least")],
}

# the refusal shown for the field labelled ``label``: the help line made for it, right under
# its box (within 40 px, as wide as the form) and in the field's red
HELPER = DEEP + """
(label) => {
  const l = window.__deep('label').find(
    e => e.textContent.trim() === label && e.offsetParent !== null);
  const box = l && l.closest('.bk-input-group');
  const h = window.__deep('.dl-help').find(e => e.dataset.for === label);
  if (!box || !h || !h.getClientRects().length) return '';
  const b = box.getBoundingClientRect(), r = h.getBoundingClientRect();
  if (r.y < b.y + b.height - 2 || r.y > b.y + b.height + 40 || r.x > b.x + 20) return 'not under';
  if (getComputedStyle(h).color === getComputedStyle(l).color) return 'not red';
  return h.textContent.trim();
}
"""


def type_into(page, label, value):
    box = page.get_by_label(label, exact=True).first
    box.click()
    box.press("Control+A")
    box.type(value)
    box.press("Tab")


def test_rules_fields_say_why_a_value_is_refused(browser, app_server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20_000)
    app = App(page, app_server).open()
    # Thousand's pits: ranges with their own fields; a barrel inside one is refused
    app.choose("Thousand")
    type_into(page, "Pit 2 to", "900")
    page.get_by_text(re.compile(r"barrel \(880\) may not be inside the pit 600-900")).wait_for()
    type_into(page, "Pit 2 to", "750")
    page.get_by_role("button", name="Remove pit 1").click()
    page.get_by_label("Pit 2 from").wait_for(state="detached")
    app.set_field("Target", "400")
    app.set_field("Barrel", "340")
    app.start()
    assert "to 400, barrel 340" in page.locator(".caption").inner_text()
    page.get_by_role("button", name="⚙ Settings").click()
    rules = page.locator("[data-testid=rules-in-force]")
    expect(rules).to_contain_text("Pits: 600-750")
    assert "Barrel: 340" in rules.text_content() and "_" not in rules.text_content()
    page.keyboard.press("Escape")  # the drawer closes
    # a refused value in every rules field: its reason next to it, and no game from it
    page.get_by_role("button", name="New game").click()
    for variant, fields in BAD.items():
        app.choose(TITLES[variant])
        for label, bad, words in fields:
            type_into(page, label, bad)
            page.wait_for_function(HELPER, arg=label)
            said = page.evaluate(HELPER, label)
            # next to the field, in its words: "Target must be at least 500, not 300."
            assert label.lower() in said.lower() and words in said.lower(), (label, said)
        page.get_by_role("button", name="Start new game", exact=True).click()
        page.get_by_text(re.compile("Fix the rules settings marked in red first")).wait_for()
        assert page.locator(".banner").count() == 0
    assert "Traceback" not in app_server.text()
    page.close()
