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
from panel.io.state import set_curdoc

from dicelab.ui.session import CalmGC
from tests.served import served_doc


@pytest.fixture(autouse=True)
def unfrozen():
    callbacks = list(gc.callbacks)
    yield
    gc.callbacks[:] = callbacks
    gc.unfreeze()  # the rest of the test run collects as usual


def pages(n):
    return [served_doc(sid=f"page-{i}") for i in range(n)]


def load(calm, doc):
    with set_curdoc(doc):
        calm.page_loaded()


def close(calm, doc):
    calm.page_closed(doc.session_context)


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
    docs = pages(2)
    load(calm, docs[0])  # the first page: the process's own objects
    first = gc.get_freeze_count()
    assert first > 0 and calm.started
    page = Cycle()  # a page's objects: cycles, as Panel's and Bokeh's are
    load(calm, docs[1])
    gone = weakref.ref(page)
    del page
    gc.collect()
    assert gone() is not None, "a frozen object is not walked by a full collection"

    async def closes():
        close(calm, docs[0])
        close(calm, docs[1])  # a burst: one collection, after the last
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
    docs = pages(5)
    for doc in docs[:4]:  # four pages open
        load(calm, doc)
    page = Cycle()
    load(calm, docs[4])  # a fifth, whose objects become garbage when it closes
    gone = weakref.ref(page)
    del page

    async def closes(n):
        for _ in range(n):
            close(calm, docs.pop())
        await asyncio.sleep(0.3)
    asyncio.run(closes(2))  # two closed, three open: below the batch
    assert (calm.full, calm.open, calm.waiting) == (0, 3, 2)
    assert gone() is not None, "collected although pages were open and the batch not full"
    asyncio.run(closes(1))  # the third: the batch, one collection
    assert (calm.full, calm.open, calm.waiting) == (1, 2, 0)
    assert gone() is None, "the closed page's garbage was not freed"
    asyncio.run(closes(2))  # the last pages close: no one to stall, collected at once
    assert (calm.full, calm.open, calm.waiting) == (2, 0, 0)
    close(calm, served_doc(sid="never-loaded"))  # nothing goes negative
    assert (calm.open, calm.waiting) == (0, 0)


def test_a_session_whose_page_never_loaded_does_not_count_as_a_closed_page():
    """A request that never opens its websocket (a crawler, a prefetch, the benchmark's check
    that the server is up) ends without its page loading. Counted as a closed page, it made
    the last open pages look closed: a full collection then stalled them (0.2 s in
    rooms_load.py, in the middle of the lone session's play)."""
    calm = CalmGC()
    calm.settle = 0.05
    docs = pages(2)
    load(calm, docs[0])
    load(calm, docs[1])

    async def closes():
        close(calm, served_doc(sid="never-loaded"))
        close(calm, served_doc(sid="never-loaded-either"))
        await asyncio.sleep(0.3)
    asyncio.run(closes())
    assert (calm.full, calm.open, calm.waiting) == (0, 2, 0)


def test_what_lives_through_pythons_own_full_collection_is_frozen_while_pages_are_open():
    """Python's own full collections walked every object made since the pages loaded (30-34
    ms with 30 players, every room stalled); after one, what lived is frozen too, so the next
    walks only what is newer."""
    calm = CalmGC()
    docs = pages(2)

    async def play():
        load(calm, docs[0])
        load(calm, docs[1])
        before = gc.get_freeze_count()
        made = [Cycle() for _ in range(1000)]  # made while the pages are open
        gc.collect()  # as Python's own full collection would
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() >= before + 1000
        alive = weakref.ref(made[0])
        del made
        gc.collect()
        assert alive() is not None, "frozen: not walked by the next full collection"
        close(calm, docs[0])
        close(calm, docs[1])
        await asyncio.sleep(0.05)  # (the freeze that collection asked for)
        gc.unfreeze()
        gc.collect()  # no page open now: nothing is frozen after it
        await asyncio.sleep(0.05)
        assert alive() is None and gc.get_freeze_count() == 0
    asyncio.run(play())


def test_sessions_that_never_loaded_are_collected_by_the_batch():
    """Sessions whose page connected but never loaded (issue 33: 300 of them kept 800 MB):
    their objects were frozen with the pages that loaded meanwhile, so a batch of them closing
    brings a full collection too, while pages stay open."""
    calm = CalmGC()
    calm.settle, calm.batch = 0.05, 3
    docs = pages(1)
    load(calm, docs[0])

    async def closes(n):
        for i in range(n):
            close(calm, served_doc(sid=f"half-open-{i}"))
        await asyncio.sleep(0.3)
    asyncio.run(closes(2))
    assert (calm.full, calm.open, calm.waiting, calm.unloaded) == (0, 1, 0, 2)
    asyncio.run(closes(1))
    assert (calm.full, calm.open, calm.unloaded) == (1, 1, 0)
