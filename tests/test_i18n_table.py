"""The table in French and Russian (issue 18): every variant's banner details, hint, tray
labels, scoreboard cells, odds panel and chart, rules texts and the coach's words render in
the language of the moment, numbers grouped its way, names untouched (and escaped in HTML).
No browser; the views' own render functions."""
from __future__ import annotations

import html
import re

import pytest

import dicelab
from dicelab import i18n
from dicelab.games.base import evolve
from dicelab.i18n import using
from dicelab.rules.yahtzee import LABELS
from dicelab.ui import HintLine, OddsPanel, Play
from dicelab.ui.components import current_odds, hint_text, tray_description
from dicelab.ui.odds_view import YahtzeeOdds
from dicelab.ui.rules_text import RULES, SUMMARY
from dicelab.ui.words import banner, game_over, settings_title

NAME = 'Zoé <Ёж> & "Q"'  # typed by a person: never translated, escaped in HTML
# words of the English table that must not show through (French shares "points", "chance")
ENGLISH = {"fr": ["Stand", "Roll", "turn", "rolled", "Best play", "bust", "dice", "Target",
                  "winner", "Player", "keep"],
           "ru": ["Stand", "Roll", "turn", "points", "chance", "rolled", "Best play", "bust",
                  "dice", "Target", "winner", "Player", "keep"]}
SAYS = {"fr": ["Meilleur coup", "dé"], "ru": ["Лучший ход", "кост"]}


def set_state(game, **changes):
    game._state = game.state = evolve(game.state, **changes)


def english_in(text: str, lang: str) -> list[str]:
    bare = html.unescape(re.sub(r"<[^>]+>", " ", text)).replace(NAME, " ")
    return [w for w in ENGLISH[lang] if re.search(rf"\b{w}\b", bare, re.I)]


def tray_text(play) -> str:
    view = tray_description(play)
    dice = view["rolled"] + view["kept"]
    return " ".join([str(view.get("rolled_label") or ""), str(view.get("keep_label") or ""),
                     str(view.get("badge") or "")] + [d["label"] + " " + d["mark"] for d in dice])


def board_text(play) -> str:
    ui, g = play.ui, play.game
    return ui.board_head() + "".join(ui.board_cell(play, i, i in g.winners)
                                     for i in range(g.n_seats)) + ui.board_note(play)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_bones_after_a_roll(lang):
    game = dicelab.new_game("bones", [NAME], seed=5)  # one seat: no win table, no estimate
    play = Play(game)
    with using(lang):
        play.roll()
        hint, tray, board = hint_text(play), tray_text(play), board_text(play)
        head, details, _kind = banner(play)
        panel = OddsPanel(play=play)
        odds, title = panel._text.object, panel._fig.title.text
        shown = " ".join([hint, tray, board, details, odds, title, settings_title(
            "bones", game.config)])
    assert not english_in(shown, lang), english_in(shown, lang)
    for word in SAYS[lang]:
        assert word in hint + odds
    assert {"fr": "entrer en jeu", "ru": "войти в игру"}[lang] in hint   # the goal's words
    assert {"fr": "Objectif 10\u202f000", "ru": "Цель: 10\xa0000"}[lang] in board
    assert {"fr": "Chance de marquer", "ru": "Шанс набрать очки"}[lang] in title
    assert NAME in head and head != head.lower()   # capitals for the words, the name as typed
    assert html.escape(NAME) in HintLine(play=play)._html() or NAME not in hint


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_thousand_on_the_barrel(lang):
    game = dicelab.new_game("thousand", ["Ann", NAME], seed=1)
    set_state(game, totals=(880, 250), on_board=(True, True), on_barrel=(True, False),
              barrel_turns=(1, 0), bolts=(1, 2), current=0)
    play = Play(game)
    with using(lang):
        board = board_text(play)
        hint = hint_text(play)
        title = settings_title("thousand", game.config)
    assert not english_in(board + hint + title, lang)
    if lang == "fr":
        assert "🛢 tonneau : 2/3 essais restants".replace(" :", "\xa0:") in board
        assert "⚡ 1 boulon" in board and "⚡⚡ 2 boulons" in board
        assert "⛏ fosse 200-300" in board and title == "Mille (en 1000, tonneau à 880)"
        assert "gagner depuis le tonneau" in hint
    else:
        assert "🛢 бочка: осталось 2/3" in board
        assert "⚡ 1 болт<" in board and "⚡⚡ 2 болта" in board      # Russian plurals
        assert "⛏ яма 200-300" in board and title == "Тысяча (до 1000, бочка с 880)"
        assert "выиграть с бочки" in hint and "Бросок 5 костей" in hint


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_under40_scoreboard_and_odds(lang):
    game = dicelab.new_game("under40", ["Ann", NAME], seed=1)
    play = Play(game)
    play.roll()
    ui = play.ui
    with using(lang):
        board, tray = board_text(play), tray_text(play)
        fig, src = ui.odds_chart()
        odds = ui.draw_odds(ui.odds(play), src, play)
        details = banner(play)[1]
    shown = board + tray + odds + details + fig.title.text + fig.xaxis.axis_label
    assert not english_in(shown, lang), english_in(shown, lang)
    if lang == "fr":
        assert "Score de la manche (sur 40)" in board and "manche 1" in details
        assert "Risque de raté au prochain lancer" in odds
    else:
        assert "Очки раунда (из 40)" in board and "раунд 1" in details
        assert "Шанс перебора следующим броском" in odds
    assert "aria-label='" in board and NAME not in board  # only escaped, where it shows


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_yahtzee_turn_and_odds_words(lang):
    game = dicelab.new_game("yahtzee", [NAME, "Bob"], seed=2)
    play = Play(game)
    ui = play.ui
    # odds built by hand: the solved table is not needed to check its words
    odds = YahtzeeOdds([{"box": "chance", "now": 17, "chance": 1.0, "value": 23.25},
                        {"box": "sixes", "now": 0, "chance": 0.42, "value": 21.5}], "chance",
                       advice_best=("keep", (6, 6)), advice_value=24.5, holding=(),
                       holding_value=20.1)
    with using(lang):
        before = ui.turn_hint(play, "", None)
        game.apply(dicelab.actions.Roll())
        mine, other = ui.turn_hint(play, odds, None), ui.turn_hint(play, odds, NAME)
        fig, src = ui.odds_chart()
        panel = ui.draw_odds(odds, src, play)
        tray, label = tray_text(play), ui.roll_label(play)
        title = settings_title("yahtzee", game.config)
    shown = before + mine + other + panel + tray + label + title + fig.title.text
    for box in LABELS.values():  # the box names are the games catalog's (checked there)
        shown = shown.replace(box, "")
    assert not english_in(shown, lang), english_in(shown, lang)
    if lang == "fr":
        assert "Meilleur coup : garder 6 6 et relancer (vaut 24,5".replace(" :", "\xa0:") in mine
        assert "Ne rien garder maintenant vaut 20,1" in panel
        assert title == "Yams (règles officielles, 3 lancers)" and "Relancer" in label
    else:
        assert "Лучший ход: оставить 6 6 и бросить ещё (ожидаемые очки впереди: 24,5)" in mine
        assert "Если ничего не оставлять сейчас — 20,1" in panel
        assert title == "Яхта (правила: официальные, бросков: 3)" and "Бросить ещё" in label
    assert NAME in other and "23,2" in panel            # a name untouched; decimals the ru/fr way


