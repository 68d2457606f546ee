"""Actions: the small values a player hands to ``Game.apply``.

Each has a readable repr, a JSON form (``to_json``/``action_from_json``) and a text form
(``parse_action``: "roll", "stand", "roll keep 1 3", "reroll 2 5", "score full house").
Die positions are 0-based in code and JSON, 1-based in text typed by a person.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .dice import is_whole
from .errors import RuleError
from .i18n import L_


def _positions(values, what: str) -> tuple[int, ...]:
    try:
        values = tuple(values)
    except TypeError:
        raise RuleError(L_("{what}: die positions are whole numbers, got {value}", what=what,
                           value=repr(values)[:100])) from None
    if not all(is_whole(v) for v in values):  # 1.5 must not become 1, nor True 1
        raise RuleError(L_("{what}: die positions are whole numbers, got {value}", what=what,
                           value=repr(list(values))[:100]))
    out = tuple(sorted(int(v) for v in values))
    if len(set(out)) != len(out):
        raise RuleError(L_("{what}: a die position is named twice in {value}", what=what,
                           value=repr(values)[:100]))
    if any(not 0 <= p <= 4 for p in out):
        raise RuleError(L_("{what}: die positions are 1 to 5", what=what))
    return out


@dataclass(frozen=True)
class _SetsAside:
    keep: tuple[int, ...] | None = None

    def __post_init__(self):
        if self.keep is not None:
            object.__setattr__(self, "keep", _positions(self.keep, "keep"))

    def __repr__(self):
        name = type(self).__name__
        return f"{name}()" if self.keep is None else f"{name}(keep={self.keep})"  # i18n: not shown


@dataclass(frozen=True, repr=False)
class Roll(_SetsAside):
    """Roll the dice that may be rolled. ``keep``: with Bones' choose_keepers, the positions
    (in the last roll) of the counting dice to set aside first; None keeps every counting die."""


@dataclass(frozen=True, repr=False)
class Stand(_SetsAside):
    """Stand (bank the turn total; in Under40, stop). ``keep`` as for Roll."""


@dataclass(frozen=True)
class Reroll:
    """Yahtzee: roll again the dice at these positions (0-based)."""

    positions: tuple[int, ...]

    def __post_init__(self):
        object.__setattr__(self, "positions", _positions(self.positions, "reroll"))

    def __repr__(self):
        return f"Reroll({self.positions})"  # i18n: not shown


@dataclass(frozen=True)
class Score:
    """Yahtzee: fill this box."""

    box: str

    def __post_init__(self):
        from .rules.yahtzee import box_name

        object.__setattr__(self, "box", box_name(self.box))

    def __repr__(self):
        return f"Score({self.box!r})"  # i18n: not shown


Action = Union[Roll, Stand, Reroll, Score]
_TYPES = {"roll": Roll, "stand": Stand, "reroll": Reroll, "score": Score}


def to_json(action: Action) -> dict[str, Any]:
    kind = type(action).__name__.lower()
    if isinstance(action, (Roll, Stand)):
        return {"type": kind} if action.keep is None else {"type": kind, "keep": list(action.keep)}
    if isinstance(action, Reroll):
        return {"type": kind, "positions": list(action.positions)}
    return {"type": kind, "box": action.box}


def action_from_json(data: dict[str, Any]) -> Action:
    if not isinstance(data, dict) or data.get("type") not in _TYPES:
        raise RuleError(L_("an action is one of {types}, got {value}", types=", ".join(_TYPES),
                           value=repr(data)[:200]))
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        return _TYPES[data["type"]](**fields)
    except TypeError:
        raise RuleError(L_("malformed {kind} action: {value}", kind=data["type"],
                           value=repr(data)[:200])) from None


def coerce(action: Any) -> Action:
    """Accept an Action, its JSON dict, or its text form."""
    if isinstance(action, (Roll, Stand, Reroll, Score)):
        return action
    if isinstance(action, dict):
        return action_from_json(action)
    if isinstance(action, str):
        return parse_action(action)
    raise RuleError(L_("not an action: {value}", value=repr(action)[:200]))


def _typed_positions(words: list[str], what: str) -> tuple[int, ...]:
    digits = [c for w in words for c in w.replace(",", " ").split()]
    flat = [ch for d in digits for ch in (d if d.isdigit() else [d])]
    try:
        return tuple(int(ch) - 1 for ch in flat)
    except ValueError:
        raise RuleError(L_("{what}: die positions are 1 to 5, got {value}", what=what,
                           value=repr(" ".join(words))[:100])) from None


def parse_action(text: str) -> Action:
    """Parse a typed action; positions typed by a person are 1-based ("reroll 1 3" or "13")."""
    words = str(text).strip().lower().split()
    if not words:
        raise RuleError(L_("empty action: type roll, stand, reroll 1 3, or score <box>"))
    head, rest = words[0], words[1:]
    if head in ("roll", "r", "."):
        if rest and rest[0] == "keep":
            return Roll(keep=_typed_positions(rest[1:], "keep"))
        if rest:
            raise RuleError(L_("roll takes 'keep' and positions, got {value}",
                               value=repr(text)[:100]))
        return Roll()
    if head in ("stand", "s", "0", "stop"):
        if rest and rest[0] == "keep":
            return Stand(keep=_typed_positions(rest[1:], "keep"))
        if rest:
            raise RuleError(L_("stand takes 'keep' and positions, got {value}",
                               value=repr(text)[:100]))
        return Stand()
    if head == "reroll":
        return Reroll(_typed_positions(rest, "reroll"))
    if head == "score":
        return Score(" ".join(rest))
    raise RuleError(L_("unknown action {value}: type roll, stand, reroll 1 3, or score <box>",
                       value=repr(text)[:100]))
