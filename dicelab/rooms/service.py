"""RoomService: the rules of network games (seed 003), over any store.

One person creates a named game with the settings everyone plays by; others join from their own
browsers; the creator may seat computers and starts the game; nobody joins a started game. Each
seat is bound to a token (a browser session), never to a name: ``act`` takes the token, and only
the seat on turn may act. An action is checked, then written to the store (durably, compare-and-
append), then applied to this process's copy of the game, so what a browser is shown is always
in the store. The store is the truth: a process rebuilds a room's game by replaying its actions
whenever its copy may be stale.

Inputs come from browsers as JSON: every public method checks types and sizes and refuses with
a RuleError naming the problem; it never stores a non-text name or an oversized value.

Callbacks given to ``subscribe`` run in the thread that made the change (or in the Redis
listener thread for changes made by another process): a Panel session should hand them on to its
own document (``doc.add_next_tick_callback``) and unsubscribe when the session ends.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from .. import config
from ..actions import Action, action_from_json, coerce
from ..actions import to_json as action_to_json
from ..errors import RuleError
from ..i18n import L_, Ln_, Msg, _
from ..names import variant_name
from ..games import GAMES, Game, Seat, new_game
from ..settings import SETTINGS
from .model import (MAX_SESSION, MAX_STRATEGY, Room, RoomSeat, checked_json, new_token,
                    player_name, room_key, room_name, same_token, token_hash)
from .stores import Conflict, Store, open_store

log = logging.getLogger(__name__)
CACHED_ROOMS = 4096  # rooms whose last read record and log are kept (then all are dropped)


@dataclass(frozen=True)
class RoomEvent:
    """Something changed in a room: ``kind`` is "room" (seats, start), "action" or "deleted".
    Look again with ``RoomService.room``/``state``; ``version`` tells whether you are behind."""

    room: str  # the room's key
    kind: str


class Unavailable(RuleError):
    """The store could not be written or read (a full disk, a read-only file, Redis down):
    nothing was changed. Players are told; the log gets one line per kind of failure until the
    store works again."""


def _store_errors() -> tuple[type[BaseException], ...]:
    import sqlite3

    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
    try:
        import redis
    except ImportError:
        return errors
    return errors + (redis.exceptions.RedisError,)


def _failure_reason(exc: BaseException) -> Msg:
    """A store failure in the players' words."""
    import errno

    code = getattr(exc, "sqlite_errorcode", None)
    code = None if code is None else code & 0xFF
    if code == 13 or getattr(exc, "errno", None) == errno.ENOSPC:  # SQLITE_FULL
        return L_("the server's disk is full")
    if code == 8 or getattr(exc, "errno", None) == errno.EROFS:  # SQLITE_READONLY
        return L_("the server's rooms file is read-only")
    if type(exc).__module__.startswith("redis"):
        return L_("the server cannot reach its rooms store")
    return L_("the server's rooms store failed")


class Moved(RuleError):
    """The log had moved on from what the sender saw (another process appended first, or the
    sender's ``expect`` is behind): the action was not applied."""


@dataclass
class _Cached:
    seats: tuple  # (seed, (name, strategy) per seat): a change means the game is rebuilt
    game: Game
    count: int  # actions this service applied; anything else touching the game forces a rebuild


