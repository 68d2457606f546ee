"""ClassService: a teacher's class over the rooms (issue 36).

The teacher creates a class (name, variant, rules, seating) and gets a token, as a room's
creator does, and a short join code for the students. A student joins with the code and a
name and gets a token; when the teacher starts, the students are seated at rooms the class
owns (tables of 2 to 8 in join order or shuffled, or each against computers), and a student's
token is their seat's token there: they play through ``RoomService`` like any room. A student
who joins later gets a table of their own against computers at once.

Only the teacher's token starts, pauses, resumes and ends the class and reads every student's
numbers; a student's token reads their own. The numbers are the coach's (``dicelab.review``
of each table's game). A class is a record in the rooms store beside the rooms it owns, so it
is as durable and as shared (SQLite, Redis) as they are.

    classes = ClassService(RoomService("memory"))
    klass, teacher = classes.create("Maths 9B", "bones", {"target": 2000})
    ann = classes.join(klass.code, "Ann")
    classes.start(klass.code, teacher)
    classes.report(klass.code, teacher)     # a DataFrame: one row per student
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import random
import secrets
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

from .. import config
from ..errors import RuleError
from ..games import GAMES
from ..games.base import MAX_SEATS
from ..i18n import L_, _
from .class_model import (CODE_LETTERS, ORDERS, SEATINGS, ClassRecord, Student, class_code,
                          new_code)
from .model import Room, RoomSeat, new_token, player_name, room_key, same_token, token_hash
from .pacer import default_strategy
from .service import RoomEvent, RoomService, checked_player, checked_settings
from .store_api import Conflict, class_news

if TYPE_CHECKING:
    import pandas as pd

    from ..games import Game

log = logging.getLogger(__name__)
REPORT_COLUMNS = ("student", "table", "decisions", "mistakes", "value_lost", "unit",
                  "finished", "won")


class ClassService:
    """Classes over a RoomService (``rooms``: a RoomService, or a store spec for one).
    ``pacer``: told about each new table so its computers play; ``seeds``: as RoomService's
    (a table's seed, the shuffle). Limits default to ``DICELAB_CLASS_STUDENTS``,
    ``DICELAB_MAX_CLASSES`` and ``DICELAB_CLASS_CODE_TRIES`` (wrong codes a minute from one
    address)."""

    def __init__(self, rooms: RoomService | str | None = None, *, pacer=None,
                 max_students: int | None = None, max_classes: int | None = None,
                 code_tries: int | None = None, seeds: Callable[[int], int] | None = None):
        self.rooms = rooms if isinstance(rooms, RoomService) else RoomService(rooms)
        self.store = self.rooms.store
        self.pacer = pacer
        self.max_students = max_students or config.value("DICELAB_CLASS_STUDENTS")
        self.max_classes = max_classes or config.value("DICELAB_MAX_CLASSES")
        self.code_tries = code_tries or config.value("DICELAB_CLASS_CODE_TRIES")
        self._seeds = seeds or secrets.randbits
        self._lock = threading.Lock()
        self._tries: dict[str, deque] = {}  # client -> times of its wrong codes (last minute)
        self._reviews: dict[tuple, Any] = {}  # (room key, log start, actions) -> its review
        self._subscribers: dict[str, list[Callable[[str], Any]]] = {}
        self._room_class: dict[str, str] = {}  # room key -> its class's code
        self._unsubscribe = self.rooms.subscribe(None, self._heard)

    # ----- the teacher -------------------------------------------------------------------------
    def create(self, name: Any, variant: Any, settings: Any = None, *, seating: Any = "tables",
               table_size: Any = 2, strategy: Any = None, opponents: Any = 1,
               order: Any = "join", coach_lines: Any = True,
               client: Any = None) -> tuple[ClassRecord, str]:
        """A new class in its lobby; returns it and the teacher's token (keep it secret)."""
        name = player_name(name)
        if not isinstance(variant, str) or variant not in GAMES:
            raise RuleError(L_("the variants are {variants}; got {variant}",
                               variants=", ".join(GAMES), variant=repr(variant)[:100]))
        settings = checked_settings(variant, settings)
        if seating not in SEATINGS:
            raise RuleError(L_("a class's seating is {choices}; got {value}",
                               choices=", ".join(SEATINGS), value=repr(seating)[:60]))
        if order not in ORDERS:
            raise RuleError(L_("a class's order is {choices}; got {value}",
                               choices=", ".join(ORDERS), value=repr(order)[:60]))
        table_size = _whole(table_size, 2, MAX_SEATS, L_("students at a table"))
        opponents = _whole(opponents, 1, MAX_SEATS - 1, L_("computers against each student"))
        strategy = default_strategy(variant) if strategy is None else strategy
        if not isinstance(strategy, str) or len(strategy) > 40:
            raise RuleError(L_("a strategy is a name, as in 'chicken'"))
        checked_player(variant, strategy)
        now = self.rooms.clock()
        live = [c for c in self.store.classes()
                if c.status != "ended" and now - c.touched < self.rooms.idle]
        if len(live) >= self.max_classes:
            raise RuleError(L_("this server holds at most {most} classes: end one first",
                               most=str(self.max_classes)))
        token = new_token()
        for _try in range(20):
            record = ClassRecord(new_code(), name, variant, settings, token_hash(token),
                                 seating=seating, table_size=table_size, strategy=strategy,
                                 opponents=opponents, order=order, coach_lines=bool(coach_lines),
                                 created=now, touched=now, client=_client(client))
            try:
                record = self.store.create_class(record)
                break
            except Conflict:  # the code is taken: draw another
                continue
        else:
            raise RuleError(L_("no free class code was found: try again"))
        self._news(record.code, "class")
        return record, token

    def start(self, code: Any, token: Any, order: Any = None) -> ClassRecord:
        """Seat every student (tables filled in the class's order, or ``order``: "join" or
        "shuffle") and start every table. Starting a started class again only makes any
        table that is missing (after a crash between the two steps)."""
        code = class_code(code)
        if order is not None and order not in ORDERS:
            raise RuleError(L_("a class's order is {choices}; got {value}",
                               choices=", ".join(ORDERS), value=repr(order)[:60]))

        def change(rec: ClassRecord):
            self._teacher(rec, token)
            if rec.status != "lobby":
                return
            if not rec.students:
                raise RuleError(L_("{name} has no students yet: they join with the code {code}",
                                   name=rec.name, code=rec.code))
            people = list(range(len(rec.students)))
            if (order or rec.order) == "shuffle":
                random.Random(self._seeds(63)).shuffle(people)
            if rec.seating == "computers":
                groups = [[i] for i in people]
            else:  # as even as can be: sizes differ by one at most
                n = math.ceil(len(people) / rec.table_size)
                base, extra = divmod(len(people), n)
                groups, at = [], 0
                for t in range(n):
                    size = base + (t < extra)
                    groups.append(people[at:at + size])
                    at += size
            for group in groups:
                _plan_table(rec, group)
            rec.status = "playing"
            rec.touched = self.rooms.clock()

        record = self._update(code, change)
        self._make_rooms(record)
        return record

    def pause(self, code: Any, token: Any) -> None:
        """Pause every table of the class: no one acts, computers wait."""
        self._set_status(code, token, "paused")

    def resume(self, code: Any, token: Any) -> None:
        self._set_status(code, token, "playing")

    def end(self, code: Any, token: Any) -> None:
        """End the class: every table stops where it is; the report stays."""
        self._set_status(code, token, "ended")

    def set_coach_lines(self, code: Any, token: Any, on: Any) -> None:
        """Whether the students' pages show the coach's lines."""
        def change(rec: ClassRecord):
            self._teacher(rec, token)
            rec.coach_lines = bool(on)

        self._update(class_code(code), change)

    # ----- the students ------------------------------------------------------------------------
    def lookup(self, code: Any, client: Any = None) -> dict[str, Any]:
        """What a join page shows of a class (``ClassRecord.public``); wrong codes count
        against the address (``code_tries`` a minute)."""
        return self._find(code, _client(client)).public()

    def join(self, code: Any, name: Any, client: Any = None) -> str:
        """A student joins with the code and a name; returns their token (their seat's token
        once seated). A class that has started seats them at once at a table of their own."""
        record = self._find(code, _client(client))
        name = player_name(name)
        token = new_token()
        holder = token_hash(token)

        def change(rec: ClassRecord):
            if rec.status == "ended":
                raise RuleError(L_("{name} has ended", name=rec.name))
            if len(rec.students) >= self.max_students:
                raise RuleError(L_("{name} is full: {most} students at most", name=rec.name,
                                   most=str(self.max_students)))
            if any(s.name.casefold() == name.casefold() for s in rec.students):
                raise RuleError(L_("{room} already has a player named {name}: choose another "
                                   "name", room=rec.name, name=repr(name)))
            rec.students.append(Student(name, holder, joined=self.rooms.clock()))
            if rec.status != "lobby":  # a late-comer: a table of their own
                _plan_table(rec, [len(rec.students) - 1])
            rec.touched = self.rooms.clock()

        record = self._update(record.code, change)
        self._make_rooms(record)
        return token

    def student(self, code: Any, token: Any) -> dict[str, Any]:
        """A student's own view: their name, table (a room name, None in the lobby), seat,
        and the class's status and coach setting. Refused for a token not of this class."""
        code = class_code(code)
        rec = self._record(code)
        i = self._student(rec, token)
        s = rec.students[i]
        if s.table is not None and self.store.get(room_key(s.table)) is None:
            self._make_rooms(rec)  # planned before a crash, not made yet
        return {"name": s.name, "table": s.table, "seat": s.seat, "class": rec.name,
                "status": rec.status, "coach_lines": rec.coach_lines, "variant": rec.variant}

    def my_numbers(self, code: Any, token: Any) -> dict[str, Any]:
        """A student's own numbers (a row of the report)."""
        rec = self._record(class_code(code))
        i = self._student(rec, token)
        return self._rows(rec, only=i)[0]

    # ----- what the teacher sees ---------------------------------------------------------------
    def record(self, code: Any, token: Any) -> ClassRecord:
        """The class's record (a copy), for its teacher."""
        rec = self._record(class_code(code))
        self._teacher(rec, token)
        return rec

    def tables(self, code: Any, token: Any) -> list[dict[str, Any]]:
        """Every table now: its room, seats, whose turn, totals, the last event, over."""
        rec = self.record(code, token)
        out = []
        for table in rec.tables:
            game = self._game(table["room"])
            seats = [s.get("name") or rec.students[s["student"]].name for s in table["seats"]]
            entry = {"room": table["room"], "seats": seats, "turn": None, "totals": None,
                     "last": "", "over": False, "winners": [], "actions": 0}
            if game is not None:
                entry.update(turn=None if game.is_over else seats[game.current_player],
                             totals=list(game.totals()), over=game.is_over,
                             winners=[seats[w] for w in game.winners],
                             actions=len(game.actions),
                             last=str(game.history[-1].text) if game.history else "")
            out.append(entry)
        return out

    def numbers(self, code: Any, token: Any) -> list[dict[str, Any]]:
        """Every student's numbers (the report's rows, as dicts)."""
        return self._rows(self.record(code, token))

    def report(self, code: Any, token: Any) -> pd.DataFrame:
        """The class report: one row per student (``REPORT_COLUMNS``), at any time."""
        import pandas as pd

        return pd.DataFrame(self.numbers(code, token), columns=list(REPORT_COLUMNS))

    def report_csv(self, code: Any, token: Any) -> str:
        """The report as CSV; a name a spreadsheet would run as a formula is made inert (the
        coach's ``guard``)."""
        import csv
        import io

        from ..coach.render import guard

        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(REPORT_COLUMNS), lineterminator="\n")
        w.writeheader()
        w.writerows({k: guard(v) for k, v in row.items()} for row in self.numbers(code, token))
        return buf.getvalue()

    def report_json(self, code: Any, token: Any) -> str:
        rec = self.record(code, token)
        return json.dumps({"class": rec.name, "code": rec.code, "variant": rec.variant,
                           "settings": rec.settings, "status": rec.status,
                           "students": self._rows(rec)}, ensure_ascii=False)

    def costliest(self, code: Any, token: Any, limit: int = 10) -> list[dict[str, Any]]:
        """The class's costliest decisions (students' only), costliest first: the table, the
        action's number (``position`` opens it), who, what it lost, the choice and the best."""
        rec = self.record(code, token)
        people = {(s.table, s.name) for s in rec.students}
        found = []
        for table in rec.tables:
            review = self._review(table["room"])
            if review is None:
                continue
            for e in review.entries:
                if (table["room"], e.player) in people and e.lost > 0:
                    found.append({"table": table["room"], "index": e.index, "turn": e.turn,
                                  "student": e.player, "lost": e.lost, "unit": e.unit,
                                  "choice": e.chosen.label, "best": e.best.label,
                                  "state": e.state, "why": e.why,
                                  "options": [(o.label, o.value) for o in e.options]})
        found.sort(key=lambda d: -d["lost"])
        return found[:max(0, int(limit))]

    def position(self, code: Any, token: Any, table: Any, index: Any) -> Game:
        """A table's game just before its action ``index`` (a position to show, with its
        exact options, on the projector)."""
        rec = self.record(code, token)
        room = self._table_of(rec, table)
        game = self._game(room)
        if game is None or isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(game.actions):
            raise RuleError(L_("no action {index} at this table", index=repr(index)[:20]))
        return game.replay(index)

    def game_file(self, code: Any, token: Any, table: Any = None) -> str:
        """A table's game as a saved game (JSON text that the review and the analysis board
        open). The teacher may have any table's; a student only their own (``table`` None)."""
        rec = self._record(class_code(code))
        if same_token(rec.teacher, token):
            room = self._table_of(rec, table)
        else:
            s = rec.students[self._student(rec, token)]
            if s.table is None or table not in (None, s.table):
                raise RuleError(L_("a student may download their own game only"))
            room = s.table
        game = self._game(room)
        if game is None:
            raise RuleError(L_("this table has not started"))
        return game.to_json()

    # ----- news --------------------------------------------------------------------------------
    def subscribe(self, code: Any, callback: Callable[[str], Any]) -> Callable[[], None]:
        """Call ``callback(kind)`` after every change of the class ("class") or of one of its
        tables ("room", "action"), here or in another process. Returns the unsubscriber."""
        code = class_code(code)
        with self._lock:
            self._subscribers.setdefault(code, []).append(callback)
        self._record(code)  # learn its tables

        def unsubscribe():
            with self._lock:
                if callback in self._subscribers.get(code, []):
                    self._subscribers[code].remove(callback)

        return unsubscribe

    def close(self) -> None:
        self._unsubscribe()

    def _heard(self, event: RoomEvent) -> None:
        prefix = class_news("")
        if event.room.startswith(prefix):
            code = event.room[len(prefix):]
            try:  # its tables may be new
                self._record(code)
            except RuleError:
                return
            self._news(code, "class")
            return
        with self._lock:
            code = self._room_class.get(event.room)
        if code is not None:
            self._news(code, event.kind)

    def _news(self, code: str, kind: str) -> None:
        with self._lock:
            callbacks = list(self._subscribers.get(code, []))
        for callback in callbacks:
            try:
                callback(kind)
            except Exception:  # one broken page must not stop the others
                log.exception("a class subscriber failed on %s", code)

    # ----- inside --------------------------------------------------------------------------------
    def _find(self, code: Any, client: str) -> ClassRecord:
        """The class of a typed code; a wrong one counts against ``client``'s tries."""
        now = self.rooms.clock()
        with self._lock:
            mine = self._tries.setdefault(client, deque())
            for tries in self._tries.values():
                while tries and now - tries[0] > 60:
                    tries.popleft()
            everyone = sum(len(t) for t in self._tries.values())
            if len(mine) >= self.code_tries or everyone >= 10 * self.code_tries:
                raise RuleError(L_("too many wrong class codes: wait a minute and try again"))
        try:
            rec = self.store.get_class(class_code(code))
        except RuleError:
            rec = None
        if rec is None:
            with self._lock:
                self._tries.setdefault(client, deque()).append(now)
                if len(self._tries) > 10_000:  # addresses with no tries left are forgotten
                    self._tries = {k: v for k, v in self._tries.items() if v}
            raise RuleError(L_("no class has this code: check it with your teacher"))
        self._learn(rec)
        return rec

    def _record(self, code: str) -> ClassRecord:
        rec = self.store.get_class(code)
        if rec is None:
            raise RuleError(L_("no class has this code: check it with your teacher"))
        self._learn(rec)
        return rec

    def _learn(self, rec: ClassRecord) -> None:
        with self._lock:
            for table in rec.tables:
                self._room_class[room_key(table["room"])] = rec.code

    def _update(self, code: str, change: Callable[[ClassRecord], Any]) -> ClassRecord:
        record = self.store.update_class(code, change)[0]
        self._learn(record)
        self._news(code, "class")
        return record

    def _teacher(self, rec: ClassRecord, token: Any) -> None:
        if not same_token(rec.teacher, token):
            raise RuleError(L_("only the teacher of {name} may do this", name=rec.name))

    def _student(self, rec: ClassRecord, token: Any) -> int:
        i = rec.student_of(token_hash(token))
        if i is None:
            raise RuleError(L_("this browser is not a student of {name}", name=rec.name))
        return i

    def _table_of(self, rec: ClassRecord, table: Any) -> str:
        for t in rec.tables:
            if t["room"] == table:
                return t["room"]
        raise RuleError(L_("{name} has no table {table}", name=rec.name,
                           table=repr(table)[:60]))

    def _set_status(self, code: Any, token: Any, status: str) -> None:
        """Pause, resume or end: the record first, then each table (again on a retry: a
        crash between the two is mended by doing it again)."""
        def change(rec: ClassRecord):
            self._teacher(rec, token)
            if rec.status == "lobby" and status != "ended":
                raise RuleError(L_("{name} has not started yet", name=rec.name))
            if rec.status == "ended" and status != "ended":
                raise RuleError(L_("{name} has ended", name=rec.name))
            rec.status = status
            rec.touched = self.rooms.clock()

        record = self._update(class_code(code), change)
        self._make_rooms(record)
        for table in record.tables:
            self.rooms.pause(table["room"], token, status != "playing")

    def _make_rooms(self, rec: ClassRecord) -> None:
        """Make every planned table that is not in the store yet, started (a table made in
        another process meanwhile is kept)."""
        for table in rec.tables:
            name = table["room"]
            if self.store.get(room_key(name)) is not None:
                continue
            seats = [RoomSeat(s["name"], strategy=s["computer"]) if "computer" in s else
                     RoomSeat(rec.students[s["student"]].name,
                              holder=rec.students[s["student"]].holder) for s in table["seats"]]
            now = self.rooms.clock()
            room = Room(name, rec.variant, dict(rec.settings), creator=rec.teacher, seats=seats,
                        started=True, seed=self._seeds(63), created=now, touched=now,
                        klass=rec.code, paused=rec.status != "playing")
            try:
                self.store.create(room)
            except RuleError:  # made meanwhile (another process): that one it is
                pass
            self.rooms.reread(name)
            if self.pacer is not None:
                self.pacer.watch(name)

    def _game(self, room: str) -> Game | None:
        try:
            return self.rooms.state(room)
        except RuleError:
            return None

    def _review(self, room: str):
        """The coach's review of a table's game, kept while the game stands still."""
        from ..coach import review

        game = self._game(room)
        if game is None:
            return None
        key = (room_key(room), game.seed, len(game.actions))
        with self._lock:
            hit = self._reviews.get(key)
        if hit is None:
            hit = review(game.copy())  # a copy: the table's game moves on meanwhile
            with self._lock:
                if len(self._reviews) > 4096:
                    self._reviews.clear()
                self._reviews = {k: v for k, v in self._reviews.items() if k[0] != key[0]}
                self._reviews[key] = hit
        return hit

    def _rows(self, rec: ClassRecord, only: int | None = None) -> list[dict[str, Any]]:
        rows = []
        for i, s in enumerate(rec.students):
            if only is not None and i != only:
                continue
            row = {"student": s.name, "table": s.table or "", "decisions": 0, "mistakes": 0,
                   "value_lost": 0.0, "unit": "", "finished": False, "won": False}
            review = None if s.table is None else self._review(s.table)
            if review is not None and s.name in review.seats:
                mine = review.seats[s.name]
                game = self._game(s.table)
                row.update(decisions=mine.decisions, mistakes=mine.mistakes,
                           value_lost=mine.lost, unit=review.unit, finished=review.finished,
                           won=bool(game is not None and s.seat in game.winners))
            rows.append(row)
        return rows


