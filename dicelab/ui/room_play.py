"""One browser's copy of a room's game: every browser in a room plays on its own copy,
brought up to the store's log whenever the service reports a change."""
from __future__ import annotations

import logging
import threading

from ..errors import RuleError
from ..games import Seat, new_game
from ..rooms import Room, RoomService
from ..rooms.service import Moved
from ..i18n import _
from .names import said, strategy_label
from .play import Play, Prefs
from .session import fan_out, one_message

log = logging.getLogger(__name__)

def replica(room: Room):
    """A room's game as its log replays it (names only: the computers play on the server)."""
    return new_game(room.variant, [Seat(s.name) for s in room.seats], room.settings, room.seed)


class RoomPlay(Play):
    """A table's controller for a network game: the person acts for their own seat only,
    through the service; everything else arrives from the room's log."""

    def __init__(self, service: RoomService, room: Room, token: str | None,
                 prefs: Prefs | None = None):
        self.service = service
        self.room = room
        self.token = token
        self.seat = room.seat_of(token) if token else None
        self.log_start = room.log_start  # which of the room's games this is (rematches)
        self._sync_lock = threading.RLock()
        self._seats_shown = self._seat_shape()
        super().__init__(replica(room), prefs=prefs, computers=False)
        self.sync(room, animate=False)

    # reading: seats are the room's
    def is_computer(self, seat: int) -> bool:
        return self.room.seats[seat].is_computer

    def is_mine(self, seat: int) -> bool:
        return seat == self.seat and not self.room.seats[seat].is_computer

    def seat_tag(self, seat: int) -> str:
        s = self.room.seats[seat]
        if s.is_computer:
            if s.holder:
                return _("computer: {strategy}, until they return",
                         strategy=strategy_label(s.strategy))
            return _("computer: {strategy}", strategy=strategy_label(s.strategy))
        if s.is_empty:
            return _("empty seat")
        away = s.away_since is not None
        if seat == self.seat:
            return _("you, away") if away else _("you")
        return _("person, away") if away else _("person")

    def _wait_text(self) -> str:
        if self.seat is None and not self.game.is_over:
            return _("You are watching this game.")
        return super()._wait_text()

    # acting: through the service, which stores the action before anyone is shown it
    def _apply(self, action) -> bool:
        self.settle()
        with fan_out():  # this page first, then the room's other pages here
            try:  # the number it should get: the length this page showed (``stale``)
                self.service.act(self.room.name, self.token, action,
                                 expect=len(self.game.actions))
            except Moved:  # this page was behind the room: it catches up, without a word
                log.debug("%s: an action from a page behind the room", self.room.name)
                self.service.reread(self.room.name)
                self.sync()
                return False
            except RuleError as exc:
                return self._refuse(said(exc))
            self.sync()
        return True

    def _seat_shape(self) -> list:
        """What the scoreboard shows of the seats (a change means a redraw)."""
        return [(s.strategy, s.holder is None, s.away_since is None) for s in self.room.seats]

    def sync(self, room: Room | None = None, animate: bool = True) -> int:
        """Catch up with the room's log; returns how many actions were new."""
        with self._sync_lock:  # outside a served session, news may come from other threads
            if room is not None:
                if room.log_start != self.log_start:
                    return 0  # a rematch began: the screen makes a new table for it
                self.room = room
                self.seat = room.seat_of(self.token) if self.token else None
            g = self.game
            new = self.service.log(self.room.name, start=len(g.actions),
                                   log_start=self.log_start, cached=True)
            if not new:
                seats = self._seat_shape()
                if seats != self._seats_shown:
                    self.changed("seats")  # a seat was taken over, left or came back
                self._seats_shown = seats
                return 0
            self.settle()
            with self.quiet():  # shown together below
                for action in new:
                    g.apply(action)
            self._seats_shown = self._seat_shape()
            with one_message():  # news from elsewhere: dice and table together
                self.catch_up(animate=animate, at_once=True)
            return len(new)
