"""The coach and the odds in French and Russian (issue 18): whole sentences with numbers and
percentages written each language's way, kept lazy so that each reader sees their own language;
English stays as it was (test_coach*.py check it word for word)."""
from __future__ import annotations

import pytest

import dicelab
from dicelab import coach
from dicelab.errors import RuleError
from dicelab.games import Seat, fivedice
from dicelab.i18n import _, percent, using
from dicelab.odds import fivedice as fd
from dicelab.odds import under40 as u40
from dicelab.players import make_player

from .conftest import set_state

pytestmark = pytest.mark.usefixtures("no_win_table")  # the points alone: no table to build
NBSP = "\xa0"


@pytest.fixture
def costly_stand(rig):
    """Bones: a stand on 100 with 4 dice left, judged (rolling is worth more)."""
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1)
    set_state(g, on_board=(True, True))
    rig(fivedice).add((1, 2, 3, 4, 6))
    g.apply("roll")
    return g, coach.judge(g, "stand"), fd.turn_readout("bones", 100, 4)


def test_percentages_keep_each_languages_space():
    assert [percent(0.413, 0, lang) for lang in ("en", "fr", "ru")] == \
        ["41%", f"41{NBSP}%", f"41{NBSP}%"]
    assert percent(0.4135, 1, "fr") == f"41,4{NBSP}%"


def test_a_costly_stand_explained_in_french_and_russian(costly_stand):
    g, e, r = costly_stand
    roll = f"{r.roll_value:.1f}".replace(".", ",")
    with using("fr"):
        assert e.why == (f"Avec 4 dés, la probabilité de tour perdu est de 16{NBSP}% ; relancer "
                         f"a une espérance de {roll}, s'arrêter à 100 conserve 100.")
        assert e.line().startswith("S'arrêter a coûté ")
        assert e.state == "total du tour 100, 4 dés à lancer, encaissé 0"
        assert coach.hint_text(g).startswith("Coach : le mieux est de relancer (points espérés "
                                             "du tour : ")
    with using("ru"):
        assert e.why == (f"При броске 4 костей вероятность сгореть — 16{NBSP}%; бросить ещё — "
                         f"математическое ожидание {roll}, записать очки при 100 — "
                         f"гарантированные 100.")
        assert e.line().startswith("Записать очки — потеря ")
        assert e.state == "очки за ход 100, осталось 4 кости, записано 0"
        assert e.unit == "ожидаемые очки за ход"
    # the entry kept no text: English readers still read English
    assert e.why.startswith("With 4 dice a bust is 16% likely; rolling is worth")
    assert coach.judge(g, "roll").line().startswith("Best play: rolling")


def test_a_review_reads_in_each_readers_language():
    seats = [Seat(f"{s} {i + 1}", make_player("under40", s), strategy=s)
             for i, s in enumerate(["random", "optimal"])]
    g = dicelab.new_game("under40", seats, seed=2)
    g.play_computers(max_actions=100_000)
    r = dicelab.review(g)  # built once, read in three languages
    costly = next(e for e in r if e.lost > 0)
    chicken = r.seats["random 1"]
    with using("ru"):
        text = r.text()
        assert text.startswith("Разбор партии в Under40")
        assert "Значения: вероятность победы в раунде" in text
        assert "random 1 (компьютер): " in text  # the name as it was typed
        assert costly.why.startswith(f"При {costly.situation['score']} против ")
        assert " бросок переваливает за 40 в " in costly.why and f"{NBSP}%" in costly.why
        n = chicken.decisions
        word = "решение" if n % 10 == 1 and n % 100 != 11 else (
            "решения" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "решений")
        assert f"random 1 (компьютер): {n} {word}, " in text
    with using("fr"):
        assert r.title() == "Revue d'une partie de Under40"
        assert "gagne la manche dans" in costly.why and f"{NBSP}% des cas" in costly.why
        assert r.notes == [] and r.unit == "probabilité de gagner la manche"
    assert r.text().startswith("Review of a under40 game")
    assert "wins the round" in costly.why


def test_odds_errors_render_when_shown():
    with pytest.raises(RuleError) as err:
        fd.parse_strategy("cautious")
    with using("fr"):
        assert str(err.value).startswith("stratégie inconnue 'cautious' ; les stratégies sont")
    with pytest.raises(RuleError) as err:
        u40.round_readout(10, 41)
    with using("ru"):
        assert str(err.value).startswith("Under40: очки другого игрока в игре — чётное число "
                                         "от 0 до 38")
    assert "the other player's score in play is an even number" in str(err.value)


def test_progress_descriptions_group_numbers():
    with using("ru"):
        assert _("Bones win table ({target})", target=10_000) == \
            f"Таблица победы для Bones (10{NBSP}000)"
    with using("fr"):
        assert _("Bones win table ({target})", target=10_000) == \
            "Table de victoire de Bones (10\u202f000)"


def test_a_final_turn_in_french_and_russian(rig):
    """Bones' final turn (judged by the chance to win, exact without a table): standing on 300
    at 1,650 against 2,000 is a sure loss (test_coach_win.py checks the numbers)."""
    from .test_coach_win import _final_turn

    e = coach.judge(_final_turn(rig, 1650, (1, 1, 5, 5, 2)), "stand")
    chance = percent(e.best.value, 1, "fr")
    with using("fr"):
        assert e.why == (f"S'arrêter à 300 termine la partie à 1\u202f950, pas au-dessus de "
                         f"2\u202f000 : défaite assurée ; relancer (pour atteindre 400 ce "
                         f"tour-ci) gagne encore dans {chance} des cas.")
        assert e.state.endswith("; dernier tour : Bob à 2\u202f000")
    with using("ru"):
        assert e.why.startswith(f"Записать очки при 300 — конец партии с 1{NBSP}950, не больше "
                                f"2{NBSP}000: верное поражение; бросить ещё")
        assert e.line().startswith("Записать очки — потеря ")
        assert "процентного пункта вероятности победы" in e.line()
