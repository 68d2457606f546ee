"""A small driver for the served app in Playwright (what a person sees and does)."""
from __future__ import annotations

import re
from urllib.parse import quote_plus

from playwright.sync_api import expect

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


def idle_work(page, seconds: float = 2.0) -> float:
    """Seconds the page's main thread spent on tasks while nobody did anything for ``seconds``
    (Chrome's TaskDuration, CPU work, not waiting): an idle page does next to none, a page
    that loops spends about all of it (a hidden Tabulator's resize loop cost a core per tab)."""
    import time

    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Performance.enable")

        def task() -> float:
            metrics = cdp.send("Performance.getMetrics")["metrics"]
            return next(m["value"] for m in metrics if m["name"] == "TaskDuration")
        before = task()
        time.sleep(seconds)
        return task() - before
    finally:
        cdp.detach()


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
        """Until Bokeh reports the document idle (and Panel has run its onload). Since issue 33
        the page's session is built when its websocket arrives, not during ``goto``: that work
        now falls in this wait (two pages opened at once on a loaded machine took 30 s)."""
        self.page.wait_for_function(
            "() => window.Bokeh && Bokeh.documents.length && Bokeh.documents[0]._notified_idle",
            timeout=60_000)

    def choose(self, variant_title: str):
        btn = self.page.get_by_role("button", name=f"Choose {variant_title}")
        btn.click()
        self.page.get_by_role("button", name=f"✓ {variant_title} chosen").wait_for()
        # the settings fields are redrawn too: typing into the previous variant's "Target"
        # before they arrive loses the value
        self.page.get_by_text(re.compile(rf"^Rules settings — {re.escape(variant_title)}")
                              ).wait_for()

    def set_field(self, label: str, value: str):
        box = self.page.get_by_label(label, exact=True).first
        box.click()
        box.press("Control+A")
        box.type(value)
        box.press("Tab")
        # the field took it (a number box shows 1500 as "1,500")
        shown = r"[,\s\u202f]?".join(map(re.escape, value))
        expect(self.page.get_by_label(label, exact=True).first).to_have_value(
            re.compile(f"^{shown}$"))

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


# ===== network games (rooms) =====================================================================
# What one browser sees of a room, read in one round trip: the bar, the waiting list, the dice
# (pips per die, in the tray's order), the scoreboard rows and the history, as text.
ROOM_SNAP = DEEP + """
(() => {
  const one = window.__one, deep = window.__deep;
  const text = (e) => e ? e.textContent.replace(/\\s+/g, ' ').trim() : '';
  const bar = deep('div').find(d => /^Network game /.test(d.textContent || '')
                               && !d.querySelector('div'));
  const tray = one('.tray');
  const dice = {};
  if (tray) for (const area of tray.querySelectorAll('.area')) {
    const k = area.classList.contains('keep') ? 'keep' : 'rolled';
    dice[k] = [...area.querySelectorAll('.die')].map(d => d.querySelectorAll('circle').length);
    if (k === 'rolled') dice.label = text(area.querySelector('.area-label'));
  }
  const board = one('table.board');
  const rows = board ? [...board.querySelectorAll('tbody tr')].map(tr => {
    const [who, total] = tr.querySelectorAll('td');
    const name = who ? [...who.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent)
      .join('').trim() : '';
    const tag = who && who.querySelector('.tag');
    return {name, tag: tag ? text(tag) : '', total: Number(text(total).replace(/,/g, '')),
            turn: tr.classList.contains('turn')};
  }) : [];
  const seats = one('ol[data-testid=seats]');
  const hist = one('ol.history');
  const banner = one('.banner');
  return {bar: text(bar), seats: seats ? [...seats.querySelectorAll('li')].map(text) : null,
          tick: tray ? Number(tray.dataset.tick) : -1, dice, rows,
          banner: text(banner),
          history: hist ? [...hist.getRootNode().querySelectorAll('ol.history li, ol.earlier li')]
            .map(text) : [],
          alerts: deep('[role=alert]').map(text).filter(Boolean)};
})()
"""


