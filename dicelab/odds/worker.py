"""One shared background worker for heavy solves (a Yahtzee table of new rules): never on a
page's thread, identical work done once per server, and a bounded queue.

``submit(key, work, done)`` runs ``work()`` once per key at a time in the worker thread and
calls every ``done(result_or_exception)`` given for that key meanwhile; ``position(key)`` is the
progress readout (0: being solved now, n: n jobs ahead, None: not queued).
"""
from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from ..errors import RuleError
from ..i18n import Ln_

MAX_QUEUED = 8  # distinct jobs waiting at once: more are refused (a page says "try again")
log = logging.getLogger("dicelab")


class Worker:
    def __init__(self, max_queued: int = MAX_QUEUED):
        self.max_queued = max_queued
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicelab-solve")
        self._lock = threading.Lock()
        self._jobs: dict[Any, list[Callable[[Any], None]]] = {}  # key -> waiting callbacks
        self._order: list[Any] = []  # keys in queue order (first: running)

    def submit(self, key: Any, work: Callable[[], Any], done: Callable[[Any], None]) -> int:
        """Queue ``work`` under ``key`` (or join the same work already queued); returns the
        job's position. RuleError when MAX_QUEUED distinct jobs already wait."""
        with self._lock:
            if key in self._jobs:
                self._jobs[key].append(done)
                return self._order.index(key)
            if len(self._order) >= self.max_queued:
                raise RuleError(Ln_("the server is busy solving {n} rule set: try again in "
                                    "a moment", "the server is busy solving {n} rule sets: try "
                                    "again in a moment", len(self._order)))
            self._jobs[key] = [done]
            self._order.append(key)
            position = len(self._order) - 1
        self._pool.submit(self._run, key, work)
        return position

    def position(self, key: Any) -> int | None:
        with self._lock:
            return self._order.index(key) if key in self._order else None

    def _run(self, key: Any, work: Callable[[], Any]) -> None:
        try:
            result = work()
        except Exception as exc:  # handed to the pages, which say "odds not available"
            result = exc
        with self._lock:
            callbacks = self._jobs.pop(key, [])
            self._order.remove(key)
        for done in callbacks:
            try:
                done(result)
            except Exception:  # one page's failure must not stop the others hearing
                log.exception("a solve's callback failed")


WORKER = Worker()