class RoomService:
    """Network game rooms. ``store``: a Store, or a spec for ``open_store`` (default: the
    ``DICELAB_ROOMS`` environment variable, else SQLite in the user data dir).
    ``grace``: seconds a seat must be empty or away before a computer may take it over;
    ``clock``: seconds now (tests give their own); ``seeds``: a new game's seed, ``seeds(63)``
    (default: the ``secrets`` module; tests and benchmarks give a Random's ``getrandbits`` to
    play the same game every time).
    Limits (a classroom server no single client can fill): ``max_rooms`` rooms in the lobby,
    ``max_per_client`` created from one client address (environment ``DICELAB_MAX_ROOMS``,
    ``DICELAB_MAX_ROOMS_PER_CLIENT``); finished games leave the lobby for the store's history
    after ``keep_finished`` seconds, and rooms nobody changed for ``idle`` seconds too
    (environment ``DICELAB_KEEP_FINISHED``, ``DICELAB_IDLE``: seconds; default 1 h and 6 h)."""

    def __init__(self, store: Store | str | None = None, *, grace: float = 120.0,
                 clock: Callable[[], float] = time.time, max_rooms: int | None = None,
                 max_per_client: int | None = None, keep_finished: float | None = None,
                 idle: float | None = None, seeds: Callable[[int], int] | None = None):
        self.store = store if isinstance(store, Store) else open_store(store)
        self._seeds = seeds or secrets.randbits
        self.grace = float(grace)
        self.clock = clock
        self.max_rooms = _limit(max_rooms, "DICELAB_MAX_ROOMS", 500)
        self.max_per_client = _limit(max_per_client, "DICELAB_MAX_ROOMS_PER_CLIENT", 20)
        # a game that cannot end (one seat of Bones) must not grow a log that every page
        # opening the room replays: 100,000 actions froze the server 14 s
        self.max_actions = config.value("DICELAB_ROOM_MAX_ACTIONS")
        self.keep_finished = _seconds(keep_finished, "DICELAB_KEEP_FINISHED", 3600.0)
        self.idle = _seconds(idle, "DICELAB_IDLE", 6 * 3600.0)
        self._swept = -1e18
        self._failing: set[str] = set()  # kinds of store failure logged (once each) until it works
        self._log_seen: dict[str, tuple[int, float]] = {}  # key -> (log length, when first seen)
        self._lock = threading.Lock()  # guards the three dicts below
        self._room_locks: dict[str, threading.RLock] = {}
        self._games: dict[str, _Cached] = {}
        self._subscribers: dict[str | None, list[Callable[[RoomEvent], Any]]] = {}
        self._news: dict[str, int] = {}  # key -> news so far (what a cached read is good for)
        self._room_cache: dict[str, tuple[int, Room]] = {}
        self._log_cache: dict[str, tuple[int, int, list]] = {}
        self.store.on_remote(self._notify)

    # ----- the lobby -------------------------------------------------------------------------
    def create(self, name: Any, variant: Any, settings: Any, creator_name: Any,
               client: Any = None) -> tuple[Room, str]:
        """A new open room with the creator seated; returns it and the creator's token.
        ``client``: the creator's address (text), for the limit of rooms per address."""
        name = room_name(name)
        if not isinstance(variant, str) or variant not in GAMES:
            raise RuleError(L_("the variants are {variants}; got {variant}",
                               variants=", ".join(GAMES), variant=repr(variant)[:100]))
        settings = _settings(variant, settings)
        creator = player_name(creator_name)
        client_id = "" if client is None else hashlib.sha256(
            _text(client, L_("a client address"), 200).encode()).hexdigest()[:16]
        self._expire_soon()
        total, mine = self.store.counts(client_id)
        if total >= self.max_rooms:
            raise RuleError(L_("this server holds at most {most} games: wait for one to end, or "
                               "join one", most=str(self.max_rooms)))
        if client_id and mine >= self.max_per_client:
            raise RuleError(L_("at most {most} games from one address at a time",
                               most=str(self.max_per_client)))
        token = new_token()
        seat = RoomSeat(creator, holder=token_hash(token))
        now = self.clock()
        room = self.store.create(Room(name, variant, settings, creator=token_hash(token),
                                      seats=[seat], created=now, touched=now,
                                      client=client_id))
        self._notify(room.key, "room")
        return room, token

    def list_open(self) -> list[Room]:
        """Rooms not started yet, oldest first (show them with ``Room.public()``)."""
        return self.store.rooms(open_only=True)

    def list_all(self) -> list[Room]:
        """Every room, open or started, oldest first (spectators may watch any); finished
        ones say so (``room.finished``) until they expire into the history."""
        self._expire_soon()
        return self.store.rooms(open_only=False)

    def lobby(self, limit: int) -> dict[str, tuple[list[Room], int]]:
        """A lobby's page: the first ``limit`` open rooms and rooms in play (finished ones
        included, marked), each with how many there are in all."""
        self._expire_soon()
        return {"open": self.store.page(False, limit), "play": self.store.page(True, limit)}

    def history(self) -> list[Room]:
        """Expired rooms (finished, or idle too long), oldest first: out of the lobby, kept."""
        return self.store.history()

    @property
    def damaged(self) -> dict[str, str]:
        """Stored rooms that could not be read (key -> why): skipped, never hiding the others."""
        return self.store.damaged

    def _expire_soon(self) -> None:
        """At most once a minute, sweep expired rooms in a thread of its own (no page waits)."""
        with self._lock:
            if self.clock() - self._swept <= 60:
                return
            self._swept = self.clock()
        threading.Thread(target=self._sweep, name="dicelab-expire", daemon=True).start()

    def _sweep(self) -> None:
        try:
            self.expire()
        except Unavailable:  # the store is down (logged once): the next sweep tries again
            pass
        except Exception:
            log.exception("expiring rooms failed")

    def expire(self) -> list[str]:
        """Move finished rooms older than ``keep_finished`` and rooms unchanged for ``idle``
        seconds out of the lobby, into the store's history. Returns their keys."""
        now = self.clock()
        self._swept = now
        gone = []
        for room in self.store.rooms(open_only=False):
            done = room.finished and now - room.touched >= self.keep_finished
            if not done and now - max(room.touched, room.created) < self.idle:
                continue
            if not done and room.started and not room.finished:
                # actions do not touch the record: idle only if the log stood still too
                try:
                    n = len(self.store.actions(room.key))
                except RuleError:  # a damaged log: the room stays (and says so when opened)
                    continue
                seen = self._log_seen.get(room.key)
                if seen is None or seen[0] != n:
                    self._log_seen[room.key] = (n, now)
                    if seen is not None or n:
                        continue
                elif now - seen[1] < self.idle:
                    continue
            try:
                self.store.update(room.key, _archive)
            except RuleError:
                continue
            self._log_seen.pop(room.key, None)
            with self._lock:
                self._games.pop(room.key, None)
            gone.append(room.key)
            self._notify(room.key, "room")
        return gone

    def room(self, name: Any, cached: bool = False) -> Room:
        """A room's record, for anyone (a spectator too). Token hashes are in it: show
        ``room.public()``. ``cached``: the record as read since the room's last news, if it
        was (the pages of a room all read it after each action: one read, not one each; news
        from here or from another process clears it). Read-only: it is shared."""
        key = self._key(name)
        with self._lock:  # news taken before the read: news meanwhile makes it stale
            news = self._news.get(key, 0)
            hit = self._room_cache.get(key) if cached else None
        if hit is not None and hit[0] == news:
            return hit[1]
        room = self.store.get(key)
        if room is None:
            raise RuleError(L_("there is no game named {name}", name=repr(name)[:100]))
        with self._lock:
            if len(self._room_cache) > CACHED_ROOMS:
                self._room_cache.clear()
            self._room_cache[key] = (news, room)
        return room

    def join(self, name: Any, player: Any) -> str:
        """Take a seat in an open room; returns the new seat's token."""
        player = player_name(player)
        token = new_token()

        def change(room: Room):
            self._open(room)
            _name_free(room, player)
            room.seats.append(RoomSeat(player, holder=token_hash(token)))

        self._update(name, change)
        return token

    def add_computer(self, name: Any, token: Any, strategy: Any, seat_name: Any = None) -> int:
        """The creator seats a computer playing ``strategy`` (a dicelab.players name);
        returns its seat number."""
        strategy = _text(strategy, L_("a strategy"), MAX_STRATEGY)

        def change(room: Room):
            self._creator(room, token, L_("only the creator of {room} may seat computers",
                                          room=room.name))
            self._open(room)
            _make_player(room.variant, strategy)  # refuses unknown strategies now, not at start
            if seat_name is None:
                n = 1 + sum(s.is_computer for s in room.seats)
                # a stored name, the same for everyone: in the language of the creator, who
                # names it (as the start screen does); a name is then never translated again
                while not _is_free(room, _("Computer {n}", n=n)):
                    n += 1
                player = _("Computer {n}", n=n)
            else:
                player = player_name(seat_name)
                _name_free(room, player)
            room.seats.append(RoomSeat(player, strategy=strategy))
            return len(room.seats) - 1

        return self._update(name, change)

    def remove_seat(self, name: Any, token: Any, seat: Any) -> None:
        """The creator removes a computer seat before the start."""
        def change(room: Room):
            self._creator(room, token, L_("only the creator of {room} may remove seats",
                                          room=room.name))
            if room.started:  # a full room may lose a computer (only joining needs a free seat)
                raise RuleError(L_("{room} has started: its seats are fixed", room=room.name))
            i = _seat_index(room, seat)
            if not room.seats[i].is_computer:
                raise RuleError(L_("{name} is a person: only they can leave",
                                   name=room.seats[i].name))
            del room.seats[i]

        self._update(name, change)

    def leave(self, name: Any, token: Any) -> None:
        """Give up a seat. Before the start the seat goes (the creator leaving closes the
        room); after it the seat stays, empty, until a computer takes it over."""
        key = self._key(name)
        room = self.room(name)
        if not room.started and same_token(room.creator, token):
            self.store.delete(key)
            with self._lock:
                self._games.pop(key, None)
            self._notify(key, "deleted")
            return

        def change(room: Room):
            i = self._seat(room, token)
            if room.started:
                room.seats[i].holder = None
                room.seats[i].away_since = self.clock()
            else:
                del room.seats[i]

        self._update(name, change)

    def start(self, name: Any, token: Any) -> Game:
        """The creator starts the game: seats are fixed, the seed drawn. Returns the game."""
        def change(room: Room):
            self._creator(room, token, L_("only the creator of {room} may start the game",
                                          room=room.name))
            self._open(room)
            room.seed = self._seeds(63)
            self._build(room)  # refuses too few players (under40 needs two) with the rule's words
            room.started = True

        self._update(name, change)
        return self.state(name)

    def rematch(self, name: Any, token: Any, log_start: int | None = None) -> Game:
        """Once the game is over, a seated player starts a new game in the same room: the same
        seats and rules, a new seed. The log goes on; the new game's actions follow the old.
        ``log_start``: of the game the player saw end; if a rematch of it has begun meanwhile
        (two players asked at once) that one is the answer."""
        key = self._key(name)
        with self._room_lock(key):
            room, game = self._sync(key)
            self._seat(room, token)
            if log_start is not None and room.log_start > log_start:
                return game
            if game is None or not (game.is_over or room.finished):
                raise RuleError(L_("{room} is still being played: a rematch comes after the end",
                                   room=room.name))
            start = room.log_start + len(game.actions)

            def change(r: Room):
                if r.log_start != room.log_start:  # someone asked first: that rematch it is
                    return
                r.log_start, r.seed, r.finished = start, self._seeds(63), False

            self._update(name, change)
            return self._sync(key)[1]

    def pause(self, name: Any, token: Any, paused: bool = True) -> None:
        """The creator pauses the room (no one acts, computers wait) or resumes it."""
        def change(room: Room):
            self._creator(room, token, L_("only the creator of {room} may pause it",
                                          room=room.name))
            room.paused = bool(paused)

        self._update(name, change)

    # ----- play ------------------------------------------------------------------------------
    def act(self, name: Any, token: Any, action: Any, expect: Any = None) -> int:
        """The seat on turn, held by ``token``, plays ``action`` (an Action, its JSON dict or
        text). Returns the action's number in the log. Refused (RuleError, nothing changed)
        for anyone else, out of turn, or against the rules.

        ``expect``: the number the action should get (the log's length the sender saw). A retry
        or a double click sends the same number again: if that action is already in the log it
        is answered with its number and not played twice; if another action took the place,
        or the log is not there yet, it is refused."""
        action = _action(action)
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)
                                   or expect < 0):
            raise RuleError(L_("expect is an action number (>= 0), got {value}",
                               value=repr(expect)[:150]))
        key = self._key(name)
        with self._room_lock(key):
            room, game = self._sync(key)
            if game is None:
                raise RuleError(L_("{room} has not started yet", room=room.name))
            i = self._seat(room, token)
            if expect is not None and expect != len(game.actions):
                if (expect < len(game.actions)
                        and action_to_json(game.actions[expect]) == action_to_json(action)):
                    return expect  # already played: this is a retry
                raise Moved(L_("the game moved on: it is at action {now}, not {expect}; look "
                               "again", now=str(len(game.actions)), expect=str(expect)))
            if game.is_over:
                raise RuleError(L_("{room} is over: no more actions", room=room.name))
            if room.paused:
                raise RuleError(L_("{room} is paused: wait for the teacher", room=room.name))
            if len(game.actions) >= self.max_actions:
                raise RuleError(L_("{room} has reached {most} actions, the most a game may "
                                   "have: start a new one", room=room.name,
                                   most=str(self.max_actions)))
            if room.seats[i].is_computer:
                raise RuleError(L_("a computer plays for {name} now: reclaim the seat to play "
                                   "again", name=room.seats[i].name))
            if i != game.current_player:
                raise RuleError(L_("it is {name}'s turn, not {you}'s",
                                   name=game.seats[game.current_player].shown_name,
                                   you=game.seats[i].shown_name))
            index = self._commit(key, room, game, action)
            if len(game.actions) >= self.max_actions and not game.is_over:
                self._end_unfinished(key)
        self._notify(key, "action")
        return index

    def play_computers(self, name: Any, limit: int | None = None) -> list[int]:
        """Let computer seats act until a person is on turn, the game ends, or ``limit`` actions
        were played (a UI paces them with limit=1). Returns the numbers of the actions played.
        Safe to call from several processes at once: each action is appended once."""
        key = self._key(name)
        played: list[int] = []
        while limit is None or len(played) < limit:
            with self._room_lock(key):
                room, game = self._sync(key)
                action = None if game is None or room.paused else game.computer_action()
                if action is None:
                    break
                try:
                    played.append(self._commit(key, room, game, action))
                except Moved:
                    if limit is not None:  # paced play: the other process's move restarts the pace
                        break
                    continue  # another process played this turn; look again
            self._notify(key, "action")
        return played

    def state(self, name: Any) -> Game | None:
        """The room's game (None before the start), up to date with the store.

        The same object is returned to every caller: read it, never apply to it (act through
        the service; a game touched otherwise is rebuilt from the store)."""
        key = self._key(name)
        with self._room_lock(key):
            return self._sync(key)[1]

    def log(self, name: Any, start: int = 0, log_start: int | None = None,
            cached: bool = False) -> list[Action]:
        """The game's applied actions from number ``start`` on, straight from the store (no
        lock: the log only grows), for a browser's own copy of the game to catch up.
        ``log_start``: of the game the caller follows (``Room.log_start``; default the room's
        current game): a copy of a game that a rematch replaced gets nothing more."""
        key = self._key(name)
        if cached:
            return self._cached_log(key, start, log_start)
        if log_start is None:
            log_start = self.room(name).log_start
        actions = self.store.actions(key, start=log_start + start)
        room = self.store.get(key)
        if room is not None and room.log_start > log_start:  # the rematch's actions are not ours
            actions = actions[:max(0, room.log_start - log_start - start)]
        return [action_from_json(a) for a in actions]

    def reread(self, name: Any) -> None:
        """Forget what was read of the room: its next cached read goes to the store (for a
        page that found itself behind: news was lost on the way, e.g. a Redis reconnect)."""
        key = self._key(name)
        with self._lock:
            self._news[key] = self._news.get(key, 0) + 1

    def _cached_log(self, key: str, start: int, log_start: int | None) -> list[Action]:
        """``log`` from the actions read since the room's last news (``room(cached=True)``):
        the pages of a room each ask for the same new action; the store is read once, for
        the actions not read before (the log only grows)."""
        room = self.room(key, cached=True)
        if log_start is None:
            log_start = room.log_start
        if log_start != room.log_start:  # a game a rematch replaced: as read from the store
            return self.log(key, start, log_start)
        with self._lock:
            news = self._news.get(key, 0)
            hit = self._log_cache.get(key)
        actions = hit[2] if hit is not None and hit[1] == log_start else []
        if hit is None or hit[0] != news or hit[1] != log_start:
            more = self.store.actions(key, start=log_start + len(actions))
            actions = actions + [action_from_json(a) for a in more]
            with self._lock:
                if len(self._log_cache) > CACHED_ROOMS:
                    self._log_cache.clear()
                self._log_cache[key] = (news, log_start, actions)
        return actions[start:]

    def version(self, name: Any) -> int:
        """A number that grows with every change to the room (record or actions)."""
        key = self._key(name)
        with self._room_lock(key):
            room, game = self._sync(key)
            return room.rev + (game.version if game is not None else 0)

    def seat_of(self, name: Any, token: Any) -> int | None:
        """The seat this token holds in the room, if any."""
        return self.room(name).seat_of(token)

    # ----- dropping out and coming back ----------------------------------------------------------
    def away(self, name: Any, token: Any, session: Any = None) -> None:
        """The seat's browser has gone (its session ended); it keeps the seat, and may
        ``reclaim`` it, but after ``grace`` seconds a computer may take it over. With
        ``session``: only if that session still holds the seat (not after a reload)."""
        def change(room: Room):
            seat = room.seats[self._seat(room, token)]
            if session is not None and seat.session is not None and seat.session != session:
                return  # a newer session of the same browser sits there now
            seat.away_since = self.clock()

        self._update(name, change)

    def reclaim(self, name: Any, token: Any, session: Any = None) -> int:
        """A browser that comes back (reload) with its token gets its seat back, from a computer
        that took it over too; ``session`` names the browser session that now holds it.
        Returns the seat number."""
        if session is not None:
            session = _text(session, L_("a session id"), MAX_SESSION)

        def change(room: Room):
            i = self._seat(room, token)
            room.seats[i].away_since = None
            room.seats[i].strategy = None  # a person's seat: any strategy was a take-over
            room.seats[i].session = session
            return i

        return self._update(name, change)

    def take_over(self, name: Any, seat: Any, strategy: Any) -> None:
        """A computer playing ``strategy`` takes a person's seat that has been empty or away
        for at least ``grace`` seconds (anyone may ask: the rule is the time)."""
        strategy = _text(strategy, L_("a strategy"), MAX_STRATEGY)

        def change(room: Room):
            if not room.started:
                raise RuleError(L_("{room} has not started: an empty seat just leaves",
                                   room=room.name))
            i = _seat_index(room, seat)
            s = room.seats[i]
            if s.is_computer:
                raise RuleError(L_("a computer already plays for {name}", name=s.name))
            if s.away_since is None:
                raise RuleError(L_("{name} is at the table", name=s.name))
            waited = self.clock() - s.away_since
            if waited < self.grace:
                raise RuleError(L_("{name} has been away {waited} s; a computer may take over "
                                   "after {grace} s", name=s.name, waited=str(round(waited)),
                                   grace=str(round(self.grace))))
            _make_player(room.variant, strategy)
            s.strategy = strategy

        self._update(name, change)

    # ----- news ------------------------------------------------------------------------------
    def subscribe(self, name: Any, callback: Callable[[RoomEvent], Any]) -> Callable[[], None]:
        """Call ``callback(RoomEvent)`` after every change of room ``name`` (None: of every
        room, for a lobby), here or in another process sharing the store. Returns the function
        that unsubscribes."""
        key = None if name is None else self._key(name)
        with self._lock:
            self._subscribers.setdefault(key, []).append(callback)

        def unsubscribe():
            with self._lock:
                callbacks = self._subscribers.get(key, [])
                if callback in callbacks:
                    callbacks.remove(callback)

        return unsubscribe

    def close(self) -> None:
        self.store.close()

    # ----- inside --------------------------------------------------------------------------------
    def _notify(self, key: str, kind: str) -> None:
        with self._lock:
            self._news[key] = self._news.get(key, 0) + 1  # before anyone reads: cached reads
            if kind == "deleted":                      # are stale from here on
                self._room_cache.pop(key, None)
                self._log_cache.pop(key, None)
                self._news.pop(key, None)
            callbacks = self._subscribers.get(key, []) + self._subscribers.get(None, [])
        event = RoomEvent(key, kind)
        for callback in callbacks:
            try:
                callback(event)
            except Exception:  # one broken browser must not stop the others, nor the action
                log.exception("a room subscriber failed on %s", event)

    def _failed(self, exc: BaseException) -> Unavailable:
        kind = f"{type(exc).__name__}: {str(exc)[:120]}"
        with self._lock:
            new = kind not in self._failing
            self._failing.add(kind)
        if new:  # one line per kind, not a traceback per press
            log.warning("the rooms store failed (%s); players are told, nothing is changed; "
                        "logged once until it works again", kind)
        return Unavailable(L_("Not saved: {reason}. Nothing changed; try again in a moment.",
                              reason=_failure_reason(exc)))

    def _key(self, name: Any) -> str:
        return room_key(room_name(name))

    def _room_lock(self, key: str) -> threading.RLock:
        with self._lock:
            return self._room_locks.setdefault(key, threading.RLock())

    def _update(self, name: Any, change: Callable[[Room], Any]) -> Any:
        key = self._key(name)

        def touch(room: Room):
            result = change(room)
            room.touched = self.clock()
            return result
        with self._room_lock(key):
            result = self.store.update(key, touch)[1]
        self._notify(key, "room")
        return result

    def _open(self, room: Room) -> None:
        if room.started:
            raise RuleError(L_("{room} has started: no one can join or change its seats now",
                               room=room.name))
        if room.is_full:
            raise RuleError(Ln_("{room} is full ({n} seat)", "{room} is full ({n} seats)",
                                len(room.seats), room=room.name))

    def _creator(self, room: Room, token: Any, refused: Msg) -> None:
        if not same_token(room.creator, token):
            raise RuleError(refused)

    def _seat(self, room: Room, token: Any) -> int:
        i = room.seat_of(token)
        if i is None:
            raise RuleError(L_("this browser holds no seat in {room}", room=room.name))
        return i

    def _build(self, room: Room) -> Game:
        seats = [Seat(s.name, player=_make_player(room.variant, s.strategy) if s.strategy
                      else None, strategy=s.strategy) for s in room.seats]
        return new_game(room.variant, seats, room.settings, room.seed)

    def _sync(self, key: str) -> tuple[Room, Game | None]:
        """The room's record and game, the game brought up to the store's log (call with the
        room's lock held)."""
        room = self.store.get(key)
        if room is None:
            with self._lock:
                self._games.pop(key, None)
            raise RuleError(L_("there is no game named {name}", name=repr(key)))
        if not room.started:
            return room, None
        seats = (room.seed, room.log_start, tuple((s.name, s.strategy) for s in room.seats))
        cached = self._games.get(key)
        if cached is None or cached.seats != seats or len(cached.game.actions) != cached.count:
            cached = _Cached(seats, self._build(room), 0)
            with self._lock:
                self._games[key] = cached
        for data in self.store.actions(key, start=room.log_start + cached.count):
            cached.game.apply(action_from_json(data))
            cached.count += 1
        return room, cached.game

    def _commit(self, key: str, room: Room, game: Game, action: Action) -> int:
        """Check, append durably, then apply (call with the room's lock held, game synced).
        Returns the action's number in the game."""
        index = len(game.actions)
        action = game.check(action)  # RuleError: refused, nothing written
        try:
            self.store.append(key, room.log_start + index, action_to_json(action))
        except Conflict:
            raise Moved(L_("the game moved on meanwhile: look again")) from None
        except BaseException:
            with self._lock:  # the write's fate is unknown: rebuild from the store next time
                self._games.pop(key, None)
            raise
        try:
            game.apply(action)  # the very transition check() just ran
        except BaseException:
            with self._lock:
                self._games.pop(key, None)
            raise
        self._games[key].count += 1
        if game.is_over:  # the lobby lists it as finished (and it expires from there)
            try:
                self.store.update(key, self._finish)
            except Exception:  # the action is stored: only the lobby's word "finished" waits
                log.exception("could not mark %s finished", key)
        return index

    def _finish(self, room: Room) -> None:
        room.finished = True
        room.touched = self.clock()

    def _end_unfinished(self, key: str) -> None:
        """A game at the log's bound is ended: a game that need not end (one seat of Bones,
        a player who never stands) is listed as finished, leaves the lobby as finished games do,
        and may be played again from the start (a rematch)."""
        try:
            self.store.update(key, self._finish)
        except Exception:  # every further action is refused anyway (the bound)
            log.exception("could not mark %s finished", key)