def test_one_play_speaks_each_readers_language():
    """The odds are kept for one state (hint and panel share them): their words are not."""
    game = dicelab.new_game("bones", ["Ann"], seed=5)
    play = Play(game)
    play.roll()
    texts = {}
    for lang in ("en", "fr", "ru", "en"):
        with using(lang):
            texts[lang] = hint_text(play)
    assert "Best play" in texts["en"] and "Meilleur coup" in texts["fr"] \
        and "Лучший ход" in texts["ru"]
    with using("fr"):
        panel = OddsPanel(play=play)
    with using("ru"):
        panel._refresh()  # the language changed: the same panel redraws in Russian
        assert "Шансы сейчас" in panel._head.object and "Шанс" in panel._fig.title.text
        assert "Лучший ход" in panel._text.object
    set_state(game, winner=0)  # no numbers now: a sentence, kept for this state, read later
    sentence = current_odds(play)
    with using("fr"):
        assert str(sentence) == "la partie est terminée"
    with using("ru"):
        assert str(sentence) == "игра окончена"


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_game_over_and_rules_texts(lang):
    game = dicelab.new_game("under40", [NAME, "Bob"], seed=1)
    set_state(game, winner=0, totals=(1040, 300))
    play = Play(game)
    with using(lang):
        over, head = game_over(play), banner(play)
        rules = {v: RULES[v] for v in RULES}
        summaries = {v: SUMMARY[v] for v in SUMMARY}
    assert NAME in over and i18n.number(1040, lang) in over            # 1 040, grouped
    # capitals for the words, the name exactly as typed
    assert head[0] == {"fr": f"{NAME} GAGNE", "ru": f"ПОБЕЖДАЕТ {NAME}"}[lang]
    everything = " ".join(rules.values()) + " ".join(" ".join(s) for s in summaries.values())
    assert not english_in(everything.replace("BONES", ""), lang)
    words = {"fr": ["tonneau", "boulon", "fosse", "Main pleine", "Yams", "manche"],
             "ru": ["бочк", "болт", "ям", "сгора", "Яхта", "раунд", "хватит"]}[lang]
    assert all(w in everything for w in words), [w for w in words if w not in everything]
    assert summaries["thousand"][0] == {"fr": "Mille (1000)", "ru": "Тысяча (1000)"}[lang]
    # every rules item is one whole message: the list keeps its Markdown shape in each language
    assert all(line.startswith("- ") for v in rules.values()
               for line in v.strip().splitlines()[2:])


def test_english_stays_as_it_was():
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=1)
    set_state(game, totals=(880, 0), on_board=(True, True), on_barrel=(True, False),
              barrel_turns=(1, 0))
    assert i18n.language() == "en"
    assert "🛢 barrel 2/3 left" in board_text(Play(game))
    assert RULES["bones"].startswith("\n**Bones** — five dice")


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_computers_turn_is_told_as_theirs(lang):
    """Issue 40: during a computer's turn the odds panel said "if you stand", and the banner
    "COMPUTER's TURN (COMPUTER)"."""
    from dicelab.games.base import Seat
    from dicelab.names import seat_name
    from dicelab.players import make_player

    game = dicelab.new_game("bones", [Seat(n, make_player("bones", "chicken"), strategy="chicken")
                                      for n in ("Computer", "Cpu")], seed=5)
    play = Play(game)
    with using(lang):
        st = game.state
        while not (st.phase == "decide" and st.turn_total):
            game.apply(game.computer_action())
            st = game.state
        play = Play(game)
        odds = OddsPanel(play=play)._text.object
        head = banner(play)[0]
        name = game.seats[st.current].name
        assert i18n.tr(i18n.N_("Expected points if you stand")) not in odds
        assert html.escape(str(seat_name(name))) in odds  # "Ordinateur" on a French page
    assert "if you stand" not in odds
    # "(computer)" only where the name does not say it already
    assert ("(" in head) is (name != "Computer"), head
