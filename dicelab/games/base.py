"""The game model every variant shares (DESIGN.md "games").

A game is (variant, settings, seats, seed, actions). Its whole state is one immutable value in
the ``state`` parameter; ``apply`` computes the next state from the current one and commits it
only when the action was legal, so a refused action changes nothing (RNG included).
"""
from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import asdict, dataclass, field
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np
import param

from ..actions import Action, action_from_json, coerce
from ..actions import to_json as action_to_json
from ..dice import new_rng, roll
from ..errors import RuleError
from ..i18n import L_, Joined, Msg
from ..names import player_name, seat_name, variant_name
from ..names import is_you as _is_you
from ..settings import Settings

MAX_SEATS = 8
FORMAT = 1
MAX_SEED = 2 ** 64
MAX_ACTIONS = 200_000      # a saved game replays in seconds (long Bones games stay far below)
MAX_SAVED_BYTES = 20_000_000


def check_seed(seed: Any, what: Any = None, why: Any = "") -> int:
    """A seed is a whole number from 0 to 2**64 - 1 (numpy's generators take any of them)."""
    if (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
            or not 0 <= seed < MAX_SEED):
        raise RuleError(L_("{what} is a whole number from 0 to 2**64 - 1, got {value}{why}",
                           what=L_("a seed") if what is None else what, value=repr(seed)[:150],
                           why=why))
    return int(seed)


@dataclass(frozen=True)
class Seat:
    """A place at the table: a person, or a computer that holds any object returning an action
    (a callable ``player(view)`` or an object with ``act(view)``)."""

    name: str
    player: Any = None
    strategy: str | None = None  # the player's registry name, so a saved game can seat it again

    def __post_init__(self):
        name = player_name(self.name)
        object.__setattr__(self, "name", name)
        if self.strategy is not None and not isinstance(self.strategy, str):
            raise RuleError(L_("a computer's strategy is a name, got {value}",
                               value=repr(self.strategy)[:150]))
        if self.strategy is None and self.player is not None:
            object.__setattr__(self, "strategy", getattr(self.player, "spec", None))

    @property
    def is_computer(self) -> bool:
        return self.player is not None or self.strategy is not None

    @property
    def shown_name(self) -> str | Msg:
        """The name as shown (see :func:`seat_name`)."""
        return seat_name(self.name)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "strategy": self.strategy}


@dataclass(frozen=True)
class Event:
    """Something that happened, for the history, the terminal and the UI."""

    kind: str
    seat: int | None
    # a lazy Msg (its message id and parameters): rendered where shown, in the reader's
    # language (a network room shows one game to people of several languages)
    text: Msg | str
    data: dict = field(default_factory=dict, compare=False)


class GameView:
    """A read-only view of a game handed to computer players."""

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        object.__setattr__(self, "_game", game)

    def __getattr__(self, name):
        if name in ("apply", "play_computers", "param", "_rng"):
            raise AttributeError(f"a computer player may not use game.{name}")
        return getattr(self._game, name)

    def __setattr__(self, name, value):
        raise AttributeError("the game view is read-only")


def evolve(state, **changes):
    """A copy of a frozen dataclass state with some fields changed (dataclasses.replace,
    without re-running __init__: it is on the hot path of every action)."""
    if not changes.keys() <= state.__dataclass_fields__.keys():
        raise TypeError(f"no fields {set(changes) - state.__dataclass_fields__.keys()}")
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def put(values: tuple, i: int, value) -> tuple:
    """``values`` with item ``i`` replaced (states are immutable)."""
    return values[:i] + (value,) + values[i + 1:]


def make_seat(spec: Any) -> Seat:
    if isinstance(spec, Seat):
        return spec
    if isinstance(spec, str):
        return Seat(spec)
    if isinstance(spec, dict):
        return Seat(spec.get("name", ""), strategy=spec.get("strategy"))
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        return Seat(spec[0], player=spec[1])
    raise RuleError(L_("a seat is a name, a Seat, or (name, player); got {value}",
                       value=repr(spec)[:150]))