def _guarded(method):
    """A RoomService method whose store failures (disk full, read-only, Redis down) become
    ``Unavailable``, a RuleError the page shows, logged once per kind of failure."""
    import functools

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            out = method(self, *args, **kwargs)
        except RuleError:
            raise
        except _STORE_ERRORS as exc:
            raise self._failed(exc) from None
        if self._failing:
            with self._lock:
                was, self._failing = self._failing, set()
            if was:
                log.warning("the rooms store works again")
        return out

    return guarded


_STORE_ERRORS = _store_errors()
for _name in ("create", "list_open", "list_all", "lobby", "history", "room", "join",
              "add_computer", "remove_seat", "leave", "start", "rematch", "act",
              "play_computers", "state", "log", "version", "seat_of", "away", "reclaim",
              "take_over", "expire", "pause"):
    setattr(RoomService, _name, _guarded(getattr(RoomService, _name)))


# ----- input checks ------------------------------------------------------------------------------
def _archive(room: Room) -> None:
    if room.archived:  # another sweep (thread or process) got there first
        raise RuleError(L_("{room} has expired already", room=room.name))
    room.archived = True


def _limit(value: Any, env: str, default: int) -> int:
    if value is None:
        text = config.text(env)
        try:
            value = default if text is None else int(text)
        except ValueError:
            raise RuleError(L_("{env} is a whole number, got {value}", env=env,
                               value=repr(text)[:60])) from None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleError(L_("a room limit is a whole number >= 1, got {value}",
                           value=repr(value)[:60]))
    return value


