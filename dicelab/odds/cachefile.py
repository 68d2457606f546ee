"""Solved tables cached: one .npz per rules on disk (written atomically, read defensively) and
``TABLES``, the one memory cache of every solver's tables (bounded, one build per key)."""
from __future__ import annotations

import json
import os
import tempfile
import threading
import zipfile
from collections import OrderedDict
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np


def save_npz(path: Path, **arrays) -> None:
    """Write ``arrays`` to ``path`` so that readers see the old file or the whole new one; a
    folder that cannot be written only costs a solve next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def load_npz(path: Path, *names: str) -> dict[str, np.ndarray] | None:
    """The named arrays of ``path``, or None if it is missing or damaged."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return {n: z[n] for n in names}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None


def load_with_meta(path: Path, *names: str) -> tuple[dict, dict]:
    """The named arrays of a table file and its JSON ``meta`` ({} and {} if unreadable)."""
    z = load_npz(path, "meta", *names)
    try:
        meta = json.loads(str(z["meta"])) if z is not None else {}
    except (ValueError, TypeError):
        meta = {}
    return (z or {}), (meta if isinstance(meta, dict) else {})


class TableCache:
    """Solved tables by key, for every solver (Yahtzee, the win tables): the last ``memory``
    used in memory, each in a file of a cache folder (``prune`` keeps the most recent), and one
    build per key however many threads ask at once: the first builds, the others wait for it
    and get the same table."""

    def __init__(self, memory: int = 8):
        self.memory = memory
        self._tables: OrderedDict = OrderedDict()
        self._building: dict[Any, Future] = {}  # key -> Future of the build under way
        self._guard = threading.Lock()
        self.builds = 0               # tables built (not read from a file) in this process

    def get(self, key, path: Path | None, load, build, save=None, keep: int = 12):
        """The table of ``key``: from memory, else ``load(path)`` (None if missing or damaged),
        else ``build()`` written with ``save(path, table)`` (and the folder pruned to its
        ``keep`` most recent files of the same kind); ``path`` None: no file. ``build`` may
        return None (it declines): nothing is kept then."""
        with self._guard:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
                if path is not None:
                    touch(path)  # recently used, on disk too
                return table
            found = self._building.get(key)
            mine = found is None
            future = self._building[key] = Future() if found is None else found
        if not mine:
            return future.result()   # the same table, or the same error
        try:
            table = load(path) if path is not None else None
            if table is None:
                table = build()
                if table is not None:
                    self.builds += 1
                    if path is not None and save is not None:
                        save(path, table)
                        prune(path, keep)
            elif path is not None:
                touch(path)
            if table is not None:
                self.put(key, table)
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            with self._guard:
                self._building.pop(key, None)

    def put(self, key, table) -> None:
        with self._guard:
            self._tables[key] = table
            self._tables.move_to_end(key)
            while len(self._tables) > self.memory:
                self._tables.popitem(last=False)

    def peek(self, key):
        """The table of ``key`` if it is in memory now (no file read, no build), else None."""
        with self._guard:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
            return table

    def clear(self) -> None:
        """Forget the tables in memory (tests; the files stay)."""
        with self._guard:
            self._tables.clear()

    def __len__(self) -> int:
        return len(self._tables)

    def values(self) -> list:
        with self._guard:
            return list(self._tables.values())


def touch(path: Path) -> None:
    """Mark a table file recently used (pruned last)."""
    try:
        os.utime(path)
    except OSError:
        pass


def prune(path: Path, keep: int) -> None:
    """Keep the ``keep`` most recently used files of ``path``'s kind (its name up to the first
    "-", and its suffix) in its folder."""
    try:
        kind = path.name.split("-", 1)[0]
        files = sorted(path.parent.glob(f"{kind}-*{path.suffix}"), key=lambda f: f.stat().st_mtime)
        for old in files[:-keep]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only or shared folder: only costs disk


TABLES = TableCache()   # the one cache of solved tables in a process
