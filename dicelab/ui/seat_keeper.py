"""This browser's seat tokens in its own storage, so a reload gets the seat back; the token,
never the name, is what lets a browser act."""
from __future__ import annotations

import param
from panel.custom import JSComponent


class SeatKeeper(JSComponent):
    """Keeps this browser's seat tokens (room key -> token) in localStorage, and the open
    room in the address bar (``?room=``) so a reload comes back to it."""

    tokens = param.Dict(default=None, allow_None=True, doc="The browser's tokens, once read.")
    player = param.String(default="", doc="The name this browser last played under.")

    _esm = """
export function render({ model, el }) {
  const KEY = "dicelab.seats";
  const read = () => {
    try { const t = JSON.parse(localStorage.getItem(KEY) || "{}");
          return t && typeof t === "object" ? t : {}; }
    catch (e) { return {}; }
  };
  try { model.player = (localStorage.getItem("dicelab.name") || "").slice(0, 40); } catch (e) {}
  model.tokens = read();
  model.on("msg:custom", (msg) => {
    if (typeof msg.name === "string") {
      try { localStorage.setItem("dicelab.name", msg.name); } catch (e) {}
      return;
    }
    const t = read();
    if (msg.set) t[msg.set] = msg.token;
    if (msg.drop) delete t[msg.drop];
    try { localStorage.setItem(KEY, JSON.stringify(t)); } catch (e) {}
    if (msg.query) {
      const u = new URL(window.location.href);
      for (const [k, v] of Object.entries(msg.query)) {
        if (v) u.searchParams.set(k, v); else u.searchParams.delete(k);
      }
      window.history.replaceState(null, "", u);
    }
    if ("room" in msg) {
      const u = new URL(window.location.href);
      if (msg.room) u.searchParams.set("room", msg.room); else u.searchParams.delete("room");
      window.history.replaceState(null, "", u);
    }
  });
  el.style.display = "none";
}
"""

    def token(self, key: str) -> str | None:
        t = (self.tokens or {}).get(key)
        return t if isinstance(t, str) and 0 < len(t) <= 200 else None

    def keep(self, key: str, token: str) -> None:
        self.tokens = {**(self.tokens or {}), key: token}
        self._send_msg({"set": key, "token": token})

    def drop(self, key: str) -> None:
        self.tokens = {k: v for k, v in (self.tokens or {}).items() if k != key}
        self._send_msg({"drop": key})

    def remember(self, player: str) -> None:
        """Fill in this name next time."""
        self.player = player
        self._send_msg({"name": player})

    def show_room(self, name: str | None) -> None:
        self._send_msg({"room": name or ""})

    def show_query(self, **values: str) -> None:
        """Put these values in the address bar (an empty one goes), for a reload."""
        self._send_msg({"query": values})
