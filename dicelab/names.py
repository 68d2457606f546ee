"""Names as shown: the default "You" seat and the variants, in the reader's language (issue 18).

A name a person typed is shown as typed, never translated. The stored seat name "You" (the
app's default for a person's seat) is the app's word: it shows as "Vous" / "Вы", and events
about that seat speak to it ("You stand." / "Vous vous arrêtez."). Low in the import graph:
settings, games, players and rooms all use it.
"""
from __future__ import annotations

from .i18n import L_, Msg


def is_you(name: str) -> bool:
    """Whether ``name`` is the default person seat "You" (any case and spacing)."""
    return " ".join(str(name).split()).lower() == "you"


def seat_name(name: str) -> str | Msg:
    """A seat's name as shown: "You" in the reader's language (lazy), a typed name as typed.
    The stored name stays "You" (saved games, rooms), so it reads right in every language."""
    return L_("You") if is_you(name) else name


def shown_name(name: str) -> str:
    """:func:`seat_name` rendered now, in the current language."""
    return str(seat_name(name))


# the variants' names as players call them (keys stay English: "bones", "thousand", ...)
VARIANT_NAMES = {"bones": L_("Bones"), "thousand": L_("Thousand"), "under40": L_("Under40"),
                 "yahtzee": L_("Yahtzee")}


def variant_name(variant: str) -> str | Msg:
    """A variant's name in the reader's language ("Тысяча" for "thousand"), lazy."""
    return VARIANT_NAMES.get(variant, variant)
