"""Plumbing of a served session, in one place: running code later on the session's event loop
(from its own callbacks or from other threads), sending a page's changes as one message,
periodic checks, and a guard against a Panel write queue that can stall."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading


from .wire import corked, flush_stuck_writes, served_doc

log = logging.getLogger(__name__)


def _next_tick(doc, fn) -> None:
    """On the event loop's thread: ``fn`` as a next-tick callback, with ``doc`` as curdoc and
    its changes held: Panel writes them, after any messages it still holds for this page.
    (A change made straight on a Bokeh model, such as a chart's new points, went out through
    Bokeh's own writer, which waits on the socket's lock and so overtook the messages Panel
    queued behind that lock: a page opening in a burst of openings got points for a chart
    whose table it had not been sent yet, and never showed the table.)"""
    doc.add_next_tick_callback(lambda: _in_page(doc, fn))


def _in_page(doc, fn) -> None:
    """``fn()`` with ``doc`` as curdoc and its changes held (Panel writes them, in order)."""
    from panel.io.document import hold
    from panel.io.state import set_curdoc

    with corked(doc), set_curdoc(doc), hold(doc):
        fn()


def defer(fn, lock: bool = False) -> None:
    """Run ``fn`` after the current callback, with this session's document (``lock``: as a
    Bokeh next-tick callback, for changes to the page); at once outside a server. Scheduling
    a session callback while Bokeh holds a callback's events can drop the patch that sends
    new models to the browser, so the scheduling itself waits for the event loop."""
    doc = served_doc()
    try:
        loop = asyncio.get_running_loop() if doc is not None else None
    except RuntimeError:
        loop = None
    if loop is None:
        fn()
    elif lock:
        loop.call_soon(_next_tick, doc, fn)
    else:
        from panel.io.state import set_curdoc

        def run():
            with set_curdoc(doc):
                fn()
        loop.call_soon(run)


@contextlib.contextmanager
def one_message():
    """In a served session: the page's changes made inside go to the browser as one message."""
    doc = served_doc()
    if doc is None:
        yield
        return
    from panel.io.document import hold

    with corked(doc), hold(doc):
        yield


def set_changed(obj, **values) -> None:
    """Set those of ``values`` that differ, one by one. param checks an equal value as dearly as
    it sets a new one, and ``update`` reads every parameter of a widget first (about 60 for a
    button); views run this on every page of a room at every action. The changes still reach
    the page in one message (the page's update holds them)."""
    for k, v in values.items():
        if getattr(obj, k) != v:
            setattr(obj, k, v)


def _server_loop():
    """The server's asyncio loop: the running one, else Tornado's current (a session's
    callbacks can run outside a coroutine)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        from tornado.ioloop import IOLoop

        return IOLoop.current().asyncio_loop


def handoff(fn):
    """``fn`` made callable from any thread: it runs later in this session's document (calls
    made before it ran are merged into one). Outside a served session it runs at once.

    Another thread must not touch the document itself: while the event loop holds the
    document (Bokeh collects events during a callback), a callback added from elsewhere can
    be lost when the hold ends. So the call only wakes this session's event loop
    (thread-safe), and the loop adds the document callback."""
    doc = served_doc()
    if doc is None:
        return lambda *args: fn()
    loop = _server_loop()
    pending = threading.Event()

    def run():
        pending.clear()
        fn()

    def schedule():  # on the event loop's thread, outside any callback
        try:
            _next_tick(doc, run)
        except Exception:  # the session has gone
            pending.clear()

    def call(*args):
        if pending.is_set():
            return
        pending.set()
        if _fanning is not None and threading.get_ident() == _fanning[0]:
            _fanning[1].append((doc, run))  # shown at the end of fan_out()
            return
        try:
            loop.call_soon_threadsafe(schedule)
        except RuntimeError:  # the loop has closed
            pending.clear()
    return call


_fanning: tuple[int, list] | None = None  # (the event loop's thread, handoffs to run)


@contextlib.contextmanager
def fan_out():
    """Around a page's action in a served session: the news it gives the other pages of this
    process (``handoff`` calls made inside, on this thread) is shown when the block ends, one
    page after another, in this same turn of the event loop. As callbacks, each page's update
    waited behind whatever every other room had queued, so the rooms' updates interleaved and
    each room's last page waited for the others' work too."""
    global _fanning
    me = served_doc()
    if _fanning is not None or me is None:
        yield
        return
    runs: list = []
    _fanning = (threading.get_ident(), runs)
    try:
        yield
    finally:
        _fanning = None
        # the acting page has shown the action already: its own news last, not before the others
        _show_now(sorted(runs, key=lambda run: run[0] is me))


def _show_now(runs) -> None:
    """Run each page's handoff with its document as curdoc, its changes held and written to
    its browser by Panel (as Panel does for changes made outside a Bokeh callback)."""
    for doc, run in runs:
        try:
            _in_page(doc, run)
        except Exception:  # that page's own callback will try again
            log.exception("a page's update failed; it is scheduled again")  # i18n: not shown
            try:
                _next_tick(doc, run)
            except Exception:  # the session has gone
                pass


class Unbusy:
    """Mixin for a Panel component people act through (keys, dice, buttons): its browser
    events are handled without Panel's busy counter. Panel counts every event in a list on
    its server-wide state, for a busy indicator (the app shows none),
    and that bookkeeping cost about 1 ms per key press or click, more than a tenth of an
    action's work on the server."""

    def _process_bokeh_event(self, doc, event) -> None:
        from panel.io.state import set_curdoc

        with set_curdoc(doc):
            self._process_event(event)


