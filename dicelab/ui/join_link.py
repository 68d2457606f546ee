"""A room's address as a whole link, with a copy button."""
from __future__ import annotations

import param
from panel.custom import JSComponent

from ..i18n import _


def join_words() -> dict:
    """The link's words in the page's language (the browser writes them)."""
    return {"label": _("Link to join:") + " ", "aria": _("Link to join this game"),
            "copy": _("Copy link"), "copied": " " + _("copied"),
            "failed": " " + _("select it and copy")}


class JoinLink(JSComponent):
    """The room's address as a whole link (this page's origin + ?room=...), with a copy button:
    only the browser knows the address it was reached at."""

    room = param.String(default="")
    words = param.Dict(default={}, doc="label, aria, copy, copied, failed (join_words())")

    _esm = """
export function render({ model, el }) {
  const url = () => {
    const u = new URL(window.location.href);
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
  const show = () => { input.value = url(); };
  button.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); said.textContent = w.copied || ""; }
    catch (e) {  // not a secure context (a classroom's http address): the old way
      said.textContent = document.execCommand("copy") ? (w.copied || "") : (w.failed || "");
    }
  });
  label.appendChild(input);
  wrap.append(label, button, said);
  el.appendChild(wrap);
  show();
  model.on("room", show);
}
"""
    _stylesheets = ["""
.join { font: .95rem system-ui, sans-serif; display: flex; flex-wrap: wrap; gap: 6px;
  align-items: center; }
.join input { font: .95rem ui-monospace, monospace; width: min(34em, 80vw); padding: 4px 6px; }
.join button { font: 600 .95rem system-ui, sans-serif; padding: 5px 12px; cursor: pointer; }
"""]
