"""The app in French and in Russian (issue 18): a few turns of play show no English word,
switching language mid-game keeps the game, and a network room shows each person their own
language. The sweep plays every variant in both languages."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dicelab.i18n import _, using

from .conftest import Server
from .driver import DEEP, App
from .lang_check import foreign_words

pytestmark = pytest.mark.browser
# the names the tests type, and the default seat names the app gives in each language (a
# game keeps its seats' names when the language changes; the records keep them too)
def _default_names() -> set[str]:
    out = set()
    for lang in ("fr", "ru"):  # (not English's: they would hide English words)
        with using(lang):
            out |= {_("Computer"), *(_("Computer {n}", n=n) for n in range(2, 8))}
    return out


NAMES = ("Anne", "Фёдор", *sorted(_default_names()))


@pytest.fixture(scope="module")
def lang_server(tmp_path_factory):
    # a free port of its own (as every served test): two xdist workers may both start one
    srv = Server(tmp_path_factory.mktemp("lang") / "records.sqlite3")
    srv.start()
    yield srv
    srv.stop()


def words(lang: str, *messages: str) -> list[str]:
    with using(lang):
        return [_(m) for m in messages]


def open_app(page, server, lang: str | None, pace: float = 0.05, extra: str = "") -> App:
    app = App(page, server, pace=pace)
    q = f"?pace={pace}&anim=0&sound=off" + (f"&lang={lang}" if lang else "") + extra
    page.goto(server.url + q)
    page.locator(".vcard").first.wait_for()
    app.wait_ready()
    return app


def start(app: App, lang: str, variant: int, seed: str | None = None, me: str = "Anne"):
    """Choose the ``variant``-th card, name the first seat, start; wait for the table."""
    page = app.page
    pick(page, lang, variant)
    name_label, seed_label, go = words(lang, "Seat {n} name", "Seed (optional)",
                                       "Start new game")
    with using(lang):
        name_label = _("Seat {n} name", n=1)
    box = page.get_by_label(name_label, exact=True)
    box.fill(me)
    if seed is not None:
        page.get_by_label(seed_label, exact=True).fill(seed)
    page.get_by_role("button", name=go, exact=True).click()
    page.locator(".banner").wait_for()


def pick(page, lang: str, variant: int) -> None:
    """Choose the ``variant``-th card; wait until the seats are drawn again for it (typing
    into the fields drawn before is lost)."""
    with using(lang):
        field = page.get_by_label(_("Seat {n} name", n=1), exact=True).element_handle()
    page.locator(".vcard button.pick").nth(variant).click()
    expect(page.locator(".vcard").nth(variant)).to_have_class(re.compile("chosen"))
    if variant != 0:  # the first card is chosen already: nothing is drawn again
        page.wait_for_function("(e) => !e.isConnected", arg=field)


def play_turns(app: App, n_actions: int, stand: bool = True) -> None:
    """Roll (.) and stand (0) by keys (``stand=False``: roll only); in Yahtzee score the
    first open box after a roll."""
    page = app.page
    for i in range(n_actions):
        if app.wait_person_or_over() == "over":
            return
        old = app.tick()
        boxes = page.locator("button.box")
        if boxes.count() and i % 3 == 2:
            boxes.first.click()
        else:
            page.keyboard.press("0" if stand and i % 3 == 2 else ".")
        try:
            app.wait_tick(old, timeout=3)
        except Exception:  # refused (an alert says why): the table did not move
            pass


def assert_in_language(page, lang: str, names=NAMES) -> None:
    """No word on the page outside ``lang``'s (the catalogs are complete: tests/test_i18n)."""
    found = foreign_words(page, lang, names)
    assert not found, f"not {lang}: {found}"


@pytest.mark.parametrize("lang", ["fr", "ru"])
@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_every_variant_in_each_language(page, lang_server, lang, variant):
    app = open_app(page, lang_server, lang)
    page.get_by_role("button", name=words(lang, "Rules")[0], exact=True).click()
    page.locator("[role=dialog]").wait_for()
    assert_in_language(page, lang)
    page.keyboard.press("Escape")
    start(app, lang, variant)
    play_turns(app, 12)
    page.get_by_role("button", name="⚙ " + words(lang, "Settings")[0]).click()
    page.locator("[data-testid=record-wins]").wait_for()
    assert_in_language(page, lang)
    assert not page.errors


def table_state(page) -> dict:
    """What the table shows of the game, in no language: the dice, totals, history length."""
    page.evaluate(DEEP)
    return page.evaluate("""() => {
      const one = window.__one;
      const tray = one('.tray'), board = one('table.board'), hist = one('ol.history');
      const pips = tray ? [...tray.querySelectorAll('.die')].map(
        d => d.querySelectorAll('circle').length) : [];
      const totals = board ? [...board.querySelectorAll('tbody tr')].map(
        tr => tr.querySelectorAll('td')[1].textContent.replace(/\\D/g, '')) : [];
      const n = hist ? hist.getRootNode().querySelectorAll('ol.history li, ol.earlier li')
        .length : 0;
      const turn = board ? [...board.querySelectorAll('tbody tr')].findIndex(
        tr => tr.classList.contains('turn')) : -1;
      return {pips, totals, history: n, turn, tick: tray ? tray.dataset.tick : null};
    }""")


