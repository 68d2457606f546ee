"""A room: a shared game's table before and during play, as stored.

A room is (name, variant, settings, seats, seed, started) plus, stored beside it, the list of
applied actions; the game itself is never stored, it is rebuilt by replaying the actions.
Tokens are never stored: a seat keeps a hash of its holder's token, so a copied database does not
let anyone act for a seat.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import unicodedata
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..errors import RuleError, reason
from ..i18n import L_
from ..games.base import MAX_SEATS
from ..names import player_name  # noqa: F401 (re-exported: rooms.service and rooms import it here)

MAX_ROOM_NAME = 40
MAX_STRATEGY = 40
MAX_TOKEN = 200
MAX_SESSION = 40  # a browser session's id
MAX_JSON = 4000  # characters of an action or a settings dict as JSON: far above any real one
ROOM_NAME = re.compile(r"[^\W_]|[ _-]")  # a letter or digit of any script, space, - or _


def _text(value: Any, what: Any) -> str:
    if not isinstance(value, str):
        raise RuleError(L_("{what} must be text, got {kind}", what=what,
                           kind=type(value).__name__))
    return value


def room_name(value: Any) -> str:
    """The room name as shown: checked, NFC-normalised, outer spaces trimmed, runs of spaces
    collapsed. RuleError names what is wrong."""
    name = _text(value, L_("a game's name"))
    if len(name) > 4 * MAX_ROOM_NAME:  # refuse huge input before normalising it
        raise RuleError(L_("a game's name has at most {most} characters, got {n}",
                           most=MAX_ROOM_NAME, n=len(name)))
    name = re.sub(" +", " ", unicodedata.normalize("NFC", name)).strip(" ")
    if not name:
        raise RuleError(L_("a game needs a name"))
    if len(name) > MAX_ROOM_NAME:
        raise RuleError(L_("a game's name has at most {most} characters, got {n}",
                           most=MAX_ROOM_NAME, n=len(name)))
    bad = sorted({ch for ch in name if not ROOM_NAME.fullmatch(ch)})
    if bad:
        shown = " ".join(repr(ch) for ch in bad[:5])
        raise RuleError(L_("a game's name may hold letters, digits, spaces, - and _ only; not "
                           "{chars}", chars=shown))
    return name


def room_key(name: str) -> str:
    """Store key of a room: names differing only in case clash ("Table" and "table")."""
    return name.casefold()


def checked_json(value: Any, what: Any) -> Any:
    """A plain JSON value (what a browser can send), not too big; returned as a fresh copy."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise RuleError(L_("{what} must be plain JSON data", what=what)) from None
    if len(text) > MAX_JSON:
        raise RuleError(L_("{what} is too long ({n} characters as JSON)", what=what,
                           n=len(text)))
    return json.loads(text)


def new_token() -> str:
    """A seat token: 128 random bits, for a browser session to keep."""
    return secrets.token_urlsafe(16)


def token_hash(token: Any) -> str:
    """What a room stores of a token. Non-text or oversized tokens hash to a value no seat has."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        return "!"
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def same_token(stored: str | None, token: Any) -> bool:
    return stored is not None and hmac.compare_digest(stored, token_hash(token))


class Damaged(RuleError):
    """A stored room record or action that cannot be read: skipped and reported."""


@dataclass
class RoomSeat:
    """A seat: a person (``holder``, the hash of their token) or a computer (``strategy``).

    A person's seat taken over by a computer keeps ``holder`` and gains ``strategy`` (the person
    can reclaim it); a seat whose person left has neither, and waits for a take-over.
    ``away_since``: when its person left or dropped (the clock's seconds), else None.
    """

    name: str
    holder: str | None = None
    strategy: str | None = None
    away_since: float | None = None
    session: str | None = None  # the browser session that last claimed the seat (a reload
    # makes a new one; the old one's late goodbye must not mark the seat away)

    @property
    def is_computer(self) -> bool:
        return self.strategy is not None

    @property
    def is_empty(self) -> bool:
        return self.holder is None and self.strategy is None

    @property
    def at_table(self) -> bool:
        """Its person plays it and is here (not away, not replaced by a computer)."""
        return self.holder is not None and self.strategy is None and self.away_since is None


@dataclass
class Room:
    """A room's record in a store (the actions are stored beside it, see ``Store``)."""

    name: str
    variant: str
    settings: dict[str, Any]
    creator: str  # hash of the creator's token
    seats: list[RoomSeat] = field(default_factory=list)
    started: bool = False
    seed: int | None = None
    created: float = 0.0
    rev: int = 0  # bumped by the store on every change of this record
    log_start: int = 0  # the room's log goes on across rematches: the current game's first action
    finished: bool = False  # the game is over (the lobby lists it as finished)
    touched: float = 0.0  # the clock's seconds at the last change (rooms idle too long expire)
    client: str = ""  # hash of the creating client's address (rooms per address are limited)
    archived: bool = False  # expired: kept in the store's history, out of the lobby
    klass: str = ""  # the code of the class that owns the room (rooms.classes), if any
    paused: bool = False  # its creator (a class's teacher) paused it: no one acts

    @property
    def key(self) -> str:
        return room_key(self.name)

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= MAX_SEATS

    def seat_of(self, token: Any) -> int | None:
        """The seat held by this token, if any."""
        for i, seat in enumerate(self.seats):
            if same_token(seat.holder, token):
                return i
        return None

    def copy(self) -> Room:
        return replace(self, settings=dict(self.settings),
                       seats=[replace(s) for s in self.seats])

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Room:
        """The room of a stored record; ``Damaged`` (a RuleError) for a record that is not one
        (garbage, a truncated write, another program's row)."""
        try:
            data = json.loads(text)
            data["seats"] = [RoomSeat(**s) for s in data["seats"]]
            room = cls(**data)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise Damaged(L_("damaged room record: {reason}", reason=str(exc)[:100])) from None
        kinds = ((room.name, str), (room.variant, str), (room.settings, dict),
                 (room.creator, str), (room.started, bool), (room.created, (int, float)),
                 (room.rev, int), (room.finished, bool), (room.archived, bool))
        if not all(isinstance(v, t) for v, t in kinds) or not all(
                isinstance(seat.name, str) for seat in room.seats):
            raise Damaged(L_("damaged room record {name}: wrong types",
                             name=repr(str(data.get("name"))[:40])))
        return room

    def public(self) -> dict[str, Any]:
        """What anyone may see (for a lobby or a spectator): no token hashes."""
        return {"name": self.name, "variant": self.variant, "settings": dict(self.settings),
                "started": self.started, "finished": self.finished,
                "seats": [{"name": s.name, "computer": s.strategy, "empty": s.is_empty,
                           "away": s.away_since is not None} for s in self.seats]}


def readable_rooms(rows, damaged: dict[str, str]) -> list[Room]:
    """The rooms of stored (key, record) rows; a damaged record is skipped, logged once and
    noted in ``damaged`` (key -> why), so one bad row never hides the others."""
    rooms = []
    for key, text in rows:
        try:
            rooms.append(Room.from_json(text))
        except Damaged as exc:
            key = key.decode() if isinstance(key, bytes) else str(key)
            if key not in damaged:
                logging.getLogger("dicelab.rooms").warning("room %r skipped: %s", key, exc)
            damaged[key] = reason(exc)  # lazy: shown in the reader's language
    return rooms
