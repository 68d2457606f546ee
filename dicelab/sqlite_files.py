"""Open dicelab's own SQLite files with a check (records, rooms): a damaged file is set aside.

A file that is not a database (garbage, truncated), a folder in its place, or a database with
another schema is renamed ``<name>.damaged-<time>`` (with its -wal/-shm companions), a warning
goes to the log, and the caller starts afresh; what was set aside is remembered per path for
the pages that open later (``problem``).
"""
from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

from . import i18n
from .i18n import L_, Msg

log = logging.getLogger("dicelab")
_lock = threading.Lock()
_problems: dict[str, Msg] = {}  # kept lazy: each page reads it in its own language
_healthy: set[str] = set()  # paths found sound in this process (a page per session opens them)


def problem(path: str | os.PathLike) -> str | None:
    """The message about a file set aside at ``path`` in this process, if any (in the current
    language)."""
    found = _problems.get(str(Path(path)))
    return None if found is None else i18n.text(found)


def check_sqlite(path: str | os.PathLike, tables: dict[str, tuple[str, ...]], what: str,
                 again: bool = False) -> str | None:
    """Check the SQLite file at ``path`` holds only ``tables`` (name -> column names; any may be
    missing: they are created later). A damaged file is set aside; returns the message then.
    A file found sound is not checked again in this process unless ``again``."""
    path = Path(path)
    with _lock:
        if again:
            _healthy.discard(str(path))
        if str(path) in _healthy and path.is_file():
            return None  # damage found later is handled where the file is used
        why = _damage(path, tables)
        if why is None:
            if path.is_file():
                _healthy.add(str(path))
            return None
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        n = 1
        while aside.exists():
            n += 1
            stamp = time.strftime('%Y%m%d-%H%M%S')
            aside = aside.with_name(f"{path.name}.damaged-{stamp}-{n}")  # i18n: not shown
        try:
            path.rename(aside)
            for extra in ("-wal", "-shm", "-journal"):
                companion = path.with_name(path.name + extra)
                if companion.exists():
                    companion.rename(aside.with_name(aside.name + extra))
        except OSError as exc:
            message = _not_set_aside(what, path, why, exc.strerror or str(exc))
        else:
            message = _set_aside(what, why, aside.name)
        log.warning("%s", message.english)
        _problems[str(path)] = message
        return i18n.text(message)


def _set_aside(what: str, why: Msg, name: str) -> Msg:
    if what == "records":
        return L_("The records file was damaged ({why}): it was set aside as {name} and the "
                  "records start afresh.", why=why, name=name)
    if what == "rooms":
        return L_("The rooms file was damaged ({why}): it was set aside as {name} and the "
                  "rooms start afresh.", why=why, name=name)
    return L_("The {what} file was damaged ({why}): it was set aside as {name} and the "
              "{what} start afresh.", what=what, why=why, name=name)


def _not_set_aside(what: str, path: Path, why: Msg, reason: str) -> Msg:
    if what == "records":
        return L_("The records file {path} is damaged ({why}) and could not be set aside "
                  "({reason}).", path=str(path), why=why, reason=reason)
    if what == "rooms":
        return L_("The rooms file {path} is damaged ({why}) and could not be set aside "
                  "({reason}).", path=str(path), why=why, reason=reason)
    return L_("The {what} file {path} is damaged ({why}) and could not be set aside "
              "({reason}).", what=what, path=str(path), why=why, reason=reason)


def _damage(path: Path, tables: dict[str, tuple[str, ...]]) -> Msg | None:
    if path.is_dir():
        return L_("a folder is in its place")
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=5)  # i18n: not shown
    except sqlite3.Error as exc:
        return L_("cannot open it: {error}", error=str(exc))
    try:
        (check,) = db.execute("PRAGMA quick_check").fetchone()
        if check != "ok":
            return L_("SQLite says: {error}", error=str(check)[:80])
        found = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        ours = [t for t in found if t in tables]
        if found and not ours:
            return L_("it holds other tables ({tables})", tables=", ".join(found[:3]))
        for table in ours:
            columns = tuple(r[1] for r in db.execute(f"PRAGMA table_info({table})"))
            if columns != tables[table]:
                return L_("its {table} table has other columns ({columns})", table=table,
                          columns=", ".join(columns)[:80])
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):  # another process is writing: not damage
            return None
        return L_("SQLite says: {error}", error=str(exc))
    except sqlite3.DatabaseError as exc:  # "file is not a database", "disk image is malformed"
        return L_("SQLite says: {error}", error=str(exc))
    finally:
        db.close()
    return None
