"""Roll / Roll again / Stand, enabled only when legal."""
from __future__ import annotations

import panel as pn

from ..i18n import _, p_
from .keys import ActionBridge
from .notebook import FixedDesign
from .session import Unbusy, set_changed
from .view import TableView, follows


class Button(Unbusy, FixedDesign, pn.widgets.Button):
    """Bokeh's button; a new label or ``disabled`` is sent alone."""

    def _sync__name(self, event):
        # Panel keeps the deprecated ``name`` equal to ``label`` (by lifting the read-only
        # flags of every parameter, then a second round of watchers): more than half of a new
        # label's cost, on every page of a room at every action. ``name`` is not shown and
        # this app never reads it: a new label is sent alone.
        pass


CONTROLS_CSS = """
.bk-btn { font: 600 1.15rem system-ui, sans-serif; padding: 10px 22px; border-radius: 6px;
  min-width: 160px; min-height: 48px; }
.bk-btn-primary { background: #1565c0; border-color: #0d47a1; color: #fff; }
.bk-btn-success { background: #2e7d32; border-color: #1b5e20; color: #fff; }
.bk-btn:disabled, .bk-btn[disabled] { opacity: .45; }
"""


class Controls(TableView):
    """Roll / Roll again / Stand, enabled only when legal.

    Bokeh's own buttons, not Material UI's: their ``disabled`` changes in the same update as the
    banner, while a React button re-rendered 0.1-0.4 s later (about a second on a phone), so
    "YOUR TURN" showed above a Roll button that still looked and acted disabled."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        # the page's clicks come through the bridge, with the mark the page showed; on_click
        # only where no bridge is drawn (a page without JavaScript modules)
        self._roll = Button(label=p_("verb", "Roll"), color="primary",
                            stylesheets=[CONTROLS_CSS], margin=(4, 12, 4, 0),
                            css_classes=["dl-act-roll"])
        self._roll.on_click(lambda e: self.play.roll())
        self._stand = Button(label=_("Stand (0)"), color="success",
                             stylesheets=[CONTROLS_CSS], margin=(4, 12, 4, 0),
                             visible=self.play.ui.has_stand, css_classes=["dl-act-stand"])
        self._stand.on_click(lambda e: self.play.stand())
        self._bridge = ActionBridge(on_act=self.play.act, margin=0, width=0, height=0)
        self._rolled = self.play.roll_id
        self._refresh()

    @follows("shown", "seats", "choice")
    def _refresh(self):
        p = self.play
        label, stand = p.ui.roll_label(p), p.ui.stand_label
        set_changed(self._roll, label=label, disabled=not p.can_roll)
        set_changed(self._stand, label=stand, disabled=not p.can_stand)
        # after a roll, the page has shown it when the dice stop rolling
        settle = p.prefs.anim_ms if p.roll_id != self._rolled else 0
        self._rolled = p.roll_id
        set_changed(self._bridge, shown=f"{p.mark()} {settle}")

    def __panel__(self):
        return pn.FlexBox(self._roll, self._stand, self._bridge, flex_wrap="wrap",
                          sizing_mode="stretch_width")

