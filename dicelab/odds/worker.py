"""Heavy work off the pages' thread, in one way: child processes at the lowest priority.

A served app's pages all run on one event loop, and Python runs one thread at a time: work
in a thread of the server holds the lock the pages need (play-outs in a thread took a room's
p95 from 42 ms to 254 ms in ``benchmarks/rooms_load.py``). So every heavy job (a Yahtzee
table of new rules, a win table, the play-outs of live estimates) runs in a ``ProcessWorker``:
one child process (``SCHED_IDLE``, else ``nice``: it takes a core only when the server does
not need it) that runs the functions it is sent, pickled over a socket pair, one at a time.
It is started on first use and again after it died or hung, and ends when the server's end
of its socket closes (a server killed with -9 included).

``WORKER`` queues the table builds: ``submit(key, work, done)`` runs ``work()`` once per key
at a time in one of its threads (which hands the heavy part to its process with
``run_elsewhere``) and calls every ``done(result_or_exception)`` given for that key meanwhile;
``position(key)`` is the progress readout (0: being built now, n: n jobs ahead, None: not
queued). The play-outs have a child of their own (``lab.playout_worker``), so a long table
build never holds up a live estimate.
"""
from __future__ import annotations

import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from ..errors import RuleError
from ..i18n import Ln_

MAX_QUEUED = 8    # distinct jobs waiting at once: more are refused (a page says "try again")
BUILD_TIMEOUT = 3600.0   # s for one table build before its child is taken for hung
NICE = 10         # a child's priority below the server's where SCHED_IDLE is missing
log = logging.getLogger("dicelab")


class WorkerGone(RuntimeError):
    """The worker process died or hung: this call has no result (the next starts anew)."""


class ProcessWorker:
    """The server's end of one child process: started on first use and again after it died;
    one call at a time (a lock)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._conn = None
        self.generation = 0   # which child runs now (state sent to an earlier one is gone)
        self.starts = 0       # children started (tests)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _start(self) -> None:
        from multiprocessing.connection import Connection

        mine, theirs = socket.socketpair()
        env = dict(os.environ)
        # the child imports this very dicelab, wherever the server found it
        here = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "dicelab.odds.worker", str(theirs.fileno())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=env)
        finally:
            theirs.close()
        self._conn = Connection(mine.detach())
        self.generation += 1
        self.starts += 1

    def _stop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
        if self._proc is not None:
            try:
                self._proc.kill()
                self._proc.wait(5)
            except Exception:  # gone already
                pass
        self._proc = self._conn = None

    def call(self, fn: Callable, *args, timeout: float | None = None):
        """``fn(*args)`` in the child (``fn`` a module-level function): (its result, the
        child's CPU seconds). Raises ``WorkerGone`` if the child died or took longer than
        ``timeout`` seconds (it is stopped then), and what ``fn`` raised as RuntimeError."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
            try:
                self._conn.send((fn, args))
                if not self._conn.poll(timeout):
                    raise WorkerGone("no answer in time")  # i18n: not shown
                reply = self._conn.recv()
            except (OSError, EOFError, WorkerGone) as exc:
                self._stop()
                raise WorkerGone(str(exc)) from None
        if reply[0] == "error":
            raise RuntimeError(reply[1])
        return reply[1], reply[2]

    def close(self) -> None:
        with self._lock:
            self._stop()


_LANE = threading.local()   # the build child of each of WORKER's threads


def run_elsewhere(fn: Callable, *args):
    """``fn(*args)`` in this thread's worker process (a ``Worker`` job's heavy part), its
    result; RuntimeError if it raised, WorkerGone if the child died."""
    worker = getattr(_LANE, "worker", None)
    if worker is None:
        worker = _LANE.worker = ProcessWorker()
    return worker.call(fn, *args, timeout=BUILD_TIMEOUT)[0]


class Worker:
    """A bounded queue of keyed jobs, ``lanes`` at a time, each key's job run once however
    many ask for it meanwhile."""

    def __init__(self, max_queued: int = MAX_QUEUED, lanes: int = 1):
        self.max_queued = max_queued
        self.lanes = lanes
        self._pool = ThreadPoolExecutor(max_workers=lanes, thread_name_prefix="dicelab-solve")
        self._lock = threading.Lock()
        self._jobs: dict[Any, list[Callable[[Any], None]]] = {}  # key -> waiting callbacks
        self._order: list[Any] = []  # keys in queue order (the first ``lanes``: running)

    def submit(self, key: Any, work: Callable[[], Any], done: Callable[[Any], None]) -> int:
        """Queue ``work`` under ``key`` (or join the same work already queued); returns the
        job's position. RuleError when MAX_QUEUED distinct jobs already wait."""
        with self._lock:
            if key in self._jobs:
                self._jobs[key].append(done)
                return self._position(key)
            if len(self._order) >= self.max_queued:
                raise RuleError(Ln_("the server is busy solving {n} rule set: try again in "
                                    "a moment", "the server is busy solving {n} rule sets: try "
                                    "again in a moment", len(self._order)))
            self._jobs[key] = [done]
            self._order.append(key)
            position = self._position(key)
        self._pool.submit(self._run, key, work)
        return position

    def _position(self, key: Any) -> int:
        return max(0, self._order.index(key) - self.lanes + 1)

    def position(self, key: Any) -> int | None:
        with self._lock:
            return self._position(key) if key in self._order else None

    def _run(self, key: Any, work: Callable[[], Any]) -> None:
        try:
            result = work()
        except Exception as exc:  # handed to the pages, which say "odds not available"
            result = exc
        with self._lock:
            callbacks = self._jobs.pop(key, [])
            self._order.remove(key)
            idle = len(self._order) < self.lanes
        if idle:  # no job waits for this lane: its child gives its memory back
            worker = getattr(_LANE, "worker", None)
            if worker is not None:
                worker.close()
        for done in callbacks:
            try:
                done(result)
            except Exception:  # one page's failure must not stop the others hearing
                log.exception("a solve's callback failed")


WORKER = Worker(lanes=2)   # Yahtzee solves and win tables (a long win table leaves a lane)


def lower_priority() -> None:
    """Put this process where it takes only the CPU time that nothing else wants: Linux's
    ``SCHED_IDLE`` (a page's thread that wakes takes the CPU back at once), else ``nice``.
    With ``nice`` alone, a server given one CPU (rooms_load.py pins it) lost up to a sixth of
    it to play-outs while its pages were busy, and a waking page waited for the child's
    slice."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    except (AttributeError, OSError):
        pass
    try:
        os.nice(NICE)
    except (AttributeError, OSError):
        pass


def main(fd: int) -> int:
    """The child: run the calls sent until the server's end closes."""
    import signal
    from multiprocessing.connection import Connection

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the server, which stops us
    lower_priority()
    conn = Connection(fd)
    while True:
        try:
            msg = conn.recv_bytes()
        except (EOFError, OSError):
            return 0
        t = time.process_time()
        try:
            fn, args = pickle.loads(msg)
            reply = ("ok", fn(*args), time.process_time() - t)
        except Exception as exc:  # the server says "not available" (a position the
            reply = ("error", f"{type(exc).__name__}: {exc}", time.process_time() - t)
        try:                      # computers cannot play, rules that cannot be solved)
            conn.send(reply)
        except OSError:
            return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
