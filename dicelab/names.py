"""Names as shown: the default "You" seat and the variants, in the reader's language (issue 18).

A name a person typed is shown as typed, never translated. The stored seat name "You" (the
app's default for a person's seat) is the app's word: it shows as "Vous" / "Вы", and events
about that seat speak to it ("You stand." / "Vous vous arrêtez."). Low in the import graph:
settings, games, players and rooms all use it.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from .errors import RuleError
from .i18n import L_, Msg

MAX_NAME = 40  # characters of a player's name, after normalising


def player_name(value: Any) -> str:
    """A player's name as stored, the one rule for game seats and network rooms: text,
    NFC-normalised (a decomposed "Zoë" is the same name as a composed one), whitespace runs
    collapsed, 1..MAX_NAME characters, no control characters. Stored as typed otherwise
    (escaping is the UI's job). RuleError names what is wrong."""
    if not isinstance(value, str):
        raise RuleError(L_("{what} must be text, got {kind}", what=L_("a player's name"),
                           kind=type(value).__name__))
    if len(value) > 4 * MAX_NAME:  # refuse huge input before looking at each character
        raise RuleError(L_("a name has at most {most} characters, got {n}", most=MAX_NAME,
                           n=len(value)))
    _check_chars(value)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise RuleError(L_("a seat needs a name"))
    if len(name) > MAX_NAME:
        raise RuleError(L_("a name has at most {most} characters, got {n}", most=MAX_NAME,
                           n=len(name)))
    return name


def _check_chars(name: str) -> None:
    """Refuse control characters in a player's name (tabs and spaces are collapsed instead)."""
    for ch in name:
        cat = unicodedata.category(ch)
        # Cc: control characters, Cs: lone surrogates (not storable), Co: private use,
        # Cf: invisible format characters (bidi overrides spoof names) except the zero-width
        # joiner that emoji sequences need
        if ch not in " \t" and (cat in ("Cc", "Cs", "Co") or (cat == "Cf" and ch != "\u200d")):
            code = "U+%04X" % ord(ch)
            raise RuleError(L_("a name may not hold control characters ({char})", char=code))


def is_you(name: str) -> bool:
    """Whether ``name`` is the default person seat "You" (any case and spacing)."""
    return " ".join(str(name).split()).lower() == "you"


COMPUTER = "Computer"  # i18n: not shown (the stored name of a computer's default seat)
_COMPUTER_N = re.compile(r"Computer ([1-8])")


def computer_name(n: int | None = None) -> str:
    """The stored name of the app's default computer seat ("Computer", "Computer 2"): stored
    in English like "You", shown in the reader's language (:func:`seat_name`)."""
    return COMPUTER if n is None else f"{COMPUTER} {n}"


def seat_name(name: str) -> str | Msg:
    """A seat's name as shown: the app's default names ("You", "Computer", "Computer 2") in the
    reader's language (lazy), a typed name as typed. The stored name stays English (saved
    games, rooms, records), so it reads right in every language, whoever made the game."""
    if is_you(name):
        return L_("You")
    if name == COMPUTER:
        return L_("Computer")
    m = _COMPUTER_N.fullmatch(name)
    if m:
        return L_("Computer {n}", n=int(m[1]))
    return name


def shown_name(name: str) -> str:
    """:func:`seat_name` rendered now, in the current language."""
    return str(seat_name(name))


# the variants' names as players call them (keys stay English: "bones", "thousand", ...)
VARIANT_NAMES = {"bones": L_("Bones"), "thousand": L_("Thousand"), "under40": L_("Under40"),
                 "yahtzee": L_("Yahtzee")}


def variant_name(variant: str) -> str | Msg:
    """A variant's name in the reader's language ("Тысяча" for "thousand"), lazy."""
    return VARIANT_NAMES.get(variant, variant)
