"""The page's keys and theme: one hidden component per page."""
from __future__ import annotations

import param
from panel.custom import JSComponent

from .session import Unbusy


class KeyBridge(Unbusy, JSComponent):
    """Sends ".", "0", "1".."5", Enter to Python (never while typing in a field) and the
    browser's light/dark preference."""

    _esm = """
export function render({ model, el }) {
  const typing = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], ' +
    '[role="textbox"], [role="combobox"], [role="listbox"], [role="slider"], [role="spinbutton"]';
  const keys = new Set([".", ",", "0", "1", "2", "3", "4", "5", "Enter"]);
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || !keys.has(e.key)) return;
    const t = e.composedPath()[0];
    if (t && t.closest && t.closest(typing)) return;
    if (e.key === "Enter" && t && t.closest && t.closest("button, a, [role=button]")) return;
    e.preventDefault();
    model.send_msg({key: e.key});
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
            self._on_key(str(msg["key"]))
