"""Every private internal of Panel, Bokeh and param that dicelab relies on,
in one list, with the versions it was checked against (issue 39).

The code reaches these on purpose (a websocket's socket for TCP_NODELAY, Bokeh's receiver
state to drop a flood before it is parsed, Panel's server handlers it wraps...). Nothing here is
imported by the package at run time: ``check()`` looks each one up in the installed libraries,
and tests/test_thirdparty.py fails, naming the entry, when one has moved or when an installed
version is outside ``CHECKED``. After checking the entries against a new release (run that
test), widen its range here.

Tornado and IPython are used through public calls only (``IOLoop.current``, ``call_later``;
``IPython.display``)."""
from __future__ import annotations

# i18n: developer tool (the test's messages)

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

# distribution -> (lowest, first version not checked): the entries below hold from the first up
# to, not including, the second. Checked on 2026-12-04 with panel 1.9.4, bokeh 3.9.2, param
# 2.4.2 (the versions pyproject.toml's lower bounds name).
CHECKED: dict[str, tuple[str, str]] = {
    "panel": ("1.9.0", "1.10"),
    "bokeh": ("3.9.0", "3.10"),
    "param": ("2.4.0", "2.5"),
}


@dataclass(frozen=True)
class Internal:
    """One private name: the distribution it belongs to, what it is, where dicelab uses it and
    why, and a look-up that is true while it is as dicelab expects."""

    dist: str
    name: str
    used_in: str
    why: str
    present: Callable[[], bool]


def _attr(path: str) -> Any:
    """``module.sub:Attr.chain`` -> the object."""
    mod, _, chain = path.partition(":")
    obj: Any = import_module(mod)
    for part in chain.split(".") if chain else ():
        obj = getattr(obj, part)
    return obj


def _has(path: str, name: str) -> Callable[[], bool]:
    return lambda: hasattr(_attr(path), name)


def _sets(path: str, name: str) -> Callable[[], bool]:
    """The class's own code (its methods) assigns ``self.<name>``: an instance attribute."""
    def look() -> bool:
        cls = _attr(path)
        return any(f"self.{name} =" in inspect.getsource(k) for k in cls.__mro__
                   if k.__module__.split(".")[0] == cls.__module__.split(".")[0])
    return look


def _param_private() -> bool:
    import param

    priv = param.Parameterized()._param__private
    return isinstance(priv.watchers, dict) and isinstance(priv.values, dict)



INTERNALS: tuple[Internal, ...] = (
    # param
    Internal("param", "Parameterized()._param__private.watchers / .values", "ui/table.py, "
             "ui/notebook.py", "the watchers a view set on a game, removed when it goes",
             _param_private),
    # panel
    Internal("panel", "panel.extension._loaded", "ui/notebook.py",
             "whether Panel's front end is already in this notebook",
             _has("panel:extension", "_loaded")),
    Internal("panel", "panel.io.server.server_html_page_for_session", "ui/gate.py",
             "wrapped: a page request builds no session",
             _has("panel.io.server", "server_html_page_for_session")),
    Internal("panel", "panel.io.server.DocHandler.get", "ui/gate.py",
             "wrapped: page requests limited per address", _has("panel.io.server:DocHandler",
                                                               "get")),
    Internal("panel", "panel.io.server.WSHandler.on_message", "ui/gate.py",
             "wrapped: websocket messages limited per page",
             _has("panel.io.server:WSHandler", "on_message")),
    Internal("panel", "panel.io.resources.LOCAL_DIST", "ui/gate.py",
             "Panel's local stylesheet folder for a session built from its websocket",
             _has("panel.io.resources", "LOCAL_DIST")),
    Internal("panel", "panel.config's Parameterized __setattr__ (global, not per session)",
             "ui/gate.py", "reuse_sessions and session_key_func for every session",
             lambda: callable(super(type(_attr("panel:config")),
                                    _attr("panel:config")).__setattr__)),
    # bokeh
    Internal("bokeh", "ServerConnection._socket", "ui/wire.py, ui/gate.py",
             "TCP_NODELAY on a page's websocket; closing a page that never loaded",
             _sets("bokeh.server.connection:ServerConnection", "_socket")),
    Internal("bokeh", "Protocol._messages", "ui/wire.py",
             "this session's PATCH-DOC message class", _sets("bokeh.protocol:Protocol",
                                                             "_messages")),
    Internal("bokeh", "Receiver._current_consumer / Receiver._HEADER", "ui/gate.py",
             "a flood dropped at a message's first fragment, before Bokeh parses it",
             lambda: _sets("bokeh.protocol.receiver:Receiver", "_current_consumer")()
             and hasattr(_attr("bokeh.protocol.receiver:Receiver"), "_HEADER")),
    Internal("bokeh", "DocumentModelManager._new_models", "ui/wire.py",
             "a model the browser does not have yet is sent whole",
             _sets("bokeh.document.models:DocumentModelManager", "_new_models")),
    Internal("bokeh", "Serializer._references", "ui/wire.py",
             "the lean PATCH-DOC serializer's references",
             _sets("bokeh.core.serialization:Serializer", "_references")),
    Internal("bokeh", "Document._template_variables", "ui/gate.py",
             "Panel's dist_url for a session built from its websocket",
             _sets("bokeh.document.document:Document", "_template_variables")),
    Internal("bokeh", "patch_doc.create / PatchJson / DocumentModelManager.flush_synced",
             "ui/wire.py", "the lean PATCH-DOC message, the same as Bokeh's",
             lambda: hasattr(_attr("bokeh.protocol.messages.patch_doc:patch_doc"), "create")
             and hasattr(_attr("bokeh.protocol.messages.patch_doc"), "PatchJson")
             and hasattr(_attr("bokeh.document.models:DocumentModelManager"),
                         "flush_synced")),
)


def _parts(v: str) -> tuple[int, ...]:
    """``1.10.0rc1`` -> (1, 10, 0): the release's numbers, up to a pre-release part."""
    out = []
    for p in v.split("."):
        m = re.match(r"\d+", p)
        if m is None:
            break
        out.append(int(m.group()))
        if m.end() < len(p):
            break
    return tuple(out)


def outside_checked() -> list[str]:
    """Installed versions outside ``CHECKED`` (a missing distribution is not listed)."""
    out = []
    for dist, (low, below) in CHECKED.items():
        try:
            have = version(dist)
        except PackageNotFoundError:
            continue
        if not _parts(low) <= _parts(have) < _parts(below):
            out.append(f"{dist} {have} is outside the checked {low} <= v < {below}")
    return out


def check() -> list[str]:
    """Every entry that is missing or changed, with where dicelab uses it; [] when all hold."""
    bad = []
    for e in INTERNALS:
        try:
            ok = bool(e.present())
        except Exception as exc:  # moved module, renamed class: said, not raised
            ok, why = False, f"{type(exc).__name__}: {exc}"
        else:
            why = "not found"
        if not ok:
            bad.append(f"{e.dist}: {e.name} ({why}), used in dicelab/{e.used_in} for {e.why}")
    return bad
