"""The chance to win as a live estimate (issue 16): ``lab.win.estimate`` refined in the
background while a game is played, restarted whenever the game moves.

Where no exact chance exists (three or more seats in any variant, Thousand without its cached
table, Under40 and Yahtzee; ``odds.win_game`` says where a table gives it), a page shows each
seat's chance to win as an estimate from simulated play-outs with its 95% interval. The
play-outs run in one shared background thread (never a page's thread), in chunks: a chunk of
one page then one of another, so several pages share it fairly, and a page's run stops at its
next chunk once the game has moved on. The result is published at each step of ``STEPS`` play-outs.
"""
from __future__ import annotations

import os
import queue
import threading
import time
import weakref
from typing import Callable

import numpy as np

from ..odds.win_game import is_exact
from .win import Estimate, estimate, playout_seats

__all__ = ["STEPS", "LiveEstimate", "applies", "stop_all"]

STEPS = (25, 100, 200, 800, 3200)  # play-outs at which a refined estimate is published
CHUNK = 5   # play-outs between checks for a newer game state (a stale run stops soon)
SETTLE = 0.5  # seconds a game state must stand before its play-outs start: a computer's
#               quick moves do not each start (and drop) a run that competes with the page


def _share() -> float:
    """The part of one core the play-outs may take (DICELAB_ESTIMATE_SHARE, default 0.25; 0
    turns the estimates off): on a served page they share the process, and Python's lock,
    with every page's work."""
    try:
        share = float(os.environ.get("DICELAB_ESTIMATE_SHARE", "0.25"))
    except ValueError:
        return 0.25
    if share != share:  # nan: the default
        return 0.25
    return 0.0 if share <= 0 else min(1.0, max(0.05, share))


class _Runner:
    """One daemon thread running queued chunks in order (a daemon: a closing server or test
    session does not wait for estimates nobody will read). After a chunk that took t seconds
    it rests t * (1 / share - 1): however many pages estimate, play-outs never take more than
    ``share`` of a core from the server."""

    def __init__(self, share: float | None = None):
        self._queue: queue.Queue = queue.Queue()
        self._thread = None
        self._lock = threading.Lock()
        self.share = _share() if share is None else share
        self.busy = 0.0   # seconds spent in chunks, and resting after them (tests)
        self.rested = 0.0

    def submit(self, fn, *args) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, daemon=True,
                                                name="dicelab-estimate")
                self._thread.start()
        self._queue.put((fn, args))

    def _work(self):
        while True:
            fn, args = self._queue.get()
            t = time.thread_time()  # CPU time: a chunk waiting for its state to settle is free
            try:
                fn(*args)
            except Exception:  # one estimate's failure must not stop the others
                pass
            spent = time.thread_time() - t
            self.busy += spent
            if spent > 0.001 and self.share < 1.0:  # a chunk that played (not a stale skip)
                rest = spent * (1.0 / self.share - 1.0)
                self.rested += rest
                time.sleep(rest)


_POOL = _Runner()
_LIVE: "weakref.WeakSet[LiveEstimate]" = weakref.WeakSet()


def stop_all() -> None:
    """Stop every running estimate (tests, between cases)."""
    for live in list(_LIVE):
        live.stop()


def applies(game) -> bool:
    """Does the page show a play-out estimate for this game (else exact or nothing)?"""
    return (_POOL.share > 0 and game.n_seats >= 2 and not game.is_over
            and not is_exact(game))


class LiveEstimate:
    """One page's running estimate. ``restart(game)`` (on the page's thread) drops the run
    in progress and starts one from the game's state now; ``notify(estimate, key)`` is called
    from the background thread after each step, ``key`` being the number of game actions the
    estimate is for. ``result`` and ``key`` hold the latest."""

    def __init__(self, notify: Callable[[Estimate, int], None] | None = None,
                 steps: tuple[int, ...] | None = None, seed: int | None = None,
                 stand_in: str = "optimal", pool: _Runner | None = None,
                 settle: float | None = None):
        self.notify = notify
        self.steps = tuple(steps or STEPS)
        self.stand_in = stand_in
        self.pool = pool or _POOL
        self.settle = SETTLE if settle is None else settle
        self._seed = np.random.SeedSequence(seed).entropy
        self._lock = threading.Lock()
        self._run = 0
        self.result: Estimate | None = None
        self.key: int | None = None
        self.threads: set[str] = set()  # names of the threads that ran play-outs (tests)
        _LIVE.add(self)

    def restart(self, game) -> bool:
        """Start over from ``game``'s state now; False (nothing runs) when it is over or has
        one seat. Which games a page estimates is ``applies``."""
        with self._lock:
            self._run += 1
            run = self._run
            self.result, self.key = None, len(game.actions)
        if game.is_over or game.n_seats < 2:
            return False
        # a copy of the state with fresh computers, made here: the live game is not read
        # from the background thread
        base = game.continued(playout_seats(game, self.stand_in), 0)
        self.pool.submit(self._chunk, run, base, len(game.actions), None, 0,
                         time.monotonic() + self.settle)
        return True

    def stop(self) -> None:
        with self._lock:
            self._run += 1

    @property
    def running(self) -> bool:
        return self.result is None or self.result.playouts < self.steps[-1]

    def _chunk(self, run: int, base, key: int, wins, done: int, start: float = 0.0) -> None:
        if run != self._run:
            return  # the game moved on, or the page went away
        wait = start - time.monotonic()
        if wait > 0:  # not settled yet: look again shortly (other pages' chunks go meanwhile)
            time.sleep(min(wait, 0.05))
            self.pool.submit(self._chunk, run, base, key, wins, done, start)
            return
        self.threads.add(threading.current_thread().name)
        target = next(s for s in self.steps if s > done)
        n = min(CHUNK, target - done)
        seed = [self._seed, run, done]
        try:
            est = estimate(base, n, seed=seed, stand_in=self.stand_in,
                           seats=base.seats, wins=wins, done=done)
        except Exception:  # a position the computers cannot play on: no estimate, no error
            return
        done += n
        with self._lock:
            if run != self._run:
                return
            if done == target:
                self.result, self.key = est, key
        if done == target and self.notify is not None:
            self.notify(est, key)
        if done < self.steps[-1]:
            wins = np.array(est.chances) * done
            self.pool.submit(self._chunk, run, base, key, wins, done)
