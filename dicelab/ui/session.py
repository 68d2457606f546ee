"""Plumbing of a served session: news from other threads, periodic checks, and a guard
against a Panel write queue that can stall (see ``flush_stuck_writes``)."""
from __future__ import annotations

import asyncio
import threading

import panel as pn


def handoff(fn):
    """``fn`` made callable from any thread: it runs later in this session's document (calls
    made before it ran are merged into one). Outside a served session it runs at once.

    Another thread must not touch the document itself: while the event loop holds the
    document (Bokeh collects events during a callback), a callback added from elsewhere can
    be lost when the hold ends. So the call only wakes this session's event loop
    (thread-safe), and the loop adds the document callback."""
    doc = pn.state.curdoc
    if doc is None or getattr(doc, "session_context", None) is None:
        return lambda *args: fn()
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        from tornado.ioloop import IOLoop

        loop = IOLoop.current().asyncio_loop
    from panel.io.state import set_curdoc

    pending = threading.Event()

    def run():
        pending.clear()
        with set_curdoc(doc):
            fn()

    def schedule():  # on the event loop's thread, outside any callback
        try:
            doc.add_next_tick_callback(run)
        except Exception:  # the session has gone
            pending.clear()

    def call(*args):
        if pending.is_set():
            return
        pending.set()
        try:
            loop.call_soon_threadsafe(schedule)
        except RuntimeError:  # the loop has closed
            pending.clear()
    return call


def every(fn, period_ms: int = 2000):
    """Run ``fn`` every ``period_ms`` in this served session; returns the stop function
    (a no-op outside a server). A background callback: it does not flip the server's busy
    flag (30 pages polling would keep it flapping)."""
    doc = pn.state.curdoc
    if doc is None or getattr(doc, "session_context", None) is None:
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


def flush_stuck_writes(doc=None) -> bool:
    """Send messages Panel queued for this page but never wrote; True if there were some.

    Panel (1.9) queues a page's changes when its websocket is busy, and a queue-writing task
    that finishes while another is starting can drop the "queue is live" mark, stranding the
    newest messages until the page changes again. For a page whose last change was the other
    player's final action, that is never: the page stays a move behind, buttons disabled.
    Seen in the rooms browser tests; this puts the mark back and writes the queue."""
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
    doc = pn.state.curdoc
    return every(lambda: flush_stuck_writes(doc), period_ms)
