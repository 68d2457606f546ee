"""The app's language plumbing (issue 18), without a browser: each served page has its own
language, the precedence of the address, the browser's kept choice and its languages, and a
switch that keeps the game, the screen and the choices as they were."""
from __future__ import annotations

import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc

from dicelab import i18n
from dicelab.i18n import _, using
from dicelab.ui import DicelabApp
from dicelab.ui import language as lang_mod
from dicelab.ui.language import built_in_words, first_language
from dicelab.ui.table import _watchers


@pytest.fixture
def app(tmp_path):
    made = []

    def make(**kw):
        a = DicelabApp(records_path=tmp_path / "records.sqlite3", **kw)
        made.append(a)
        return a
    yield make
    for a in made:
        if a.play is not None:
            a.play.close()
    lang_mod.reset_unserved()


def test_precedence_address_then_kept_choice_then_browser():
    assert first_language("fr", "ru", "en-US") == "fr"
    assert first_language(None, "ru", "fr-FR,fr;q=0.9") == "ru"
    assert first_language(None, None, i18n.from_accept_language("de-DE,ru;q=0.8,fr;q=0.5")) \
        == "ru"
    assert first_language(None, "xx", None) == "en"


def test_each_page_has_its_own_language(monkeypatch):
    # two served sessions: the resolver answers by the document being served
    a, b = Document(), Document()
    monkeypatch.setattr(lang_mod, "served_doc", lambda: lang_mod.pn.state.curdoc)
    with set_curdoc(a):
        lang_mod.set_page_language("fr")
    with set_curdoc(b):
        lang_mod.set_page_language("ru")
    with set_curdoc(a):
        assert _("New game") == "Nouvelle partie"
    with set_curdoc(b):
        assert _("New game") == "Новая игра"
        with using("en"):  # a context still wins
            assert _("New game") == "New game"
    assert i18n.language() == "en"  # no page, no notebook app: the process's default


def test_a_notebook_app_in_russian_and_a_switch_that_keeps_the_game(app):
    a = app(lang="ru")
    assert a._new.label == "Новая игра" and a._lang_menu.value == "ru"
    assert a.start_screen.seats[0].player_name == "Вы"
    a.start_screen.seed = 5
    game = a.start_screen.start()
    assert game.seats[0].name == "You"  # the default seat stays the person's seat
    a.play.roll()
    history, state, table = list(game.history), game.state, a._screen
    play_watchers = len(_watchers(table._watched()))
    a.set_language("fr")
    assert a.play.game is game and game.state is state and list(game.history) == history
    assert a._screen is not table and a._new.label == "Nouvelle partie"
    assert a._settings_btn.label == "⚙ Réglages"
    # the old table's views stopped following the game: no watcher piles up per switch
    a.set_language("ru")
    a.set_language("fr")
    assert len(_watchers(a._screen._watched())) == play_watchers
    assert built_in_words()["Toggle theme"] == built_in_words()["Светлая или тёмная тема"]


def test_a_switch_on_the_start_screen_keeps_every_choice(app):
    a = app(lang="fr")
    s = a.start_screen
    s.choose("thousand")
    s.seats[0].player_name = "Фёдор"
    s.settings["thousand"].target = 1500
    s.seed = 9
    a.set_language("ru")
    assert s.variant == "thousand" and s.seed == 9
    assert s.seats[0].player_name == "Фёдор"          # typed: kept as typed
    assert s.seats[1].player_name == "Компьютер"      # the default: in the new language
    assert s.settings["thousand"].target == 1500
    assert s._go.label == "Начать новую игру"
    cards = {c["variant"]: c for c in s._cards.cards}
    assert cards["thousand"]["chosen"].startswith("✓")
    with pytest.raises(ValueError, match="Langue inconnue|Неизвестный язык"):
        lang_mod.set_page_language("de")
