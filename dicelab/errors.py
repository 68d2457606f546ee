"""Errors raised by dicelab."""
from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """An action or input that the rules do not allow.

    The message names the rule. Raising it never changes a game's state.
    """


def reason(exc: BaseException) -> Any:
    """An error's message for another message to hold: the lazy message it was raised with
    (so it still renders in the reader's language), else its text."""
    from .i18n import Msg

    if len(exc.args) == 1 and isinstance(exc.args[0], Msg):
        return exc.args[0]
    return str(exc)
