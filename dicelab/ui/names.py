"""How the app's screens name seats and computer strategies in the page's language (issue 18),
from the homes of those words (``dicelab.names``, ``ui.phrases``). Names a
person typed are shown as typed; only the defaults the app itself chose follow the language."""
from __future__ import annotations

from ..i18n import Msg
from ..names import is_you, shown_name as seat_name
from .phrases import shown, strategy_name

__all__ = ["YOU", "is_you", "said", "seat_name", "shown", "strategy_label"]

YOU = "You"  # i18n: not shown (the stored name of a person's default seat: "You stand.")


def strategy_label(strategy: str | None) -> str:
    """A computer strategy's name in the page's language ("chicken" -> "prudent"); a knob
    after ":" stays as it is."""
    return strategy_name(strategy) if strategy else ""


def said(exc: Exception):
    """What a refusal says: the lazy message it carries (said again in another language
    after a switch), else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Msg) else str(exc)
