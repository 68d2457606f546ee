"""The analysis board (issue 35, point 5): a game's positions, stepped through read-only.

It opens a finished game, a game in progress (its history), a saved game file (the coach's
download) or a URL carrying the game (``?game=``: the saved game's JSON, zlib-compressed,
base64url), and steps with buttons and the ← → Home End keys. The table shows each position as
it was (dice, kept dice, totals, card, whose turn) with the odds panel; nothing of the game can
be changed from there (``games.board``: a replayed copy whose ``apply`` refuses), and the game
it was opened from is not touched.
"""
from __future__ import annotations

import base64
import zlib

import panel as pn
import param
from panel.custom import JSComponent

from ..errors import RuleError
from ..games.base import MAX_SAVED_BYTES, Game
from ..games.board import positions
from ..i18n import L_, _
from .names import said
from .play import Play, Prefs
from .session import Unbusy, one_message
from .table import Table

MAX_URL_GAME = 32_000  # characters of ?game= (a browser's address holds ~32k safely)

BOARD_CSS = """
.dl-board-bar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.dl-step { font: 600 1rem system-ui, sans-serif; font-variant-numeric: tabular-nums; }
.dl-refusal { color: #c62828; font: 500 .95rem system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { .dl-refusal { color: #ff8a80; } }
"""


# ----- a game in a URL ---------------------------------------------------------------------------
def encode_game(game: Game | str) -> str:
    """The ``?game=`` value carrying a game: its saved JSON, compressed, base64url."""
    text = game if isinstance(game, str) else game.to_json(separators=(",", ":"))
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


