"""Game histories, rule errors and the default "You" seat in French and Russian (issue 18).

Seeded games between computers: each event keeps one lazy text that renders in whoever reads
it (a network room shows one game to people of several languages), with numbers written the
language's way, Russian plurals, and typed names left exactly as typed."""
from __future__ import annotations

import pytest

from dicelab import RuleError
from dicelab.games import Seat, new_game
from dicelab.i18n import number, using
from dicelab.names import seat_name, shown_name
from dicelab.players import make_player

ANN = "Ann <b>&"  # a typed name, with characters HTML must escape


def played(variant, strategy, seed, names=("You", ANN), **settings):
    g = new_game(variant, [Seat(n, make_player(variant, strategy), strategy=strategy)
                           for n in names], seed=seed, **settings)
    g.play_computers(max_actions=20_000)
    return g


def first(game, kind, **where):
    return next(e for e in game.history if e.kind == kind
                and all(e.data.get(k) == v if k != "seat" else e.seat == v
                        for k, v in where.items()))


def shown(event, lang):
    with using(lang):
        return f"{event.text}"


@pytest.fixture(scope="module")
def bones():
    return played("bones", "chicken", 1, target=2000)


def test_a_bones_history_reads_in_french_and_russian(bones):
    bust = first(bones, "bust", seat=1)
    assert shown(bust, "fr").startswith(f"{ANN} lance ") and "tour perdu" in shown(bust, "fr")
    assert "очки сгорают" in shown(bust, "ru") or "ход сгорел" in shown(bust, "ru")
    you_bust = first(bones, "bust", seat=0)
    assert shown(you_bust, "fr").startswith("Vous lancez ")
    assert shown(you_bust, "ru").startswith("Вы бросаете ")
    # a stand with a total in the thousands: grouped the language's way
    stand = next(e for e in bones.history if e.kind == "stand" and e.data["total"] >= 1000)
    total = stand.data["total"]
    assert f"total {number(total, 'en')}." in stand.text            # the English characters
    assert f"total {number(total, 'fr')}." in shown(stand, "fr")    # 1 050 (narrow no-break)
    assert f"всего {number(total, 'ru')}." in shown(stand, "ru")    # 1 050 (no-break space)
    assert number(total, "fr") != number(total, "en") != number(total, "ru")
    assert "encaiss" in shown(stand, "fr") and "«хватит»" in shown(stand, "ru")


def test_one_event_renders_in_each_readers_language(bones):
    roll = first(bones, "roll", seat=1)
    fr, ru = roll.text.render("fr"), roll.text.render("ru")
    assert fr != ru != roll.text.render("en")
    assert roll.text == roll.text.render("en")  # code and tests read the English characters
    with using("ru"):
        assert str(roll.text) == ru and f"{roll.text}" == ru
    with using("fr"):
        assert str(roll.text) == fr
    assert ANN in fr and ANN in ru  # the typed name is never translated or altered


def test_russian_plurals_of_counting_dice(bones):
    rolls = [e for e in bones.history if e.kind == "roll"]
    one = next(e for e in rolls if e.data["counting"] == 1)
    few = next(e for e in rolls if e.data["counting"] in (2, 3, 4))
    assert "с 1 очковой кости" in shown(one, "ru") and "1 dé qui compte" in shown(one, "fr")
    assert f"с {few.data['counting']} очковых костей" in shown(few, "ru")
    assert f"{few.data['counting']} dés qui comptent" in shown(few, "fr")


def test_thousand_bolts_and_the_barrel_in_players_words():
    g = played("thousand", "aggressive", 1, target=400, barrel=340, bolts_per_penalty=2,
               barrel_attempts=1)
    bolt = first(g, "bolt", seat=1)
    assert shown(bolt, "fr") == f"{ANN} prend un boulon ⚡ (1 d'affilée)."
    assert shown(bolt, "ru") == f"{ANN} получает болт (1 подряд)."
    penalty = first(g, "penalty", seat=0)
    assert shown(penalty, "ru").startswith("Вы теряете 100 за 2 болта подряд")  # plural "few"
    assert shown(penalty, "fr").startswith("Vous perdez 100 pour 2 boulons d'affilée")
    barrel = first(g, "barrel")
    assert "садится на бочку" in shown(barrel, "ru") or "садитесь на бочку" in shown(barrel, "ru")
    assert "sur le tonneau à 340" in shown(barrel, "fr")
    fall = first(g, "fall")
    assert "с бочки после 1 попытки" in shown(fall, "ru")
    assert "du tonneau après 1 tentative" in shown(fall, "fr")


