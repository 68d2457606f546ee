"""The chance to win as a live estimate (issue 16): ``lab.win.estimate`` refined in the
background while a game is played, restarted whenever the game moves.

Where no exact chance exists (three or more seats in any variant, Thousand without its cached
table, Under40 and Yahtzee; ``odds.win_game`` says where a table gives it), a page shows each
seat's chance to win as an estimate from simulated play-outs with its 95% interval. One
shared background thread (never a page's thread) runs them in chunks: a chunk of one estimate
then one of another, so several share it fairly, and an estimate stops at its next chunk once
no page shows its state. The play-outs themselves run in a process of their own
(``playout_worker``), so they never hold the lock the pages' thread needs. Pages that show
the same state (the viewers of a network room, each with its own copy of the game) read one
estimate: one per state and settings in the process (``_Shared``). The result is published
at each step of ``STEPS`` play-outs.
"""
from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import threading
import time
import weakref
from types import SimpleNamespace
from typing import Callable

import numpy as np

from .. import config
from ..odds.win_game import is_exact
from .playout_worker import PlayoutWorker, WorkerGone, play_chunk
from .win import Estimate, playout_seats

log = logging.getLogger(__name__)

__all__ = ["STEPS", "LiveEstimate", "applies", "shared_count", "state_key", "stop_all"]

STEPS = (25, 100, 200, 800, 3200)  # play-outs at which a refined estimate is published
CHUNK = 5   # play-outs between checks for a newer game state (a stale run stops soon)
GIVE_UP = 3  # failures of the worker process in a row before play-outs go on in the thread
SETTLE = 0.5  # seconds a game state must stand before its play-outs start: a computer's
#               quick moves do not each start (and drop) a run that competes with the page


def _share() -> float:
    """The part of one core the play-outs may take (DICELAB_ESTIMATE_SHARE, default 0.25; 0
    turns the estimates off): on a served page they share the process, and Python's lock,
    with every page's work."""
    try:
        share = float(config.text("DICELAB_ESTIMATE_SHARE") or "0.25")
    except ValueError:
        return 0.25
    if share != share:  # nan: the default
        return 0.25
    return 0.0 if share <= 0 else min(1.0, max(0.05, share))


def _where() -> str:
    """Where play-outs run (DICELAB_ESTIMATE_WORKER): "process", the default on POSIX (a child
    process: they never hold the lock of the server's pages), or "thread"."""
    chosen = config.value("DICELAB_ESTIMATE_WORKER")
    return "thread" if chosen == "thread" or os.name != "posix" else "process"


class _Runner:
    """One daemon thread running queued chunks in order (a daemon: a closing server or test
    session does not wait for estimates nobody will read). A chunk's play-outs run in the
    worker process (``where="process"``, see ``playout_worker``) or in this thread. After a
    chunk whose play-outs took t CPU seconds it rests t * (1 / share - 1): however many pages
    estimate, play-outs never take more than ``share`` of a core from the server."""

    def __init__(self, share: float | None = None, where: str | None = None):
        self._queue: queue.Queue = queue.Queue()
        self._thread = None
        self._lock = threading.Lock()
        self.share = _share() if share is None else share
        self.where = where or _where()
        self.worker = PlayoutWorker() if self.where == "process" else None
        self.busy = 0.0   # CPU seconds of play-outs, and seconds rested after them (tests)
        self.rested = 0.0
        self._spent = 0.0  # the worker's CPU seconds in the chunk running now
        self.failures = 0  # the worker's failures in a row

    def submit(self, fn, *args) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, daemon=True,
                                                name="dicelab-estimate")
                self._thread.start()
        self._queue.put((fn, args))

    def play(self, shared, n: int, wins, done: int) -> Estimate:
        """``n`` more play-outs of ``shared``'s state, where this runner runs them."""
        if self.worker is None:
            return play_chunk(shared.base, n, [shared._seed, done], shared.stand_in, wins, done)
        try:
            est, cpu = self.worker.run(shared, n, wins, done)
        except (OSError, WorkerGone) as exc:  # could not start, or died: again next chunk,
            self.failures += 1               # but not for ever
            if self.failures >= GIVE_UP:
                log.warning("play-outs go on in a thread: their worker process failed "
                            "%d times (%s)", self.failures, exc)  # i18n: not shown
                self.worker.close()
                self.worker = None
            raise
        self.failures = 0
        self._spent += cpu
        return est

    def _work(self):
        while True:
            fn, args = self._queue.get()
            t = time.thread_time()  # CPU time: a chunk waiting for its state to settle is free
            self._spent = 0.0
            try:
                fn(*args)
            except Exception:  # one estimate's failure must not stop the others
                pass
            spent = time.thread_time() - t + self._spent
            self.busy += spent
            if spent > 0.001 and self.share < 1.0:  # a chunk that played (not a stale skip)
                rest = spent * (1.0 / self.share - 1.0)
                self.rested += rest
                time.sleep(rest)


