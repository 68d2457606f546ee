"""The play-outs of live estimates (``win_live``) in a process of their own.

A served app's pages all run on one event loop. Play-outs in a thread of that process, even
capped at a quarter of a core, held Python's lock often enough to delay every page of every
room: in ``benchmarks/rooms_load.py`` the players' p95 went from 42 ms with estimates off to
254 ms with them on. In this process they take nothing from the pages' thread, and at the lowest
priority (``SCHED_IDLE``, else ``nice``) they take a core only when the server does not need it.

``PlayoutWorker`` is the server's side; ``main`` the child's. They speak pickled tuples over a
socket pair: ``("run", sid, base or None, n, seed, stand_in, wins, done)`` is answered with
``("ok", Estimate, cpu_seconds)``, ``("missing", sid)`` (the child no longer holds that base:
send it again) or ``("error", text, cpu_seconds)``. The child keeps the last ``KEEP`` bases.
It ends when the server's end of the socket closes (a server killed with -9 included).
"""
from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path

log = logging.getLogger(__name__)

KEEP = 64         # game states the child holds (an estimate's chunks reuse its state)
TIMEOUT = 300.0   # s for one chunk of play-outs before the child is taken for hung
NICE = 10         # the child's priority below the server's


def play_chunk(base, n: int, seed, stand_in: str, wins, done: int):
    """``n`` more play-outs of ``base`` on top of ``wins`` from ``done`` earlier ones: what a
    chunk is, here or in the runner's thread."""
    from .win import estimate

    return estimate(base, n, seed=seed, stand_in=stand_in, seats=base.seats, wins=wins,
                    done=done)


class WorkerGone(RuntimeError):
    """The worker process died or hung: this chunk has no result (the next starts anew)."""


class PlayoutWorker:
    """The server's end: one child process, started on first use and again after it died;
    one chunk at a time (the runner's thread is the only caller)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._conn = None
        self.generation = 0   # which child holds the bases sent so far
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
                [sys.executable, "-m", "dicelab.lab.playout_worker", str(theirs.fileno())],
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

    def run(self, shared, n: int, wins, done: int):
        """``n`` more play-outs of ``shared``'s state (its ``base``, sent once per child):
        (Estimate, the child's CPU seconds). Raises ``WorkerGone`` if the child died or hung,
        and whatever the play-outs raised (as RuntimeError)."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
            send_base = shared.worker_generation != self.generation
            for _ in range(2):
                msg = ("run", shared.sid, shared.base if send_base else None, n,
                       [shared._seed, done], shared.stand_in, wins, done)
                try:
                    self._conn.send(msg)
                    if not self._conn.poll(TIMEOUT):
                        raise WorkerGone("no answer in time")  # i18n: not shown
                    reply = self._conn.recv()
                except (OSError, EOFError, WorkerGone) as exc:
                    self._stop()
                    raise WorkerGone(str(exc)) from None
                shared.worker_generation = self.generation
                if reply[0] == "missing":
                    send_base = True
                    continue
                if reply[0] == "error":
                    raise RuntimeError(reply[1])
                return reply[1], reply[2]
            raise WorkerGone("the child dropped the game state twice")  # i18n: not shown

    def close(self) -> None:
        with self._lock:
            self._stop()


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
    """The child: run chunks until the server's end closes."""
    import signal
    from multiprocessing.connection import Connection

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the server, which stops us
    lower_priority()
    conn = Connection(fd)
    bases: OrderedDict = OrderedDict()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return 0
        _, sid, base, n, seed, stand_in, wins, done = msg
        if base is not None:
            bases[sid] = base
            while len(bases) > KEEP:
                bases.popitem(last=False)
        base = bases.get(sid)
        if base is None:
            conn.send(("missing", sid))
            continue
        bases.move_to_end(sid)
        t = time.process_time()
        try:
            reply = ("ok", play_chunk(base, n, seed, stand_in, wins, done), time.process_time() - t)
        except Exception as exc:  # a position the computers cannot play: the server says none
            reply = ("error", f"{type(exc).__name__}: {exc}", time.process_time() - t)
        try:
            conn.send(reply)
        except OSError:
            return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