def every(fn, period_ms: int = 2000):
    """Run ``fn`` every ``period_ms`` in this served session; returns the stop function
    (a no-op outside a server). A background callback: it does not flip the server's busy
    flag (30 pages polling would keep it flapping)."""
    if served_doc() is None:
        return lambda: None
    from panel.io.callbacks import PeriodicCallback

    cb = PeriodicCallback(callback=fn, period=period_ms, log=False, background=True)
    try:
        cb.start()
    except Exception:  # no event loop
        return lambda: None

    def stop():
        try:
            cb.stop()
        except Exception:
            pass
    return stop


class CalmGC:
    """Python's full garbage collections without stalling every page of the server.

    A full collection walks every object of the process, and a server's objects are mostly
    its open pages (4 MB each): measured with 30 pages open, one took 0.5-0.7 s, during which
    no page of any room moves, and CPython starts one every few page openings. Long-lived
    objects are frozen instead (``gc.freeze``: never walked again): the process's own at the
    first page, and each page's once it has loaded (after a young collection, so that fresh
    garbage is not kept). A page's objects become garbage only when it closes, and most are
    freed then (reference counts); its cycles (about 7,000 objects a page) wait in the frozen
    objects for a full collection: everything is unfrozen, collected and frozen again.

    That collection stalls every open page, so it waits for a reason: every page has closed
    (it stalls no one), or ``batch`` pages have closed since the last one (their cycles are
    worth it). A student reloading a page, or leaving early, no longer stalls the class.
    Either way it waits until no page has closed for ``settle`` seconds: one per burst."""

    settle = 5.0  # s after the last page closed
    batch = 20  # closed pages whose cycles may wait for a collection while other pages are open

    def __init__(self) -> None:
        self.started = False
        self._timer = None
        self.full = 0  # full collections made after pages closed
        self._loaded: set[str] = set()  # the sessions whose page loaded and has not closed
        self.waiting = 0  # loaded pages closed since the last full collection
        self.unloaded = 0  # sessions closed before their page loaded, since then

    @property
    def open(self) -> int:
        return len(self._loaded)

    def has_loaded(self, sid: str) -> bool:
        """Whether that session's page has loaded (and not closed)."""
        return sid in self._loaded

    def page_loaded(self) -> None:
        doc = served_doc()
        if doc is None:  # a notebook's kernel or a script: Python's own way
            return
        self._loaded.add(doc.session_context.id)
        if not self.started:
            self.started = True
            gc.collect()
            try:
                loop = asyncio.get_running_loop()  # (a page loads on the server's loop)
            except RuntimeError:
                loop = None
            if loop is not None:
                gc.callbacks.append(lambda phase, info: self._after(phase, info, loop))
        else:
            gc.collect(1)
        gc.freeze()

    def _after(self, phase: str, info: dict, loop) -> None:
        """After Python's own full collection (it walks every object not frozen): what lived
        through it is frozen too, so that the next one walks only what is newer. Each walked
        the objects made since the pages loaded (caches, histories): 30-34 ms in the middle
        of 30 players' play, stalling every room. Frozen on the loop's next turn, not inside
        the collection."""
        if phase == "stop" and info.get("generation") == 2 and self._loaded:
            try:
                loop.call_soon_threadsafe(gc.freeze)
            except RuntimeError:  # the loop has closed
                pass

    def page_closed(self, session_context) -> None:
        """A session ended. One whose page never loaded (a request that never opened its
        websocket: a crawler, a prefetch, a reload before the page was up) froze nothing and
        is not counted: counted, it once made every page look closed, and the full
        collection that followed stalled the pages still open for 0.2 s."""
        sid = getattr(session_context, "id", None)
        if sid not in self._loaded:
            # its objects were frozen with the next page that loaded: its cycles wait for a
            # full collection too (300 such sessions kept 800 MB), so it counts toward the
            # batch of its own, never as "every page closed"
            self.unloaded += 1
            if self._timer is None and self.unloaded >= self.batch:
                self._timer = _server_loop().call_later(self.settle, self.collect)
            return
        self._loaded.discard(sid)
        self.waiting += 1
        if self._timer is None and self.open and self.waiting < self.batch:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = _server_loop().call_later(self.settle, self.collect)

    def collect(self) -> None:
        self._timer = None
        self.waiting = self.unloaded = 0
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.full += 1
        _trim()


def _trim() -> None:
    """Hand the memory freed back to the operating system (glibc keeps it in its heaps
    otherwise, and the server's RSS never came down after pages closed)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


calm_gc = CalmGC()


def keep_flushing(period_ms: int = 1000):
    """Check this session's write queue every ``period_ms``; returns the stop function."""
    doc = served_doc()
    return every(lambda: flush_stuck_writes(doc), period_ms)
