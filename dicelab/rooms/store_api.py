"""The interface every room store offers (``Store``), and what stores raise.

Its own module so that the stores (``stores.py``, ``redis_store.py``) share it without importing
each other.
"""
from __future__ import annotations

import json
from typing import Any, Callable, TypeVar

from ..errors import RuleError, reason
from ..i18n import L_
from .class_model import ClassRecord
from .model import Damaged, Room

T = TypeVar("T")


class Conflict(Exception):
    """The log holds a different number of actions than the writer expected."""


class Store:
    """The interface every store offers (all methods thread-safe)."""

    def create(self, room: Room) -> Room:
        """Store a new room (its ``rev`` becomes 1); RuleError if the name is taken."""
        raise NotImplementedError

    def get(self, key: str) -> Room | None:
        raise NotImplementedError

    def update(self, key: str, change: Callable[[Room], T]) -> tuple[Room, T]:
        """Read-modify-write one room atomically: ``change`` edits a copy (and may raise
        RuleError to leave everything as it was); the copy is saved with ``rev`` + 1."""
        raise NotImplementedError

    def delete(self, key: str) -> None:
        raise NotImplementedError

    def rooms(self, open_only: bool = True) -> list[Room]:
        """Every room of the lobby (only those not started, by default), oldest first; expired
        (archived) rooms are not in it, and damaged records are skipped (see ``damaged``)."""
        raise NotImplementedError

    def history(self) -> list[Room]:
        """The expired (archived) rooms, oldest first."""
        return []

    @property
    def damaged(self) -> dict[str, str]:
        """Keys of stored rooms that could not be read -> why (skipped, reported in the log)."""
        if not hasattr(self, "_damaged"):
            self._damaged: dict[str, str] = {}
        return self._damaged

    def counts(self, client: str) -> tuple[int, int]:
        """How many rooms the lobby holds, and how many of them ``client`` created."""
        rooms = self.rooms(open_only=False)
        return len(rooms), sum(r.client == client for r in rooms)

    def page(self, started: bool, limit: int) -> tuple[list[Room], int]:
        """The first ``limit`` lobby rooms that are started (or open), oldest first, and how
        many there are in all (a lobby shows a page at a time)."""
        rooms = [r for r in self.rooms(open_only=False) if r.started == started]
        return rooms[:limit], len(rooms)

    def actions(self, key: str, start: int = 0) -> list[dict[str, Any]]:
        """The room's actions from index ``start`` on."""
        raise NotImplementedError

    def append(self, key: str, index: int, action: dict[str, Any]) -> None:
        """Append ``action`` as action number ``index`` (0-based), durably; Conflict if the log
        does not hold exactly ``index`` actions, RuleError if the room is gone."""
        raise NotImplementedError

    # ----- classes (rooms.classes): a record each, keyed by its join code ---------------------
    def create_class(self, record: ClassRecord) -> ClassRecord:
        """Store a new class (its ``rev`` becomes 1); ``Conflict`` if the code is taken."""
        raise NotImplementedError

    def get_class(self, code: str) -> ClassRecord | None:
        raise NotImplementedError

    def update_class(self, code: str, change: Callable[[ClassRecord], T]
                     ) -> tuple[ClassRecord, T]:
        """Read-modify-write one class atomically, as ``update`` does a room."""
        raise NotImplementedError

    def classes(self) -> list[ClassRecord]:
        """Every class, oldest first (damaged records skipped, see ``damaged``)."""
        raise NotImplementedError

    def on_remote(self, callback: Callable[[str, str], None]) -> None:
        """Call ``callback(key, kind)`` when another process changes a room (kind "room",
        "action" or "deleted"), or a class (key ``class_news(code)``, kind "room"). Stores
        without other processes never call it."""

    def close(self) -> None:
        pass


def read_actions(key: str, start: int, texts) -> list[dict[str, Any]]:
    """Stored actions (JSON texts) as dicts; a damaged one stops the room's log there with a
    RuleError naming it (that room only: the others play on)."""
    out = []
    for i, text in enumerate(texts, start):
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            data = None
        if not isinstance(data, dict):
            raise Damaged(L_("the game {name} is damaged: its action {index} cannot be read",
                             name=repr(key), index=i))
        out.append(data)
    return out


def missing(key: str) -> RuleError:
    """The error for a room that does not exist."""
    return RuleError(L_("there is no game named {name}", name=repr(key)))


def name_taken(room: Room) -> RuleError:
    """The error for creating a room under a name in use."""
    return RuleError(L_("a game named {name} already exists: choose another name",
                        name=repr(room.name)))


def class_news(code: str) -> str:
    """The key a class's news goes by (no room key has a colon: room names cannot)."""
    return "class:" + code


def readable_classes(rows, damaged: dict[str, str]) -> list[ClassRecord]:
    """The classes of stored (code, record) rows, as ``readable_rooms``."""
    out = []
    for key, text in rows:
        try:
            out.append(ClassRecord.from_json(text))
        except Damaged as exc:
            damaged[class_news(str(key))] = reason(exc)
    return sorted(out, key=lambda c: c.created)


def no_class(code: str) -> RuleError:
    """The error for a class that does not exist."""
    return RuleError(L_("there is no class with the code {code}", code=code))
