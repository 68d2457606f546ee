"""A served page's PATCH-DOC messages are made without listing every model of the page first
(issue 15: a sixth of a room page's update), and are the same messages Bokeh makes: same
content, the same models sent in full (new ones) or by reference (the browser's), and the
document's record of new models left the same. Built on Bokeh's own session classes and on a
real table (the app's views in a Bokeh document), so a change inside Bokeh fails here."""
from __future__ import annotations

import json

import panel as pn
from bokeh.document import Document
from bokeh.document.events import DocumentPatchedEvent
from bokeh.protocol import Protocol
from bokeh.protocol.messages.patch_doc import patch_doc
from bokeh.server.connection import ServerConnection
from bokeh.server.contexts import BokehSessionContext
from bokeh.server.session import ServerSession

import dicelab
from dicelab.ui.play import Play, Prefs
from dicelab.ui.wire import _lean_patch_doc, lean_patches
from dicelab.ui.table import Table


def table_doc():
    """A Bones table of three seats in a document, its models all known to the browser."""
    g = dicelab.new_game("bones", ["Ann", "Bob", "Cy"], seed=3)
    play = Play(g, prefs=Prefs(anim_ms=0, sound=False), computers=False)
    doc = Document()
    doc.add_root(pn.Column(Table(play=play)).get_root(doc))
    doc.models.flush_synced()  # as after the page's first message
    return doc, play


def both_ways(doc, events):
    """Bokeh's message and the lean one for ``events``, each from the same document state."""
    new_before = set(doc.models._new_models)
    theirs = patch_doc.create(events)
    new_theirs = set(doc.models._new_models)
    doc.models._new_models = set(new_before)
    ours = _lean_patch_doc().create(events)
    return theirs, ours, new_theirs, set(doc.models._new_models)


def record(doc):
    events = []
    doc.on_change(lambda e: events.append(e) if isinstance(e, DocumentPatchedEvent) else None)
    return events


def test_the_messages_of_a_game_are_bokehs():
    doc, play = table_doc()
    events = record(doc)
    for _ in range(12):  # rolls, stands, busts: text, labels, chart data, the tray
        events.clear()
        play.roll() if play.can_roll and (not play.can_stand or len(events) % 2) else play.stand()
        if not events:
            continue
        theirs, ours, new_theirs, new_ours = both_ways(doc, list(events))
        assert json.loads(ours.content_json) == json.loads(theirs.content_json)
        assert new_ours == new_theirs
        assert type(ours).msgtype == "PATCH-DOC" and ours.buffers == theirs.buffers


def mentions(value, model_id) -> list[dict]:
    """Every JSON object of a message that names the model ``model_id``."""
    if isinstance(value, list):
        return [m for v in value for m in mentions(v, model_id)]
    if not isinstance(value, dict):
        return []
    here = [value] if value.get("id") == model_id else []
    return here + [m for v in value.values() for m in mentions(v, model_id)]


def test_new_models_go_in_full_once_and_old_ones_by_reference():
    doc, _play = table_doc()
    root = doc.roots[0]
    events = record(doc)
    pane = pn.pane.HTML("<p>new</p>")
    new_model = pane.get_root(doc)
    root.children = [*root.children, new_model]  # a model the browser has not seen
    theirs, ours, new_theirs, new_ours = both_ways(doc, list(events))
    content = json.loads(ours.content_json)
    assert content == json.loads(theirs.content_json)
    met = mentions(content, new_model.id)
    assert len(met) == 1 and "attributes" in met[0]  # sent once, in full
    assert new_ours == new_theirs and new_model not in new_ours  # now known to the browser
    # the next change to it is a reference, like any model the browser has
    events.clear()
    new_model.text = "changed"
    theirs, ours, *_ = both_ways(doc, list(events))
    content = json.loads(ours.content_json)
    assert content == json.loads(theirs.content_json)
    assert mentions(content, new_model.id) == [{"id": new_model.id}]


class Handler:  # stands in for Bokeh's WSHandler
    def set_nodelay(self, value):
        pass


def served(doc, n=2):
    session = ServerSession("s1", doc)
    connections = [ServerConnection(Protocol(), Handler(), None, session) for _ in range(n)]
    context = BokehSessionContext("s1", None, doc)
    context._set_session(session)
    doc._session_context = lambda: context  # as the server sets it (a weak reference)
    return connections


def test_only_this_sessions_connections_change():
    doc, _play = table_doc()
    events = record(doc)
    doc.roots[0].visible = False  # (before the session: it would want the document's lock)
    mine = served(doc)
    other = ServerConnection(Protocol(), Handler(), None, ServerSession("s2", Document()))
    assert lean_patches(doc) == 2
    lean = _lean_patch_doc()
    assert all(c.protocol._messages["PATCH-DOC"] is lean for c in mine)
    assert other.protocol._messages["PATCH-DOC"] is patch_doc  # Bokeh's table is untouched
    assert mine[0].protocol._messages["ACK"] is other.protocol._messages["ACK"]
    assert lean_patches(doc) == 2  # again: nothing changes
    msg = mine[0].protocol.create("PATCH-DOC", list(events))
    assert isinstance(msg, lean) and json.loads(msg.content_json)["events"]


def test_outside_a_server_it_does_nothing():
    assert lean_patches(Document()) == 0
