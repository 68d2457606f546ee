"""A list of rooms drawn in the browser from plain rows (the lobby's open games and games in
play)."""
from __future__ import annotations

import param
from panel.custom import JSComponent


LOBBY_CSS = """
.room-row { font: 1rem/1.4 system-ui, sans-serif; }
.room-row b { font-size: 1.05rem; }
.room-row .seats { opacity: .85; }
"""


class RoomList(JSComponent):
    """A list of rooms drawn in the browser from plain rows (one model for the whole list: a
    row of Panel widgets costs ~80 ms to build and send, so a lobby of many rooms was slow).
    The browser redraws only rows whose content changed; a click sends ``{act, name}``."""

    rows = param.List(default=[], doc="[{key, name, html, buttons: [{label, act, primary}]}]")

    _stylesheets = [LOBBY_CSS + """
.room-card { background: var(--dl-paper, #fff); border-radius: 4px;
  background-image: linear-gradient(rgba(255,255,255,.05), rgba(255,255,255,.05));
  box-shadow: 0 1px 3px rgba(0,0,0,.2); padding: 8px 12px; margin: 0 0 8px 0; }
.room-buttons { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.room-buttons button { font: 500 0.8125rem/1.75 system-ui, sans-serif; letter-spacing: .02857em;
  text-transform: uppercase; border-radius: 4px; padding: 4px 10px; cursor: pointer;
  border: 1px solid #1976d2; }
.room-buttons button.primary { background: #1976d2; color: #fff;
  box-shadow: 0 3px 1px -2px rgba(0,0,0,.2), 0 2px 2px 0 rgba(0,0,0,.14); }
.room-buttons button.outlined { background: transparent; color: #1976d2;
  border-color: rgba(25,118,210,.5); }
"""]

    _esm = """
export function render({ model, el }) {
  const list = document.createElement("div");
  el.appendChild(list);
  let made = new Map();  // key -> {sig, node}: rows drawn already
  const draw = () => {
    const next = new Map();
    const nodes = [];
    for (const r of model.rows) {
      const sig = JSON.stringify(r);
      let m = made.get(r.key);
      if (!m || m.sig !== sig) {
        const card = document.createElement("div");
        card.className = "room-card";
        const text = document.createElement("div");
        text.innerHTML = r.html;  // escaped on the server
        card.appendChild(text);
        const bar = document.createElement("div");
        bar.className = "room-buttons";
        for (const b of r.buttons) {
          const btn = document.createElement("button");
          btn.type = "button";
          btn.textContent = b.label;
          btn.className = b.primary ? "primary" : "outlined";
          btn.addEventListener("click", () => model.send_msg({ act: b.act, name: r.name }));
          bar.appendChild(btn);
        }
        card.appendChild(bar);
        m = { sig, node: card };
      }
      next.set(r.key, m);
      nodes.push(m.node);
    }
    made = next;
    list.replaceChildren(...nodes);
  };
  draw();
  model.on("rows", draw);
}
"""

    def __init__(self, on_act=None, **params):
        super().__init__(**params)
        self._on_act = on_act

    def _handle_msg(self, msg) -> None:
        if (isinstance(msg, dict) and msg.get("act") in ("join", "watch", "back")
                and isinstance(msg.get("name"), str) and self._on_act is not None):
            self._on_act(msg["act"], msg["name"][:200])
