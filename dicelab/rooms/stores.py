"""Where rooms live: one interface, three stores.

- ``MemoryStore``: a dict in this process (tests, notebooks); gone when the process ends.
- ``SQLiteStore(path)``: the default. WAL mode with ``synchronous=FULL``: ``append`` returns only
  after SQLite committed (and fsync'd) the action, so a kill -9 right after loses nothing.
  Several processes on one host may share the file (``panel serve --num-procs``): each hears
  of the others' changes by polling SQLite's data_version (every 0.2 s).
- ``RedisStore(url)`` (``dicelab.rooms.redis_store``): shared by several server processes or
  hosts, with pub/sub telling every process about each change.

A store keeps each room's record (``Room``, rewritten whole under a revision number) and its
action log (append-only, JSON dicts). Appending is a compare-and-append: the writer says which
index it is writing, and the store refuses (``Conflict``) if the log has moved on, so two writers
can never both append action N.

``open_store(spec)`` picks one from ``DICELAB_ROOMS``: ``memory``, ``sqlite:///path/rooms.db``
(``sqlite://`` followed by the path, taken literally: see ``sqlite_spec_path``) or
``redis://host:port/db``; default SQLite in platformdirs' user data dir.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

from .. import config
from ..errors import RuleError
from ..i18n import L_
from .class_model import ClassRecord
from .model import Room, readable_rooms
from .store_api import (Conflict, Store, class_news, missing, name_taken, no_class,
                        read_actions, readable_classes)

__all__ = ["ENV", "Conflict", "Store", "MemoryStore", "SQLiteStore", "open_store"]

ENV = "DICELAB_ROOMS"


class MemoryStore(Store):
    """Rooms in a dict of this process. Records and actions are kept as JSON text, so nothing a
    caller holds aliases the stored state (as with the persistent stores)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._rooms: dict[str, str] = {}
        self._logs: dict[str, list[str]] = {}
        self._classes: dict[str, str] = {}

    def create(self, room):
        with self._lock:
            if room.key in self._rooms:
                raise name_taken(room)
            room = room.copy()
            room.rev = 1
            self._rooms[room.key] = room.to_json()
            self._logs[room.key] = []
            return room

    def get(self, key):
        with self._lock:
            text = self._rooms.get(key)
        return None if text is None else Room.from_json(text)

    def update(self, key, change):
        with self._lock:
            if key not in self._rooms:
                raise missing(key)
            room = Room.from_json(self._rooms[key])
            result = change(room)
            room.rev += 1
            self._rooms[key] = room.to_json()
            return room, result

    def delete(self, key):
        with self._lock:
            self._rooms.pop(key, None)
            self._logs.pop(key, None)

    def rooms(self, open_only=True):
        with self._lock:
            rooms = readable_rooms(list(self._rooms.items()), self.damaged)
        return sorted((r for r in rooms if not (open_only and r.started) and not r.archived),
                      key=lambda r: r.created)

    def history(self):
        with self._lock:
            rooms = readable_rooms(list(self._rooms.items()), self.damaged)
        return sorted((r for r in rooms if r.archived), key=lambda r: r.created)

    def actions(self, key, start=0):
        with self._lock:
            return read_actions(key, start, self._logs.get(key, [])[start:])

    def append(self, key, index, action):
        text = json.dumps(action)
        with self._lock:
            log = self._logs.get(key)
            if log is None:
                raise missing(key)
            if len(log) != index:
                raise Conflict(f"{key}: the log holds {len(log)} actions, "  # i18n: not shown
                               f"not {index}")
            log.append(text)

    def create_class(self, record):
        with self._lock:
            if record.code in self._classes:
                raise Conflict(record.code)
            record = record.copy()
            record.rev = 1
            self._classes[record.code] = record.to_json()
            return record

    def get_class(self, code):
        with self._lock:
            text = self._classes.get(code)
        return None if text is None else ClassRecord.from_json(text)

    def update_class(self, code, change):
        with self._lock:
            if code not in self._classes:
                raise no_class(code)
            record = ClassRecord.from_json(self._classes[code])
            result = change(record)
            record.rev += 1
            self._classes[code] = record.to_json()
            return record, result

    def classes(self):
        with self._lock:
            rows = list(self._classes.items())
        return readable_classes(rows, self.damaged)


