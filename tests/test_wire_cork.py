"""A page's message leaves in one TCP segment (issue 15): Bokeh writes a message as three
websocket frames, and with TCP_NODELAY each frame was its own transmission, which costs the
event loop far more than the copy into the socket. ``corked`` holds a page's writes with
TCP_CORK and lets them go together when the block ends. Here on a real TCP connection and on
Bokeh's own session classes (a renamed attribute fails)."""
from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest
from bokeh.document import Document

from dicelab.ui.wire import corked
from tests.served import served_doc

pytestmark = pytest.mark.skipif(not hasattr(socket, "TCP_CORK"), reason="Linux's TCP_CORK")


@pytest.fixture
def pair():
    """(the server's end, the browser's end) of a TCP connection on localhost, Nagle off on
    the server's end as ``send_at_once`` leaves it."""
    listener = socket.create_server(("127.0.0.1", 0))
    browser = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    listener.close()
    server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    yield server, browser
    server.close()
    browser.close()


def handler(sock):
    """Stands in for Bokeh's WSHandler: its tornado websocket's stream holds the socket."""
    return SimpleNamespace(ws_connection=SimpleNamespace(stream=SimpleNamespace(socket=sock)))


def is_corked(sock) -> bool:
    return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_CORK))


def test_frames_written_inside_leave_together_when_the_block_ends(pair):
    server, browser = pair
    doc = served_doc([handler(server)])
    browser.setblocking(False)
    with corked(doc):
        assert is_corked(server)
        for frame in (b"header", b"metadata", b"content"):
            server.send(frame)
        with pytest.raises(BlockingIOError):  # held back: nothing has left yet
            browser.recv(100)
    assert not is_corked(server)
    browser.settimeout(5)
    got = b""
    while len(got) < len(b"headermetadatacontent"):
        got += browser.recv(100)
    assert got == b"headermetadatacontent"


def test_a_nested_block_leaves_the_outer_one_corked(pair):
    server, _ = pair
    doc = served_doc([handler(server)])
    with corked(doc):
        with corked(doc):
            pass
        assert is_corked(server)  # the page's message is not finished yet
    assert not is_corked(server)


def test_an_error_inside_still_lets_the_writes_go(pair):
    server, _ = pair
    doc = served_doc([handler(server)])
    with pytest.raises(ZeroDivisionError):
        with corked(doc):
            1 / 0
    assert not is_corked(server)
    with corked(doc):  # and the page can cork again
        assert is_corked(server)


def test_a_closed_socket_or_a_missing_stream_is_skipped(pair):
    server, _ = pair
    gone = socket.socket()
    gone.close()
    doc = served_doc([handler(gone), SimpleNamespace(ws_connection=None), handler(server)])
    with corked(doc):
        assert is_corked(server)
    assert not is_corked(server)


def test_outside_a_server_it_does_nothing():
    with corked(Document()):
        pass
    with corked(None):
        pass
