"""A room's address as a whole link, with a copy button.

The link must be one the students' browsers can open: the page's own address, unless that is
this computer's loopback name (``localhost``), which no other machine reaches. Then the link
uses DICELAB_JOIN_URL (``dicelab serve --origin`` sets it), else this machine's network
address when the server answers there, else it stays local and the page says so."""
from __future__ import annotations

import functools
import ipaddress
import os
import socket

import panel as pn
import param
from panel.custom import JSComponent

from .. import config
from ..i18n import _


def join_words() -> dict:
    """The link's words in the page's language (the browser writes them)."""
    return {"label": _("Link to join:") + " ", "aria": _("Link to join this game"),
            "copy": _("Copy link"), "copied": " " + _("copied"),
            "failed": " " + _("select it and copy"),
            "local": _("Only this computer can open this link. To let others join, serve with "
                       "--address 0.0.0.0 (or --origin with the address they reach).")}


def is_loopback(host: str) -> bool:
    """``host`` (a name or an address, without port) is this computer's own loopback."""
    host = host.strip("[]").lower()
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def split_host(host: str) -> tuple[str, int | None]:
    """``"name:port"``, ``"[::1]:5006"`` or ``"name"`` as (name, port or None)."""
    name, port = host, None
    if host.startswith("["):
        name, _sep, rest = host[1:].partition("]")
        rest = rest.lstrip(":")
        port = int(rest) if rest.isdigit() else None
    elif host.count(":") == 1:
        name, _sep, rest = host.partition(":")
        port = int(rest) if rest.isdigit() else None
    return name, port


def network_address() -> str | None:
    """This machine's address on its network (the one a route out would use); no packet is
    sent (a UDP socket's connect only picks the route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(ip).is_loopback else ip


@functools.lru_cache(maxsize=8)
def _answers(ip: str, port: int) -> bool:
    """The server listens on ``ip:port`` (it was served on every network, not only here)."""
    try:
        with socket.create_connection((ip, port), timeout=0.2):
            return True
    except OSError:
        return False


def join_base(host: str | None = None) -> str:
    """The address (scheme://host:port) links to this server should use, for a page reached
    at ``host`` (its Host header; default: this session's); "" means the page's own address,
    or nothing better: the link stays local (see ``join_words()["local"]``)."""
    configured = config.value("DICELAB_JOIN_URL").rstrip("/")
    if configured:
        return configured if "://" in configured else f"http://{configured}"
    if host is None:
        host = _session_host()
    name, port = split_host(host or "")
    if not name or not is_loopback(name) or port is None:
        return ""
    ip = network_address()
    if ip is None or not _answers(ip, port):
        return ""
    return f"http://{ip}:{port}"


def served_at(origins) -> None:
    """``dicelab serve --origin A``: A is where students reach this server, so the rooms'
    links use it (unless DICELAB_JOIN_URL says otherwise)."""
    if origins and not os.environ.get("DICELAB_JOIN_URL"):
        os.environ["DICELAB_JOIN_URL"] = origins[0]


def _session_host() -> str:
    try:
        return pn.state.curdoc.session_context.request.headers.get("Host", "")
    except AttributeError:  # not served (a notebook, a test)
        return ""


class JoinLink(JSComponent):
    """The room's address as a whole link (this page's origin + ?room=...), with a copy button:
    only the browser knows the address it was reached at."""

    room = param.String(default="")
    base = param.String(default="", doc="scheme://host:port the link uses instead of a "
                        "loopback page address (join_base())")
    words = param.Dict(default={}, doc="label, aria, copy, copied, failed (join_words())")

    _esm = """
export function render({ model, el }) {
  const local = () => {
    const h = window.location.hostname.replace("[", "").replace("]", "").toLowerCase();
    return h === "localhost" || h.endsWith(".localhost") || h.startsWith("127.") || h === "::1";
  };
  const url = () => {
    const u = new URL(window.location.href);
    if (model.base && local()) {
      const b = new URL(model.base);
      u.protocol = b.protocol;
      u.host = b.host;
    }
    u.search = "";
    u.hash = "";
    u.searchParams.set("room", model.room);
    return u.toString();
  };
  const wrap = document.createElement("div");
  wrap.className = "join";
  const label = document.createElement("label");
  const w = model.words || {};
  label.textContent = w.label || "";
  const input = document.createElement("input");
  input.readOnly = true;
  input.setAttribute("aria-label", w.aria || "");
  input.setAttribute("data-testid", "join-link");
  const button = document.createElement("button");
  button.textContent = w.copy || "";
  const said = document.createElement("span");
  said.setAttribute("role", "status");
  const note = document.createElement("p");
  note.className = "local";
  const show = () => {
    input.value = url();
    note.textContent = (local() && !model.base) ? (w.local || "") : "";
  };
  button.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); said.textContent = w.copied || ""; }
    catch (e) {  // not a secure context (a classroom's http address): the old way
      said.textContent = document.execCommand("copy") ? (w.copied || "") : (w.failed || "");
    }
  });
  label.appendChild(input);
  wrap.append(label, button, said, note);
  el.appendChild(wrap);
  show();
  model.on("room", show);
  model.on("base", show);
}
"""
    _stylesheets = ["""
.join { font: .95rem system-ui, sans-serif; display: flex; flex-wrap: wrap; gap: 6px;
  align-items: center; }
.join input { font: .95rem ui-monospace, monospace; width: min(34em, 80vw); padding: 4px 6px; }
.join .local { flex-basis: 100%; margin: 2px 0 0; font-size: .85rem; }
.join .local:empty { display: none; }
.join button { font: 600 .95rem system-ui, sans-serif; padding: 5px 12px; cursor: pointer; }
"""]
