"""A small driver for the served app in Playwright (what a person sees and does)."""
from __future__ import annotations

import re
import time

ROLL = re.compile(r"^Roll")
STAND = re.compile(r"^(Stand|Stop)")


# finds elements through Panel's shadow roots, in the page (one round trip per look); the
# root a selector was last found in is remembered, so polling does not walk the whole page
DEEP = """
window.__deep = window.__deep || ((sel) => {
  const out = [];
  const walk = (root) => {
    for (const e of root.querySelectorAll(sel)) out.push(e);
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
});
window.__roots = window.__roots || {};
window.__one = window.__one || ((sel) => {
  const root = window.__roots[sel];
  if (root && root.isConnected !== false && (root.host ? root.host.isConnected : true)) {
    const e = root.querySelector(sel);
    if (e) return e;
  }
  const e = window.__deep(sel)[0];
  if (e) window.__roots[sel] = e.getRootNode();
  return e || null;
});
"""
SNAP = DEEP + """
(() => {
  const one = window.__one;
  const tray = one('.tray'), banner = one('.banner');
  const hint = one('[data-testid=hint]'), odds = one('[data-testid=odds]');
  const buttons = {};
  window.__buttons = (window.__buttons || []).filter(b => b.isConnected);
  if (window.__buttons.length < 2) window.__buttons = window.__deep('button').filter(
    b => /^(Roll|Stand|Stop)/.test((b.innerText || '').trim()));
  for (const b of window.__buttons) {
    const t = (b.innerText || '').trim();
    if (/^(Roll|Stand|Stop)/.test(t)) buttons[t.split(' ')[0]] = !b.disabled;
  }
  const kind = banner ? (['you', 'cpu', 'over'].find(k => banner.classList.contains(k)) || '') : '';
  return {tick: tray ? Number(tray.dataset.tick) : -1, kind,
          banner: banner ? banner.innerText : '', hint: hint ? hint.innerText : '',
          odds: odds ? odds.innerText : '', buttons};
})()
"""


class App:
    def __init__(self, page, server, pace: float = 0.02):
        self.page = page
        self.server = server
        self.pace = pace

    # ----- start screen ------------------------------------------------------------------------
    def open(self):
        self.page.goto(f"{self.server.url}?pace={self.pace}&anim=0&sound=off")
        self.page.get_by_role("button", name="Start new game").wait_for()
        self.wait_ready()
        return self

    def wait_ready(self):
        """Until Bokeh reports the document idle (and Panel has run its onload)."""
        self.page.wait_for_function(
            "() => window.Bokeh && Bokeh.documents.length && Bokeh.documents[0]._notified_idle",
            timeout=30_000)

    def choose(self, variant_title: str):
        btn = self.page.get_by_role("button", name=f"Choose {variant_title}")
        btn.click()
        self.page.get_by_role("button", name=f"✓ {variant_title} chosen").wait_for()

    def set_field(self, label: str, value: str):
        box = self.page.get_by_label(label, exact=True).first
        box.click()
        box.press("Control+A")
        box.type(value)
        box.press("Tab")

    def start(self):
        self.page.get_by_role("button", name="Start new game", exact=True).click()
        self.page.locator(".banner").wait_for()

    # ----- reading the table -------------------------------------------------------------------
    def snap(self) -> dict:
        """tick, kind (you/cpu/over), banner, hint, odds, buttons {Roll/Stand/Stop: enabled}."""
        return self.page.evaluate(SNAP)

    def tick(self) -> int:
        return self.snap()["tick"]

    def banner(self) -> str:
        return self.page.locator(".banner").first.inner_text()

    def banner_kind(self) -> str:
        cls = self.page.locator(".banner").first.get_attribute("class") or ""
        for k in ("you", "cpu", "over"):
            if k in cls.split():
                return k
        return ""

    def hint(self) -> str:
        return self.page.locator("[data-testid=hint]").first.inner_text()

    def odds(self) -> str:
        return self.page.locator("[data-testid=odds]").first.inner_text()

    def button(self, name):
        return self.page.get_by_role("button", name=name).first

    def enabled(self, name) -> bool:
        b = self.button(name)
        return b.count() > 0 and b.is_enabled()

    def wait_tick(self, old: int, timeout: float = 8.0) -> None:
        self.page.evaluate(DEEP)
        self.page.wait_for_function(
            "(old) => { const t = window.__one('.tray');"
            " return t && Number(t.dataset.tick) !== old; }", arg=old, timeout=timeout * 1000,
            polling=15)

    def wait_person_or_over(self, timeout: float = 60.0) -> str:
        self.page.evaluate(DEEP)
        self.page.wait_for_function(
            "() => { const b = window.__one('.banner');"
            " return b && (b.classList.contains('you') || b.classList.contains('over')); }",
            timeout=timeout * 1000, polling=30)
        return self.snap()["kind"]

    def act(self, how: str, action: str, old: int | None = None):
        """``how``: "click" or "key"; ``action``: roll, stand, or a key/button name."""
        old = self.tick() if old is None else old
        if how == "key":
            key = {"roll": ".", "stand": "0"}.get(action, action)
            self.page.keyboard.press(key)
        else:
            try:
                self.button({"roll": ROLL, "stand": STAND}.get(action, action)).click(
                    timeout=3000)
            except Exception:  # the table moved on (disabled meanwhile): look again
                return None
        return self.wait_tick(old)

    def play_to_end(self, decide, how: str, max_actions: int = 2000, seen=None):
        """Play every person turn with ``decide(app) -> action`` until the game is over."""
        for _ in range(max_actions):
            if self.wait_person_or_over() == "over":
                return self.banner()
            snap = self.snap()
            if snap["kind"] != "you":
                continue
            action = decide(self, snap)
            if seen is not None:
                seen.append((snap["hint"], snap["odds"]))
            self.act(how, action, snap["tick"])
        raise AssertionError("the game did not end")
