"""How the app names seats and computer strategies in the page's language (issue 18). Names a
person typed are shown as typed; only the defaults the app itself chose follow the language."""
from __future__ import annotations

from ..i18n import N_, Msg, _, tr

YOU = "You"  # i18n: not shown (a key: the games say "You stand." for a seat of this name)

STRATEGIES = {"chicken": N_("Chicken"), "aggressive": N_("Aggressive"),
              "gambler": N_("Gambler"), "optimal": N_("Optimal"), "winning": N_("Winning"),
              "skill": N_("Skill"), "random": N_("Random"), "threshold": N_("Threshold"),
              "greedy": N_("Greedy"), "cautious": N_("Cautious")}


def seat_name(name: str) -> str:
    """A seat's name as shown: the person's default seat ("You") in the page's language."""
    return _("You") if name == YOU else name


def strategy_label(strategy: str | None) -> str:
    """A computer strategy's name in the page's language ("chicken" -> "Prudent")."""
    if not strategy:
        return ""
    base, sep, rest = str(strategy).partition(":")  # "threshold:300": the knob stays
    if base in STRATEGIES:
        return tr(STRATEGIES[base]) + sep + rest
    return str(strategy)


def shown(value) -> str:
    """A value of a table built at import time (marked with ``N_``, or a lazy Msg), in the
    page's language."""
    if isinstance(value, Msg):
        return value.render()
    return tr(value) if isinstance(value, str) and value else str(value)


def said(exc: Exception):
    """What a refusal says: the lazy message it carries (said again in another language
    after a switch), else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Msg) else str(exc)