_POOL = _Runner()
_LIVE: "weakref.WeakSet[LiveEstimate]" = weakref.WeakSet()
KEEP = 60.0     # seconds a finished estimate nobody reads stays for the next page to show
KEPT = 64       # at most this many of them


def stop_all() -> None:
    """Stop every running estimate and forget the finished ones (tests, between cases)."""
    for live in list(_LIVE):
        live.stop()
    with _REG_LOCK:
        for shared in _SHARED.values():
            shared.stopped = True
        _SHARED.clear()


def applies(game) -> bool:
    """Does the page show a play-out estimate for this game (else exact or nothing)?"""
    return (_POOL.share > 0 and game.n_seats >= 2 and not game.is_over
            and not is_exact(game))


def state_key(game, stand_in: str = "optimal") -> tuple:
    """What a play-out estimate of ``game`` now depends on: the variant, its settings, how
    each seat plays (a person: the ``stand_in``) and the state, not the names, the seed or
    how the game got there. Two pages of one room hold copies of the game with equal keys."""
    seats = tuple(getattr(s.player, "spec", None) or s.strategy
                  or (stand_in if s.player is None else id(s.player))
                  for s in game.seats)
    settings = json.dumps(game.settings.to_dict(), sort_keys=True, default=repr)
    return (game.variant, settings, seats, repr(game.state))


class _Shared:
    """One estimate of one game state, refined in the background and read by every page that
    shows that state (``LiveEstimate``s are its readers). It stops at its next chunk once it
    has no reader left; a finished one stays ``KEEP`` seconds for a page that comes later."""

    def __init__(self, key, base, steps, stand_in, pool, seed):
        self.key = key
        self.sid = next(_SIDS)  # the worker process holds the base under this number
        self.worker_generation = None  # which of its processes has it (PlayoutWorker)
        # a copy of the state with fresh computers (never the live game), or how to make it
        self._base, self._make = (None, base) if callable(base) else (base, None)
        self.steps, self.stand_in, self.pool = steps, stand_in, pool
        self._seed = np.random.SeedSequence(seed).entropy
        self.readers: "weakref.WeakSet[LiveEstimate]" = weakref.WeakSet()
        self.result: Estimate | None = None
        self.stopped = False
        self.idle_since: float | None = None
        self.chunks = 0          # chunks of play-outs run (tests)
        self.threads: set[str] = set()

    @property
    def base(self):
        """Made on first use, in the runner's thread: most states of a game being played move
        on before their play-outs start (``SETTLE``), and then none is made at all."""
        if self._base is None:
            self._base = self._make()
        return self._base

    @property
    def done(self) -> bool:
        return self.result is not None and self.result.playouts >= self.steps[-1]

    def chunk(self, wins, done: int, start: float = 0.0) -> None:
        if self.stopped:
            return
        if not self.readers:    # every page went away without saying so
            _release(self)
            if self.stopped:    # (else a page came back meanwhile: go on)
                return
        wait = start - time.monotonic()
        if wait > 0:  # not settled yet: look again shortly (other pages' chunks go meanwhile)
            time.sleep(min(wait, 0.05))
            self.pool.submit(self.chunk, wins, done, start)
            return
        self.threads.add(threading.current_thread().name)
        target = next(s for s in self.steps if s > done)
        n = min(CHUNK, target - done)
        try:
            est = self.pool.play(self, n, wins, done)
        except Exception:  # a position the computers cannot play on, or the worker died:
            return         # no estimate, no error
        self.chunks += 1
        done += n
        if done == target:
            with _REG_LOCK:
                if self.stopped:
                    return
                self.result = est
                readers = list(self.readers)
            for live in readers:
                live._publish(self, est)
        if done < self.steps[-1]:
            self.pool.submit(self.chunk, np.array(est.chances) * done, done)


_SIDS = itertools.count(1)
_SHARED: dict[tuple, _Shared] = {}
_REG_LOCK = threading.Lock()


