"""The pages of a room read its record and its log once per change, not once each (issue 15):
``RoomService.room(cached=True)`` and ``log(cached=True)`` keep what was read until the room's
next news (from this process or, through the store's watcher, from another), and a page that
found itself behind forgets it (``reread``)."""
from __future__ import annotations

import time

from dicelab.rooms import MemoryStore, RoomService
from dicelab.ui.lobby import RoomPlay


class Counted(MemoryStore):
    """A memory store that counts the reads of records and of logs."""

    def __init__(self):
        super().__init__()
        self.gets = self.logs = 0

    def get(self, key):
        self.gets += 1
        return super().get(key)

    def actions(self, key, start=0):
        self.logs += 1
        return super().actions(key, start)


def room_of_three():
    store = Counted()
    service = RoomService(store)
    room, ann = service.create("Trio", "bones", {}, "Ann")
    tokens = [ann, service.join("Trio", "Bob"), service.join("Trio", "Cy")]
    service.start("Trio", ann)
    pages = [RoomPlay(service, service.room("Trio"), t) for t in tokens]
    return store, service, tokens, pages


def test_three_pages_read_a_new_action_once():
    store, service, tokens, pages = room_of_three()
    on_turn = next(p for p in pages if p.person_on_turn)
    token = tokens[pages.index(on_turn)]
    service.act("Trio", token, "roll", expect=len(on_turn.game.actions))
    store.gets = store.logs = 0
    for p in pages:  # what each page does on the news: its room, then the new actions
        p.sync(service.room("Trio", cached=True))
    assert store.gets == 1 and store.logs == 1
    assert len({len(p.game.actions) for p in pages}) == 1 and pages[0].game.actions
    assert len({repr(p.game.state) for p in pages}) == 1
    # nothing new: nothing read again
    for p in pages:
        assert p.sync(service.room("Trio", cached=True)) == 0
    assert store.gets == 1 and store.logs == 1


def test_news_clears_what_was_read_and_reread_forgets_it():
    store, service, tokens, pages = room_of_three()
    first = service.room("Trio", cached=True)
    assert service.room("Trio", cached=True) is first
    service.away("Trio", tokens[1])  # a change of the record: news
    second = service.room("Trio", cached=True)
    assert second is not first and second.rev == first.rev + 1
    n = store.gets
    service.reread("Trio")
    assert service.room("Trio", cached=True) is not second and store.gets == n + 1
    # a plain read is always the store's
    service.room("Trio")
    assert store.gets == n + 2


def test_another_process_changes_are_read_after_their_news(tmp_path):
    """Two services on one SQLite file, as two server processes: the second's action reaches
    the first's cached reads once its watcher reports it."""
    url = f"sqlite://{tmp_path / 'rooms.db'}"
    here, there = RoomService(url), RoomService(url)
    try:
        room, ann = here.create("Duo", "bones", {}, "Ann")
        bob = here.join("Duo", "Bob")
        here.start("Duo", ann)
        page = RoomPlay(here, here.room("Duo"), ann)
        before = here.log("Duo", cached=True)
        token = ann if page.person_on_turn else bob
        there.act("Duo", token, "roll", expect=len(before))
        end = time.monotonic() + 30
        while len(here.log("Duo", cached=True)) == len(before):
            assert time.monotonic() < end, "the watcher never reported the other's action"
            time.sleep(0.05)
        assert page.sync(here.room("Duo", cached=True)) == 1
        assert here.log("Duo", cached=True) == here.log("Duo")
    finally:
        here.close()
        there.close()
