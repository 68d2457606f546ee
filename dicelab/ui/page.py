"""The app's page: a header row, the screen, a settings drawer and a dialog, in Panel's own
layouts (what panel-material-ui's Page was, at a fraction of a session's cost): dark mode is one
class on the page's root, whose custom properties (look.PALETTE) every component inherits."""
from __future__ import annotations

import panel as pn
import param

from ..i18n import _
from .look import PALETTE, button

PAGE_CSS = PALETTE + """
:host { display: flex; flex-direction: column; min-height: 100vh; width: 100%;
  background: var(--dl-bg); color: var(--dl-text); font-family: system-ui, sans-serif; }
"""

TITLE_CSS = """
.title { font: 500 1.25rem system-ui, sans-serif; white-space: nowrap; color: #fff; }
@media (max-width: 599.95px) { :host { display: none !important; } }
"""

HEADER_CSS = """
:host { position: sticky; top: 0; z-index: 900; background: var(--dl-header, #1565c0);
  color: #fff; box-shadow: 0 2px 4px rgba(0,0,0,.25); padding: 8px 12px; gap: 6px;
  box-sizing: border-box; align-items: center; min-height: 52px; flex-wrap: nowrap; }
@media (max-width: 599.95px) { :host { padding: 6px 4px; gap: 3px; min-height: 44px; }
  .dl-teach, .dl-board { display: none !important; } }  /* one row: taught, analysed larger */
"""

# a phone's header keeps one row: its language menu is the settings drawer's
HEAD_MENU_CSS = """
.bk-input-group > label { color: rgba(255,255,255,.9); }
select.bk-input { background: transparent; color: #fff; border-color: rgba(255,255,255,.8);
  min-height: 30px; }
select.bk-input option { color: #000; background: #fff; }
@media (max-width: 599.95px) { :host { display: none !important; } }
"""

DRAWER_CSS = """
:host { position: fixed; top: 0; right: 0; height: 100vh !important; width: min(340px, 100vw);
  z-index: 1000;
  overflow-y: auto; background: var(--dl-paper); color: var(--dl-text);
  box-shadow: -2px 0 8px rgba(0,0,0,.35); box-sizing: border-box; padding: 6px 4px; }
"""

DIALOG_CSS = """
:host { position: fixed !important; inset: 0; width: 100vw !important; height: 100vh !important;
  z-index: 1100; background: rgba(0,0,0,.5); align-items: center;
  justify-content: center; padding: 16px; box-sizing: border-box; }
"""
DIALOG_TEXT = """
h2 { margin: 4px 0 8px; font: 500 1.25rem system-ui, sans-serif; }
.rules { line-height: 1.5; } .rules ul { padding-left: 1.2em; }
"""
DIALOG_BOX_CSS = """
:host { background: var(--dl-paper); color: var(--dl-text); border-radius: 8px;
  box-shadow: 0 8px 24px rgba(0,0,0,.45); max-width: 900px; width: 100%; max-height: 90vh;
  overflow-y: auto; padding: 10px 16px; box-sizing: border-box; }
"""


class Dialog(pn.viewable.Viewer):
    """A modal box with a title, a text and a Close button (Escape closes it too: the app)."""

    open = param.Boolean(default=False)
    title = param.String(default="")
    text = param.String(default="")

    def __init__(self, **params):
        super().__init__(**params)
        self._close = button(_("Close"), "text", lambda e: setattr(self, "open", False),
                             align="end")
        self._body = pn.pane.HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[DIALOG_TEXT])
        self._layout = pn.Column(
            pn.Column(self._body, self._close, stylesheets=[DIALOG_BOX_CSS],
                      sizing_mode="stretch_width", margin=0),
            visible=self.open, stylesheets=[DIALOG_CSS], css_classes=["dl-dialog"])

    def _html(self) -> str:
        from markdown_it import MarkdownIt  # Panel's own Markdown renderer

        text = MarkdownIt("commonmark", {"html": False}).render(self.text)  # html escaped
        return (f"<div role='dialog' aria-modal='true' aria-labelledby='dl-dialog-title'>"
                f"<h2 id='dl-dialog-title'>{pn.util.escape(self.title)}</h2>"
                f"<div class='rules'>{text}</div></div>")

    @param.depends("title", "text", watch=True)
    def _redraw(self):
        self._body.object = self._html()

    @param.depends("open", watch=True)
    def _shown(self):
        self._layout.visible = self.open

    def relabel(self):
        self._close.label = _("Close")

    def __panel__(self):
        return self._layout


class Page(pn.viewable.Viewer):
    """A header (title, ``buttons``), the main column, a drawer opened on demand and a theme
    button; ``dark`` switches the palette."""

    dark = param.Boolean(default=False)
    drawer_open = param.Boolean(default=False)

    def __init__(self, title: str, buttons: list, main: list, **params):
        super().__init__(**params)
        self._theme_btn = button(self._theme_label(), "outlined", light=True, size="small",
                                 on_click=lambda e: setattr(self, "dark", not self.dark),
                                 margin=0, css_classes=["dl-head"])
        self.header = pn.Row(
            pn.pane.HTML(f"<span class='title'>{pn.util.escape(title)}</span>", margin=0,
                         stylesheets=[TITLE_CSS], styles={"margin-right": "auto"}),
            *buttons, self._theme_btn, css_classes=["header"], stylesheets=[HEADER_CSS],
            sizing_mode="stretch_width", margin=0)
        self.main = pn.Column(*main, css_classes=["main-content"], sizing_mode="stretch_width",
                              margin=0, styles={"min-width": "0"})
        self._close = button(_("Close"), "text", lambda e: setattr(self, "drawer_open", False),
                             align="end")
        self.drawer = pn.Column(self._close, visible=False, css_classes=["dl-drawer"],
                                stylesheets=[DRAWER_CSS], margin=0)
        self.root = pn.Column(self.header, self.main, self.drawer, css_classes=["dl-page"],
                              stylesheets=[PAGE_CSS], sizing_mode="stretch_width", margin=0)

    def _theme_label(self) -> str:
        return "☀" if self.dark else "☾"

    def fill_drawer(self, *objects):
        self.drawer.objects = [self._close, *objects]

    @param.depends("drawer_open", watch=True)
    def _drawer(self):
        self.drawer.visible = self.drawer_open

    @param.depends("dark", watch=True)
    def _theme(self):
        self.root.css_classes = ["dl-page", "dl-dark"] if self.dark else ["dl-page"]
        self._theme_btn.label = self._theme_label()

    def relabel(self):
        self._close.label = _("Close")

    def __panel__(self):
        return self.root

