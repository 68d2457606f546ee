"""The dice tray: large SVG dice with pips drawn in the browser (tray.js) from plain data; click
(or 1-5) to hold or set aside."""
from __future__ import annotations

import json
from pathlib import Path

import param
from panel.custom import JSComponent
from panel.io.document import hold

from ..i18n import _, text
from ..names import shown_name

from .keys import seen_in
from .notebook import FixedDesign
from .session import Unbusy
from .play import Play
from .view import TableView

HERE = Path(__file__).parent


class TrayView(Unbusy, FixedDesign, JSComponent):
    """Renders the tray description built by DiceTray (one message per change).

    ``view`` is the description as JSON text: Bokeh walks every value set on a model, and
    both the old and the new one, looking for models inside (a dict of dice: some 200 steps
    per page per action, on the server and in the browser); a string is one step."""

    view = param.String(default="{}")

    _esm = (HERE / "tray.js").read_text()
    _stylesheets = [(HERE / "tray.css").read_text()]

    def __init__(self, on_toggle=None, **params):
        super().__init__(**params)
        self._on_toggle = on_toggle

    def _update_model(self, events, msg, root, model, doc, comm):
        if comm is not None or set(msg) != {"view"}:
            return super()._update_model(events, msg, root, model, doc, comm)
        # a new view alone (every action, on every page of a room): onto the data model as
        # Panel sets it (marked as the server's own change, not echoed back), without the rest
        # of Panel's path, which looks for Bokeh models in the old and new view (plain data has
        # none) and asks the component's model for a ``view`` attribute it does not have, where
        # Bokeh builds a did-you-mean list over every property before raising: about half of
        # the tray's update
        with hold(doc):
            self._set_on_model({"view": msg["view"]}, root, model.data)

    @classmethod
    def _patch_datamodel_ref(cls, props, ref):
        # Panel tags the data models under the component's with its root at every change, by
        # walking them all; the tray's data model holds text alone, tagged at its first change
        if f"__ref:{ref}" not in props.tags:
            super()._patch_datamodel_ref(props, ref)

    @property
    def shown(self) -> dict:
        """The description the tray shows now."""
        return json.loads(self.view)

    def _handle_msg(self, msg):
        if self._on_toggle and isinstance(msg, dict) and "toggle" in msg:
            try:
                pos = int(msg["toggle"])
            except (TypeError, ValueError, OverflowError):
                return
            self._on_toggle(pos, seen_in(msg))


def tray_words() -> dict:
    """The tray's own words in the page's language (the browser writes them)."""
    return {"kept": _("kept dice"), "keep": _("keep"), "none": _("none yet"),
            "dice": _("dice"), "no_roll": _("no dice rolled yet")}


def tray_json(play: Play) -> str:
    """``tray_description`` as TrayView takes it."""
    return json.dumps(tray_description(play), separators=(",", ":"))


def tray_description(play: Play) -> dict:
    """What the dice tray shows now, as plain data for TrayView."""
    g = play.game
    fresh = set(play.fresh)
    view = {"mode": g.variant, "roll_id": play.roll_id, "tick": play.tick, "mark": play.mark(),
            "anim_ms": play.prefs.anim_ms, "sound": play.prefs.sound,
            "rolled_n": play.rolled_n,
            "announce": " ".join(text(e.text) for e in play.last_events) or play.message,
            "words": tray_words()}
    last = next((e for e in reversed(g.history) if e.data.get("dice") is not None), None)
    # the app's default names ("Computer") in the page's language
    roller = (shown_name(g.seats[last.seat].name) if last is not None and last.seat is not None
              else "")
    rolled, kept = play.ui.tray(play, view, roller, last, fresh)
    view["rolled"], view["kept"] = rolled, kept
    if g.is_over:  # nothing is kept "yet" once the game is over
        view["words"]["none"] = ""
    return view


class DiceTray(TableView):
    """Large SVG dice with pips; click (or 1-5) to hold / set aside."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._view = TrayView(on_toggle=self.play.toggle, view=tray_json(self.play),
                              sizing_mode="stretch_width")
        # roll_id: the new dice at once; tick: after every other view (precedence), so the
        # tray's data-tick says the whole table is up to date
        self.play.param.watch(self._update, ["roll_id", "tick"], precedence=10)
        self.play.prefs.param.watch(self._update, ["sound", "anim_ms"])

    def _update(self, *__):
        self._view.view = tray_json(self.play)

    def __panel__(self):
        return self._view
