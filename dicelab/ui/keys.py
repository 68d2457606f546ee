"""What a page sends to act: its keys and theme (KeyBridge, one hidden component per page), and
its table's Roll/Stand clicks with the mark the page showed (ActionBridge, one per table).

Every action a page sends carries the mark (``Play.mark``: the game's log length) the page
showed when it was sent; Python drops an action whose mark is not the game's now (a double click,
a retried or replayed message). Bokeh's button click carries nothing, so ActionBridge takes the
clicks on the elements of its table tagged ``dl-act-<action>`` (any widget library's: the tag is
a CSS class of the widget's element) before the widget does, and sends them with the mark; keys
send the mark of the page's table (``data-dl-seen`` on the page's root element); the dice tray and
the score card send the mark of what they drew."""
from __future__ import annotations

import param
from panel.custom import JSComponent

from .session import Unbusy


class KeyBridge(Unbusy, JSComponent):
    """Sends ".", "0", "1".."5", Enter to Python (never while typing in a field), Escape, and the
    browser's light/dark preference."""

    _esm = """
export function render({ model, el }) {
  const typing = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], ' +
    '[role="textbox"], [role="combobox"], [role="listbox"], [role="slider"], [role="spinbutton"]';
  const keys = new Set([".", ",", "0", "1", "2", "3", "4", "5", "Enter"]);
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (e.key === "Escape") {  // closes the drawer or the dialog, from anywhere
      model.send_msg({key: "Escape", seen: ""});
      return;
    }
    if (!keys.has(e.key)) return;
    const t = e.composedPath()[0];
    if (t && t.closest && t.closest(typing)) return;
    if (e.key === "Enter" && t && t.closest && t.closest("button, a, [role=button]")) return;
    e.preventDefault();
    model.send_msg({key: e.key, seen: document.documentElement.dataset.dlSeen || ""});
  };
  document.addEventListener("keydown", onKey);
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  const theme = () => { model.prefers_dark = mq.matches; };
  mq.addEventListener("change", theme);
  theme();
  model.on("remove", () => {
    document.removeEventListener("keydown", onKey);
    mq.removeEventListener("change", theme);
  });
  el.style.display = "none";
}
"""

    prefers_dark = param.Boolean(default=None, allow_None=True)

    def __init__(self, on_key=None, on_dark=None, **params):
        super().__init__(**params)
        self._on_key, self._on_dark = on_key, on_dark

    @param.depends("prefers_dark", watch=True)
    def _dark_changed(self):
        if self._on_dark and self.prefers_dark is not None:
            self._on_dark(bool(self.prefers_dark))

    def _handle_msg(self, msg):
        if isinstance(msg, dict) and "key" in msg and self._on_key:
            self._on_key(str(msg["key"])[:20], seen_in(msg))


def seen_in(msg: dict) -> str:
    """The mark a page's message says it showed ("" if none: never the game's)."""
    seen = msg.get("seen")
    return seen[:40] if isinstance(seen, str) else ""


class ActionBridge(Unbusy, JSComponent):
    """Hidden, beside a table's buttons: a click on an element of the table tagged
    ``dl-act-roll`` or ``dl-act-stand`` is sent as ``{act, seen}``, ``seen`` being the ``shown``
    mark the page has shown. ``shown`` is "<mark> <ms>": after a roll the page has shown the
    new mark only once the dice stopped rolling (``ms``, the roll animation)."""

    _esm = """
export function render({ model, el }) {
  el.style.display = "none";
  // the shadow root this component's element shares with its table's buttons
  const host = el.getRootNode().host;
  const scope = host ? host.getRootNode() : null;
  let seen = null;
  let timer = null;
  const take = () => {
    const [mark, ms] = (model.shown || "").split(" ");
    const set = () => { seen = mark; document.documentElement.dataset.dlSeen = mark; };
    clearTimeout(timer);
    if (seen !== null && Number(ms) > 0) timer = setTimeout(set, Number(ms)); else set();
  };
  const onClick = (e) => {
    const path = e.composedPath();
    if (!scope || !path.includes(scope)) return;  // another table's, or none
    for (const n of path) {
      const tag = n.classList ? [...n.classList].find((c) => c.startsWith("dl-act-")) : null;
      if (tag) {
        e.stopPropagation();  // the widget's own click (which carries no mark) is not sent
        e.preventDefault();
        model.send_msg({act: tag.slice(7), seen: seen || ""});
        return;
      }
    }
  };
  document.addEventListener("click", onClick, true);
  model.on("shown", take);
  take();
  model.on("remove", () => {
    clearTimeout(timer);
    document.removeEventListener("click", onClick, true);
  });
}
"""

    shown = param.String(default="")

    def __init__(self, on_act=None, **params):
        super().__init__(**params)
        self._on_act = on_act

    def _handle_msg(self, msg):
        if isinstance(msg, dict) and msg.get("act") in ("roll", "stand") and self._on_act:
            self._on_act(msg["act"], seen_in(msg))
