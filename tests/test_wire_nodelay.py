"""A served page's websocket sends every message at once (issue 15): Bokeh writes a message
as several websocket frames, and with Nagle's algorithm on (Tornado's default) each frame after
the first waited for the browser's delayed ACK. ``send_at_once`` sets TCP_NODELAY on the
session's websockets; here on Bokeh's own session classes, so a renamed attribute fails."""
from __future__ import annotations

from bokeh.document import Document

from dicelab.ui.wire import send_at_once
from tests.served import served_doc


class Handler:
    """Stands in for Bokeh's WSHandler (a tornado WebSocketHandler): records set_nodelay."""

    def __init__(self, closed: bool = False):
        self.closed, self.nodelay = closed, None

    def set_nodelay(self, value: bool) -> None:
        if self.closed:  # tornado asserts a live ws_connection
            raise AssertionError("closed")
        self.nodelay = value


def test_every_websocket_of_the_session_gets_tcp_nodelay():
    handlers = [Handler(), Handler()]
    assert send_at_once(served_doc(handlers)) == 2
    assert [h.nodelay for h in handlers] == [True, True]


def test_a_closed_websocket_is_skipped_and_nothing_breaks():
    live, closed = Handler(), Handler(closed=True)
    assert send_at_once(served_doc([closed, live])) == 1 and live.nodelay is True


def test_outside_a_server_it_does_nothing():
    assert send_at_once(Document()) == 0