def decode_game(value: str) -> str:
    """The saved game's JSON a ``?game=`` value carries; RuleError saying why it does not."""
    if not isinstance(value, str) or len(value) > MAX_URL_GAME:
        raise RuleError(L_("a game in a link is at most {n} characters", n=MAX_URL_GAME))
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        inflate = zlib.decompressobj()
        text = inflate.decompress(raw, MAX_SAVED_BYTES).decode()
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise RuleError(L_("this link does not carry a dicelab game")) from None
    if inflate.unconsumed_tail:  # more than a saved game may hold: not inflated further
        raise RuleError(L_("a saved game is at most {n} MB", n=MAX_SAVED_BYTES // 1_000_000))
    return text


class StepKeys(Unbusy, JSComponent):
    """Sends ← → Home End to Python while the board is on the page (not while typing)."""

    _esm = """
export function render({ model, el }) {
  el.style.display = "none";
  if (!model.active) return;  // the page's preloaded copy: the keys stay the page's
  const typing = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], ' +
    '[role="textbox"], [role="combobox"], [role="listbox"], [role="slider"]';
  const keys = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || !keys.has(e.key)) return;
    const t = e.composedPath()[0];
    if (t && t.closest && t.closest(typing)) return;
    e.preventDefault();
    model.send_msg({key: e.key});
  };
  document.addEventListener("keydown", onKey);
  document.documentElement.dataset.dlStepKeys = "on";  // (tests wait for it)
  model.on("remove", () => {
    document.removeEventListener("keydown", onKey);
    delete document.documentElement.dataset.dlStepKeys;
  });
}
"""

    active = param.Boolean(default=False, doc="Listens (the page's preloaded copy does not).")

    def __init__(self, on_key=None, **params):
        super().__init__(active=on_key is not None, **params)
        self._on_key = on_key

    def _handle_msg(self, msg):
        if isinstance(msg, dict) and msg.get("key") in ("ArrowLeft", "ArrowRight", "Home",
                                                        "End") and self._on_key:
            self._on_key(msg["key"])


class BoardPlay(Play):
    """The board's controller: no seat is played from this screen, no computer acts;
    ``goto(i)`` (a click on a chart) moves the board."""

    def __init__(self, game, on_goto, **params):
        super().__init__(game, **params)
        self._on_goto = on_goto

    def goto(self, i: int) -> int:
        return self._on_goto(i)

    def is_mine(self, seat: int) -> bool:
        return False


class AnalysisBoard(pn.viewable.Viewer):
    """Buttons and keys to step, the position's table; ``on_leave()`` returns to the game."""

    step = param.Integer(default=0, doc="The position shown (0: the game's start).")

    def __init__(self, game, prefs: Prefs | None = None, on_leave=None, at: int | None = None,
                 **params):
        super().__init__(**params)
        self.game = positions(game, at)  # RuleError for a game that cannot be opened
        self.play = BoardPlay(self.game, self.goto, prefs=prefs or Prefs(), computers=False)
        self.step = self.game.step
        self._on_leave = on_leave
        css = [BOARD_CSS]
        self._label = pn.pane.HTML("", stylesheets=css, margin=(0, 8))
        self._buttons = {}
        for key in ("Home", "ArrowLeft", "ArrowRight", "End"):  # i18n: not shown (keys)
            b = pn.widgets.Button(name="", margin=(4, 2), css_classes=["dl-step-" + key.lower()])
            b.on_click(lambda e, k=key: self.key(k))
            self._buttons[key] = b
        self._leave = pn.widgets.Button(name="", button_type="primary", margin=(4, 12),
                                        visible=on_leave is not None)
        self._leave.on_click(lambda e: self.leave())
        self.keys = StepKeys(on_key=self.key)
        self._table = Table(play=self.play)
        self._bar = pn.Row(self._title(), *self._buttons.values(), self._label, self._leave,
                           self.keys, css_classes=["dl-board-bar"], stylesheets=css,
                           sizing_mode="stretch_width")
        self._layout = pn.Column(self._bar, self._table, sizing_mode="stretch_width")
        self.relabel()

    def _title(self):
        self._head = pn.pane.HTML("", margin=(0, 12, 0, 0))
        return self._head

    def relabel(self) -> None:
        """Every word of the bar in the language of the moment."""
        self._head.object = "<h2 style='margin:4px 0'>" + _("Analysis board") + "</h2>"
        # the keys are said in the page's words (ui.keys' help); the arrows show them here
        for key, label in (("Home", "« " + _("First")),  # i18n: not shown (the key)
                           ("ArrowLeft", "‹ " + _("Back")), ("ArrowRight", _("Next") + " ›"),
                           ("End", _("Last") + " »")):  # i18n: not shown (the key)
            self._buttons[key].name = label
        self._leave.name = _("Back to the game")
        self._show_step()

    def _show_step(self):
        self._label.object = ("<span class='dl-step' data-testid='board-step'>" + _(
            "Position {step} of {last}", step=self.step, last=self.game.steps - 1) + "</span>")
        at_start, at_end = self.step == 0, self.step == self.game.steps - 1
        self._buttons["Home"].disabled = self._buttons["ArrowLeft"].disabled = at_start
        self._buttons["ArrowRight"].disabled = self._buttons["End"].disabled = at_end

    # ----- stepping ------------------------------------------------------------------------------
    def goto(self, i: int) -> int:
        """Show position ``i`` (before action ``i``; clamped)."""
        with one_message():
            with self.play.quiet():
                i = self.game.goto(i)
            self.step = i
            self.play.catch_up(animate=False, at_once=True)
            self._show_step()
        return i

    def key(self, key: str) -> int:
        last = self.game.steps - 1
        target = {"Home": 0, "End": last, "ArrowLeft": self.step - 1,  # i18n: not shown (keys)
                  "ArrowRight": self.step + 1}.get(key, self.step)
        return self.goto(target) if target != self.step else self.step

    def leave(self) -> None:
        self.play.close()
        self._table.retire()
        if self._on_leave is not None:
            self._on_leave()

    def __panel__(self):
        return self._layout


class OpenGame(pn.viewable.Viewer):
    """"Open a game": a saved game file (the coach's download) to analyse."""

    def __init__(self, on_open, **params):
        super().__init__(**params)
        self._on_open = on_open
        self._head = pn.pane.HTML("")
        self._file = pn.widgets.FileInput(accept=".json,application/json", multiple=False,
                                          name="")
        self._file.param.watch(self._chosen, "value")
        self._why = pn.pane.HTML("", stylesheets=[BOARD_CSS])
        self.relabel()

    def relabel(self) -> None:
        self._head.object = ("<h2 style='margin:4px 0'>" + _("Open a game") + "</h2><p>" + _(
            "A saved game file (the coach's “Download the game”) opens on the analysis board.")
            + "</p>")
        self._file.param.update(name=_("Saved game file (.json)"),
                                description=_("Saved game file (.json)"))

    def _chosen(self, event):
        data = event.new
        if not data:
            return
        if len(data) > MAX_SAVED_BYTES:
            return self.refuse(L_("a saved game is at most {n} MB",
                                  n=MAX_SAVED_BYTES // 1_000_000))
        try:
            text = data.decode()
        except UnicodeDecodeError:
            return self.refuse(L_("this file is not a saved dicelab game (not text)"))
        self.open_text(text)

    def open_text(self, text: str) -> bool:
        try:
            self._on_open(text)
        except RuleError as exc:
            self.refuse(said(exc))
            return False
        return True

    def refuse(self, why) -> None:
        self._why.object = ("<p class='dl-refusal' role='alert' data-testid='open-refusal'>"
                            + pn.util.escape(str(why)) + "</p>")

    def __panel__(self):
        return pn.Column(self._head, self._file, self._why, sizing_mode="stretch_width")
