"""A served app out of file descriptors (issue 33, item 6): past the process's limit of open
files, Tornado's accept failed at every turn of the event loop, each failure a traceback in
the log (239,683 lines in the probe). Now: one line, the pages already open go on, and new
connections are accepted again once descriptors are free."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time

import pytest

from tests.ui.conftest import free_port

LIMIT = 96  # the server's limit of open files (soft and hard: it cannot raise it)

LAUNCH = """
import logging, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit}))
logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
{serve}
"""
APP = "from dicelab.ui.app import serve; serve(port=int(sys.argv[1]))"
# the same server with a page that costs nothing to build (the app's takes 10-20 s to start)
BARE = """import panel as pn
from dicelab.ui.gate import cheap_page_requests
cheap_page_requests()
pn.serve({"dicelab_app": lambda: pn.pane.Markdown("a page")}, port=int(sys.argv[1]),
         address="127.0.0.1", show=False)"""


def get(conn: http.client.HTTPConnection) -> int:
    conn.request("GET", "/dicelab_app")
    response = conn.getresponse()
    response.read()
    return response.status


def wait_for_page(port: int, timeout: float) -> int:
    end = time.monotonic() + timeout
    while True:
        try:
            return get(http.client.HTTPConnection("127.0.0.1", port, timeout=10))
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


@pytest.mark.parametrize("page", [
    "bare", pytest.param("app", marks=pytest.mark.skipif(
        not os.environ.get("DICELAB_SLOW"), reason="slow: set DICELAB_SLOW=1"))])
def test_out_of_file_descriptors_one_line_pages_go_on_and_it_recovers(tmp_path, page):
    port = free_port()
    env = {**os.environ, "DICELAB_ROOMS": "memory",
           "DICELAB_RECORDS": str(tmp_path / "records.sqlite3"), "DICELAB_PAGE_RATE": "1000"}
    log = (tmp_path / "server.log").open("w+")
    server = subprocess.Popen([sys.executable, "-c", LAUNCH.format(
        limit=LIMIT, serve=APP if page == "app" else BARE), str(port)],
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    flood: list[socket.socket] = []
    try:
        assert wait_for_page(port, 120) == 200
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=20)  # a page open before
        assert get(kept) == 200
        for _ in range(2 * LIMIT):  # idle connections past the limit (the kernel queues some)
            s = socket.socket()
            s.settimeout(0.5)
            try:
                s.connect(("127.0.0.1", port))
            except OSError:
                s.close()
                continue
            flood.append(s)
        time.sleep(2.0)  # out of descriptors for a while, connections waiting
        assert get(kept) == 200, "the connection open before stopped being served"
        for s in flood:
            s.close()
        flood.clear()
        assert wait_for_page(port, 60) == 200  # a new connection is accepted again
    finally:
        for s in flood:
            s.close()
        server.terminate()
        server.wait(20)
    log.seek(0)
    lines = log.read().splitlines()
    log.close()
    assert len(lines) <= 20, lines[:30]
    out = [line for line in lines if "out of file descriptors" in line]
    again = [line for line in lines if "accepting connections again" in line]
    assert len(out) == 1 and len(again) == 1, lines
    tries = int(again[0].split("(")[1].split()[0])
    assert 1 <= tries <= 100  # paused between tries, not at every turn of the event loop
