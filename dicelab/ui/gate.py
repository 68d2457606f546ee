"""What a page request costs a shared server (issue 33): a plain GET of the app's page is
answered from one page made once per process, and the session itself is made only when the
page's websocket arrives.

Panel builds a session for every GET of the page, the whole app on the event loop (about
0.6 s of CPU), and keeps it until it expires: a ``curl`` loop, a crawler or a link preview
stalled every room and took memory by the hundred megabytes. The page Bokeh sends is only a
shell (the document itself goes over the websocket, and the browser matches roots by their
order), so one session's page serves every request: Panel's ``reuse_sessions`` makes a fresh
session token per request and lets Bokeh's websocket handler build that session when the page
connects. Panel still renders the page anew each time (its resources walk every component
class: about 0.1 s), so the rendered page is kept too and only its token changed."""
from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import threading
import time
import weakref

from .. import config
from . import descriptors
from ..i18n import _

log = logging.getLogger(__name__)

_lock = threading.Lock()
_done = False


def page_key(request) -> str:
    """Every request of a path shares one page: the app's content does not depend on the
    request until its session is made (from the request's own arguments and headers)."""
    return request.path


def cheap_page_requests() -> None:
    """Once per process, before or while the first session is made (idempotent)."""
    global _done
    with _lock:
        if _done:
            return
        _done = True
    import panel as pn
    from panel.io import server as pserver

    # global values, not this session's (Panel keeps a setting made inside a session apart)
    setter = super(type(pn.config), pn.config).__setattr__
    setter("reuse_sessions", True)
    setter("session_key_func", page_key)
    pserver.server_html_page_for_session = _kept_pages(pserver.server_html_page_for_session)
    pserver.DocHandler.get = _rate_limited_get(pserver.DocHandler.get)
    pserver.WSHandler.on_message = _message_limited(pserver.WSHandler.on_message)
    _quiet_repeats()
    descriptors.more_file_descriptors()
    descriptors.pause_accepts_when_out()


def _kept_pages(render):
    """``render`` (Panel's page for a session), made once per reused session; each request
    gets the page with its own token."""
    kept: dict = {}  # id(session) -> (session, token, page)

    def page(session, resources, title, token=None, **kw):
        token = token or session.token
        hit = kept.get(id(session))
        if hit is None or hit[0] is not session:
            html = render(session, resources, title, token=token, **kw)
            if token not in html:  # nothing to swap safely: render every time
                return html
            kept.clear()  # one reused session per path: this app has one
            kept[id(session)] = hit = (session, token, html)
        return hit[2].replace(hit[1], token)
    return page


# ----- limits per client address and per page (issue 33, item 5) -----------------------------
class Bucket:
    """A token bucket: ``burst`` at once, then ``rate`` a second."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class PerAddress:
    """One bucket per client address (``DICELAB_PAGE_RATE`` a minute, as many at once); the
    table forgets addresses whose bucket is full again."""

    def __init__(self, per_minute_var: str = "DICELAB_PAGE_RATE") -> None:
        self.var = per_minute_var
        self.buckets: dict[str, Bucket] = {}

    def allow(self, address: str) -> bool:
        per_minute = config.value(self.var)
        b = self.buckets.get(address)
        if b is None:
            if len(self.buckets) > 10_000:  # forget the full ones
                self.buckets = {a: x for a, x in self.buckets.items()
                                if x.tokens + (time.monotonic() - x.at) * x.rate < x.burst}
            b = self.buckets[address] = Bucket(per_minute / 60.0, per_minute)
        return b.take()


class Tally:
    """Things dropped or refused, logged once a minute with their count (not one line each)."""

    def __init__(self, what: str) -> None:
        self.what, self.count, self.total, self._since = what, 0, 0, None

    def add(self) -> None:
        self.count += 1
        self.total += 1
        now = time.monotonic()
        if self._since is None:
            self._since = now
            log.warning("%s (counted; logged once a minute)", self.what)  # i18n: not shown
        elif now - self._since >= 60:
            log.warning("%s: %d in the last %.0f s", self.what, self.count, now - self._since)
            self.count, self._since = 0, now


page_requests = PerAddress()
session_opens = PerAddress()
refused_requests = Tally("page requests over DICELAB_PAGE_RATE refused")  # i18n: not shown
dropped_messages = Tally("websocket messages over DICELAB_MESSAGE_RATE dropped")  # i18n: not shown
refused_sessions = Tally("pages refused: too many open, or opened too fast")  # i18n: not shown
_waiting = [0]  # refused requests held back now (each holds a socket)


def _rate_limited_get(get):
    """Panel's page handler, with page requests rate-limited per client address: one over
    the limit waits a second (so a loop of them makes one a second) and gets a short 429."""
    async def limited(self, *args, **kw):
        address = self.request.remote_ip or ""
        if page_requests.allow(address):
            return await get(self, *args, **kw)
        refused_requests.add()
        if _waiting[0] < 200:
            _waiting[0] += 1
            try:
                await asyncio.sleep(1.0)
            finally:
                _waiting[0] -= 1
        self.set_status(429)
        self.set_header("Retry-After", "60")  # i18n: not shown
        self.set_header("Content-Type", "text/plain; charset=utf-8")  # i18n: not shown
        self.finish(_("Too many page requests from your address: wait a minute and reload."))
    return limited


def _message_limited(on_message):
    """A page's websocket messages, at most ``DICELAB_MESSAGE_RATE`` a second (twice as many
    at once): one over it is dropped whole (its header says how many fragments follow) before
    Bokeh reads it, and counted. Once the server closes a page's websocket (Bokeh does at its
    first malformed message) nothing more it sent is read: Bokeh handled, and logged, every
    message already received (1,000 malformed messages wrote 1,001 tracebacks)."""
    async def limited(self, fragment):
        ws = getattr(self, "ws_connection", None)
        if ws is None or ws.is_closing():
            return None
        st = self.__dict__.get("_dicelab_limit")
        if st is None:
            rate = config.value("DICELAB_MESSAGE_RATE")
            st = self.__dict__["_dicelab_limit"] = [Bucket(rate, 2 * rate), 0]
        if st[1]:  # the rest of a dropped message
            st[1] -= 1
            return None
        receiver = getattr(self, "receiver", None)
        starts = receiver is not None and receiver._current_consumer == receiver._HEADER
        if starts and not st[0].take():
            buffers = _buffers(fragment)
            if buffers is not None:
                st[1] = 2 + 2 * buffers
                dropped_messages.add()
                return None
        return await on_message(self, fragment)
    return limited


def _buffers(header) -> int | None:
    """How many buffers a message's header announces; None when it is not a header."""
    try:
        n = json.loads(header).get("num_buffers", 0)
    except (ValueError, TypeError, AttributeError):
        return None
    return n if isinstance(n, int) and 0 <= n < 1000 else None


