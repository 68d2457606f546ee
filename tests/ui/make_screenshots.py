"""Screenshots of each variant for the README: ``python -m tests.ui.make_screenshots``.

Serves the app, plays a few seeded moves of each variant in headless Chromium and writes
docs/screenshots/<variant>.png, and <variant>-phone.png at 390x844 (palette-reduced to stay
small). ``--phone`` makes only the phone ones; ``--lang`` only the tables in French and in
Russian (table-fr.png, table-ru.png).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from .conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, Server
from .driver import App

OUT = ROOT / "docs" / "screenshots"
# variant -> (card title, seed, keys to press after the start)
PLAYS = {
    "bones": ("Bones", "11", [".", "."]),
    "thousand": ("Thousand", "7", [".", "."]),
    "under40": ("Under40", "5", [".", "."]),
    "yahtzee": ("Yahtzee", "3", ["Enter", "1", "2"]),
}


def shrink(path: Path) -> None:
    from PIL import Image

    img = Image.open(path).convert("RGB")
    img.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


# language -> (card, seat name, seed, keys): Thousand in French, Bones in Russian
LANGS = {"fr": (1, "Anne", "7", [".", "."]), "ru": (0, "Фёдор", "11", [".", "."])}


def languages(browser, server) -> None:
    from dicelab.i18n import _, using

    for lang, (card, name, seed, keys) in LANGS.items():
        page = browser.new_page(viewport={"width": 1200, "height": 860})
        page.goto(f"{server.url}?pace=0.6&anim=0&sound=off&lang={lang}")
        app = App(page, server, pace=0.6)
        page.locator(".vcard button.pick").nth(card).click()
        page.wait_for_timeout(800)
        with using(lang):
            for label, value in ((_("Seat {n} name", n=1), name), (_("Seed (optional)"), seed)):
                page.get_by_label(label, exact=True).fill(value)
                page.keyboard.press("Tab")
            page.get_by_role("button", name=_("Start new game"), exact=True).click()
        page.locator(".banner").wait_for()
        for key in keys:
            app.wait_person_or_over()
            old = app.tick()
            page.keyboard.press(key)
            app.wait_tick(old)
        page.wait_for_timeout(700)
        path = OUT / f"table-{lang}.png"
        page.screenshot(path=str(path))
        shrink(path)
        print(path, path.stat().st_size // 1024, "KiB")
        page.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    server = Server(Path(tempfile.mkdtemp()) / "records.sqlite3").start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if "--lang" in sys.argv:
                languages(browser, server)
                browser.close()
                return 0
            sizes = [("-phone", 390, 844)]
            if "--phone" not in sys.argv:
                sizes.insert(0, ("", 1200, 860))
            for (suffix, width, height), (variant, (title, seed, keys)) in (
                    (s, p) for s in sizes for p in PLAYS.items()):
                page = browser.new_page(viewport={"width": width, "height": height})
                app = App(page, server, pace=0.6).open()
                if variant != "bones":
                    app.choose(title)
                app.set_field("Seed (optional)", seed)
                app.start()
                app.wait_person_or_over()
                for key in keys:
                    old = app.tick()
                    page.keyboard.press(key)
                    app.wait_tick(old)
                page.wait_for_timeout(700)  # after the roll animation
                path = OUT / f"{variant}{suffix}.png"
                page.screenshot(path=str(path))
                shrink(path)
                print(path, path.stat().st_size // 1024, "KiB")
                page.close()
            browser.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