class RoomApp(App):
    """One browser (a Playwright browser context: its own localStorage, so its own seats) in
    the lobby and the rooms of a served app; ``server`` is anything with a ``url``."""

    lost_clicks = 0  # clicks the app dropped because it had redrawn the button meanwhile

    def open_room_url(self, room: str | None = None, go: bool = True, wait: bool = True):
        """Open the app (with ``?room=``: straight into that room, as after a reload).
        ``wait=False``: only start loading; ``go=False``: only wait for a load started so."""
        if go:
            q = "?anim=0&sound=off" + (f"&room={quote_plus(room)}" if room else "")
            self.page.goto(self.server.url + q, wait_until="load" if wait else "commit")
        if not wait:
            return self
        self.wait_ready()
        if room:
            self.wait_room("(s) => s.bar.length > 0 || s.alerts.length > 0")
        return self

    def lobby(self, name: str | None = None):
        self.page.get_by_role("button", name="Network games").click()
        self.page.get_by_role("button", name="Create game").wait_for()
        if name is not None:
            self.page.get_by_label("Your name").fill(name)
        return self

    def short_rules(self, **steps: int):
        """Open "Rules settings for the new game" and type into each Bones number field (its
        label, spaces as underscores) its minimum plus that many steps: ``short_rules(Target=2)``
        (bounds and steps from the Settings model)."""
        from dicelab.settings import BonesSettings

        params = {BonesSettings.param[n].label: BonesSettings.param[n]
                  for n in BonesSettings.names()}
        first = self.page.get_by_label(next(iter(steps)).replace("_", " "), exact=True).first
        if not first.is_visible():
            self.page.get_by_text("Rules settings for the new game").click()
        for label, n in steps.items():
            par = params[label.replace("_", " ")]
            value = par.bounds[0] + n * (par.step or 1)
            box = self.page.get_by_label(label.replace("_", " "), exact=True).first
            box.click()
            box.press("Control+A")
            box.type(str(value))
            box.press("Tab")
            expect(box).to_have_value(re.compile("^" + r"[,\s\u202f]?".join(str(value)) + "$"))

    def choose_variant(self, title: str):
        """Pick the new game's variant in the "Game" select (a native select)."""
        select = self.page.get_by_role("combobox", name="Game")
        select.select_option(label=title)
        self.page.wait_for_function("([el, t]) => el.selectedOptions[0].textContent.trim() === t",
                                    arg=[select.element_handle(), title])

    def create(self, game: str, expect_ok: bool = True):
        self.page.get_by_label("Name of a new game").fill(game)
        self.page.get_by_role("button", name="Create game").click()
        if expect_ok:
            self.page.get_by_text("waiting for the start").wait_for()
        return self

    def join(self, game: str):
        self.page.get_by_role("button", name=f"Join {game}", exact=True).click()
        self.page.get_by_text("waiting for the start").wait_for()
        return self

    def watch(self, game: str):
        self.page.get_by_role("button", name=f"Watch {game}", exact=True).click()
        self.page.get_by_text("you are watching").wait_for()
        return self

    def click_until(self, button: str, done, timeout: float = 10.0) -> None:
        """Click ``button`` until ``done()`` (a Playwright wait) returns. The room screen draws
        its buttons anew on each change, and twice after the creator's own change: a click on
        the button of the draw before is dropped. So click again, but only if the clicked
        button was replaced meanwhile (else the click was seen and ``done`` failed)."""
        for attempt in range(3):
            button_now = self.page.get_by_role("button", name=button, exact=True)
            if attempt and button_now.count() == 0:
                return done(timeout)  # the click was seen after all: its screen has no button
            handle = button_now.element_handle()
            try:
                handle.click(timeout=timeout * 1000)
            except Exception:
                if handle.evaluate("(e) => e.isConnected"):
                    raise
                continue  # replaced before the click: click the new one
            try:
                return done(timeout)
            except Exception:
                if handle.evaluate("(e) => e.isConnected"):
                    raise
                RoomApp.lost_clicks += 1
        raise AssertionError(f"three clicks on {button!r} were lost")

    def add_computer(self):
        n = len(self.room_snap()["seats"] or [])
        self.click_until("Add computer", lambda t: self.wait_room(
            "(s, n) => s.seats && s.seats.length === n", n + 1, timeout=t))

    def start_room(self):
        self.click_until("Start game", lambda t: self.page.locator(
            ".banner, [role=alert]").first.wait_for(timeout=t * 1000))
        alerts = self.room_snap()["alerts"]
        assert not alerts, f"the game did not start: {alerts}"
        self.page.locator(".banner").first.wait_for()

    def room_snap(self) -> dict:
        """bar, seats (waiting list or None), tick, dice {rolled, keep: pips per die, label},
        rows [{name, tag, total, turn}], banner, history (newest first), alerts."""
        return self.page.evaluate(ROOM_SNAP)

    def wait_room(self, predicate_js: str, arg=None, timeout: float = 15.0):
        """Until ``predicate_js`` (a JS function of (room snap, arg)) holds."""
        body = ROOM_SNAP.replace(DEEP, "")
        self.page.evaluate(DEEP)
        self.page.wait_for_function(
            f"(arg) => {{ const s = {body}; return ({predicate_js})(s, arg); }}", arg=arg,
            timeout=timeout * 1000, polling=50)
        return self.room_snap()

    def wait_said(self, text: str, timeout: float = 10.0) -> list[str]:
        """Until an alert on the page holds ``text``; returns the alerts."""
        try:
            return self.wait_room("(s, t) => s.alerts.some(a => a.includes(t))", text,
                                  timeout=timeout)["alerts"]
        except Exception:
            raise AssertionError(f"no alert says {text!r}: {self.room_snap()['alerts']}") from None

    def tokens(self) -> dict:
        """This browser's seat tokens (room key -> token), as the app keeps them."""
        return self.page.evaluate(
            "() => JSON.parse(localStorage.getItem('dicelab.seats') || '{}')")
