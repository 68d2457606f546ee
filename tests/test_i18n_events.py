"""Event and error texts carry their message id and parameters and are rendered only where
shown (issue 34): a French page shows its history, banner, tray announcement and refusals in
French after the app escapes and joins them, and the operations that would give the English
characters (``html.escape(t)``, ``" ".join([t])``, ``json.dumps(t)``) fail instead of showing
English; ``t + "..."`` keeps the message."""
from __future__ import annotations

import html
import json

import pytest

from dicelab import RuleError
from dicelab.games import new_game
from dicelab.i18n import Msg, english, using

ANN = "Ann <b>&"  # a typed name: escaped where shown, never translated


def test_an_event_text_is_a_message_not_english_characters():
    g = new_game("bones", [ANN, "Bob"], seed=1)
    e = g.apply("roll")[0]
    assert isinstance(e.text, Msg) and e.text.params  # its id and parameters, kept
    fr, en = e.text.render("fr"), e.text.render("en")
    assert fr != en and english(e.text) == en
    with using("fr"):
        with pytest.raises(AttributeError, match="render it where it is shown"):
            html.escape(e.text)
        with pytest.raises(TypeError):
            " ".join([e.text])
        with pytest.raises(TypeError):
            json.dumps(e.text)
        after, before = e.text + " !", "» " + e.text
    assert isinstance(after, Msg) and isinstance(before, Msg)  # still a message, not English
    with using("fr"):
        assert str(after) == fr + " !" and f"{before}" == "» " + fr
    assert str(after) == en + " !"
    # code and tests read the English: ==, in, startswith
    assert e.text == en and e.text.startswith(en[:5]) and en[-6:] in e.text


def test_an_error_text_is_a_message():
    g = new_game("bones", [ANN, "Bob"], seed=1)
    with pytest.raises(RuleError) as caught:
        g.apply("stand")
    said = caught.value.args[0]
    assert isinstance(said, Msg)
    with pytest.raises(AttributeError):
        html.escape(said)
    with using("fr"):
        assert html.escape(str(caught.value)).startswith("un tour commence par un lancer")


def test_a_french_page_shows_history_banner_tray_and_refusal_in_french():
    from dicelab.ui.banner import TurnBanner
    from dicelab.ui.history import History
    from dicelab.ui.play import Play
    from dicelab.ui.tray import tray_description
    from dicelab.ui.words import alert_pane, show_alert

    g = new_game("bones", [ANN, "Bob"], seed=1)
    with using("fr"):
        play = Play(g)
        history, banner = History(play=play), TurnBanner(play=play)
        events = g.apply("roll")
        shown = history.__panel__().object
        for e in events:
            assert html.escape(e.text.render("fr")) in shown
            assert html.escape(e.text.render("en")) not in shown
        assert "Ann &lt;b&gt;&amp;" in shown and ANN not in shown
        announce = tray_description(play)["announce"]
        assert announce == " ".join(e.text.render("fr") for e in play.last_events)
        assert "total du tour" in banner.__panel__().object
        g2 = new_game("bones", ["Vous", "Bob"], seed=1)
        play2 = Play(g2)
        assert play2.stand() is False  # a turn begins with a roll: refused
        assert play2.message.startswith("un tour commence par un lancer")
        pane = alert_pane()
        show_alert(pane, play2.message)
        assert "un tour commence par un lancer" in pane.object


def test_no_message_shown_to_players_names_a_spec_file():
    """Players never read "RULES.md" (a file of the source tree): the coach's sentence on the
    final turns says what the rule is, in every language."""
    from pathlib import Path

    import dicelab
    from dicelab.coach.fivedice import FiveDiceSource

    from .conftest import set_state

    for po in (Path(dicelab.__file__).parent / "locale").glob("*/LC_MESSAGES/*.po"):
        assert "RULES.md" not in po.read_text(encoding="utf-8"), po
    g = set_state(new_game("bones", ["Ann", "Bob"], seed=1), final_from=1, totals=(0, 10_050))
    said = FiveDiceSource().skip(g)
    words = {"en": "one turn to end above the leader's total",
             "fr": "un tour pour finir au-dessus du total du meneur",
             "ru": "один ход, чтобы закончить выше суммы лидера"}
    for lang, part in words.items():
        assert part in said.render(lang) and "RULES" not in said.render(lang)