def _attach(live: LiveEstimate, game) -> _Shared:
    """The shared estimate of ``game``'s state for ``live`` (started if there is none)."""
    key = (id(live.pool), live.steps, live.stand_in, live.seed, state_key(game, live.stand_in))
    now = time.monotonic()
    with _REG_LOCK:
        _expire(now)
        shared = _SHARED.get(key)
        new = shared is None
        if new:
            # what the play-outs start from, read here (the live game is not read from the
            # background thread); the copy is made there, if the play-outs ever start
            cls, settings, state = type(game), game.settings, game._state
            n_seats = game.n_seats
            seated = SimpleNamespace(variant=game.variant, seats=list(game.seats))
            stand_in = live.stand_in

            def base():  # (all it reads is immutable)
                seats = playout_seats(seated, stand_in)
                return cls.resumed(settings, state, n_seats, seats, 0)
            shared = _SHARED[key] = _Shared(key, base, live.steps, live.stand_in, live.pool,
                                            live.seed)
        shared.readers.add(live)
        shared.idle_since = None
    if new:
        shared.pool.submit(shared.chunk, None, 0, now + live.settle)
    return shared


def _release(shared: _Shared, live: LiveEstimate | None = None) -> None:
    """``live`` reads ``shared`` no more; with no reader left an unfinished estimate stops and
    a finished one is kept a while (``KEEP``)."""
    with _REG_LOCK:
        if live is not None:
            shared.readers.discard(live)
        if shared.readers or shared.stopped:
            return
        if shared.done:
            shared.idle_since = time.monotonic()
        else:
            shared.stopped = True
            if _SHARED.get(shared.key) is shared:
                del _SHARED[shared.key]


def _expire(now: float) -> None:
    """Forget finished estimates nobody has read for ``KEEP`` seconds, and the oldest beyond
    ``KEPT`` (under ``_REG_LOCK``)."""
    idle = sorted((s.idle_since, k) for k, s in _SHARED.items() if s.idle_since is not None)
    for i, (since, k) in enumerate(idle):
        if now - since > KEEP or len(idle) - i > KEPT:
            del _SHARED[k]


def shared_count() -> int:
    """Estimates held now, running or kept (tests, benchmarks)."""
    with _REG_LOCK:
        return len(_SHARED)


class LiveEstimate:
    """One page's view of the estimate of its game's state. ``restart(game)`` (on the page's
    thread) leaves the estimate it read and reads the one of the game's state now, started
    if no other page in this process reads it already (``_Shared``: one estimate per state and
    settings, however many pages show it); ``notify(estimate, key)`` is called after each
    step, from the background thread (or at once when the step is already done), ``key``
    being the number of game actions of this page's game the estimate is for. ``result`` and
    ``key`` hold the latest."""

    def __init__(self, notify: Callable[[Estimate, int], None] | None = None,
                 steps: tuple[int, ...] | None = None, seed: int | None = None,
                 stand_in: str = "optimal", pool: _Runner | None = None,
                 settle: float | None = None):
        self.notify = notify
        self.steps = tuple(steps or STEPS)
        self.stand_in = stand_in
        self.pool = pool or _POOL
        self.settle = SETTLE if settle is None else settle
        self.seed = seed        # given (tests): shared only with estimates of the same seed
        self._lock = threading.Lock()
        self._shared: _Shared | None = None
        self.result: Estimate | None = None
        self.key: int | None = None
        _LIVE.add(self)

    def restart(self, game) -> bool:
        """Read the estimate of ``game``'s state now; False (nothing runs) when it is over or
        has one seat. Which games a page estimates is ``applies``."""
        self.stop()
        with self._lock:
            self.result, self.key = None, len(game.actions)
        if game.is_over or game.n_seats < 2:
            return False
        shared = _attach(self, game)
        with self._lock:
            self._shared = shared
        est = shared.result
        if est is not None:     # another page's estimate of this state is under way or done
            self._publish(shared, est)
        return True

    def stop(self) -> None:
        with self._lock:
            shared, self._shared = self._shared, None
        if shared is not None:
            _release(shared, self)

    @property
    def shared(self) -> _Shared | None:
        return self._shared

    @property
    def running(self) -> bool:
        return self.result is None or self.result.playouts < self.steps[-1]

    def _publish(self, shared: _Shared, est: Estimate) -> None:
        with self._lock:
            if self._shared is not shared or (self.result is not None
                                               and self.result.playouts >= est.playouts):
                return
            self.result, key = est, self.key
        if self.notify is not None:
            self.notify(est, key)
