"""dicelab's look with Panel's own widgets: buttons, cards, fields and the page's colours.

Panel-material-ui gave the app its look but cost most of a served session (its React
components: 65% of opening a page) and 1.4 MB per notebook. These are Panel's and Bokeh's own
widgets with a stylesheet of dicelab's. The colours are custom properties set on the page's
root (``.dl-page``, ``.dl-dark``): they inherit into every component's shadow root, so one
class on the root switches the whole page to dark; a component shown alone (a notebook) falls
back to the browser's preference."""
from __future__ import annotations

import panel as pn
import param
from panel.custom import JSComponent

# the palette: light on :host of the page, dark with .dl-dark (or the browser's preference
# where no page sets it: a component in a notebook)
PALETTE = """
:host { --dl-bg: #fafafa; --dl-paper: #ffffff; --dl-text: rgba(0,0,0,.87);
  --dl-muted: rgba(0,0,0,.62); --dl-border: rgba(0,0,0,.30); --dl-primary: #1565c0;
  --dl-primary-text: #fff; --dl-button: #1565c0; --dl-surface: #eeeeee;
  --dl-error: #c62828; --dl-focus: #ff8f00; --dl-header: #1565c0;
  --dl-shadow: 0 1px 3px rgba(0,0,0,.2), 0 1px 1px rgba(0,0,0,.14);
  --dl-red: #b71c1c; --dl-green: #2e7d32; --dl-link: #1565c0; color-scheme: light; }
:host(.dl-dark) { --dl-bg: #121212; --dl-paper: #1e1e1e; --dl-text: #fff;
  --dl-muted: rgba(255,255,255,.72); --dl-border: rgba(255,255,255,.35);
  --dl-primary: #90caf9; --dl-primary-text: #0d1b2a; --dl-button: #1565c0;
  --dl-surface: #2c2c2c; --dl-error: #ff8a80; --dl-header: #1a2a3f;
  --dl-shadow: 0 1px 3px rgba(0,0,0,.6); --dl-red: #ff8a80; --dl-green: #81c784;
  --dl-link: #90caf9; color-scheme: dark; }
"""

# every widget's own stylesheet (inside its shadow root)
WIDGET_CSS = """
:host { font-family: system-ui, sans-serif; }
.bk-input-group > label, label.bk-input-group, .bk-input-group label {
  color: var(--dl-muted, inherit); font: 500 .85rem system-ui, sans-serif; }
.bk-input, select.bk-input, .bk-input-group input {
  background-color: var(--dl-paper, #fff); color: var(--dl-text, #222);
  border: 1px solid var(--dl-border, #999); border-radius: 6px; min-height: 36px;
  font: 1rem system-ui, sans-serif; }
.bk-input:focus, select.bk-input:focus { border-color: var(--dl-primary, #1565c0);
  outline: 3px solid var(--dl-focus, #ff8f00); outline-offset: 1px; }
:host(.dl-error) .bk-input { border: 2px solid var(--dl-error, #c62828); }
.bk-spin-btn { color: var(--dl-text, #222); }
.bk-btn { font: 500 .9rem system-ui, sans-serif; border-radius: 6px; padding: 6px 14px;
  min-height: 36px; cursor: pointer; letter-spacing: .02em; border: 1px solid transparent; }
.bk-btn:focus-visible { outline: 3px solid var(--dl-focus, #ff8f00); outline-offset: 2px; }
.bk-btn:disabled, .bk-btn[disabled] { opacity: .45; cursor: default; }
:host(.dl-contained) .bk-btn { background: var(--dl-primary, #1565c0) !important;
  color: var(--dl-primary-text, #fff) !important; box-shadow: var(--dl-shadow) !important; }
:host(.dl-contained) .bk-btn:hover:not(:disabled) { filter: brightness(.92) !important; }
:host(.dl-outlined) .bk-btn { background: transparent !important;
  color: var(--dl-primary, #1565c0) !important;
  border-color: var(--dl-primary, #1565c0) !important; }
:host(.dl-text) .bk-btn { background: transparent !important;
  color: var(--dl-primary, #1565c0) !important; }
:host(.dl-outlined) .bk-btn:hover:not(:disabled), :host(.dl-text) .bk-btn:hover:not(:disabled) {
  background: rgba(127,127,127,.12) !important; }
:host(.dl-red) .bk-btn { color: var(--dl-error, #c62828) !important;
  border-color: var(--dl-error, #c62828) !important; }
:host(.dl-light) .bk-btn { color: #fff !important; border-color: rgba(255,255,255,.8) !important; }
:host(.dl-small) .bk-btn { font-size: .8rem; padding: 3px 10px; min-height: 30px; }
:host(.dl-large) .bk-btn { font-size: 1.2rem; padding: 8px 22px; min-width: 220px;
  min-height: 44px; }
.bk-input-group { color: var(--dl-text, inherit); }
:host(.dl-check) label { display: flex; align-items: center; gap: 8px; cursor: pointer;
  font: .9rem system-ui, sans-serif; color: var(--dl-text, inherit); margin: 4px 10px; }
:host(.dl-check) input[type=checkbox] { width: 18px; height: 18px; margin: 0;
  accent-color: var(--dl-button, #1565c0); }
:host(.dl-switch) label { margin: 4px 10px; display: flex; align-items: center; gap: 10px;
  cursor: pointer;
  font: .95rem system-ui, sans-serif; color: var(--dl-text, inherit); }
:host(.dl-switch) input[type=checkbox] { appearance: none; width: 36px; height: 20px;
  margin: 0; border-radius: 10px; background: var(--dl-border, #999); position: relative;
  cursor: pointer; transition: background .15s; flex: none; }
:host(.dl-switch) input[type=checkbox]::before { content: ""; position: absolute; top: 2px;
  left: 2px; width: 16px; height: 16px; border-radius: 50%; background: #fff;
  box-shadow: 0 1px 2px rgba(0,0,0,.4); transition: left .15s; }
:host(.dl-switch) input[type=checkbox]:checked { background: var(--dl-button, #1565c0); }
:host(.dl-switch) input[type=checkbox]:checked::before { left: 18px; }
.knob:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--dl-focus, #ff8f00);
  outline-offset: 2px; }
input[type=checkbox]:focus-visible { outline: 3px solid var(--dl-focus, #ff8f00); }
.noUi-connect { background: var(--dl-primary, #1565c0); }
.noUi-handle:focus-visible { outline: 3px solid var(--dl-focus, #ff8f00); }
.bk-slider-title { color: var(--dl-text, inherit); }
@media (max-width: 599.95px) {
  :host(.dl-head) .bk-btn { font-size: .7rem; padding: 3px 5px; min-height: 30px;
    letter-spacing: 0; }
}
"""

