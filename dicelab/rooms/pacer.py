"""Computer seats play on the server, at a pace people can follow.

One ``Pacer`` per server process: a daemon thread that watches the rooms it is told about (or
hears about) and, in each, lets the computer on turn make one action ``pace`` seconds after the
room's last change, and seats a computer in a person's seat once it has been away ``grace``
seconds while on turn. Several processes sharing a Redis store may each run a pacer: an action
is appended once (compare-and-append), and a process that loses the race waits a new pace.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from ..errors import RuleError
from .model import room_key, room_name
from .service import RoomEvent, RoomService, Unavailable

log = logging.getLogger(__name__)


def default_strategy(variant: str) -> str:
    """The computer that takes over a seat: a fair, quick player of the variant."""
    from ..players import player_names

    names = player_names(variant)
    for pref in ("chicken", "optimal", "threshold"):
        if pref in names:
            return pref
    return names[0]


class Pacer:
    """Plays computer seats of watched rooms in a background thread."""

    def __init__(self, service: RoomService, pace: float = 0.8,
                 strategy: Callable[[str], str] = default_strategy):
        self.service = service
        self.pace = max(float(pace), 0.0)
        self.strategy = strategy
        self._due: dict[str, float] = {}  # room key -> monotonic time of its last change
        self._unsolvable: set[str] = set()  # Yahtzee rules whose solve failed in the worker
        self._cond = threading.Condition()
        self._stopped = False
        self._unsubscribe = service.subscribe(None, self._heard)
        self._thread = threading.Thread(target=self._run, name="dicelab-pacer", daemon=True)
        self._thread.start()

    def watch(self, name) -> None:
        """Look after this room (a browser opened it): its computers play from now on."""
        key = room_key(room_name(name))
        with self._cond:
            now = time.monotonic()
            self._due[key] = min(self._due.get(key, now), now)
            self._cond.notify()

    def _heard(self, event: RoomEvent) -> None:
        with self._cond:
            if event.kind == "deleted":
                self._due.pop(event.room, None)
            else:  # any change, here or in another process, restarts the room's pace
                self._due[event.room] = time.monotonic()
            self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
        self._unsubscribe()
        self._thread.join(5)

    # ----- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                if self._stopped:
                    return
                now = time.monotonic()
                ready = [k for k, t in self._due.items() if t + self.pace <= now]
                if not ready:
                    wait = min((t + self.pace - now for t in self._due.values()), default=None)
                    self._cond.wait(wait)
                    continue
            for key in ready:
                try:
                    again = self._step(key)
                except Unavailable:  # the store is down (logged once by the service): the
                    again = now + max(self.pace, 1.0)  # computers play on when it is back
                except Exception:  # a broken room must not stop the others
                    log.exception("pacing room %s failed", key)
                    again = None
                with self._cond:
                    if again is None:
                        if self._due.get(key, 0) <= now:  # nothing new meanwhile
                            self._due.pop(key, None)
                    elif self._due.get(key, 0) <= now:
                        self._due[key] = max(self._due.get(key, 0), again)

    def _solving(self, key: str, room) -> bool:
        """A Yahtzee computer playing optimally needs its rules' solved table: the first time
        for these rules it is solved by the shared worker, never in this thread (which paces
        every room of the server). True while it is being solved."""
        if room.variant != "yahtzee" or not any(s.strategy == "optimal" for s in room.seats):
            return False
        from ..odds import yahtzee
        from ..odds.worker import WORKER
        from ..settings import YahtzeeSettings

        settings = YahtzeeSettings.from_dict(room.settings)
        rules = yahtzee.rules_key(settings)
        if rules in self._unsolvable or yahtzee.cached(settings) is not None:
            return False  # (unsolvable: the computer's own call fails and the step logs it)

        def done(result):
            if isinstance(result, Exception):
                self._unsolvable.add(rules)
            self._heard(RoomEvent(key, "room"))  # look again
        try:
            WORKER.submit(rules,
                          lambda: yahtzee.solve(settings, progress=False, elsewhere=True), done)
        except RuleError:  # the worker's queue is full: look again later
            self._heard(RoomEvent(key, "room"))
            return True
        return True

    def _step(self, key: str) -> float | None:
        """One paced move in a room; returns when to look again (None: wait for news)."""
        try:
            shown = self.service.room(key, cached=True)  # (read once for the room's pages)
        except RuleError:  # deleted meanwhile
            return None
        if not shown.started or all(s.at_table for s in shown.seats):
            # people at every seat: nothing to play or take over until a seat changes (news).
            # The game is not brought up to date here: that took the room's lock and the
            # interpreter from the pages at every action of every room
            return None
        try:
            game = self.service.state(key)
            room = self.service.room(key)
        except RuleError:  # deleted meanwhile
            return None
        if game is None or game.is_over:
            return None
        seat = room.seats[game.current_player]
        if seat.is_computer:
            if self._solving(key, room):
                return None  # the worker's news (a room event) wakes this room again
            self.service.play_computers(key, limit=1)  # its news restarts the pace
            return None
        if seat.away_since is None:
            return None  # a person at the table: the next change wakes us
        waited = self.service.clock() - seat.away_since
        if waited >= self.service.grace:
            self.service.take_over(key, game.current_player, self.strategy(room.variant))
            return None
        # look again when the grace is up
        return time.monotonic() + (self.service.grace - waited) - self.pace
