"""A served page's websocket: how its messages are made and written (Nagle off, lean
PATCH-DOC messages, one TCP segment per message), and the net under Panel's write queue."""
from __future__ import annotations

import contextlib
import functools
import socket

import panel as pn


def served_doc():
    """This session's Bokeh document when served by a server (None in a script or notebook)."""
    doc = pn.state.curdoc
    return doc if doc is not None and getattr(doc, "session_context", None) is not None \
        else None


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


_CORK = getattr(socket, "TCP_CORK", None)  # Linux
_corked: set = set()  # documents inside ``corked`` now (the event loop's thread)


@contextlib.contextmanager
def corked(doc):
    """The page's websocket writes made inside leave as one TCP segment when the block ends
    (``TCP_CORK``). Bokeh writes a message as three websocket frames, each its own send with
    TCP_NODELAY on (``send_at_once``): three packets, and three wake-ups of the browser's side,
    for one message. The sends themselves are cheap (64 µs of CPU for three, 55 corked, on
    this project's 2-core machine); what a client woken three times costs is its own. Outside
    Linux, or when not the outermost block of a page, it does nothing."""
    socks = []
    if _CORK is not None and doc not in _corked:
        for connection in _connections(doc):
            ws = getattr(getattr(connection, "_socket", None), "ws_connection", None)
            sock = getattr(getattr(ws, "stream", None), "socket", None)
            try:
                sock.setsockopt(socket.IPPROTO_TCP, _CORK, 1)
            except (AttributeError, OSError):  # closed, or not a TCP socket
                continue
            socks.append(sock)
    if not socks:
        yield
        return
    _corked.add(doc)
    try:
        yield
    finally:
        _corked.discard(doc)
        for sock in socks:  # what was written goes now
            try:
                sock.setsockopt(socket.IPPROTO_TCP, _CORK, 0)
            except OSError:
                pass


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