def test_a_yahtzee_score_names_the_box_in_the_readers_language():
    g = played("yahtzee", "greedy", 2, names=("You", ANN, "Bob"))
    score = next(e for e in g.history if e.kind == "score" and e.data["box"] == "chance")
    assert "en Chance" in shown(score, "fr") and "в «Шанс»" in shown(score, "ru")
    full = next((e for e in g.history if e.kind == "score" and e.data["box"] == "full_house"),
                None)
    if full is not None:
        assert "Full" in shown(full, "fr") and "Фулл-хаус" in shown(full, "ru")
    reroll = next(e for e in g.history if e.kind == "reroll")
    assert "relance" in shown(reroll, "fr") and "перебрасыва" in shown(reroll, "ru")


def test_under40_rounds():
    g = played("under40", "threshold", 0, names=("You", ANN, "Bob"), target=200)
    rnd = first(g, "round")
    assert shown(rnd, "fr").startswith(f"Manche {rnd.data['round']} : ")
    assert shown(rnd, "ru").startswith(f"Раунд {rnd.data['round']}: ")
    won = first(g, "round_won")
    assert f"+{won.data['award']}" in shown(won, "ru")
    assert "manche" in shown(won, "fr") and "раунд" in shown(won, "ru")
    with using("ru"):
        hint = g.replay(3).hint()
    assert "бросать" in hint or "остановиться" in hint or "выиграл" in hint


def test_the_default_you_seat_shows_in_the_readers_language_a_typed_name_never():
    assert seat_name("You") == "You"  # stored and compared as "You"
    with using("fr"):
        assert shown_name("You") == "Vous" and shown_name("Youssef") == "Youssef"
    with using("ru"):
        assert shown_name(" you ") == "Вы" and shown_name(ANN) == ANN
    g = new_game("bones", ["You", ANN], seed=3)
    with using("ru"):
        assert str(g.history[0].text).startswith("Жребий очерёдности: ")
        assert "Вы " in str(g.history[0].text) and ANN in str(g.history[0].text)


def test_the_notebook_table_is_translated_and_escapes_names():
    g = new_game("bones", ["You", ANN], seed=3)
    g.apply("roll")
    with using("fr"):
        html = g._repr_html_()
    assert "Ann &lt;b&gt;&amp;" in html and ANN not in html
    assert "total du tour" in html and "joueur" in html and "Vous" in html
    with using("ru"):
        html = g._repr_html_()
    assert "очки за ход" in html and "игрок" in html and "Вы" in html


def test_a_refused_action_is_explained_in_the_readers_language():
    g = new_game("bones", ["Ann", "Bob"], seed=1)
    with pytest.raises(RuleError) as caught:
        g.apply("stand")
    err = caught.value
    assert str(err) == "a turn begins with a roll: you may not stand before rolling"
    with using("fr"):
        assert str(err).startswith("un tour commence par un lancer")
    with using("ru"):
        assert str(err).startswith("ход начинается с броска")
    with using("ru"), pytest.raises(RuleError, match="от 0 до 5000|не больше 5000"):
        new_game("thousand", ["Ann"], barrel=6000)


def test_computer_players_have_names_in_each_language():
    from dicelab.players import strategy_name

    assert strategy_name("chicken") == "Chicken" and strategy_name("threshold:300") == "Threshold"
    with using("fr"):
        assert [str(strategy_name(s)) for s in ("chicken", "aggressive", "gambler")] == [
            "Prudent", "Agressif", "Flambeur"]
    with using("ru"):
        assert str(strategy_name("winning")) == "На победу"
    assert strategy_name("someone") == "someone"


def test_a_computer_seat_is_named_in_its_creator_s_language():
    from dicelab.rooms import MemoryStore, RoomService

    service = RoomService(MemoryStore())
    _room, ann = service.create("Стол", "bones", {}, "Аня")
    with using("ru"):
        service.add_computer("Стол", ann, "chicken")
    with using("fr"):
        service.add_computer("Стол", ann, "gambler")
    names = [s.name for s in service.room("Стол").seats]
    # a stored name from then on: the same for every reader, never translated again
    assert names == ["Аня", "Компьютер 1", "Ordinateur 2"]
