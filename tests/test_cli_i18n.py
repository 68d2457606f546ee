"""The terminal and the CLI in English, French and Russian (issue 18: "the terminal follows
LANG or --lang"; "the terminal Yahtzee and Bones games play to the end in each language").

The pseudo-terminal games run ``dicelab play`` as a user would: French picked from LANG,
Russian from --lang; the in-memory ones drive ``cli.main`` and ``play``."""
from __future__ import annotations

import argparse
import gettext
import io
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pexpect
import pytest

from dicelab import cli, i18n
from dicelab.i18n import using
from dicelab.rules.yahtzee import BOXES
from dicelab.terminal import language
from dicelab.terminal import fivedice as t5
from dicelab.terminal import under40 as t40
from dicelab.terminal import yahtzee as tyz

ROOT = Path(__file__).resolve().parents[1]
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "DICELAB_LANG")

# words of the cli domain each language must show, and English the terminal must not show
WORDS = {
    "yahtzee": {"fr": ["Relancer des dés ? (o/n)", "Marquer dans quelle case ?",
                       "Carte finale de", "tours joués", "Total du haut"],
                "ru": ["Перебросить кости? (д/н)", "В какую клетку записать?",
                       "Итоговый бланк", "Сыграно", "Сумма верха"]},
    "bones": {"fr": ["Au tour de", "[r] lancer ?", "total du tour", "gagne avec"],
              "ru": ["Ход:", "[r] бросить?", "очки за ход", "побеждает с результатом"]},
}
ENGLISH = {
    "yahtzee": ["Re-roll some dice?", "Score in which box?", "Which dice to re-roll?",
                "Final card for", "rounds played", "Upper total", "boxes to fill",
                "Warning:", "Fill all 13 boxes"],
    "bones": ["[r]oll", "[s]tand", "'s turn", "You may stand", "wins with", "Please type",
              "die to roll", "dice to roll", "   on the board", "   not on the board"],
}
# words only English has (French shares many letters with it, Russian none)
ENGLISH_ONLY = {"the", "and", "you", "your", "rolled", "rolls", "stands", "banks", "dice", "die",
                "turn", "with", "round", "wins", "scores", "player", "warning", "review",
                "bust", "busts", "stops", "points", "box", "left", "may", "not", "first"}
# ASCII words a Russian terminal may show: names, typed keys and values, file names
NOT_WORDS = {"Ann", "Cpu", "Bones", "hypercard", "RULES", "choose_keepers", "roll", "stop",
             "Ctrl", "seed", "official"}


def english_left(out: str, lang: str) -> set[str]:
    """English words in a French or Russian terminal's output (names excepted)."""
    words = set(re.findall(r"\b[A-Za-z][A-Za-z']+\b", out))
    if lang == "ru":
        return words - NOT_WORDS
    return {w for w in words if w.lower() in ENGLISH_ONLY} - {"points"}  # French too


