"""The play-outs of live estimates (``win_live``) in a worker process of their own
(``odds.worker.ProcessWorker``: the lowest priority, started again when it died or hung).

A served app's pages all run on one event loop. Play-outs in a thread of that process, even
capped at a quarter of a core, held Python's lock often enough to delay every page of every
room: in ``benchmarks/rooms_load.py`` the players' p95 went from 42 ms with estimates off to
254 ms with them on. In this process they take nothing from the pages' thread.

A chunk is ``child_chunk(sid, base or None, n, seed, stand_in, wins, done)`` run in the
child, which keeps the last ``KEEP`` game states (``base``, sent once per child) and answers
("ok", Estimate), or ("missing",) when it no longer holds that state (send it again).
"""
from __future__ import annotations

from collections import OrderedDict

from ..odds.worker import ProcessWorker, WorkerGone

__all__ = ["KEEP", "TIMEOUT", "PlayoutWorker", "WorkerGone", "play_chunk"]

KEEP = 64         # game states the child holds (an estimate's chunks reuse its state)
TIMEOUT = 300.0   # s for one chunk of play-outs before the child is taken for hung
_BASES: OrderedDict = OrderedDict()   # (in the child) sid -> game state


def play_chunk(base, n: int, seed, stand_in: str, wins, done: int):
    """``n`` more play-outs of ``base`` on top of ``wins`` from ``done`` earlier ones: what a
    chunk is, here or in the runner's thread."""
    from .win import estimate

    return estimate(base, n, seed=seed, stand_in=stand_in, seats=base.seats, wins=wins,
                    done=done)


def child_chunk(sid, base, n: int, seed, stand_in: str, wins, done: int):
    """A chunk in the worker process, on the state it holds under ``sid``."""
    if base is not None:
        _BASES[sid] = base
        while len(_BASES) > KEEP:
            _BASES.popitem(last=False)
    base = _BASES.get(sid)
    if base is None:
        return ("missing",)
    _BASES.move_to_end(sid)
    return ("ok", play_chunk(base, n, seed, stand_in, wins, done))


class PlayoutWorker(ProcessWorker):
    """The play-outs' child; one chunk at a time (the runner's thread is the only caller)."""

    def run(self, shared, n: int, wins, done: int):
        """``n`` more play-outs of ``shared``'s state (its ``base``, sent once per child):
        (Estimate, the child's CPU seconds). Raises ``WorkerGone`` if the child died or hung,
        and whatever the play-outs raised (as RuntimeError)."""
        send_base = shared.worker_generation != self.generation
        for _ in range(2):
            reply, cpu = self.call(child_chunk, shared.sid, shared.base if send_base else None,
                                   n, [shared._seed, done], shared.stand_in, wins, done,
                                   timeout=TIMEOUT)
            shared.worker_generation = self.generation
            if reply[0] == "missing":   # a new child since the state was sent
                send_base = True
                continue
            return reply[1], cpu
        raise WorkerGone("the child dropped the game state twice")  # i18n: not shown
