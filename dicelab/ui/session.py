"""Plumbing of a served session, in one place: running code later on the session's event loop
(from its own callbacks or from other threads), sending a page's changes as one message,
periodic checks, and a guard against a Panel write queue that can stall."""
from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import threading

import panel as pn

log = logging.getLogger(__name__)


def served_doc():
    """This session's Bokeh document when served by a server (None in a script or notebook)."""
    doc = pn.state.curdoc
    return doc if doc is not None and getattr(doc, "session_context", None) is not None \
        else None


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

    with set_curdoc(doc), hold(doc):
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

    with hold(doc):
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
    its server-wide state, for a busy indicator (the app shows none: ``app._unlink_busy``),
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


def _connections(doc=None) -> list:
    """The websocket connections of this session (none outside a server)."""
    doc = doc or served_doc()
    session = getattr(getattr(doc, "session_context", None), "_session", None)
    return list(getattr(session, "_subscribed_connections", None) or ())


def send_at_once(doc=None) -> int:
    """Turn Nagle's algorithm off on this session's websockets; returns how many.

    Bokeh writes each message as several websocket frames (header, metadata, content), and
    Tornado leaves a websocket's TCP_NODELAY off: with Nagle's algorithm a frame written while
    the previous one is unacknowledged waits for the browser's delayed ACK (40 ms on Linux, up
    to 200 ms on Windows) before it leaves. Browsers set TCP_NODELAY on their side. Call it
    once the page is loaded (its websocket is open then)."""
    done = 0
    for connection in _connections(doc):
        try:
            connection._socket.set_nodelay(True)
            done += 1
        except Exception:  # closed meanwhile, or another kind of connection
            pass
    return done


@functools.cache
def _lean_patch_doc():
    """Bokeh's PATCH-DOC message class, made without first listing every model of the page.

    Bokeh (3.9) starts each message by mapping every model the browser has (a few hundred per
    page: a reference object each) so that the serializer sends those as references, and
    builds the set of them too; a room's page pays that at every action, for the handful of
    models an action changes: about a sixth of a page's update. This serializer asks the
    document about each model it meets instead, with the same answer, so the message is the
    same."""
    from bokeh.core.serialization import Serializer
    from bokeh.model import Model
    from bokeh.protocol.messages.patch_doc import PatchJson, patch_doc

    class SyncedRefs(Serializer):
        def __init__(self, models) -> None:
            super().__init__()
            self._models = models

        def _synced(self, obj) -> bool:  # what ``models.synced_references`` would hold
            models = self._models
            return (isinstance(obj, Model) and models.get_by_id(obj.id) is obj
                    and obj not in models._new_models)

        def has_ref(self, obj) -> bool:
            return id(obj) in self._references or self._synced(obj)

        def get_ref(self, obj):
            ref = self._references.get(id(obj))
            if ref is None and self._synced(obj):
                ref = self._references[id(obj)] = obj.ref
            return ref

    class LeanPatchDoc(patch_doc):
        @classmethod
        def create(cls, events, **metadata):
            docs = {event.document for event in events}
            if len(docs) != 1:  # (and no events): Bokeh's own says why
                return patch_doc.create(events, **metadata)
            [doc] = docs
            serializer = SyncedRefs(doc.models)
            patch_json = PatchJson(events=serializer.encode(events))
            doc.models.flush_synced(lambda model: not serializer.has_ref(model))
            msg = cls(cls.create_header(), metadata, patch_json)
            msg.add_buffers(*serializer.buffers)
            return msg
    return LeanPatchDoc


def lean_patches(doc=None) -> int:
    """This session's websockets make their PATCH-DOC messages with ``_lean_patch_doc``;
    returns how many. A connection's protocol otherwise shares Bokeh's table of message
    classes: only this session's are changed. Call it once the page is loaded."""
    lean = _lean_patch_doc()
    done = 0
    for connection in _connections(doc):
        protocol = getattr(connection, "protocol", None)
        table = getattr(protocol, "_messages", None)
        kind = "PATCH-DOC"  # i18n: not shown (Bokeh's message type)
        if not isinstance(table, dict) or kind not in table:
            continue
        if table[kind] is not lean:
            protocol._messages = {**table, kind: lean}
        done += 1
    return done


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
        self.open = 0  # pages loaded and not closed (as far as this counts: see page_closed)
        self.waiting = 0  # pages closed since the last full collection

    def page_loaded(self) -> None:
        if served_doc() is None:  # a notebook's kernel or a script: Python's own way
            return
        self.open += 1
        if not self.started:
            self.started = True
            gc.collect()
        else:
            gc.collect(1)
        gc.freeze()

    def page_closed(self) -> None:
        """A session ended (its page may never have loaded: then nothing of it was frozen)."""
        self.open = max(0, self.open - 1)
        self.waiting += 1
        if self._timer is None and self.open and self.waiting < self.batch:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = _server_loop().call_later(self.settle, self.collect)

    def collect(self) -> None:
        self._timer = None
        self.waiting = 0
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.full += 1


calm_gc = CalmGC()


def flush_stuck_writes(doc=None) -> bool:
    """Send messages Panel queued for this page but never wrote; True if there were some.

    Panel (1.9) queues a page's changes when its websocket is busy, and a queue-writing task
    that finishes while another is starting can drop the "queue is live" mark, stranding the
    newest messages until the page changes again. For a page whose last change was the other
    player's final action, that is never: the page stays a move behind, buttons disabled.
    Seen in the rooms browser tests; this puts the mark back and writes the queue. Still needed
    with Panel 1.9.4 (checked for issue 14): ``_dispatch_msgs`` deletes the mark after awaiting
    its writes even when ``schedule_write_events`` queued more meanwhile, and the task that
    call scheduled then finds no mark and returns."""
    from panel.io import document as pdoc

    doc = doc or pn.state.curdoc
    msgs, block = getattr(pdoc, "_WRITE_MSGS", None), getattr(pdoc, "_WRITE_BLOCK", None)
    dispatch = getattr(pdoc, "_dispatch_write_task", None)
    write = getattr(pdoc, "_dispatch_msgs", None)
    if doc is None or None in (msgs, block, dispatch, write):
        return False  # a Panel without this queue
    if doc in msgs and doc not in block:
        block[doc] = True
        dispatch(doc, write, doc)
        return True
    return False


def keep_flushing(period_ms: int = 1000):
    """Check this session's write queue every ``period_ms``; returns the stop function."""
    doc = served_doc()
    return every(lambda: flush_stuck_writes(doc), period_ms)
