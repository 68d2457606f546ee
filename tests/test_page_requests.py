"""A plain GET of the app's page is cheap (issue 33, item 1): it builds no app session (the
session is made when the page's websocket arrives), and each request still gets a session
token of its own. benchmarks/get_flood.py measures a lone player during a GET flood."""
from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest

from dicelab.ui import app as app_mod
from tests.ui.conftest import free_port


def serve_here(monkeypatch, tmp_path, **kwargs):
    """The app served in this process (``dicelab.ui.serve``), counting the apps it builds."""
    monkeypatch.setenv("DICELAB_RECORDS", str(tmp_path / "records.sqlite3"))
    monkeypatch.setenv("DICELAB_ROOMS", "sqlite://" + str(tmp_path / "rooms.db"))
    built = []
    init = app_mod.DicelabApp.__init__

    def counting(self, *args, **kw):
        built.append(self)
        init(self, *args, **kw)
    monkeypatch.setattr(app_mod.DicelabApp, "__init__", counting)
    port = free_port()
    server = app_mod.serve(port=port, threaded=True, **kwargs)
    url = f"http://127.0.0.1:{port}/dicelab_app"
    end = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(url, timeout=30).read()
            break
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.2)
    return url, built, server


@pytest.fixture
def served(monkeypatch, tmp_path):
    url, built, server = serve_here(monkeypatch, tmp_path)
    yield url, built
    server.stop()


def token(page: str) -> str:
    return re.search(r'"token":"([^"]+)"', page).group(1)


def test_page_requests_build_no_session(served):
    url, built = served
    assert len(built) == 1  # the first request's: the page every request is answered from
    pages = [urllib.request.urlopen(url + q, timeout=30).read().decode()
             for q in ("", "?room=Class%201", "?lang=fr", "")]
    assert len(built) == 1, "a GET built an app session"
    tokens = [token(p) for p in pages]
    assert len(set(tokens)) == len(tokens)  # each page's session is its own
    assert all(p.replace(token(p), "") == pages[0].replace(tokens[0], "") for p in pages)


def status(url: str, ip: str) -> int:
    request = urllib.request.Request(url, headers={"X-Real-IP": ip, "X-Forwarded-For": ip})
    try:
        return urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.parametrize("behind_proxy", [True, False])
def test_the_clients_address_comes_from_the_proxy_only_behind_it(monkeypatch, tmp_path,
                                                                   behind_proxy):
    """Behind the documented nginx (``--use-xheaders``) each student is an address of their
    own for the limits per address; without it, the header is not believed (a client could
    name any address), and every request here is 127.0.0.1's."""
    url, _, server = serve_here(monkeypatch, tmp_path,
                                **({"use_xheaders": True} if behind_proxy else {}))
    try:
        monkeypatch.setenv("DICELAB_PAGE_RATE", "2")  # (for addresses met from now on)
        tag = "1" if behind_proxy else "2"
        first = [status(url, f"10.{tag}.0.1") for _ in range(3)]
        other = status(url, f"10.{tag}.0.2")
        if behind_proxy:
            assert (first, other) == ([200, 200, 429], 200)
        else:  # 127.0.0.1's bucket was made at 120 a minute: nothing refused
            assert (first, other) == ([200, 200, 200], 200)
    finally:
        server.stop()
