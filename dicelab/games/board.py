"""A game's positions, one after another, read-only: what the analysis board shows (issue 35).

``positions(game)`` replays a game (a Game, or a saved game's JSON: checked by ``load_game``)
once and keeps the state after every action; ``BoardGame.goto(i)`` then shows position ``i``
(before action ``i``; the last one is the game as it stands) by setting that state, so the views
of the game follow it as they follow play, at the cost of one assignment. Nothing can be played
on it: ``apply`` refuses, and the original game is never touched (a copy is replayed).
"""
from __future__ import annotations

import threading

from ..errors import RuleError
from ..i18n import L_
from .base import Game, Seat, load_game


class BoardMixin:
    """Mixed before a variant's game class: the read-only game the board shows."""

    def _record(self, actions, start=None) -> None:
        """Replay ``actions`` through the rules (from ``start``: a set-up position), keeping
        every state and history length."""
        if start is not None:
            self._state = self.state = start
            self.history = []  # (its own seating roll-off was not this position's)
        self.all_actions = list(actions)
        self.states = [self._state]
        self.marks = [len(self.history)]
        for a in self.all_actions:
            Game.apply(self, a)
            self.states.append(self._state)
            self.marks.append(len(self.history))
        self.all_history = list(self.history)
        self.step = len(self.all_actions)
        self.locked = True

    @property
    def steps(self) -> int:
        """The number of positions (actions + 1)."""
        return len(self.states)

    def goto(self, i: int) -> int:
        """Show position ``i`` (clamped to 0..steps-1); returns it."""
        i = max(0, min(int(i), len(self.states) - 1))
        self.step = i
        self.actions = self.all_actions[:i]
        self.history = self.all_history[:self.marks[i]]
        self._state = self.state = self.states[i]
        return i

    def apply(self, action):
        if not getattr(self, "locked", False):  # a replay of it (``type(board)(...)``) plays
            return super().apply(action)
        raise RuleError(L_("the analysis board shows a game as it was: nothing can be played "
                           "on it"))

    def computer_action(self):
        return None


_CLASSES: dict[type, type] = {}
_lock = threading.Lock()


def board_class(cls: type[Game]) -> type[Game]:
    """The read-only board class of a variant's game class (made once)."""
    with _lock:
        if cls not in _CLASSES:
            _CLASSES[cls] = type("Board" + cls.__name__,  # i18n: not shown
                                 (BoardMixin, cls), {})
        return _CLASSES[cls]


def positions(game: Game | str | dict, at: int | None = None) -> Game:
    """A read-only copy of ``game`` that steps through its positions (``goto``), shown at
    position ``at`` (default: the last)."""
    if isinstance(game, (str, bytes, dict)):
        game = load_game(game)
    if not isinstance(game, Game):
        raise RuleError(L_("the analysis board opens a game or a saved game's JSON"))
    # the seats without their computers: nothing on the board acts
    seats = [Seat(s.name, strategy=s.strategy) for s in game.seats]
    set_up = getattr(game, "set_up", None)  # a set-up position: its state is the start
    board = board_class(type(game))(seats, game.settings, game.seed)
    board._record(game.actions, game.state if set_up is not None else None)
    board.goto(board.steps - 1 if at is None else at)
    return board