def _seconds(value: Any, env: str, default: float) -> float:
    """A duration in seconds: given, else from ``env``, else ``default``; at least 1 s and at
    most a year (a typo must not keep every room for ever or expire them at once)."""
    if value is None:
        text = config.text(env)
        try:
            value = default if text is None or not text.strip() else float(text)
        except ValueError:
            raise RuleError(L_("{env} is a number of seconds, got {value}", env=env,
                               value=repr(text[:40]))) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 1 <= value <= 366 * 86400:  # also refuses nan and inf
        raise RuleError(L_("{env} is a number of seconds from 1 to {most}, got {value}", env=env,
                           most=str(366 * 86400), value=repr(value)[:60]))
    return float(value)


def _text(value: Any, what: Any, limit: int) -> str:
    if not isinstance(value, str) or not value:
        raise RuleError(L_("{what} is a non-empty text, got {kind}", what=what,
                           kind=type(value).__name__))
    if len(value) > limit:
        raise RuleError(L_("{what} has at most {most} characters, got {n}", what=what,
                           most=str(limit), n=len(value)))
    return value


def _settings(variant: str, settings: Any) -> dict[str, Any]:
    """The creator's settings, checked by the variant's Settings, as a plain dict."""
    if settings is None:
        settings = {}
    settings = checked_json(settings, L_("the settings"))
    if not isinstance(settings, dict):
        raise RuleError(L_("settings are a dict of name: value, got {kind}",
                           kind=type(settings).__name__))
    try:
        return SETTINGS[variant].from_dict(settings).to_dict()
    except RuleError:
        raise
    except (TypeError, ValueError, AttributeError) as exc:  # e.g. a value of a strange type
        raise RuleError(L_("{game} settings: {reason}", game=variant_name(variant),
                           reason=str(exc)[:250])) from None