@pytest.fixture
def environ(monkeypatch):
    """No locale variables: each test sets the ones it means."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def spawn(args: list[str], **env_vars):
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm", **env_vars)
    return pexpect.spawn(sys.executable, ["-m", "dicelab.cli", *args], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=60, dimensions=(60, 120))


# ----- the language of the command ------------------------------------------------------------
def test_lang_before_or_after_the_command_and_the_language_is_put_back(environ, capsys):
    before = i18n.language()
    assert cli.main(["--lang", "ru", "odds", "under40", "--score", "20"]) == 0
    ru = capsys.readouterr().out
    assert "Under40: точные вероятности" in ru and "При 20 очках в раунде:" in ru
    assert re.search(r"19,444\s?%", ru) and "exact odds" not in ru  # a decimal comma
    assert cli.main(["odds", "under40", "--score", "20", "--lang=fr"]) == 0
    fr = capsys.readouterr().out
    assert "Under40 : probabilités exactes" in fr and "le mieux : s'arrêter" in fr
    assert i18n.language() == before and argparse._ is gettext.gettext


def test_odds_bones_prints_russian_with_plurals(environ, capsys):
    # issue 18: "1 кость / 2 кости / 5 костей"
    assert cli.main(["--lang", "ru", "odds", "bones", "--dice", "2", "--turn-total", "300"]) == 0
    out = capsys.readouterr().out
    for words in ("Bones (набор правил hypercard): точные вероятности", "  1 кость",
                  "  2 кости", "  5 костей", "Очки за ход 300, бросать 2 кости:",
                  "->  бросать", "Оптимальная игра записывает очки"):
        assert words in out, words
    assert not re.search(r"\b(dice|die|roll|stand|exact)\b", out), out


def test_lang_follows_the_environment(environ, capsys):
    environ.setenv("LANG", "fr_FR.UTF-8")
    assert cli.main(["score", "bones", "1", "5", "2", "2", "3"]) == 0
    assert capsys.readouterr().out == "1* 5* 2 2 3  ->  150 points, 2 dés qui comptent\n"
    environ.setenv("LANGUAGE", "ru")  # LANGUAGE first, as gettext reads them
    assert cli.main(["score", "bones", "5", "2", "2", "3", "4"]) == 0
    assert capsys.readouterr().out == "5* 2 2 3 4  ->  50 очков, 1 очковая кость\n"
    assert cli.main(["--lang", "en", "score", "bones", "1", "1", "2", "3", "4"]) == 0
    assert capsys.readouterr().out == "1* 1* 2 3 4  ->  200 points, 2 counting dice\n"


def test_an_unknown_language_is_a_clear_error(environ, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--lang", "de", "odds", "bones"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument --lang: unknown language 'de': choose one of en, fr, ru" in err
    assert "Traceback" not in err and err.startswith("usage: dicelab")
    environ.setenv("LANG", "ru_RU.UTF-8")  # the error in the environment's language
    with pytest.raises(SystemExit):
        cli.main(["play", "bones", "--lang", "xx"])
    err = capsys.readouterr().err
    assert err.startswith("использование: dicelab play")
    assert "ошибка: аргумент --lang: неизвестный язык 'xx': выберите один из en, fr, ru" in err


def test_argparse_speaks_french_and_russian(environ, capsys):
    with pytest.raises(SystemExit):
        cli.main(["--lang", "fr", "play"])
    err = capsys.readouterr().err
    assert err.startswith("utilisation : dicelab play")
    assert "dicelab play : erreur : les arguments suivants sont obligatoires : variant" in err
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--lang", "ru", "odds", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for words in ("использование: dicelab odds", "позиционные аргументы", "параметры:",
                  "показать эту справку и выйти", "шанс на победу в партии вдвоём",
                  "язык сообщений"):
        assert words in out, words
    assert "show this help" not in out and "options:" not in out
    with pytest.raises(SystemExit):
        cli.main(["--lang", "fr", "score", "dudo", "1"])
    err = capsys.readouterr().err
    assert "choix invalide : 'dudo' (choisir parmi 'bones', 'thousand'" in err
    assert argparse._ is gettext.gettext  # argparse is left as it was


def test_rule_errors_of_the_cli_are_translated(environ, capsys):
    assert cli.main(["--lang", "fr", "serve", "--port", "99999"]) == 2
    assert capsys.readouterr().err == ("dicelab: --port va de 1 à 65535 (0 : un port libre "
                                       "quelconque), reçu 99999\n")
    assert cli.main(["--lang", "ru", "odds", "thousand", "--banked", "900"]) == 2
    assert "ставит ровно 880, поэтому --banked 900 невозможно" in capsys.readouterr().err


def test_requested_language_in_argv():
    assert language.requested(["odds", "--lang", "ru", "--lang=fr"]) == "fr"
    assert language.requested(["odds", "--", "--lang", "ru"]) is None
    assert language.chosen(["--lang", "ru_RU"], {"LANG": "fr_FR"}) == "ru"
    assert language.chosen(["--lang", "de"], {"LANG": "fr_FR"}) == "fr"
    assert language.chosen([], {"DICELAB_LANG": "ru", "LANG": "fr_FR"}) == "ru"
    assert language.chosen([], {}) == "en"


# ----- the terminal games to the end in each language ----------------------------------------
@pytest.mark.parametrize("lang, how", [("fr", {"LANG": "fr_FR.UTF-8"}), ("ru", "--lang")])
def test_terminal_yahtzee_to_the_end(lang, how):
    args = ["play", "yahtzee", "--rules", "seed", "--seed", "5"]
    child = spawn(args + ["--lang", lang]) if how == "--lang" else spawn(args, **how)
    with using(lang):
        reroll = re.escape(i18n.n_("Re-roll some dice? (y/n) [{n} re-roll left]: ",
                                   "Re-roll some dice? (y/n) [{n} re-rolls left]: ", 3))
        box = re.escape(i18n._("Score in which box? Type its name as shown (e.g. {box}): ",
                               box=tyz.label("full_house")))
        positions = re.escape(i18n._("Which dice to re-roll? Positions 1 to 5 (e.g. 1 3 5): "))
        labels = [tyz.label(b) for b in BOXES]
        yes = i18n.p_("answer", "y")
    seen = []

    def expect(pattern):
        child.expect(pattern)
        seen.append(child.before + child.after)

    for i, label in enumerate(labels):
        expect(reroll)
        if i == 0:  # the coach, then the language's own "yes" letter, then positions
            child.sendline("h")
            expect(reroll)
            child.sendline(yes)
            expect(positions)
            child.sendline("1 2")
            expect(r"\] ?: ")
        child.sendline("n")
        expect(box)
        child.sendline(label.upper() if i % 2 else label)  # typed as shown, in any case
    child.expect(pexpect.EOF)
    out = "".join(seen) + child.before
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in out
    for words in WORDS["yahtzee"][lang]:
        assert words in out, words
    assert {"fr": "Coach : ", "ru": "Тренер: "}[lang] in out
    for words in ENGLISH["yahtzee"] + ["Coach:"]:
        assert words not in out, words
    assert not english_left(out, lang)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_terminal_bones_to_the_end(lang, environ, monkeypatch, capsys):
    # stand whenever allowed: with min 50 and a low target the game ends quickly
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\ns\nr\n" + "s\nr\n" * 400))
    assert cli.main(["play", "bones", "--lang", lang, "--players", "Ann,Фёдор", "--seed", "3",
                     "--min-on-board", "50", "--target", "1000"]) == 0
    out = capsys.readouterr().out
    assert "Фёдор" in out  # names are never altered
    for words in WORDS["bones"][lang]:
        assert words in out, words
    for words in ENGLISH["bones"]:
        assert words not in out, words
    assert not english_left(out, lang)
    with using(lang):
        assert i18n.text(t5.HELP) in out


def test_terminal_bones_in_a_pty_in_russian_with_the_coach():
    child = spawn(["play", "bones", "--players", "Ann,Cpu=chicken", "--seed", "4",
                   "--min-on-board", "50", "--target", "500", "--coach"], LANG="ru_RU.UTF-8")
    seen = []
    asked = False
    while True:
        i = child.expect([r"\[r\] бросить\? > ", r"\[r\] бросить ещё или \[s\] хватит\? > ",
                          pexpect.EOF])
        seen.append(child.before)
        if i == 2:
            break
        if i == 1 and not asked:
            child.sendline("h")  # the coach's hint, in Russian
            asked = True
            continue
        child.sendline("r" if i == 0 else "s")
    out = "".join(seen)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in out
    assert "побеждает с результатом" in out and "Cpu (компьютер)" in out
    assert "Тренер: лучше всего" in out and "Разбор партии в Bones" in out
    assert "Coach:" not in out and "Review of" not in out
    assert not english_left(out, "ru")


@pytest.mark.parametrize("lang, words", [
    ("fr", ["Tirage des places", "pour lancer >", "Totaux : Ann", "manche",
            "gagne la partie après"]),
    ("ru", ["Жеребьёвка мест", "— бросить >", "Итого: Ann", "раунд", "выигрывает партию после"]),
])
def test_terminal_under40_to_the_end(lang, words):
    out = io.StringIO()
    with using(lang):
        assert t40.play(SimpleNamespace(players="Ann,Bob", seed=2, target=150),
                        stdin=io.StringIO("r\ns\n" * 2000), stdout=out) == 0
    text = out.getvalue()
    for w in words:
        assert w in text, w
    for english in ("Totals:", "r to roll", "wins the game after", "Seating roll-off",
                    "leads the round", "You may not"):
        assert english not in text, english
    assert not english_left(text.replace("Bob", ""), lang)


def test_default_player_names_follow_the_language():
    with using("ru"):
        assert [s.name for s in t5.parse_seats(None, "bones")] == ["Игрок 1", "Игрок 2"]
        assert t40.players(None) == ["Игрок 1", "Игрок 2"]
    assert t40.players("Ann, Bob") == ["Ann", "Bob"]


# ----- lab tables, solve, damaged files ---------------------------------------------------------
def test_lab_table_in_russian_and_french():
    from dicelab.lab import simulate

    r = simulate("bones", "chicken,gambler", turns=2000, seed=1)
    with using("ru"):
        table = r.table()
    assert table.splitlines()[0].split()[:2] == ["игрок", "ходы"]
    assert "средние очки за ход" in table and re.search(r"\d+,\d\d – \d+,\d\d", table)
    g = simulate("under40", "cautious,optimal", games=30, seed=1)
    with using("fr"):
        table = g.table()
    assert "taux de victoire" in table and "durée moyenne d'une partie" in table
    assert "actions" in table and "win rate" not in table


def test_solve_rules_described_in_russian():
    from dicelab.commands.solve import describe
    from dicelab.settings import YahtzeeSettings

    with using("ru"):
        assert describe(YahtzeeSettings("official")) == (
            "2 переброса, бонус 35 при 63, бонус за Яхту 100, обязательный джокер")
        assert describe(YahtzeeSettings("seed")).startswith("3 переброса, без бонуса")


def test_a_damaged_file_is_told_in_each_reader_s_language(tmp_path):
    from dicelab.sqlite_files import check_sqlite, problem

    path = tmp_path / "records.sqlite3"
    path.write_bytes(b"not a database at all" * 10)
    said = check_sqlite(path, {"records": ("id",)}, "records")
    assert said.startswith("The records file was damaged (SQLite says: ")
    with using("fr"):
        assert problem(path).startswith("Le fichier des records était endommagé (SQLite dit : ")
    with using("ru"):
        assert "рекорды начинаются заново" in problem(path)


def test_the_lint_flags_markers_inside_f_strings(tmp_path):
    # Babel on Python 3.11 extracts no marker inside an f-string: it would stay English
    from dicelab import i18n_catalogs as cat

    src = tmp_path / "m.py"
    src.write_text('from dicelab.i18n import _, p_\nx = 1\na = f"<b>{_(\'Stand\')}</b>"\n'
                   'b = f"{x} {_(\'Fine {x}\', x=x)} {p_(\'c\', \'Roll\')}"\n'
                   'c = _("Fine {x}", x=x)  # marked here: the f-string above finds it\n')
    assert cat.dynamic_messages(src) == [3, 4]
