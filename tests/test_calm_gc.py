"""A served app's garbage collection does not stall every page (issue 15): a full collection
walked every open page's objects (0.5 s with 30 pages open, measured by benchmarks/rooms_load.py
with a gc callback), so each page's objects are frozen once it has loaded, and collected in one
full pass after pages close: once every page has closed, or a batch of them. Here: freezing
only in a served session, the garbage of a closed page still freed, one collection per burst of
closes, none for a page closing among open ones until the batch is full."""
from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from bokeh.document import Document
from bokeh.server.contexts import BokehSessionContext
from bokeh.server.session import ServerSession
from panel.io.state import set_curdoc

from dicelab.ui.session import CalmGC


@pytest.fixture(autouse=True)
def unfrozen():
    yield
    gc.unfreeze()  # the rest of the test run collects as usual


def served_doc():
    doc = Document()
    session = ServerSession("s1", doc)
    context = BokehSessionContext("s1", None, doc)
    context._set_session(session)
    doc._session_context = lambda: context  # as the server sets it (a weak reference)
    return doc


class Cycle:
    def __init__(self):
        self.me = self


def test_outside_a_server_python_collects_as_usual():
    calm = CalmGC()
    calm.page_loaded()
    assert gc.get_freeze_count() == 0 and not calm.started


def test_a_loaded_page_is_frozen_and_a_closed_ones_garbage_is_freed():
    calm = CalmGC()
    calm.settle = 0.05
    doc = served_doc()
    with set_curdoc(doc):
        calm.page_loaded()  # the first page: the process's own objects
        first = gc.get_freeze_count()
        assert first > 0 and calm.started
        page = Cycle()  # a page's objects: cycles, as Panel's and Bokeh's are
        calm.page_loaded()
    gone = weakref.ref(page)
    del page
    gc.collect()
    assert gone() is not None, "a frozen object is not walked by a full collection"

    async def closes():
        calm.page_closed()
        calm.page_closed()  # a burst: one collection, after the last
        await asyncio.sleep(0.3)
    asyncio.run(closes())
    assert calm.full == 1
    assert gone() is None, "the closed page's garbage was not freed"
    assert gc.get_freeze_count() > 0  # and what lives is frozen again


def test_a_page_closing_while_others_are_open_waits_for_a_batch():
    """A reload or a student leaving early: its cycles wait (a full collection would stall
    every open page, 0.5-0.7 s with 30 open) until ``batch`` pages have closed, or all."""
    calm = CalmGC()
    calm.settle, calm.batch = 0.05, 3
    doc = served_doc()
    with set_curdoc(doc):
        for _ in range(4):  # four pages open
            calm.page_loaded()
        page = Cycle()
        calm.page_loaded()  # a fifth, whose objects become garbage when it closes
    gone = weakref.ref(page)
    del page

    async def closes(n):
        for _ in range(n):
            calm.page_closed()
        await asyncio.sleep(0.3)
    asyncio.run(closes(2))  # two closed, three open: below the batch
    assert (calm.full, calm.open, calm.waiting) == (0, 3, 2)
    assert gone() is not None, "collected although pages were open and the batch not full"
    asyncio.run(closes(1))  # the third: the batch, one collection
    assert (calm.full, calm.open, calm.waiting) == (1, 2, 0)
    assert gone() is None, "the closed page's garbage was not freed"
    asyncio.run(closes(2))  # the last pages close: no one to stall, collected at once
    assert (calm.full, calm.open, calm.waiting) == (2, 0, 0)
    calm.page_closed()  # a session whose page never loaded: nothing goes negative
    assert calm.open == 0
