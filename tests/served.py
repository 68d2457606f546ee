"""A Bokeh document as a served session holds it, without a server: Bokeh's own session
classes (a renamed attribute fails), with ``handlers`` standing in for the websockets."""
from __future__ import annotations

from bokeh.document import Document
from bokeh.server.connection import ServerConnection
from bokeh.server.contexts import BokehSessionContext
from bokeh.server.session import ServerSession


def served_doc(handlers=(), protocol=None, sid: str = "s1"):
    doc = Document()
    session = ServerSession(sid, doc)
    for h in handlers:
        session.subscribe(ServerConnection(protocol, h, None, session))
    context = BokehSessionContext(sid, None, doc)
    context._set_session(session)
    doc._session_context = lambda: context  # as the server sets it (a weak reference)
    return doc
