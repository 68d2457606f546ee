"""Records kept across games and restarts (seed 000): highest game total, highest single turn,
people-vs-computer wins; per variant, each resettable, in SQLite.

Path: ``DICELAB_RECORDS`` if set, else ``records.sqlite3`` in platformdirs' user data dir.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
import weakref
from pathlib import Path

import param

from .. import config
from ..errors import reason
from ..i18n import L_, N_, _, tr

KEYS = ("game_total", "single_turn", "wins")
COLUMNS = ("variant", "key", "value", "value2", "who", "at")
TITLES = {"game_total": N_("Highest game total"), "single_turn": N_("Highest single turn"),
          "wins": N_("People vs computer wins")}  # translated where shown (tr)
RESETS = {"game_total": N_("Reset highest game total"),
          "single_turn": N_("Reset highest single turn"),
          "wins": N_("Reset people vs computer wins")}


def default_path() -> Path:
    env = config.text("DICELAB_RECORDS")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("dicelab")) / "records.sqlite3"


class RecordStore(param.Parameterized):
    """A small SQLite table; ``changed`` bumps after every write so views refresh."""

    changed = param.Integer(default=0)

    _lock = threading.Lock()

    def __init__(self, path: str | os.PathLike | None = None, **params):
        super().__init__(**params)
        from ..sqlite_files import sqlite_path

        self.path = sqlite_path(path if path is not None else default_path())
        self.problem = None  # a damaged file set aside, or one that cannot be used: the page
        self._open()         # shows it (a lazy message)
        self._ended: weakref.WeakSet = weakref.WeakSet()  # games whose end is recorded

    def _open(self, again: bool = False) -> None:
        """Check the file (a damaged one is set aside and the records start afresh), then make
        sure the table is there."""
        from ..sqlite_files import FileTrouble, check_sqlite, problem

        with self._lock:
            try:
                check_sqlite(self.path, {"records": COLUMNS}, "records", again=again)
                self.problem = problem(self.path) or self.problem
                with self._connect() as db:
                    db.execute("CREATE TABLE IF NOT EXISTS records (variant TEXT, key TEXT, "
                               "value INTEGER, value2 INTEGER, who TEXT, at REAL, "
                               "PRIMARY KEY (variant, key))")
            except FileTrouble as exc:  # cannot be opened or written: named, never moved
                self.problem = reason(exc)
            except sqlite3.Error as exc:
                self.problem = L_("Records are off: {error}", error=str(exc))

    @contextlib.contextmanager
    def _connect(self):
        """A connection for one transaction (committed, or rolled back on an error), closed
        after: an open one would hold the file (and its mount) until collected."""
        from ..sqlite_files import connect

        with contextlib.closing(connect(self.path, "records", timeout=5)) as db, db:
            yield db

    def _guarded(self, work, default=None):
        """Run ``work()``; a file damaged meanwhile is set aside and the work tried once more
        on a fresh file; if that fails too, the records are off for now (``default``)."""
        from ..sqlite_files import FileTrouble, is_damage

        for attempt in (1, 2):
            try:
                return work()
            except FileTrouble as exc:  # cannot be opened or written now: never damage
                self.problem = reason(exc)
                return default
            except sqlite3.Error as exc:
                if not is_damage(exc) or attempt == 2:  # busy, read-only, disk full...
                    self.problem = L_("Records are off for now: {error}", error=str(exc))
                    return default
            self._open(again=True)
        return default

    # ----- reading ---------------------------------------------------------------------------
    def get(self, variant: str) -> dict[str, dict]:
        """key -> {value, value2, who}: value2 is the computers' wins for "wins"."""
        def read():
            with self._connect() as db:
                return db.execute("SELECT key, value, value2, who FROM records WHERE variant = ?",
                                  (variant,)).fetchall()
        rows = self._guarded(read, [])
        out = {k: {"value": None, "value2": None, "who": None} for k in KEYS}
        for key, value, value2, who in rows:
            out[key] = {"value": value, "value2": value2, "who": who}
        if out["wins"]["value"] is None:
            out["wins"] = {"value": 0, "value2": 0, "who": None}
        return out

    def line(self, variant: str) -> str:
        r = self.get(variant)
        from .names import seat_name

        parts = []
        for key, label in (("game_total", N_("best game")), ("single_turn", N_("best turn"))):
            v = r[key]
            parts.append(_("{record} {points} ({name})", record=tr(label), points=v["value"],
                           name=seat_name(v["who"] or "")) if v["value"] is not None
                         else f"{tr(label)} —")
        parts.append(_("people {people} : {computers} computers", people=r["wins"]["value"],
                       computers=r["wins"]["value2"]))
        return " · ".join(parts)

    # ----- writing ---------------------------------------------------------------------------
    def offer(self, variant: str, key: str, value: int, who: str) -> bool:
        """Keep ``value`` if it beats the record; True if it did."""
        def write():
            with self._lock, self._connect() as db:
                row = db.execute("SELECT value FROM records WHERE variant = ? AND key = ?",
                                 (variant, key)).fetchone()
                if row is not None and row[0] is not None and row[0] >= value:
                    return False
                db.execute("INSERT OR REPLACE INTO records VALUES (?, ?, ?, NULL, ?, ?)",
                           (variant, key, int(value), who, time.time()))
            return True
        if not self._guarded(write, False):
            return False
        self.changed += 1
        return True

    def add_win(self, variant: str, people: bool) -> None:
        def write():
            with self._lock, self._connect() as db:
                row = db.execute("SELECT value, value2 FROM records WHERE variant = ? AND "
                                 "key = ?", (variant, "wins")).fetchone()
                p, c = (row[0] or 0, row[1] or 0) if row else (0, 0)
                p, c = (p + 1, c) if people else (p, c + 1)
                db.execute("INSERT OR REPLACE INTO records VALUES (?, 'wins', ?, ?, NULL, ?)",
                           (variant, p, c, time.time()))
            return True
        if self._guarded(write, False):
            self.changed += 1

    def reset(self, variant: str, key: str) -> None:
        if key not in KEYS:
            raise ValueError(f"records are {', '.join(KEYS)}")  # i18n: not shown (a developer's)

        def write():
            with self._lock, self._connect() as db:
                db.execute("DELETE FROM records WHERE variant = ? AND key = ?", (variant, key))
            return True
        if self._guarded(write, False):
            self.changed += 1

    # ----- from play -------------------------------------------------------------------------
    def observe(self, play, events, seat: int, before_turn_total) -> None:
        """Update the records from the events of one action."""
        g = play.game
        v = g.variant
        for e in events:
            who = g.seats[e.seat].name if e.seat is not None else None
            turn = play.ui.turn_points(e, before_turn_total)
            if turn:
                self.offer(v, "single_turn", int(turn), who)
        if g.is_over and g not in self._ended:
            self._ended.add(g)
            totals = g.totals()
            best = max(range(g.n_seats), key=lambda i: totals[i])
            self.offer(v, "game_total", int(totals[best]), g.seats[best].name)
            people = [i for i in range(g.n_seats) if not g.seats[i].is_computer]
            cpus = [i for i in range(g.n_seats) if g.seats[i].is_computer]
            win = set(g.winners)
            if people and cpus and win:
                if win <= set(people):
                    self.add_win(v, True)
                elif win <= set(cpus):
                    self.add_win(v, False)