def _plan_table(rec: ClassRecord, group: list[int]) -> None:
    """Plan a table for these students (computers added: the class's opponents, or one for a
    student alone) under a name nobody can guess before it exists."""
    n = len(rec.tables) + 1
    salt = "".join(secrets.choice(CODE_LETTERS) for _k in range(4))
    name = f"{rec.code}-{n}-{salt}"
    seats: list[dict[str, Any]] = [{"student": i} for i in group]
    computers = rec.opponents if rec.seating == "computers" else (1 if len(group) == 1 else 0)
    taken = {rec.students[i].name.casefold() for i in group}
    k = 0
    for _c in range(computers):
        k += 1
        while _("Computer {n}", n=k).casefold() in taken:
            k += 1
        seats.append({"computer": rec.strategy, "name": _("Computer {n}", n=k)})
    for pos, i in enumerate(group):
        rec.students[i].table, rec.students[i].seat = name, pos
    rec.tables.append({"room": name, "seats": seats})


def _whole(value: Any, low: int, high: int, what: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(L_("{what}: a whole number from {low} to {high}, got {value}",
                           what=what, low=str(low), high=str(high), value=repr(value)[:40]))
    return value


def _client(client: Any) -> str:
    """What a class keeps of an address: a short hash (for the tries and the limits)."""
    if client is None:
        return ""
    return hashlib.sha256(str(client)[:200].encode()).hexdigest()[:16]


_default: ClassService | None = None
_default_lock = threading.Lock()


def default_class_service() -> ClassService:
    """This server process's ClassService, over its RoomService and pacer (made once)."""
    global _default
    from .backend import default_backend

    with _default_lock:
        if _default is None:
            rooms, pacer = default_backend()
            _default = ClassService(rooms, pacer=pacer)
        return _default
