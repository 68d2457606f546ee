"""The server's CPU per action in a network game, in one process: the pages of one room, each
an app-built ``RoomScreen`` in a Bokeh document, playing actions one after another.

    .venv/bin/python benchmarks/room_pages_cpu.py [--pages 3] [--actions 60] [--repeat 3]
                                                  [--profile N]

What it times per action (``time.thread_time`` of this thread, so other processes on a busy
machine do not count): the seat on turn presses its key ("." roll, "0" stand: what the page's
KeyBridge sends), the service stores the action and tells every page of the room, each page
catches up and redraws, and the changes of all the documents are turned into the PATCH-DOC
messages a server would send (Bokeh's serializer). Not timed: the websocket writes, and
background threads (live estimates play out in threads of their own: ``DICELAB_ESTIMATE_SHARE``
sets their share; this script sets it to 0 unless given). Compare with a lone page
(``--pages 1``) run the same way. The room's seed is fixed (``--seed``), so every run plays the
same actions; each is played ``--repeat`` times (a new room each time) and the least CPU of an
action counts (a busy machine only adds to CPU time: caches, shared cores).
``--profile N``: also print cProfile's N costliest functions (of the last repeat).

rooms_load.py measures the served app under load, latency and all; this one isolates the work
of a page update, reproducibly enough to compare a change (same seed, same actions).
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from _table import print_table  # noqa: E402 (after the sys.path lines)

ROLLS_PER_TURN = 2  # as rooms_load.py: roll twice, then stand when Stand is enabled


def open_pages(n_pages: int, variant: str, seed: int):
    """A started room of ``n_pages`` people, each seat's page built as the app builds it."""
    from bokeh.document import Document

    from dicelab.rooms import RoomService
    from dicelab.rooms import backend as rooms_backend
    from dicelab.rooms.pacer import Pacer
    from dicelab.ui.lobby import RoomScreen, SeatKeeper
    from dicelab.ui.play import Prefs

    db = Path(tempfile.mkdtemp(prefix="room_pages_cpu-")) / "rooms.db"
    # the game's seed fixed: the same game every run
    service = RoomService(f"sqlite://{db}", seeds=random.Random(seed).getrandbits)
    pacer = Pacer(service, pace=1.0)
    rooms_backend._backend = (service, pacer)  # what the pages use (put back by measure)
    room, token = service.create("bench", variant, {}, "Player 1")
    tokens = [token] + [service.join(room.name, f"Player {i + 1}") for i in range(1, n_pages)]
    service.start(room.name, token)
    pages, docs = [], []
    for t in tokens:
        screen = RoomScreen(room.name, t, SeatKeeper(), Prefs(anim_ms=0, sound=False),
                            on_exit=lambda: None)
        doc = Document()
        doc.add_root(screen.__panel__().get_root(doc))
        pages.append(screen)
        docs.append(doc)
    return service, pacer, pages, docs


def measure(pages: int = 3, actions: int = 60, variant: str = "bones", seed: int = 1,
            profile: int = 0) -> dict:
    from bokeh.document.events import DocumentPatchedEvent
    from bokeh.protocol import Protocol

    from dicelab.rooms import backend as rooms_backend

    old_backend = rooms_backend._backend
    t0 = time.thread_time()
    service, pacer, screens, docs = open_pages(pages, variant, seed)
    open_s = time.thread_time() - t0
    events: list = []
    for doc in docs:
        doc.on_change(lambda e: events.append(e) if isinstance(e, DocumentPatchedEvent)
                      else None)
    protocol = Protocol()
    prof = cProfile.Profile() if profile else None
    update_ms, send_ms, kinds = [], [], []
    rolls = 0
    for _ in range(actions):
        play = screens[0].play
        g = play.game
        if g.is_over:
            break
        screen = screens[g.current_player]
        p = screen.play
        stand = p.can_stand and (rolls >= ROLLS_PER_TURN or not p.can_roll)
        key = "0" if stand else "."
        rolls = 0 if stand else rolls + 1
        events.clear()
        if prof:
            prof.enable()
        t = time.thread_time()
        n = len(p.game.actions)
        p.key(key)
        t1 = time.thread_time()
        for doc in docs:  # what the server sends: each document's changes, serialized
            mine = [e for e in events if e.document is doc]
            if mine:
                protocol.create("PATCH-DOC", mine)
        t2 = time.thread_time()
        if prof:
            prof.disable()
        if len(p.game.actions) != n + 1:
            raise RuntimeError(f"the action {key!r} was not played: {p.message!r}")
        update_ms.append(1000 * (t1 - t))
        send_ms.append(1000 * (t2 - t1))
        kinds.append(key)
    for s in screens:
        s.close()
    pacer.close()
    service.close()
    rooms_backend._backend = old_backend
    out = {"pages": pages, "variant": variant, "actions": len(update_ms), "open_s": open_s,
           "update_ms": update_ms, "send_ms": send_ms}
    if prof:
        stats = pstats.Stats(prof)
        stats.sort_stats("cumulative").print_stats(profile)
        stats.sort_stats("tottime").print_stats(profile)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=3)
    ap.add_argument("--actions", type=int, default=60)
    ap.add_argument("--variant", default="bones")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    args = ap.parse_args(argv)
    os.environ.setdefault("DICELAB_ESTIMATE_SHARE", "0")
    rows = []
    for pages in sorted({1, args.pages}):
        runs = [measure(pages, args.actions, args.variant, args.seed,
                        args.profile if pages == args.pages and i == args.repeat - 1 else 0)
                for i in range(args.repeat)]
        if len({r["actions"] for r in runs}) != 1:
            raise RuntimeError("the repeats played different games: the seed did not hold")
        update = [min(x) for x in zip(*(r["update_ms"] for r in runs))]
        send = [min(x) for x in zip(*(r["send_ms"] for r in runs))]
        total = [a + b for a, b in zip(update, send)]
        rows.append((pages, len(total), f"{statistics.mean(update):.2f}",
                     f"{statistics.mean(send):.2f}", f"{statistics.mean(total):.2f}",
                     f"{statistics.median(total):.2f}",
                     f"{statistics.mean(total) / pages:.2f}"))
    print_table(f"Server CPU per action in one room ({args.variant}, this thread's CPU time, "
                f"ms, least of {args.repeat} runs per action; DICELAB_ESTIMATE_SHARE="
                f"{os.environ['DICELAB_ESTIMATE_SHARE']})",
                ["pages", "actions", "update", "serialize", "total (mean)", "total (median)",
                 "per page"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
