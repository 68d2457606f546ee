"""How the app's screens name seats and computer strategies in the page's language (issue 18),
from the homes of those words (``dicelab.names``, ``dicelab.players``, ``ui.phrases``). Names a
person typed are shown as typed; only the defaults the app itself chose follow the language."""
from __future__ import annotations

from ..i18n import Msg
from ..names import is_you, shown_name as seat_name
from ..players import strategy_name
from .phrases import shown

__all__ = ["YOU", "is_you", "said", "seat_name", "shown", "strategy_label"]

YOU = "You"  # i18n: not shown (the stored name of a person's default seat: "You stand.")


def strategy_label(strategy: str | None) -> str:
    """A computer strategy's name in the page's language ("chicken" -> "Prudent"); a knob
    after ":" stays as it is."""
    if not strategy:
        return ""
    base, sep, rest = str(strategy).partition(":")
    return str(strategy_name(base)) + sep + rest


def said(exc: Exception):
    """What a refusal says: the lazy message it carries (said again in another language
    after a switch), else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Msg) else str(exc)
