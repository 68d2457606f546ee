"""Per-address and per-page limits of a served app (issue 33, item 5): page requests and
sessions per address, websocket messages per page, repeated log lines, a room's log."""
from __future__ import annotations

import asyncio
import json
import logging

import pytest

from dicelab.errors import RuleError
from dicelab.rooms import MemoryStore, RoomService
from dicelab.ui import gate
from tests.served import served_doc


def test_a_bucket_gives_its_burst_then_its_rate(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(gate.time, "monotonic", lambda: now[0])
    b = gate.Bucket(rate=2.0, burst=3)
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one more token
    assert [b.take(), b.take()] == [True, False]


def test_page_requests_per_address(monkeypatch):
    monkeypatch.setenv("DICELAB_PAGE_RATE", "5")
    limit = gate.PerAddress()
    assert sum(limit.allow("10.0.0.1") for _ in range(20)) == 5
    assert limit.allow("10.0.0.2")  # another student is not held back


class Request:
    def __init__(self, ip):
        self.remote_ip = ip


def session(sid, ip):
    doc = served_doc(sid=sid)
    doc.session_context._request = Request(ip)
    return doc


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(gate, "_open", {})
    monkeypatch.setattr(gate, "session_opens", gate.PerAddress())


def test_open_sessions_per_address_and_in_all(monkeypatch, fresh):
    monkeypatch.setenv("DICELAB_SESSIONS_PER_ADDRESS", "3")
    monkeypatch.setenv("DICELAB_SESSIONS_MAX", "5")
    docs = [session(f"a{i}", "10.0.0.1") for i in range(4)]
    assert [gate.admit(d) is None for d in docs] == [True, True, True, False]
    assert "Too many pages are open from your address" in gate.admit(docs[3])
    gate.closed(docs[0])  # one closes: another may open
    assert gate.admit(docs[3]) is None
    others = [session(f"b{i}", "10.0.0.2") for i in range(3)]
    assert [gate.admit(d) is None for d in others] == [True, True, False]
    assert "as many pages open as it can take" in gate.admit(others[2])


def test_sessions_opened_too_fast_from_one_address(monkeypatch, fresh):
    monkeypatch.setenv("DICELAB_PAGE_RATE", "4")
    docs = [session(f"s{i}", "10.0.0.9") for i in range(6)]
    refused = [gate.admit(d) for d in docs]
    assert [r is None for r in refused] == [True] * 4 + [False] * 2
    assert "wait a minute" in refused[-1]


class FakeReceiver:
    def __init__(self):
        self._current_consumer = self._HEADER
        self.fragments = []

    def _HEADER(self, fragment):
        pass


class FakeProtocol:
    def __init__(self):
        self.closing = False

    def is_closing(self):
        return self.closing


class FakeWS:
    """A websocket handler as far as the limit sees it: every fragment it lets through."""

    def __init__(self):
        self.receiver = FakeReceiver()
        self.ws_connection = FakeProtocol()
        self.got = []


async def through(ws, fragment):
    """Bokeh's receiver: header, metadata, content, then the next message's header."""
    ws.got.append(fragment)
    r = ws.receiver
    r.n = (getattr(r, "n", 0) + 1) % 3
    r._current_consumer = r._HEADER if r.n == 0 else ws.got.append


def header(buffers=0):
    return json.dumps({"msgid": "1", "msgtype": "PATCH-DOC", "num_buffers": buffers})


def test_messages_over_the_rate_are_dropped_whole_and_counted(monkeypatch):
    monkeypatch.setenv("DICELAB_MESSAGE_RATE", "2")  # 4 at once
    monkeypatch.setattr(gate, "dropped_messages", gate.Tally("dropped"))
    on_message = gate._message_limited(through)
    ws = FakeWS()

    async def send(n):
        for i in range(n):
            await on_message(ws, header())
            await on_message(ws, "{}")  # (a dropped one's metadata and content are skipped)
            await on_message(ws, "{}")
    asyncio.run(send(10))
    assert ws.got.count(header()) == 4  # four whole messages; six dropped with their fragments
    assert len(ws.got) == 4 * 3
    assert gate.dropped_messages.total == 6


def test_nothing_more_is_read_from_a_page_whose_websocket_the_server_closed(monkeypatch):
    """Bokeh closes a page's websocket at its first malformed message, but went on reading
    (and logging) what had arrived: tests/test_hostile_served.py replays 1,000 of them."""
    on_message = gate._message_limited(through)
    ws = FakeWS()

    async def send():
        for fragment in (header(), "{}", "{}"):
            await on_message(ws, fragment)
        ws.ws_connection.closing = True
        for fragment in (header(), "{}", "{}"):
            await on_message(ws, fragment)
        ws.ws_connection = None  # closed
        await on_message(ws, header())
    asyncio.run(send())
    assert len(ws.got) == 3


def test_a_repeated_log_line_is_written_once_a_minute(monkeypatch):
    f = gate._OncePerMinute()
    now = [0.0]
    monkeypatch.setattr(gate.time, "monotonic", lambda: now[0])
    rec = lambda: logging.LogRecord("bokeh.server.views.ws", logging.ERROR, "", 0,  # noqa: E731
                                    "Unhandled exception receiving a message: %r", ("x",), None)
    assert [f.filter(rec()) for _ in range(1000)].count(True) == 1
    now[0] = 61
    r = rec()
    assert f.filter(r) and "999 more like it" in r.msg


def test_a_rooms_log_is_bounded(monkeypatch):
    monkeypatch.setenv("DICELAB_ROOM_MAX_ACTIONS", "10")
    service = RoomService(MemoryStore())
    room, token = service.create("Solo", "bones", {}, "Ann")
    service.start(room.name, token)
    played = 0
    with pytest.raises(RuleError, match="has reached 10 actions"):
        for _ in range(100):  # one seat of Bones: never over
            legal = service.state(room.name).legal_actions()
            service.act(room.name, token, legal[-1] if played % 3 == 2 else legal[0])
            played += 1
    assert played == 10 and len(service.log(room.name)) == 10


class Socket:
    def __init__(self):
        self.closed = None

    def close(self, code=None, reason=None):
        self.closed = code


def test_a_page_that_never_finishes_loading_is_closed(monkeypatch):
    """Its websocket is closed after DICELAB_LOAD_TIMEOUT (the session then expires as
    Bokeh's unused sessions do); a page that loaded keeps its own."""
    real = gate.config.value
    monkeypatch.setattr(gate.config, "value", lambda name, environ=None: 0.05
                        if name == "DICELAB_LOAD_TIMEOUT" else real(name, environ))
    stuck, fine = Socket(), Socket()

    async def run():
        gate.close_unless_loaded(served_doc([stuck], sid="stuck"), lambda: False)
        gate.close_unless_loaded(served_doc([fine], sid="fine"), lambda: True)
        await asyncio.sleep(0.3)
    asyncio.run(run())
    assert (stuck.closed, fine.closed) == (1000, None)


def test_a_game_at_the_logs_bound_is_ended(monkeypatch):
    """A game that need not end (one seat of Bones: a player who never stands plays for ever)
    is ended at DICELAB_ROOM_MAX_ACTIONS: listed as finished (it leaves the lobby as finished
    games do), refused in the page's language, and playable again as a rematch."""
    from dicelab import i18n

    monkeypatch.setenv("DICELAB_ROOM_MAX_ACTIONS", "10")
    service = RoomService(MemoryStore())
    room, token = service.create("Solo", "bones", {}, "Ann")
    service.start(room.name, token)
    for _ in range(10):
        service.act(room.name, token, service.state(room.name).legal_actions()[0])
    assert not service.state(room.name).is_over and service.room(room.name).finished
    assert service.room(room.name).public()["finished"]
    with pytest.raises(RuleError) as refused:
        service.act(room.name, token, service.state(room.name).legal_actions()[0])
    with i18n.using("fr"):
        assert "a atteint 10 actions" in str(refused.value)
    game = service.rematch(room.name, token)
    assert len(game.actions) == 0 and not service.room(room.name).finished
