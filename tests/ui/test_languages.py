"""The app in French and in Russian (issue 18): a few turns of play show no English word,
switching language mid-game keeps the game, and a network room shows each person their own
language. The sweep over every variant in both languages runs with DICELAB_SLOW=1."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from dicelab.i18n import _, using

from .conftest import Server
from .driver import DEEP, App
from .lang_check import foreign_words, unfinished_domains

pytestmark = pytest.mark.browser
SLOW = bool(os.environ.get("DICELAB_SLOW"))
PORT = 5301  # this file's server (the i18n-ui helper's port range)
NAMES = ("Anne", "Фёдор")  # the names the tests type


@pytest.fixture(scope="module")
def lang_server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("lang") / "records.sqlite3")
    srv.port = PORT
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
    page.locator(".vcard button.pick").nth(variant).click()
    expect(page.locator(".vcard").nth(variant)).to_have_class(re.compile("chosen"))
    page.wait_for_timeout(300)  # the seats are drawn again for the game chosen
    app.wait_ready()
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


def play_turns(app: App, n_actions: int) -> None:
    """Roll (.) and stand (0) by keys; in Yahtzee score the first open box after a roll."""
    page = app.page
    for i in range(n_actions):
        if app.wait_person_or_over() == "over":
            return
        old = app.tick()
        boxes = page.locator("button.box")
        if boxes.count() and i % 3 == 2:
            boxes.first.click()
        else:
            page.keyboard.press("0" if i % 3 == 2 else ".")
        try:
            app.wait_tick(old, timeout=5)
        except Exception:  # refused (an alert says why): the table did not move
            pass


def assert_in_language(page, lang: str, names=NAMES) -> None:
    found = foreign_words(page, lang, names)
    if found and unfinished_domains(lang):
        pytest.xfail(f"{lang}: catalogs {unfinished_domains(lang)} unfinished; words on the "
                     f"page: {sorted(found)[:40]}")
    assert not found, f"not {lang}: {found}"


@pytest.mark.parametrize("lang, variant", [("fr", 0), ("ru", 3)])
def test_a_game_shows_only_the_page_s_language(page, lang_server, lang, variant):
    app = open_app(page, lang_server, lang)
    assert page.evaluate("document.documentElement.lang") == lang
    start(app, lang, variant)
    play_turns(app, 8)
    page.get_by_role("button", name="⚙ " + words(lang, "Settings")[0]).click()
    page.locator("[data-testid=record-wins]").wait_for()
    assert_in_language(page, lang)
    assert not page.errors


@pytest.mark.skipif(not SLOW, reason="slow: set DICELAB_SLOW=1")
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
    assert_in_language(page, lang)


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
    page.get_by_role("combobox", name=words(now, "Language")[0]).click()
    name = {"en": "English", "fr": "Français", "ru": "Русский"}[lang]
    page.locator("li").filter(has_text=re.compile(f"^{name}$")).first.click()
    page.get_by_role("button", name=words(lang, "New game")[0], exact=True).wait_for()


def test_switching_language_keeps_the_game_and_the_choice(page, lang_server):
    app = open_app(page, lang_server, None, pace=0.6)  # the browser's language: English
    assert page.evaluate("document.documentElement.lang") == "en"
    start(app, "en", 1, seed="7", me="Anne")  # Thousand
    play_turns(app, 3)
    app.wait_person_or_over()
    before = table_state(page)
    choose_language(page, "ru", "en")
    page.wait_for_function("() => location.search.includes('lang=ru')")
    page.locator(".banner").wait_for()
    app.wait_person_or_over()
    after = table_state(page)
    assert {k: v for k, v in after.items() if k != "tick"} == \
        {k: v for k, v in before.items() if k != "tick"}
    assert page.evaluate("localStorage.getItem('dicelab.lang')") == "ru"
    assert page.evaluate("document.documentElement.lang") == "ru"
    # the same game goes on in Russian (keys act once the focus has left the menu)
    page.locator(".banner").click()
    old = app.tick()
    page.keyboard.press(".")
    app.wait_tick(old)
    assert table_state(page)["history"] > before["history"]
    # the browser keeps the choice: a page opened without ?lang= is Russian, ?lang= wins
    other = page.context.new_page()
    other.goto(lang_server.url + "?anim=0&sound=off")
    other.get_by_role("button", name=words("ru", "New game")[0], exact=True).wait_for()
    other.goto(lang_server.url + "?anim=0&sound=off&lang=fr")
    other.get_by_role("button", name=words("fr", "New game")[0], exact=True).wait_for()
    other.close()


def test_switching_on_the_start_screen_keeps_the_choices(page, lang_server):
    open_app(page, lang_server, "fr")
    page.locator(".vcard button.pick").nth(2).click()  # Under40
    with using("fr"):  # the seats are drawn again for the game chosen: type after that
        page.get_by_text(_("Rules settings — {game}", game="Under40")).wait_for()
        for label, value in ((_("Seat {n} name", n=1), "Фёдор"), (_("Seed (optional)"), "42")):
            page.get_by_label(label, exact=True).fill(value)
            page.keyboard.press("Tab")
    choose_language(page, "ru", "fr")
    expect(page.locator(".vcard").nth(2)).to_have_class(re.compile("chosen"))
    with using("ru"):
        expect(page.get_by_label(_("Seat {n} name", n=1), exact=True)).to_have_value("Фёдор")
        expect(page.get_by_label(_("Seat {n} name", n=2), exact=True)).to_have_value(
            _("Computer"))  # a default name follows the language
        expect(page.get_by_label(_("Seed (optional)"), exact=True)).to_have_value("42")


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
    # the creator plays; both pages show the same game, each in its own words
    app = App(fr, lang_server)
    for _i in range(2):
        if app.wait_person_or_over() != "you":
            break
        old = app.tick()
        fr.keyboard.press(".")
        app.wait_tick(old)
    ru.locator("ol.history li").first.wait_for()
    for page, lang in ((fr, "fr"), (ru, "ru")):
        assert page.evaluate("document.documentElement.lang") == lang
        assert_in_language(page, lang, names=NAMES + ("salle-18",))
    fr.context.close()
    ru.context.close()