def choose_language(page, lang: str, now: str) -> None:
    """Pick ``lang`` in the header's menu (labelled in the language ``now``)."""
    name = {"en": "English", "fr": "Français", "ru": "Русский"}[lang]
    page.get_by_role("combobox", name=words(now, "Language")[0]).first.select_option(label=name)
    page.get_by_role("button", name=words(lang, "New game")[0], exact=True).wait_for()


def test_russian_then_french_mid_game_keeps_everything(page, lang_server):
    """The start screen's choices survive a switch, then the game does: same dice, totals,
    history and turn; each page in its language; the choice is kept by the browser."""
    open_app(page, lang_server, "ru")
    assert page.evaluate("document.documentElement.lang") == "ru"
    pick(page, "ru", 1)  # Thousand
    with using("ru"):
        for label, value in ((_("Seat {n} name", n=1), "Фёдор"), (_("Seed (optional)"), "7")):
            page.get_by_label(label, exact=True).fill(value)
            page.keyboard.press("Tab")
    choose_language(page, "fr", "ru")
    expect(page.locator(".vcard").nth(1)).to_have_class(re.compile("chosen"))
    with using("fr"):
        expect(page.get_by_label(_("Seat {n} name", n=1), exact=True)).to_have_value("Фёдор")
        expect(page.get_by_label(_("Seat {n} name", n=2), exact=True)).to_have_value(
            _("Computer"))  # a default name follows the language
        expect(page.get_by_label(_("Seed (optional)"), exact=True)).to_have_value("7")
    choose_language(page, "ru", "fr")
    with using("ru"):
        page.get_by_role("button", name=_("Start new game"), exact=True).click()
    page.locator(".banner").wait_for()
    app = App(page, lang_server)
    play_turns(app, 4, stand=False)
    app.wait_person_or_over()
    assert_in_language(page, "ru")
    before = table_state(page)
    choose_language(page, "fr", "ru")
    page.wait_for_function("() => location.search.includes('lang=fr')")
    app.wait_person_or_over()
    after = table_state(page)
    assert {k: v for k, v in after.items() if k != "tick"} == \
        {k: v for k, v in before.items() if k != "tick"}
    assert page.evaluate("localStorage.getItem('dicelab.lang')") == "fr"
    assert page.evaluate("document.documentElement.lang") == "fr"
    # the same game goes on in French (keys act once the focus has left the menu)
    page.locator(".banner").click()
    old = app.tick()
    page.keyboard.press(".")
    app.wait_tick(old)
    assert table_state(page)["history"] > before["history"]
    # the browser keeps the choice: a page opened without ?lang= is French; ?lang= wins
    other = page.context.new_page()
    other.goto(lang_server.url + "?anim=0&sound=off")
    other.get_by_role("button", name=words("fr", "New game")[0], exact=True).wait_for()
    other.goto(lang_server.url + "?anim=0&sound=off&lang=ru")
    other.get_by_role("button", name=words("ru", "New game")[0], exact=True).wait_for()
    other.close()
    assert_in_language(page, "fr")
    assert not page.errors


def test_a_room_shows_each_person_their_language(browser, lang_server):
    fr = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    ru = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    for page, lang in ((fr, "fr"), (ru, "ru")):
        page.goto(lang_server.url + f"?anim=0&sound=off&lang={lang}")
        page.locator(".vcard").first.wait_for()
        App(page, lang_server).wait_ready()
        page.get_by_role("button", name=words(lang, "Network games")[0], exact=True).click()
        page.get_by_label(words(lang, "Your name")[0]).fill(
            "Anne" if lang == "fr" else "Фёдор")
    fr.get_by_label(words("fr", "Name of a new game")[0]).fill("salle-18")
    fr.get_by_role("button", name=words("fr", "Create game")[0], exact=True).click()
    with using("fr"):
        fr.get_by_text(_("{room}: waiting for the start", room="salle-18")).wait_for()
    with using("ru"):
        ru.get_by_role("button", name=_("Join {room}", room="salle-18"), exact=True).click()
        ru.get_by_text(_("{room}: waiting for the start", room="salle-18")).wait_for()
    with using("fr"):
        fr.get_by_text("Фёдор").wait_for()
        fr.get_by_role("button", name=_("Start game"), exact=True).click()
    for page in (fr, ru):
        page.locator(".banner").wait_for()
    # whoever won the seating roll-off rolls: both pages show the same game in their words
    for page in (fr, ru):
        page.evaluate(DEEP)
    for _i in range(2):
        on_turn = next((p for p in (fr, ru) if p.evaluate(
            "() => { const b = window.__one('.banner'); return !!b && "
            "b.classList.contains('you'); }")), None)
        if on_turn is None:
            fr.wait_for_timeout(300)
            continue
        app = App(on_turn, lang_server)
        old = app.tick()
        on_turn.keyboard.press(".")
        app.wait_tick(old)
    for page in (fr, ru):
        page.locator("ol.history li").nth(1).wait_for()
    for page, lang in ((fr, "fr"), (ru, "ru")):
        assert page.evaluate("document.documentElement.lang") == lang
        assert_in_language(page, lang, names=NAMES + ("salle-18",))
    fr.context.close()
    ru.context.close()

