"""Open dicelab's own SQLite files (records, rooms) one way, with a check: a damaged file is set
aside, a file that cannot be opened is a clear error.

``connect`` is how every dicelab SQLite file is opened (the stores, the records, the check): by
its absolute path as a plain file name, never as an SQLite URI, so any path the operating
system accepts works (``#``, ``?``, ``%``, spaces, non-ASCII; ``sqlite_path`` reads
``sqlite:////abs`` as ``/abs``). A file it cannot open or write (permissions, a read-only file
or file system, a folder that cannot be made) raises ``FileTrouble`` naming the file and the
reason: that is not damage, and the file is never moved.

A file SQLite reads and finds unsound (not a database, malformed, truncated), a folder in its
place, or a database with another schema is renamed ``<name>.damaged-<time>`` (with its
-wal/-shm companions), a warning goes to the log, and the caller starts afresh; what was set
aside is remembered per path for the pages that open later (``problem``).
"""
from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

from . import i18n
from .errors import RuleError
from .i18n import L_, Msg

log = logging.getLogger("dicelab")
_lock = threading.Lock()
_problems: dict[str, Msg] = {}  # kept lazy: each page reads it in its own language
_healthy: set[str] = set()  # paths found sound in this process (a page per session opens them)


class FileTrouble(RuleError):
    """A dicelab file that cannot be opened or written: the message names it and the reason."""


# SQLite's primary result codes that mean the file itself is unsound (else: not damage)
_DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED: another connection is writing


def sqlite_path(text: str | os.PathLike) -> Path:
    """A file's path as given in a setting: ``~`` expanded, made absolute; a leading ``//``
    (``sqlite:////var/x``, the form of SQLAlchemy and most tools) is ``/``."""
    text = os.path.expanduser(os.fspath(text))
    if text.startswith("//"):
        text = "/" + text.lstrip("/")
    return Path(os.path.abspath(text))


def is_damage(exc: BaseException) -> bool:
    """Does this SQLite error say the file is unsound (rather than busy, read-only, full...)?"""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, sqlite3.OperationalError)


def is_busy(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return (code is not None and code & 0xFF in _BUSY_CODES) or "locked" in str(exc)


def trouble(what: str, path: Path, reason: str) -> FileTrouble:
    """The error for a file that cannot be opened or written (``what``: rooms or records)."""
    if what == "records":
        return FileTrouble(L_("The records file {path} cannot be used: {reason}",
                              path=str(path), reason=reason))
    if what == "rooms":
        return FileTrouble(L_("The rooms file {path} cannot be used: {reason}",
                              path=str(path), reason=reason))
    return FileTrouble(L_("The {what} file {path} cannot be used: {reason}", what=what,
                          path=str(path), reason=reason))


def _unwritable(path: Path) -> str | None:
    """Why ``path`` (and its folder, where SQLite writes its journal) cannot be written, if so:
    the operating system's words."""
    import errno

    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return exc.strerror or str(exc)
    for target in ((path, folder) if path.exists() else (folder,)):
        if not os.access(target, os.W_OK | os.R_OK):
            try:
                read_only = os.statvfs(target).f_flag & os.ST_RDONLY
            except OSError:
                read_only = False
            return os.strerror(errno.EROFS if read_only else errno.EACCES)
    return None


def connect(path: str | os.PathLike, what: str, timeout: float = 30,
            **kwargs) -> sqlite3.Connection:
    """Open dicelab's SQLite file at ``path`` for reading and writing (made if missing, with
    its folder), the one way every dicelab SQLite file is opened. A file that cannot be opened
    or written raises ``FileTrouble`` (``what``: "rooms" or "records", for the message)."""
    path = sqlite_path(path)
    why = _unwritable(path)
    if why is not None:
        raise trouble(what, path, why)
    try:
        # a plain file name: a URI ("file:...") would read #, ? and // as URI syntax
        return sqlite3.connect(str(path), timeout=timeout, **kwargs)
    except sqlite3.Error as exc:
        raise trouble(what, path, str(exc)) from None


def problem(path: str | os.PathLike) -> str | None:
    """The message about a file set aside at ``path`` in this process, if any (in the current
    language)."""
    found = _problems.get(str(sqlite_path(path)))
    return None if found is None else i18n.text(found)


def check_sqlite(path: str | os.PathLike, tables: dict[str, tuple[str, ...]], what: str,
                 again: bool = False) -> str | None:
    """Check the SQLite file at ``path`` holds only ``tables`` (name -> column names; any may be
    missing: they are created later). A damaged file is set aside; returns the message then.
    A file found sound is not checked again in this process unless ``again``. A file that
    cannot be opened or read (permissions, read-only, busy too long) is not damage: it raises
    ``FileTrouble`` and stays where it is."""
    path = sqlite_path(path)
    with _lock:
        if again:
            _healthy.discard(str(path))
        if str(path) in _healthy and path.is_file():
            return None  # damage found later is handled where the file is used
        why = _damage(path, tables, what)
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


def _damage(path: Path, tables: dict[str, tuple[str, ...]], what: str) -> Msg | None:
    if path.is_dir():
        return L_("a folder is in its place")
    if not path.exists() or path.stat().st_size == 0:
        return None
    db = connect(path, what, timeout=5)  # FileTrouble: cannot be opened, which is not damage
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
    except sqlite3.Error as exc:
        if is_damage(exc):  # "file is not a database", "database disk image is malformed"
            return L_("SQLite says: {error}", error=str(exc))
        if is_busy(exc):  # another process is writing: not damage
            return None
        raise trouble(what, path, str(exc)) from None  # read-only, I/O error...: not damage
    finally:
        db.close()
    return None
