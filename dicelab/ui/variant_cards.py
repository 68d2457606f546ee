"""The start screen's game chooser: a card per variant."""
from __future__ import annotations

import param
from panel.custom import JSComponent

from .variants import UIS

VARIANTS = tuple(UIS)


def variant_title(variant: str) -> str:
    """A variant's name as its players call it, in the page's language."""
    return UIS[variant].title


class VariantCards(JSComponent):
    """The game chooser: a card per variant with Choose and Rules buttons. One component with
    plain HTML whose colours come from the page's theme variables, so a theme switch redraws
    it at once (sixteen Material UI components re-rendered one by one, half drawn meanwhile)."""

    variant = param.String(default="bones")
    cards = param.List(default=[], doc="[{variant, title, short, summary, choose, chosen, "
                       "rules}]: the words in the page's language")

    _esm = """
export function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "vcards";
  el.appendChild(root);
  const draw = () => {
    root.replaceChildren();
    for (const c of model.cards) {
      const chosen = c.variant === model.variant;
      const card = document.createElement("div");
      card.className = "vcard" + (chosen ? " chosen" : "");
      const h = document.createElement("h3");
      h.textContent = c.title;
      const p = document.createElement("p");
      p.textContent = c.summary;
      const pick = document.createElement("button");
      pick.className = "pick";
      pick.textContent = chosen ? c.chosen : c.choose;
      pick.setAttribute("aria-pressed", chosen ? "true" : "false");
      pick.addEventListener("click", () => { model.variant = c.variant; });
      const rules = document.createElement("button");
      rules.className = "rules";
      rules.textContent = c.rules;
      rules.addEventListener("click", () => model.send_msg({rules: c.variant}));
      const row = document.createElement("div");
      row.className = "row";
      row.append(pick, rules);
      card.append(h, p, row);
      root.appendChild(card);
    }
  };
  draw();
  model.on(["cards", "variant"], draw);
}
"""
    _stylesheets = ["""
.vcards { display: flex; flex-wrap: wrap; gap: 12px; width: 100%; box-sizing: border-box; }
.vcard { flex: 1 1 240px; min-width: 0; box-sizing: border-box; padding: 12px 14px;
  border-radius: 12px; background: var(--dl-paper, #fff);
  color: var(--dl-text, #1a1a1a);
  border: 3px solid rgba(127,127,127,.3); box-shadow: 0 1px 3px rgba(0,0,0,.25); }
.vcard.chosen { border-color: #1565c0; box-shadow: 0 4px 14px rgba(0,0,0,.3); }
.vcard h3 { margin: 0 0 4px; font: 700 1.25rem system-ui, sans-serif; }
.vcard p { margin: 0 0 10px; font: .98rem/1.4 system-ui, sans-serif; min-height: 4.2em; }
.vcard .row { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
.vcard button { font: 500 .85rem system-ui, sans-serif; border-radius: 4px; padding: 5px 10px;
  cursor: pointer; letter-spacing: .02em; }
.vcard button.pick { border: 1px solid #1565c0; background: transparent;
  color: var(--dl-link, #1565c0); }
.vcard.chosen button.pick { background: #1565c0; color: #fff; }
.vcard button.rules { border: none; background: transparent; color: var(--dl-link, #1565c0); }
.vcard button:focus-visible { outline: 3px solid #ff8f00; outline-offset: 2px; }
"""]

    def __init__(self, on_rules=None, **params):
        super().__init__(**params)
        self._on_rules = on_rules

    def _handle_msg(self, msg):
        if self._on_rules and isinstance(msg, dict) and msg.get("rules") in VARIANTS:
            self._on_rules(msg["rules"])
