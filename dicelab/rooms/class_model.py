"""A class (issue 36), as stored: a teacher's lesson of students seated at the class's rooms.

A class is data (``ClassRecord``: name, variant, rules, seating, the students, the tables'
plan) plus the rooms it owns (ordinary rooms, ``Room.klass`` naming the class). As for seats,
tokens are never stored: the teacher and each student are a hash of their token, and a
student's token is also their seat's token in their table's room.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..errors import RuleError
from ..i18n import L_
from .model import Damaged

# letters nobody misreads on a projector or types wrong: no B/8, G/6, I/1/L, O/0/Q, S/5, Z/2
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"  # i18n: not shown (the code's letters)
CODE_LENGTH = 6  # 18**6 = 34 million codes, and failed lookups are rate-limited
SEATINGS = ("tables", "computers")
ORDERS = ("join", "shuffle")
STATUSES = ("lobby", "playing", "paused", "ended")


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def class_code(value: Any) -> str:
    """A join code as typed ("kxr-tmp ", "KXRTMP") in its stored form; RuleError when it
    cannot be one (without telling whether such a class exists)."""
    if not isinstance(value, str) or len(value) > 40:
        raise RuleError(L_("a class code is {n} letters", n=CODE_LENGTH))
    code = "".join(ch for ch in value.upper() if ch not in " -_\t")
    if len(code) != CODE_LENGTH or any(ch not in CODE_LETTERS for ch in code):
        raise RuleError(L_("a class code is {n} letters", n=CODE_LENGTH))
    return code


@dataclass
class Student:
    """A student: ``holder`` is the hash of their token; ``table`` the room they sit in (its
    name, None in the lobby) and ``seat`` their seat there."""

    name: str
    holder: str
    joined: float = 0.0
    table: str | None = None
    seat: int | None = None


@dataclass
class ClassRecord:
    """A class's record in a store. ``tables``: the plan, one entry per room of the class:
    ``{"room": name, "seats": [{"student": i} | {"computer": strategy, "name": name}]}``."""

    code: str
    name: str
    variant: str
    settings: dict[str, Any]
    teacher: str  # hash of the teacher's token
    seating: str = "tables"
    table_size: int = 2
    strategy: str = "chicken"  # the computers' (seating "computers", and a student alone)
    opponents: int = 1  # computers per student (seating "computers")
    order: str = "join"
    students: list[Student] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    status: str = "lobby"
    coach_lines: bool = True
    created: float = 0.0
    touched: float = 0.0
    client: str = ""
    rev: int = 0

    @property
    def key(self) -> str:
        return self.code

    def student_of(self, token_hash: str) -> int | None:
        import hmac

        for i, s in enumerate(self.students):
            if hmac.compare_digest(s.holder, token_hash):
                return i
        return None

    def copy(self) -> ClassRecord:
        return ClassRecord.from_json(self.to_json())

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> ClassRecord:
        try:
            data = json.loads(text)
            data["students"] = [Student(**s) for s in data["students"]]
            record = cls(**data)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise Damaged(L_("damaged class record: {reason}", reason=str(exc)[:100])) from None
        kinds = ((record.code, str), (record.name, str), (record.variant, str),
                 (record.settings, dict), (record.teacher, str), (record.tables, list),
                 (record.rev, int), (record.status, str))
        if not all(isinstance(v, t) for v, t in kinds) or record.status not in STATUSES:
            raise Damaged(L_("damaged class record {name}: wrong types",
                             name=repr(str(data.get("code")))[:40]))
        return record

    def public(self) -> dict[str, Any]:
        """What a student of the class may see: no token hashes, no other student's numbers."""
        return {"code": self.code, "name": self.name, "variant": self.variant,
                "settings": dict(self.settings), "status": self.status,
                "coach_lines": self.coach_lines,
                "students": [s.name for s in self.students]}


def with_rev(record: ClassRecord, rev: int) -> ClassRecord:
    return replace(record, rev=rev)