def _action(action: Any) -> Action:
    if isinstance(action, (dict, list)):
        action = checked_json(action, L_("an action"))
    elif isinstance(action, str) and len(action) > 200:
        raise RuleError(L_("an action is a few words, as in 'roll' or 'score full house'"))
    try:
        return coerce(action)
    except RuleError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise RuleError(L_("not an action: {reason}", reason=str(exc)[:250])) from None


def _make_player(variant: str, strategy: str):
    from ..players import make_player

    try:
        return make_player(variant, strategy)
    except RuleError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise RuleError(L_("computer player {strategy}: {reason}", strategy=repr(strategy)[:60],
                           reason=str(exc)[:200])) from None


def _is_free(room: Room, player: str) -> bool:
    return all(s.name.casefold() != player.casefold() for s in room.seats)


def _name_free(room: Room, player: str) -> None:
    if not _is_free(room, player):
        raise RuleError(L_("{room} already has a player named {name}: choose another name",
                           room=room.name, name=repr(player)))


def _seat_index(room: Room, seat: Any) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(room.seats):
        raise RuleError(L_("{room} has seats 0 to {last}; got {seat}", room=room.name,
                           last=len(room.seats) - 1, seat=repr(seat)[:100]))
    return seat


# the same checks for a class's rooms (rooms.classes), not copies of them
checked_settings = _settings
checked_player = _make_player