class SQLiteStore(Store):
    """Rooms in one SQLite file (WAL). Several processes may share the file safely (each write
    is one IMMEDIATE transaction), but only RedisStore tells other processes about changes."""

    TABLES = {"rooms": ("key", "started", "created", "room"),
              "actions": ("key", "idx", "action"),
              "classes": ("code", "created", "class")}

    def __init__(self, path: str | os.PathLike):
        from ..sqlite_files import check_sqlite, problem, sqlite_path

        self.path = sqlite_path(path)
        # a damaged file is set aside, logged; one that cannot be opened raises FileTrouble
        check_sqlite(self.path, self.TABLES, "rooms")
        self.problem = problem(self.path)
        self._lock = threading.Lock()
        # autocommit mode (isolation_level=None): transactions are the explicit BEGINs below
        self._db = self._connect(isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # fsync the WAL at every commit
        with self._write():
            self._db.execute("CREATE TABLE IF NOT EXISTS rooms (key TEXT PRIMARY KEY, "
                             "started INTEGER NOT NULL, created REAL NOT NULL, room TEXT NOT NULL)")
            self._db.execute("CREATE TABLE IF NOT EXISTS actions (key TEXT NOT NULL, "
                             "idx INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (key, idx))"
                             " WITHOUT ROWID")
            self._db.execute("CREATE TABLE IF NOT EXISTS classes (code TEXT PRIMARY KEY, "
                             "created REAL NOT NULL, class TEXT NOT NULL)")

    def _connect(self, **kwargs) -> sqlite3.Connection:
        from ..sqlite_files import connect

        return connect(self.path, "rooms", timeout=30, check_same_thread=False, **kwargs)

    class _Tx:
        def __init__(self, store):
            self.store = store

        def __enter__(self):
            self.store._lock.acquire()
            try:
                # IMMEDIATE takes the write lock now, so a read-check-write is atomic across
                # processes too
                self.store._db.execute("BEGIN IMMEDIATE")
            except BaseException:
                self.store._lock.release()
                raise
            return self.store._db

        def __exit__(self, kind, exc, tb):
            db = self.store._db
            try:
                if kind is None:
                    try:
                        db.execute("COMMIT")
                    except BaseException:  # e.g. disk full: the caller sees the error
                        if db.in_transaction:
                            db.execute("ROLLBACK")
                        raise
                else:
                    db.execute("ROLLBACK")
            finally:
                self.store._lock.release()

    def _write(self):
        return self._Tx(self)

    def _read(self, sql, args=()):
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def create(self, room):
        room = room.copy()
        room.rev = 1
        with self._write() as db:
            try:
                db.execute("INSERT INTO rooms VALUES (?, ?, ?, ?)",
                           (room.key, _column(room), room.created, room.to_json()))
            except sqlite3.IntegrityError:
                raise name_taken(room) from None
        return room

    def get(self, key):
        rows = self._read("SELECT room FROM rooms WHERE key = ?", (key,))
        return Room.from_json(rows[0][0]) if rows else None

    def update(self, key, change):
        with self._write() as db:
            row = db.execute("SELECT room FROM rooms WHERE key = ?", (key,)).fetchone()
            if row is None:
                raise missing(key)
            room = Room.from_json(row[0])
            result = change(room)
            room.rev += 1
            db.execute("UPDATE rooms SET started = ?, room = ? WHERE key = ?",
                       (_column(room), room.to_json(), key))
        return room, result

    def delete(self, key):
        with self._write() as db:
            db.execute("DELETE FROM rooms WHERE key = ?", (key,))
            db.execute("DELETE FROM actions WHERE key = ?", (key,))

    def rooms(self, open_only=True):
        where = "started = 0" if open_only else "started IN (0, 1)"  # i18n: not shown (SQL)
        rows = self._read(f"SELECT key, room FROM rooms WHERE {where} ORDER BY created")
        return readable_rooms(rows, self.damaged)

    def history(self):
        rows = self._read(f"SELECT key, room FROM rooms WHERE started = {ARCHIVED} "
                          "ORDER BY created")
        return readable_rooms(rows, self.damaged)

    def counts(self, client):
        (total, mine), = self._read(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN json_valid(room) AND "
            "json_extract(room, '$.client') = ? THEN 1 ELSE 0 END), 0) FROM rooms "
            "WHERE started IN (0, 1)", (client,))
        return total, mine

    def page(self, started, limit):
        rows = self._read("SELECT key, room FROM rooms WHERE started = ? ORDER BY created "
                          "LIMIT ?", (int(started), limit))
        (total,) = self._read("SELECT COUNT(*) FROM rooms WHERE started = ?",
                              (int(started),))[0]
        return readable_rooms(rows, self.damaged), total

    def actions(self, key, start=0):
        rows = self._read("SELECT action FROM actions WHERE key = ? AND idx >= ? ORDER BY idx",
                          (key, start))
        return read_actions(key, start, [r[0] for r in rows])

    def append(self, key, index, action):
        text = json.dumps(action)
        with self._write() as db:
            if db.execute("SELECT 1 FROM rooms WHERE key = ?", (key,)).fetchone() is None:
                raise missing(key)
            (last,) = db.execute("SELECT MAX(idx) FROM actions WHERE key = ?", (key,)).fetchone()
            count = 0 if last is None else last + 1
            if count != index:
                raise Conflict(f"{key}: the log holds {count} actions, "  # i18n: not shown
                               f"not {index}")
            db.execute("INSERT INTO actions VALUES (?, ?, ?)", (key, index, text))
        # the COMMIT in _Tx.__exit__ has returned: the action is on disk

    def create_class(self, record):
        record = record.copy()
        record.rev = 1
        with self._write() as db:
            try:
                db.execute("INSERT INTO classes VALUES (?, ?, ?)",
                           (record.code, record.created, record.to_json()))
            except sqlite3.IntegrityError:
                raise Conflict(record.code) from None
        return record

    def get_class(self, code):
        rows = self._read("SELECT class FROM classes WHERE code = ?", (code,))
        return ClassRecord.from_json(rows[0][0]) if rows else None

    def update_class(self, code, change):
        with self._write() as db:
            row = db.execute("SELECT class FROM classes WHERE code = ?", (code,)).fetchone()
            if row is None:
                raise no_class(code)
            record = ClassRecord.from_json(row[0])
            result = change(record)
            record.rev += 1
            db.execute("UPDATE classes SET class = ? WHERE code = ?", (record.to_json(), code))
        return record, result

    def classes(self):
        return readable_classes(self._read("SELECT code, class FROM classes ORDER BY created"),
                                self.damaged)

    # ----- news from other processes sharing the file -----------------------------------------
    POLL = 0.2  # seconds between looks at the file's data_version

    def on_remote(self, callback):
        """Other processes (``panel serve --num-procs``) write the same file: a thread looks at
        SQLite's data_version, which moves only for other connections' commits, and reports
        the rooms whose revision or log length changed."""
        self._callbacks = getattr(self, "_callbacks", [])
        self._callbacks.append(callback)
        if getattr(self, "_watcher", None) is None:
            # the look at every room runs on a connection of its own: on the shared one it
            # held the lock every page's read waits for (a flood of rooms made it long)
            self._watch_db = self._connect()
            self._seen = self._snapshot()
            self._version = self._read("PRAGMA data_version")[0][0]
            self._stop = threading.Event()
            self._watcher = threading.Thread(target=self._watch, name="dicelab-sqlite-news",
                                             daemon=True)
            self._watcher.start()

    def _snapshot(self) -> dict[str, tuple[int, int]]:
        # json_valid first: one malformed record must not stop the watcher (json_extract raises)
        rows = self._watch_db.execute(
            "SELECT key, CASE WHEN json_valid(room) THEN json_extract(room, '$.rev')"
            " END, (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions a "
            "WHERE a.key = rooms.key) FROM rooms").fetchall()
        rows += [(class_news(code), rev, 0) for code, rev in self._watch_db.execute(
            "SELECT code, CASE WHEN json_valid(class) THEN json_extract(class, '$.rev') END "
            "FROM classes").fetchall()]
        return {key: (rev, n) for key, rev, n in rows}

    def _watch(self):
        while not self._stop.wait(self.POLL):
            try:
                version = self._read("PRAGMA data_version")[0][0]
                if version == self._version:
                    continue
                self._version = version
                now = self._snapshot()
            except sqlite3.Error:  # closed, or busy for a moment: look again later
                continue
            news = [(k, "deleted") for k in self._seen.keys() - now.keys()]
            for key, (rev, n) in now.items():
                old = self._seen.get(key)
                if old is None or old[0] != rev:
                    news.append((key, "room"))
                if old is None or old[1] != n:
                    news.append((key, "action"))
            self._seen = now
            for key, kind in news:
                for callback in self._callbacks:
                    callback(key, kind)

    def close(self):
        if getattr(self, "_watcher", None) is not None:
            self._stop.set()
            self._watcher.join(2)
            self._watch_db.close()
        with self._lock:
            self._db.close()


ARCHIVED = 2  # the rooms table's "started" column: 0 open, 1 started, 2 expired (history)


def _column(room: Room) -> int:
    return ARCHIVED if room.archived else int(room.started)


def default_spec() -> str:
    import platformdirs

    return "sqlite://" + str(Path(platformdirs.user_data_dir("dicelab")) / "rooms.sqlite3")


def sqlite_spec_path(spec: str) -> Path | None:
    """The file of a ``sqlite://<path>`` spec (None for other specs): the path as the operating
    system spells it, taken literally (``#``, ``?``, ``%``, spaces are part of it);
    ``sqlite:///var/x`` and ``sqlite:////var/x`` are both /var/x, ``sqlite://x`` is x in the
    working folder."""
    if not spec.startswith("sqlite://"):
        return None
    path = spec[len("sqlite://"):]
    if not path:
        raise RuleError(L_("{env}: sqlite:// needs a path, as in sqlite:///var/dicelab/rooms.db",
                           env=ENV))
    from ..sqlite_files import sqlite_path

    return sqlite_path(path)


def open_store(spec: str | None = None) -> Store:
    """A store from a spec (default: the ``DICELAB_ROOMS`` environment variable, else SQLite in
    the user data dir): ``memory``, ``sqlite://<path>`` or ``redis://host:port/db``."""
    spec = spec or config.text(ENV) or default_spec()
    if spec == "memory":
        return MemoryStore()
    path = sqlite_spec_path(spec)
    if path is not None:
        return SQLiteStore(path)
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore

        return RedisStore(spec)
    raise RuleError(L_("{env} is memory, sqlite://<path> or redis://host:port/db; got {spec}",
                       env=ENV, spec=repr(spec)[:100]))
