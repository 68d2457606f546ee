"""The pages of a network game share the odds readout of each position (issue 15: a room's
pages do not each compute the same readout), and still differ where the viewer differs: the
hint addresses the person on turn as "you", and a set-aside choice made on one page is that
page's own. No browser: each page is a RoomPlay copy of the room's game."""
from __future__ import annotations

import random

import pytest

from dicelab.errors import RuleError
from dicelab.odds import fivedice as odds_fivedice
from dicelab.rooms import MemoryStore, RoomService
from dicelab.ui import odds_view
from dicelab.ui.hint import hint_text
from dicelab.ui.lobby import RoomPlay
from dicelab.ui.view import current_odds


@pytest.fixture
def readouts(monkeypatch):
    """Every readout computed (the solver's ``readout_for``), counted."""
    calls = []
    real = odds_fivedice.readout_for

    def counted(rules, state, seat=None):
        calls.append(state)
        return real(rules, state, seat)
    monkeypatch.setattr(odds_fivedice, "readout_for", counted)
    monkeypatch.setattr(odds_view, "_SHARED", type(odds_view._SHARED)())  # a cold cache
    return calls


def room_of_three(settings, seeds=None):
    service = RoomService(MemoryStore(), seeds=seeds)
    room, ann = service.create("Shared", "bones", settings, "Ann")
    tokens = [ann, service.join("Shared", "Bob"), service.join("Shared", "Cy")]
    service.start("Shared", ann)
    room = service.room("Shared")
    pages = [RoomPlay(service, room, t) for t in tokens]
    return service, pages


def sync(pages):
    for p in pages:
        p.sync()


@pytest.fixture
def seeded():
    """Rooms get their games' seeds from this generator (the same games every run)."""
    return random.Random(15).getrandbits


def test_pages_of_a_room_share_one_readout_per_position(readouts, seeded):
    service, pages = room_of_three({}, seeded)
    assert next(p for p in pages if p.person_on_turn).roll()
    sync(pages)
    on_turn = next(p for p in pages if p.person_on_turn)  # (the same one unless it bust)
    assert len({p.game.state for p in pages}) == 1  # every page shows the same position
    odds = [current_odds(p) for p in pages]
    # RULES.md Bones: three seats, one position: one readout, the same for every page
    assert len(readouts) == 1
    assert odds[0] is odds[1] is odds[2]
    # the viewer still differs: the person on turn is "you", the others read a name
    others = [p for p in pages if p is not on_turn]
    assert hint_text(on_turn) != hint_text(others[0]) == hint_text(others[1])
    assert on_turn.game.seats[on_turn.game.current_player].name in hint_text(others[0])
    # the next position: one more readout, again shared
    nxt = next(p for p in pages if p.person_on_turn)
    assert nxt.roll() if nxt.can_roll else nxt.stand()
    sync(pages)
    assert [current_odds(p) for p in pages][1:] == [current_odds(pages[0])] * 2
    assert len(readouts) == 2


def a_choice_with_odds(seeds):
    """A room whose first roll leaves the person on turn a choice of dice to set aside, and
    a die whose release is an allowed choice (not every one is: whole groups)."""
    for _ in range(100):
        service, pages = room_of_three({"choose_keepers": True}, seeds)
        on_turn = next(p for p in pages if p.person_on_turn)
        on_turn.roll()
        sync(pages)
        st = on_turn.game.state
        for pos in (i for i, c in enumerate(st.counting) if c and st.phase == "decide"):
            keep = [i for i, c in enumerate(st.counting) if c and i != pos]
            try:
                if keep:
                    on_turn.game.state_after_keep(keep)
                    return pages, on_turn, pos
            except RuleError:
                continue
    raise AssertionError("no roll with a choice of dice to set aside")


def test_a_set_aside_choice_is_the_choosing_pages_own(readouts, seeded):
    # RULES.md Bones, choose_keepers: the person on turn picks which counting dice to set aside
    pages, on_turn, pos = a_choice_with_odds(seeded)
    others = [p for p in pages if p is not on_turn]
    shared = current_odds(others[0])
    assert current_odds(on_turn) is shared and current_odds(others[1]) is shared
    n = len(readouts)
    assert on_turn.toggle(pos)  # one die fewer set aside
    mine = current_odds(on_turn)
    assert isinstance(mine, odds_view.FiveDiceOdds)
    assert mine is not shared and len(readouts) == n + 1  # that choice's own readout
    assert mine.readout != shared.readout
    # the other pages still show the position as rolled, without computing it again
    assert current_odds(others[0]) is shared and current_odds(others[1]) is shared
    assert len(readouts) == n + 1