class Game(param.Parameterized):
    """Base of the variants' game models (OpenSpiel-like state API)."""

    variant: ClassVar[str] = ""
    Settings: ClassVar[type[Settings]] = Settings
    min_seats: ClassVar[int] = 1
    rolloff_dice: ClassVar[int] = 1

    # i18n: the docs below are for programmers (help() in a notebook), not shown in the app
    settings = param.ClassSelector(class_=Settings, constant=True,
                                   doc="The rules in force.")  # i18n: not shown
    seats = param.List(constant=True, doc="The seats in play order.")  # i18n: not shown
    seed = param.Integer(constant=True,
                         doc="Seed of the game's random generator.")  # i18n: not shown
    state = param.Parameter(doc="The whole state of play: an immutable value (set anew by every "
                            "apply: views of the game watch it).")  # i18n: not shown
    pace = param.Number(default=None, allow_None=True, bounds=(0, 60),  # i18n: not shown
                        doc="Seconds between computer actions when play_computers() runs inside "
                        "an event loop (a notebook cell), so views show each one; None: all at "
                        "once.")

    def __init__(self, seats=("Player 1",),  # i18n: not shown (a name, stored as given)
                 settings: Settings | dict | None = None,
                 seed: int | None = None, **setting_values):
        if isinstance(settings, dict):
            settings = self.Settings.from_dict({**settings, **setting_values})
        elif settings is None:
            settings = self.Settings(**setting_values)
        elif setting_values:
            raise RuleError(L_("give settings either as an object or as keywords, not both"))
        else:
            settings = settings.copy()
        if not isinstance(settings, self.Settings):
            raise RuleError(  # i18n: not shown
                f"{self.variant} needs {self.Settings.__name__}, got {type(settings).__name__}")
        if isinstance(seats, (str, bytes, dict)) or not isinstance(seats, (list, tuple)):
            raise RuleError(L_("seats are a list of names or Seats, got {value}",
                               value=repr(seats)[:150]))
        if len(seats) > MAX_SEATS or not self.min_seats <= len(seats):
            raise RuleError(L_("{game} is played by {least} to {most} players, got {n}",
                               game=variant_name(self.variant), least=self.min_seats,
                               most=MAX_SEATS, n=len(seats)))
        seats = [make_seat(s) for s in seats]
        if seed is None:
            seed = secrets.randbits(63)
        check_seed(seed)
        super().__init__(settings=settings, seats=seats, seed=int(seed))
        # plain-attribute copies for the hot path (param attribute access costs microseconds)
        self.config = SimpleNamespace(**settings.to_dict())
        self.n_seats = len(seats)
        self._seats = tuple(seats)
        self._rng = new_rng(self.seed)
        self.actions: list[Action] = []
        self.history: list[Event] = []
        self.rolloff, starter = self._seating_rolloff()
        self._state = self.state = self._initial_state(starter)
        rounds: Any = None
        for rnd in self.rolloff:
            rolls = Joined([Joined([self._shown(i), "+".join(map(str, r))], " ")
                            for i, r in rnd.items()])
            rounds = rolls if rounds is None else L_("{before}; tie, again: {again}",
                                                     before=rounds, again=rolls)
        self.history.append(Event("rolloff", starter, L_(
            "Seating roll-off: {rolls}; first turn: {name}.", rolls=rounds,
            name=self._shown(starter)), {"rolls": self.rolloff}))

    # ----- the state API --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._state.current

    @property
    def version(self) -> int:
        """How many actions have been applied."""
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self._state.winner is not None or getattr(self._state, "over", False)

    @property
    def winner(self) -> int | None:
        return self._state.winner

    @property
    def winners(self) -> tuple[int, ...]:
        """Everyone who shares the win (a Yahtzee tie); () while the game goes on."""
        return () if self._state.winner is None else (self._state.winner,)

    def totals(self) -> tuple[int, ...]:
        """Every seat's game total now."""
        return self._state.totals

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self._legal_actions(self._state)

    def is_legal(self, action) -> bool:
        try:
            self.check(action)
        except RuleError:
            return False
        return True

    def check(self, action) -> Action:
        """Raise RuleError if ``action`` is not allowed now; return it as an Action."""
        action = coerce(action)
        snapshot = self._rng.bit_generator.state
        try:
            self._transition(self._state, action)
        finally:
            self._rng.bit_generator.state = snapshot
        return action

    def apply(self, action) -> list[Event]:
        """Apply one action (an Action, its JSON dict or its text form); return what happened."""
        action = coerce(action)
        if self.is_over:
            raise RuleError(L_("the game is over: no more actions"))
        snapshot = self._rng.bit_generator.state
        try:
            state, events = self._transition(self._state, action)
        except BaseException:
            self._rng.bit_generator.state = snapshot  # a refused action consumes no dice
            raise
        self.actions.append(action)
        self.history.extend(events)
        self._state = self.state = state
        return events

    # ----- computer seats -------------------------------------------------------------------
    def view(self) -> GameView:
        return GameView(self)

    def computer_action(self) -> Action | None:
        """What the computer on turn would do now (None if a person is on turn)."""
        if self.is_over:
            return None
        seat = self._seats[self.current_player]
        if seat.player is None:
            if seat.strategy is None:
                return None
            raise RuleError(L_("{name} plays strategy {strategy}, which is not loaded",
                               name=seat.shown_name, strategy=repr(seat.strategy)))
        player = seat.player
        act = player if callable(player) and not hasattr(player, "act") else player.act
        return coerce(act(self.view()))

    def play_computers(self, max_actions: int = 100_000, pace: float | None = None):
        """Let computer seats act until a person is on turn or the game ends; returns the events.

        With a pace (``pace`` seconds per action, else the game's ``pace``) and an event loop
        running in this thread (a Jupyter cell), it returns at once an ``asyncio.Task`` that
        plays one action per pace in the background (``await`` it for the events); views of
        the game show every action. Without an event loop the actions are played at once."""
        pace = self.pace if pace is None else pace
        if pace:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is not None:
                return loop.create_task(self._play_paced(max_actions, float(pace)))
        events: list[Event] = []
        for _ in range(max_actions):
            action = self.computer_action()
            if action is None:
                break
            events += self.apply(action)
        return events

    async def _play_paced(self, max_actions: int, pace: float) -> list[Event]:
        loop = asyncio.get_running_loop()
        events: list[Event] = []
        done = 0
        while done < max_actions:
            version = self.version
            # a strategy may think for a while: off the loop, so the kernel stays responsive
            action = await loop.run_in_executor(None, self.computer_action)
            if action is None:
                break
            if self.version != version:  # someone else moved meanwhile: think again
                continue
            events += self.apply(action)
            done += 1
            if not self.is_over and self._seats[self.current_player].is_computer:
                await asyncio.sleep(pace)
        return events

    # ----- saving and replay ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"dicelab": FORMAT, "variant": self.variant, "settings": self.settings.to_dict(),
                "seats": [s.to_json() for s in self.seats], "seed": self.seed,
                "actions": [action_to_json(a) for a in self.actions]}

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    def replay(self, n: int | None = None) -> Game:
        """A new game with the same seats, settings and seed, after the first n actions."""
        game = type(self)(self.seats, self.settings, self.seed)
        for action in self.actions[:n]:
            game.apply(action)
        return game

    def copy(self) -> Game:
        return self.replay()

    def continued(self, seats, seed: int) -> Game:
        """A new game that goes on from this one's state with other seats (same number) and
        a fresh random generator: for play-outs from here (no history, no actions)."""
        return type(self).resumed(self.settings, self._state, self.n_seats, seats, seed)

    @classmethod
    def resumed(cls, settings, state, n_seats: int, seats, seed: int) -> Game:
        """``continued`` from a game's settings, state and number of seats alone (all
        immutable: another thread may build it while that game moves on)."""
        game = cls(seats, settings, seed)
        if game.n_seats != n_seats:
            raise RuleError(f"continued: {n_seats} seats, got {game.n_seats}")  # i18n: not shown
        game._state = game.state = state
        game.history = []
        return game

    def snapshot(self) -> tuple:
        """Everything that defines the game now (for tests of 'nothing changed')."""
        return (self._state, json.dumps(self._rng.bit_generator.state, sort_keys=True),
                tuple(self.actions), len(self.history))

    def state_dict(self) -> dict[str, Any]:
        return asdict(self.state)

    # ----- for the variants -----------------------------------------------------------------
    def _seating_rolloff(self) -> tuple[list[dict[int, tuple[int, ...]]], int]:
        """Everyone rolls; highest starts; only those tied for highest roll again."""
        rounds = []
        contenders = list(range(len(self.seats)))
        while True:
            rolls = {i: roll(self._rng, self.rolloff_dice) for i in contenders}
            rounds.append(rolls)
            best = max(sum(r) for r in rolls.values())
            contenders = [i for i, r in rolls.items() if sum(r) == best]
            if len(contenders) == 1:
                return rounds, contenders[0]

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n_seats

    def _name(self, seat: int) -> str:
        return self._seats[seat].name

    def _you(self, seat: int) -> bool:
        """Whether sentences about ``seat`` speak to it ("You stand." / "Ann stands."): every
        event has a whole message for each, as verbs and possessives differ in each language."""
        return _is_you(self._seats[seat].name)

    def _shown(self, seat: int) -> str | Msg:
        return self._seats[seat].shown_name

    def _initial_state(self, starter: int):
        raise NotImplementedError

    def _legal_actions(self, state) -> list[Action]:
        raise NotImplementedError

    def _transition(self, state, action: Action):
        raise NotImplementedError

    def _repr_html_(self) -> str:
        """The table in a notebook: dice, totals, whose turn (plain HTML, no Panel needed)."""
        from .html import game_html

        return game_html(self)

    def __repr__(self):
        return (f"<{type(self).__name__} {', '.join(self.names)} seed={self.seed} "
                f"actions={len(self.actions)}{' over' if self.is_over else ''}>")




GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    GAMES[cls.variant] = cls
    return cls


def new_game(variant: str, seats=("Player 1",),  # i18n: not shown (a name, stored as given)
             settings=None, seed=None, **setting_values) -> Game:
    if not isinstance(variant, str) or variant not in GAMES:
        raise RuleError(L_("unknown variant {variant}; the variants are {variants}",
                           variant=repr(variant)[:60], variants=", ".join(GAMES)))
    return GAMES[variant](seats, settings, seed, **setting_values)


SAVED_KEYS = {"dicelab", "variant", "settings", "seats", "seed", "actions"}


def _check_saved(data: Any) -> None:
    """The whole saved document's schema, types and sizes, before anything is replayed."""
    if not isinstance(data, dict) or data.get("dicelab") != FORMAT:
        raise RuleError(L_("not a saved dicelab game (format {format})", format=FORMAT))
    if set(data) != SAVED_KEYS:
        missing, extra = SAVED_KEYS - set(data), set(data) - SAVED_KEYS
        found = []
        if missing:
            found.append(L_("missing {keys}", keys=", ".join(sorted(missing))))
        if extra:
            found.append(L_("unknown key(s) {keys}",
                            keys=", ".join(sorted(map(str, extra)))[:180]))
        raise RuleError(L_("malformed saved game: {problems}", problems=Joined(found, "; ")))
    variant = data["variant"]
    if not isinstance(variant, str) or variant not in GAMES:
        raise RuleError(L_("saved game: unknown variant {variant}; the variants are {variants}",
                           variant=repr(variant)[:200], variants=", ".join(GAMES)))
    settings = data["settings"]
    if not isinstance(settings, dict) or len(settings) > 20:
        raise RuleError(L_("saved game: settings are a mapping of at most {n} names", n=20))
    for k, v in settings.items():
        ok = isinstance(v, (str, int, float, bool)) and not (isinstance(v, str) and len(v) > 40)
        if k == "pits":
            ok = isinstance(v, list) and len(v) <= 100 and all(
                isinstance(p, list) and len(p) == 2
                and all(isinstance(x, (int, float)) for x in p) for p in v)
        if not isinstance(k, str) or not ok:
            raise RuleError(L_("saved game: setting {name} has a malformed value",
                               name=repr(k)[:150]))
    seats = data["seats"]
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise RuleError(L_("saved game: seats are a list of 1 to {most} players",
                           most=MAX_SEATS))
    for seat in seats:
        if (not isinstance(seat, dict) or not set(seat) <= {"name", "strategy"}
                or not isinstance(seat.get("name"), str)
                or not isinstance(seat.get("strategy"), (str, type(None)))):
            raise RuleError(L_("saved game: a seat is {form}, got {value}",
                               form="{'name': text, 'strategy': name or null}",
                               value=repr(seat)[:200]))
    check_seed(data["seed"], L_("saved game: the seed"),
               L_(" (a game replays only from its own seed)"))
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RuleError(L_("saved game: actions are a list of at most {most}",
                           most=str(MAX_ACTIONS)))
    for a in actions:
        if not isinstance(a, dict) or len(a) > 3 or not all(
                isinstance(k, str) and (isinstance(v, (str, int))
                                        or (isinstance(v, list) and len(v) <= 5
                                            and all(isinstance(x, int) for x in v)))
                for k, v in a.items()):
            raise RuleError(L_("saved game: malformed action {value}", value=repr(a)[:250]))


def load_game(data: str | dict[str, Any], players=None) -> Game:
    """Rebuild a saved game by replaying its actions; ``players`` maps strategy names to players
    (default: the dicelab.players registry). The whole document is checked first."""
    if isinstance(data, (str, bytes)):
        if len(data) > MAX_SAVED_BYTES:
            raise RuleError(L_("a saved game is at most {n} MB", n=MAX_SAVED_BYTES // 1_000_000))
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, bad UTF-8, deep nesting
            raise RuleError(L_("not a saved dicelab game: {reason}",
                               reason=str(exc)[:200])) from None
    _check_saved(data)
    variant = data["variant"]
    seats = []
    for s in data["seats"]:
        strategy = s.get("strategy")
        player = None
        if strategy is not None:
            if players is not None and strategy in players:
                player = players[strategy]
            else:
                from ..players import make_player

                player = make_player(variant, strategy)
        seats.append(Seat(s["name"], player=player, strategy=strategy))
    game = new_game(variant, seats, data["settings"], data["seed"])
    for a in data["actions"]:
        game.apply(action_from_json(a))
    return game