CARD_CSS = """
:host { background: var(--dl-paper, #fff); color: var(--dl-text, inherit);
  border-radius: 8px; box-shadow: var(--dl-shadow, 0 1px 3px rgba(0,0,0,.2));
  padding: 8px 10px; box-sizing: border-box; }
"""

KINDS = ("contained", "outlined", "text")


def button(label: str, kind: str = "outlined", on_click=None, *, red: bool = False,
           size: str = "medium", light: bool = False, **params) -> pn.widgets.Button:
    """A Bokeh button in dicelab's look: ``kind`` contained (the screen's main action),
    outlined or text; ``red`` for removing things; ``light`` on the header's colour."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")  # i18n: not shown
    classes = [f"dl-{kind}", f"dl-{size}"] + ["dl-red"] * red + ["dl-light"] * light
    b = pn.widgets.Button(label=label, css_classes=classes + params.pop("css_classes", []),
                          stylesheets=[WIDGET_CSS], **params)
    if on_click is not None:
        b.on_click(on_click)
    return b


def styled(widget_type, **params):
    """A Panel widget of ``widget_type`` with dicelab's stylesheet."""
    return widget_type(stylesheets=[WIDGET_CSS, *params.pop("stylesheets", [])], **params)


def from_param(widget_type, parameter, **params):
    """``widget_type.from_param`` with dicelab's stylesheet (a widget made from a param stays
    linked to it)."""
    return widget_type.from_param(parameter, stylesheets=[WIDGET_CSS], **params)


def card(*objects, **params) -> pn.Column:
    """A raised card (what Material's Paper was)."""
    return pn.Column(*objects, css_classes=["dl-card"],
                     stylesheets=[CARD_CSS, *params.pop("stylesheets", [])], **params)

ACCORDION_CSS = """
:host { color: var(--dl-text, inherit); }
.accordion-header button, button { color: var(--dl-text, inherit); }
"""


# Panel's theme defines its colours on every component's own root (``:host``), so the page's
# could not reach them: this design (Panel's Native) maps them to dicelab's palette, falling
# back to Panel's own values where no dicelab page sets one (a notebook's other outputs).
PANEL_VARS = (":host{--panel-primary-color:var(--dl-button,#0072b5);"
              "--panel-on-primary-color:#fff;"
              "--panel-background-color:var(--dl-bg,#fff);"
              "--panel-on-background-color:var(--dl-text,#212529);"
              "--panel-surface-color:var(--dl-surface,#f3f3f3);"
              "--panel-on-surface-color:var(--dl-text,#1a1d21);"
              "--panel-border-color:var(--dl-border,#e0e0e0)}")


def _design():
    from panel.theme import Native
    from panel.theme.base import Inherit
    from panel.viewable import Viewable

    class DicelabDesign(Native):
        modifiers = {Viewable: {"stylesheets": [*Native.modifiers[Viewable]["stylesheets"],
                                                PANEL_VARS]}}
    assert Inherit in DicelabDesign.modifiers[Viewable]["stylesheets"]
    return DicelabDesign


DicelabDesign = _design()


def use_design() -> None:
    """dicelab's design for the components made from now on (in a served session: its own;
    a notebook's own choice of design stays)."""
    if pn.config.design is None:
        pn.config.design = DicelabDesign


use_design()


class Toggle(JSComponent):
    """A checkbox in a <label> (Bokeh's has no label element: no accessible name), drawn as a
    switch (role=switch) unless ``switch=False``; ``value`` follows the box."""

    value = param.Boolean(default=False)
    label = param.String(default="")
    switch = param.Boolean(default=True, constant=True)

    _esm = """
export function render({ model, el }) {
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  if (model.switch) box.setAttribute("role", "switch");
  const text = document.createElement("span");
  label.append(box, text);
  el.append(label);
  const sync = () => { box.checked = model.value; text.textContent = model.label; };
  box.addEventListener("change", () => { model.value = box.checked; });
  model.on(["value", "label"], sync);
  sync();
}
"""

    def __init__(self, **params):
        classes = ["dl-switch"] if params.get("switch", True) else ["dl-check"]
        params["css_classes"] = classes + params.get("css_classes", [])
        params["stylesheets"] = [WIDGET_CSS, *params.get("stylesheets", [])]
        super().__init__(**params)


def toggle_for(owner, name: str, **params) -> Toggle:
    """A Toggle kept equal to ``owner.name`` both ways."""
    t = Toggle(value=bool(getattr(owner, name)), **params)
    t.param.watch(lambda e: setattr(owner, name, e.new), "value")
    owner.param.watch(lambda e: setattr(t, "value", bool(e.new)), name)
    return t
