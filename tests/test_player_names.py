"""One rule for a player's name (dicelab.names.player_name), in a game's seats and in a network
room: NFC-normalised, whitespace collapsed, 1..40 characters, no control characters."""
from __future__ import annotations

import unicodedata

import pytest

import dicelab
from dicelab.errors import RuleError
from dicelab.games.base import Seat
from dicelab.rooms import RoomService

COMPOSED = "Zo\u00eb"           # "Zoë" as one code point
DECOMPOSED = "Zoe\u0308"        # "Zoë" as e + combining diaeresis: the same name
assert unicodedata.normalize("NFC", DECOMPOSED) == COMPOSED


def _in_a_game(name):
    return dicelab.new_game("bones", [name, "Bob"], seed=1).seats[0].name


def _in_a_room(name):
    service = RoomService("memory")
    service.create("Table", "bones", None, "Ann")
    service.join("Table", name)
    return service.room("Table").seats[1].name


@pytest.mark.parametrize("path", [_in_a_game, _in_a_room, lambda n: Seat(n).name])
def test_a_decomposed_name_is_the_composed_one(path):
    assert path(DECOMPOSED) == COMPOSED
    assert path("  Zoe\u0308 \t  Lee ") == "Zo\u00eb Lee"
    # 40 letters with diaeresis: 80 code points typed, 40 characters once composed
    assert path("e\u0308" * 40) == "\u00eb" * 40


@pytest.mark.parametrize("path", [_in_a_game, _in_a_room])
@pytest.mark.parametrize("bad, words", [("\u00eb" * 41, "at most 40"), ("   ", "needs a name"),
                                        ("a\x00b", "control"), ("\u202eevil", "control"),
                                        (7, "text|a seat is a name")])
def test_the_same_names_are_refused_in_both(path, bad, words):
    with pytest.raises(RuleError, match=words):
        path(bad)
