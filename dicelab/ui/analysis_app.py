"""The app's screens of the analysis board (issue 35): mixed into ``DicelabApp``, whose
``_show``, ``_when_loaded``, ``play``, ``prefs`` and screens they use.

"Analyse" in the header opens the board on the game at the table (its last position; the
computers wait meanwhile) or, without one, "Open a game" (a saved game file) and "Set up a
position"; ``?game=`` opens the page on the board. Leaving the board returns to the game where
it was."""
from __future__ import annotations

import panel as pn

from ..errors import RuleError
from ..i18n import L_
from .analysis import MAX_URL_GAME, AnalysisBoard, OpenGame, decode_game
from .names import said
from .setup_form import SetupForm
from .url_args import url_arg


class OpenScreen(pn.viewable.Viewer):
    """"Open a game" above "Set up a position"."""

    def __init__(self, on_open, prefs, **params):
        super().__init__(**params)
        self.opener = OpenGame(on_open=on_open)
        self.form = SetupForm(prefs=prefs)

    def relabel(self) -> None:
        self.opener.relabel()
        self.form.relabel()

    def __panel__(self):
        return pn.Column(self.opener, self.form, sizing_mode="stretch_width")


class BoardScreens:
    """show_board / the open-a-game screen / leaving; see the module's doc."""

    _paused = None  # the play whose computers wait while its game is analysed

    @property
    def board_shown(self) -> bool:
        return isinstance(self._screen, (AnalysisBoard, OpenScreen))

    def show_board(self, game=None, at: int | None = None):
        """The board on ``game`` (default: the game at the table; none: open one)."""
        back_to_play = game is None and self.play is not None
        if back_to_play:
            game = self.play.game
            if self.play.computers:
                self._paused = self.play
                self.play.computers = False
        if game is None:
            return self.show_open()
        try:
            board = AnalysisBoard(game, prefs=self.prefs, at=at,
                                  on_leave=self._left_board if back_to_play else self.show_open)
        except RuleError as exc:
            self.show_open().refuse(said(exc))
            return None
        self._show(board)
        return board

    def _left_board(self):
        if self._paused is not None and self._paused is self.play:
            self.play.computers = True
        self._paused = None
        if self.play is not None:
            self._show_table()
        else:
            self.show_start()

    def show_open(self):
        """"Open a game" and "Set up a position" (no game at the table)."""
        self._leave_screens()
        self.drawer.play = None
        screen = OpenScreen(self._open_saved, self.prefs)
        self._show(screen)
        return screen.opener

    def _open_saved(self, text: str):
        board = AnalysisBoard(text, prefs=self.prefs, on_leave=self.show_open)  # RuleError
        self._show(board)

    def relabel_board(self, shown) -> bool:
        """The board's words in the new language (True: ``shown`` is one of its screens)."""
        if isinstance(shown, AnalysisBoard):
            shown.relabel()
            return True
        if isinstance(shown, OpenScreen):
            shown.relabel()
            return True
        return False

    def board_from_url(self) -> None:
        """``?game=``: open the page on the board (a value it cannot read: why, on the
        open-a-game screen)."""
        args = getattr(pn.state, "session_args", None) or {}
        if not args.get("game"):
            return
        value = url_arg("game", MAX_URL_GAME)

        def show():
            if value is None:
                self.show_open().refuse(L_("a game in a link is at most {n} characters",
                                           n=MAX_URL_GAME))
                return
            try:
                text = decode_game(value)
            except RuleError as exc:
                self.show_open().refuse(said(exc))
                return
            self.show_board(text, at=None)
        self._when_loaded(show)
