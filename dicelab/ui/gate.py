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

import threading

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