class _OncePerMinute(logging.Filter):
    """The same log line (by its logger and format) at most once a minute, then how many
    were left out: 1,000 malformed protocol messages wrote 1,001 tracebacks."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple, list] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:80])
        now = time.monotonic()
        hit = self.seen.get(key)
        if hit is None or now - hit[0] >= 60:
            if hit is not None and hit[1]:
                record.msg = (  # i18n: not shown
                    f"{record.msg} [{hit[1]} more like it in the last minute]")
            if len(self.seen) > 1000:
                self.seen.clear()
            self.seen[key] = [now, 0]
            return True
        hit[1] += 1
        return False


def _quiet_repeats() -> None:
    f = _OncePerMinute()
    for name in ("bokeh.server.views.ws", "bokeh.server.protocol_handler", "asyncio",
                 "tornado.application", "tornado.general", "tornado.access"):
        logging.getLogger(name).addFilter(f)


# ----- open sessions --------------------------------------------------------------------------
_open: dict[str, set] = {}  # address -> ids of its open sessions


def session_address(doc) -> str:
    request = getattr(getattr(doc, "session_context", None), "request", None)
    return getattr(request, "remote_ip", None) or ""


def local_styles(doc) -> None:
    """A session built when its websocket connects never had Panel render its page, which is
    where Panel tells the document to take its stylesheets from this server (``dist_url``);
    without it every component links Panel's CSS from the CDN (a page offline breaks)."""
    from panel.io.resources import LOCAL_DIST
    from panel.io.state import set_curdoc, state

    if "dist_url" not in doc._template_variables:
        with set_curdoc(doc):
            rel = state.rel_path
        doc._template_variables["dist_url"] = f"{rel}/{LOCAL_DIST}" if rel else LOCAL_DIST


def session_opened(doc, has_loaded):
    """For a served session (``doc``; None in a notebook): None when admitted (it is then
    closed unless ``has_loaded(session id)`` within ``DICELAB_LOAD_TIMEOUT``), else a cheap
    page saying why it is refused."""
    import panel as pn

    if doc is None:
        return None
    local_styles(doc)
    descriptors.listening_sockets_pause()
    why = admit(doc)
    if why is not None:
        return pn.pane.HTML(f"<p>{pn.util.escape(why)}</p>", margin=20,
                            styles={"font-size": "1.15rem"})
    pn.state.on_session_destroyed(closed)
    sid = doc.session_context.id
    close_unless_loaded(doc, lambda: has_loaded(sid))
    return None


def admit(doc) -> str | None:
    """For a session being made: None when it may open (it is then counted until it is
    destroyed), else why not (shown on its page)."""
    address, sid = session_address(doc), doc.session_context.id
    mine = _open.get(address, set())
    if sum(len(s) for s in _open.values()) >= config.value("DICELAB_SESSIONS_MAX"):
        why = _("The server has as many pages open as it can take: try again in a few "
                "minutes.")
    elif len(mine) >= config.value("DICELAB_SESSIONS_PER_ADDRESS"):
        why = _("Too many pages are open from your address: close some and reload.")
    elif not session_opens.allow(address):
        why = _("Too many pages opened from your address: wait a minute and reload.")
    else:
        _open.setdefault(address, set()).add(sid)
        return None
    refused_sessions.add()
    return why


def closed(doc_or_context) -> None:
    """A session admitted by ``admit`` has been destroyed."""
    context = getattr(doc_or_context, "session_context", doc_or_context)
    sid = getattr(context, "id", None)
    for address, ids in list(_open.items()):
        if sid in ids:
            ids.discard(sid)
            if not ids:
                del _open[address]


def close_unless_loaded(doc, loaded) -> None:
    """In ``DICELAB_LOAD_TIMEOUT`` seconds, close this session's websockets if ``loaded()``
    is still false: a page that never finishes loading must not hold its session. The timer
    holds the document weakly, and runs outside the session's context (whose curdoc is the
    document): either kept every session closed meanwhile (and its whole app, about 3 MB)
    alive until the timer ran."""
    ref = weakref.ref(doc)
    del doc

    def check():
        doc = ref()
        if doc is None or loaded():
            return
        session = getattr(doc.session_context, "_session", None)
        for connection in list(getattr(session, "_subscribed_connections", None) or ()):
            try:
                connection._socket.close(1000, "the page did not finish loading")  # i18n: not shown
            except Exception:  # closed meanwhile
                pass
    try:
        # in an empty context: the session's (its curdoc) would hold the document too
        asyncio.get_running_loop().call_later(config.value("DICELAB_LOAD_TIMEOUT"), check,
                                              context=contextvars.Context())
    except RuntimeError:  # no event loop: not served
        pass
