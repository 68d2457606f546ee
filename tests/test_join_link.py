"""The rooms' link to join uses an address the students' machines reach (issue 40)."""
from __future__ import annotations

import socket

import pytest

from dicelab.ui import join_link
from dicelab.ui.join_link import is_loopback, join_base, split_host


@pytest.mark.parametrize("host, loop", [("localhost", True), ("127.0.0.1", True),
                                        ("127.3.2.1", True), ("[::1]", True), ("::1", True),
                                        ("app.localhost", True), ("192.0.2.2", False),
                                        ("dice.school.org", False), ("", False)])
def test_loopback_names(host, loop):
    assert is_loopback(host) is loop


def test_host_and_port():
    assert split_host("localhost:5006") == ("localhost", 5006)
    assert split_host("[::1]:8080") == ("::1", 8080)
    assert split_host("dice.school.org") == ("dice.school.org", None)


def test_configured_address_wins(monkeypatch):
    monkeypatch.setenv("DICELAB_JOIN_URL", "192.168.1.20:5006/")
    assert join_base("localhost:5006") == "http://192.168.1.20:5006"
    monkeypatch.setenv("DICELAB_JOIN_URL", "https://dice.school.org")
    assert join_base("127.0.0.1:5006") == "https://dice.school.org"


def test_a_page_reached_from_the_network_keeps_its_own_address(monkeypatch):
    monkeypatch.delenv("DICELAB_JOIN_URL", raising=False)
    assert join_base("192.0.2.2:5006") == ""
    assert join_base("dice.school.org") == ""


def test_a_local_page_links_to_the_network_address_only_when_the_server_answers_there(
        monkeypatch):
    monkeypatch.delenv("DICELAB_JOIN_URL", raising=False)
    ip = join_link.network_address()
    if ip is None:
        pytest.skip("no network address here")
    with socket.socket() as listening:  # a server on every network
        listening.bind(("0.0.0.0", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert join_base(f"localhost:{port}") == f"http://{ip}:{port}"
    with socket.socket() as local_only:  # a server on the loopback only: no better link
        local_only.bind(("127.0.0.1", 0))
        local_only.listen()
        port = local_only.getsockname()[1]
        join_link._answers.cache_clear()
        assert join_base(f"localhost:{port}") == ""


def test_serve_origin_sets_the_link(monkeypatch):
    monkeypatch.setenv("DICELAB_JOIN_URL", "")  # (undone after the test, whatever it sets)
    join_link.served_at(["192.168.1.20:5006"])
    assert join_base("localhost:5006") == "http://192.168.1.20:5006"
    join_link.served_at(["10.0.0.1:80"])  # a setting already there wins
    assert join_base("localhost:5006") == "http://192.168.1.20:5006"
