"""The coach in the terminal games: ``h`` shows its hint; with ``--coach`` a line after each
decision says what it cost, and the review is printed when the game ends."""
from __future__ import annotations

from .. import i18n
from ..i18n import _


def hint(game) -> str:
    """The coach's advice for the player on turn (``h``)."""
    from ..coach import hint_text

    text = hint_text(game)
    if text is None:
        return _("Coach: nothing to decide now: the rules leave one move.")
    return i18n.text(text)


def judged(game, action) -> str | None:
    """The line that says what ``action`` (about to be applied) costs, or None when it is not a
    decision. The game does not change."""
    from ..coach import judge

    try:
        entry = judge(game, action)
    except Exception:  # an illegal action: the game's own apply will say why
        return None
    return None if entry is None else _("Coach: {advice}", advice=i18n.text(entry.line()))


def review_text(game) -> str:
    from ..coach import review

    return i18n.text(review(game).text())
