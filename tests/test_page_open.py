"""Opening a page (issue 15: a served page is a shared resource): a page opened on a room's
link, as a class opens theirs, does not build the start screen, about half of what the page
costs the server (benchmarks/page_open.py). tests/ui/test_page_open_browser.py shows the start
screen made later on a fresh server."""
from __future__ import annotations

from dicelab.ui import app as app_mod
from dicelab.ui.app import DicelabApp
from dicelab.ui.start import StartScreen


def room_page(monkeypatch, tmp_path, room="Class 1"):
    monkeypatch.setattr(app_mod, "_arg", lambda name: room if name == "room" else None)
    return DicelabApp(records_path=tmp_path / "records.sqlite3")


def test_a_page_opened_on_a_room_builds_no_start_screen(monkeypatch, tmp_path):
    app = room_page(monkeypatch, tmp_path)
    assert app._start_screen is None
    assert "Opening Class 1" in app._main.objects[0].object
    # New game (or Rules) makes it then, in the page's rules slot
    app.show_start()
    assert isinstance(app._start_screen, StartScreen)
    assert app._screen is app._start_screen
    assert app._start_screen._rules_slot is app._rules_slot


def test_a_plain_page_shows_the_start_screen_at_once(tmp_path):
    app = DicelabApp(records_path=tmp_path / "records.sqlite3")
    assert isinstance(app._start_screen, StartScreen)
    assert app._screen is app._start_screen


def test_rules_and_a_new_language_on_a_room_page(monkeypatch, tmp_path):
    app = room_page(monkeypatch, tmp_path)
    app.set_language("fr")  # no start screen to relabel yet
    assert app._start_screen is None
    app._rules_btn.clicks += 1  # the header's Rules: the dialog needs the start screen
    assert app._start_screen is not None
    rules = app._start_screen._rules  # the dialog (a Viewer: the slot holds its layout)
    assert rules is not None and rules.open
    assert app._rules_slot.objects == [rules.__panel__()]
    assert app._start_screen._go.label == "Commencer une nouvelle partie"  # made in French


def test_a_damaged_records_file_is_said_when_the_start_screen_is_made(monkeypatch, tmp_path):
    (tmp_path / "records.sqlite3").write_bytes(b"not a database")
    app = room_page(monkeypatch, tmp_path)
    assert app._start_screen is None
    assert "set aside" in app.start_screen.message
