"""What opening a page costs the server, in one process, next to a bare Panel page (same run).

    .venv/bin/python benchmarks/page_open.py [--repeat 5]

Opening a page is one callback on the server's event loop: the page is built, turned into
Bokeh models (``get_root``) and serialized for the browser, and every other page of the server
waits meanwhile. A class opening its room links at once queues one such callback per student.
Timed here (``time.thread_time``, least of ``--repeat``: a busy machine only adds):
- the reference: a bare Panel page with one button and one line of text;
- the app's start page (``/dicelab_app``);
- the app opened on a room's link (``?room=…``): the page before the room arrives;
- a started room's screen (seats, table), which the page adds once the browser has sent its
  seat tokens: a callback of its own.
The served figure, with websockets, is in rooms_load.py ("opening 30 sessions").
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from _table import print_table  # noqa: E402 (after the sys.path lines)


def cost(make, repeat: int) -> tuple[float, float, float]:
    """(build, get_root, serialize) seconds of this thread's CPU, the least total of ``repeat``."""
    import panel as pn
    from bokeh.document import Document

    best = None
    for _ in range(repeat):
        t0 = time.thread_time()
        obj = make()
        t1 = time.thread_time()
        doc = Document()
        doc.add_root(pn.panel(obj).get_root(doc))
        t2 = time.thread_time()
        doc.to_json()
        t3 = time.thread_time()
        run = (t1 - t0, t2 - t1, t3 - t2)
        if best is None or sum(run) < sum(best):
            best = run
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    import panel as pn

    from dicelab.rooms import MemoryStore, RoomService
    from dicelab.rooms import backend as rooms_backend
    from dicelab.rooms.pacer import Pacer
    from dicelab.ui import app as app_mod
    from dicelab.ui.lobby import RoomScreen, SeatKeeper
    from dicelab.ui.notebook import EXTENSIONS
    from dicelab.ui.play import Prefs

    pn.extension(*EXTENSIONS, notifications=False)
    records = Path(tempfile.mkdtemp(prefix="page_open-")) / "records.sqlite3"
    service = RoomService(MemoryStore())
    pacer = Pacer(service, pace=1.0)
    rooms_backend._backend = (service, pacer)
    room, token = service.create("Class 1", "bones", {}, "Ann")
    service.join(room.name, "Bob")
    service.start(room.name, token)

    def bare():
        return pn.Column(pn.widgets.Button(label="Bare", button_type="primary"),
                         pn.pane.HTML("<p>not clicked</p>"))

    def app(room_link=None):
        arg = app_mod._arg
        app_mod._arg = lambda name: room_link if name == "room" else arg(name)
        try:
            return app_mod.DicelabApp(records_path=records).__panel__()
        finally:
            app_mod._arg = arg

    cases = [("bare Panel page (reference)", bare),
             ("start page", app),
             ("page opened on a room's link", lambda: app(room.name)),
             ("a started room's screen, added after", lambda: RoomScreen(
                 room.name, token, SeatKeeper(), Prefs(), on_exit=lambda: None))]
    cost(bare, 1)  # imports and first-use caches out of the figures
    rows, ref = [], None
    for label, make in cases:
        build, root, js = cost(make, args.repeat)
        total = build + root + js
        ref = ref or total
        rows.append((label, f"{1000 * build:.0f}", f"{1000 * root:.0f}", f"{1000 * js:.0f}",
                     f"{1000 * total:.0f}", f"{total / ref:.1f}x"))
    pacer.close()
    print_table(f"Opening a page: the server's CPU in one callback (ms, this thread, least of "
                f"{args.repeat})", ["page", "build", "get_root", "serialize", "total",
                                    "vs bare"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
