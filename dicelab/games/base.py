"""The game model every variant shares (DESIGN.md "games").

A game is (variant, settings, seats, seed, actions). Its whole state is one immutable value in
the ``state`` parameter; ``apply`` computes the next state from the current one and commits it
only when the action was legal, so a refused action changes nothing (RNG included).
"""
from __future__ import annotations

import asyncio
import json
import secrets
import unicodedata
from dataclasses import asdict, dataclass, field
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np
import param

from ..actions import Action, action_from_json, coerce
from ..actions import to_json as action_to_json
from ..dice import new_rng, roll
from ..errors import RuleError
from ..settings import Settings

MAX_SEATS = 8
MAX_NAME = 40
FORMAT = 1
MAX_SEED = 2 ** 64
MAX_ACTIONS = 200_000      # a saved game replays in seconds (long Bones games stay far below)
MAX_SAVED_BYTES = 20_000_000


def check_seed(seed: Any, what: str = "a seed", why: str = "") -> int:
    """A seed is a whole number from 0 to 2**64 - 1 (numpy's generators take any of them)."""
    if (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
            or not 0 <= seed < MAX_SEED):
        raise RuleError(f"{what} is a whole number from 0 to 2**64 - 1, got {seed!r}"[:200]
                        + why)
    return int(seed)


def check_name_chars(name: str) -> None:
    """Refuse control characters in a player's name (tabs and spaces are collapsed instead)."""
    for ch in name:
        cat = unicodedata.category(ch)
        # Cc: control characters, Cs: lone surrogates (not storable), Co: private use,
        # Cf: invisible format characters (bidi overrides spoof names) except the zero-width
        # joiner that emoji sequences need
        if ch not in " \t" and (cat in ("Cc", "Cs", "Co") or (cat == "Cf" and ch != "\u200d")):
            raise RuleError(f"a name may not hold control characters (U+{ord(ch):04X})")


@dataclass(frozen=True)
class Seat:
    """A place at the table: a person, or a computer that holds any object returning an action
    (a callable ``player(view)`` or an object with ``act(view)``)."""

    name: str
    player: Any = None
    strategy: str | None = None  # the player's registry name, so a saved game can seat it again

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise RuleError(f"a name is text, got {self.name!r}")
        if len(self.name) > 4 * MAX_NAME:  # refuse huge input before looking at each character
            raise RuleError(f"a name has at most {MAX_NAME} characters, got {len(self.name)}")
        check_name_chars(self.name)
        name = " ".join(self.name.split())
        if not name:
            raise RuleError("a seat needs a name")
        if len(name) > MAX_NAME:
            raise RuleError(f"a name has at most {MAX_NAME} characters, got {len(name)}")
        object.__setattr__(self, "name", name)
        if self.strategy is not None and not isinstance(self.strategy, str):
            raise RuleError(f"a computer's strategy is a name, got {self.strategy!r}"[:200])
        if self.strategy is None and self.player is not None:
            object.__setattr__(self, "strategy", getattr(self.player, "spec", None))

    @property
    def is_computer(self) -> bool:
        return self.player is not None or self.strategy is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "strategy": self.strategy}


@dataclass(frozen=True)
class Event:
    """Something that happened, for the history, the terminal and the UI."""

    kind: str
    seat: int | None
    text: str
    data: dict = field(default_factory=dict, compare=False)


class GameView:
    """A read-only view of a game handed to computer players."""

    __slots__ = ("_game",)

    def __init__(self, game: "Game"):
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
    raise RuleError(f"a seat is a name, a Seat, or (name, player); got {spec!r}")


class Game(param.Parameterized):
    """Base of the variants' game models (OpenSpiel-like state API)."""

    variant: ClassVar[str] = ""
    Settings: ClassVar[type[Settings]] = Settings
    min_seats: ClassVar[int] = 1
    rolloff_dice: ClassVar[int] = 1

    settings = param.ClassSelector(class_=Settings, constant=True, doc="The rules in force.")
    seats = param.List(constant=True, doc="The seats in play order.")
    seed = param.Integer(constant=True, doc="Seed of the game's random generator.")
    state = param.Parameter(doc="The whole state of play: an immutable value (set anew by every "
                            "apply: views of the game watch it).")
    pace = param.Number(default=None, allow_None=True, bounds=(0, 60), doc="Seconds between "
                        "computer actions when play_computers() runs inside an event loop (a "
                        "notebook cell), so views show each one; None: all at once.")

    def __init__(self, seats=("Player 1",), settings: Settings | dict | None = None,
                 seed: int | None = None, **setting_values):
        if isinstance(settings, dict):
            settings = self.Settings.from_dict({**settings, **setting_values})
        elif settings is None:
            settings = self.Settings(**setting_values)
        elif setting_values:
            raise RuleError("give settings either as an object or as keywords, not both")
        else:
            settings = settings.copy()
        if not isinstance(settings, self.Settings):
            raise RuleError(f"{self.variant} needs {self.Settings.__name__}, got "
                            f"{type(settings).__name__}")
        if isinstance(seats, (str, bytes, dict)) or not isinstance(seats, (list, tuple)):
            raise RuleError(f"seats are a list of names or Seats, got {seats!r}"[:200])
        if len(seats) > MAX_SEATS:
            raise RuleError(f"{self.variant} is played by {self.min_seats} to {MAX_SEATS} "
                            f"players, got {len(seats)}")
        seats = [make_seat(s) for s in seats]
        if not self.min_seats <= len(seats) <= MAX_SEATS:
            raise RuleError(f"{self.variant} is played by {self.min_seats} to {MAX_SEATS} "
                            f"players, got {len(seats)}")
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
        rounds = "; tie, again: ".join(
            ", ".join(f"{self._seats[i].name} {'+'.join(map(str, r))}" for i, r in rnd.items())
            for rnd in self.rolloff)
        self.history.append(Event("rolloff", starter, f"Seating roll-off: {rounds}; "
                                  f"first turn: {self._seats[starter].name}.",
                                  {"rolls": self.rolloff}))

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
            raise RuleError("the game is over: no more actions")
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
            raise RuleError(f"{seat.name} plays strategy {seat.strategy!r}, which is not loaded")
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

    def replay(self, n: int | None = None) -> "Game":
        """A new game with the same seats, settings and seed, after the first n actions."""
        game = type(self)(self.seats, self.settings, self.seed)
        for action in self.actions[:n]:
            game.apply(action)
        return game

    def copy(self) -> "Game":
        return self.replay()

    def continued(self, seats, seed: int) -> "Game":
        """A new game that goes on from this one's state with other seats (same number) and
        a fresh random generator: for play-outs from here (no history, no actions)."""
        game = type(self)(seats, self.settings, seed)
        if game.n_seats != self.n_seats:
            raise RuleError(f"continued: {self.n_seats} seats, got {game.n_seats}")
        game._state = game.state = self._state
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

    def _says(self, seat: int, verb: str) -> str:
        """"Ann stands" / "You stand" (``verb`` as for Ann: "stands", "has", "is")."""
        return says(self._name(seat), verb)

    def _verb(self, seat: int, verb: str) -> str:
        """The verb alone, agreeing with the seat ("... and wins" / "... and win")."""
        return agree(self._name(seat), verb)

    def _possessive(self, seat: int) -> str:
        """"Ann's" / "your"."""
        name = self._name(seat)
        return "your" if _is_you(name) else f"{name}'s"

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


def _is_you(name: str) -> bool:
    return " ".join(str(name).split()).lower() == "you"


_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go"}


def agree(name: str, verb: str) -> str:
    """``verb`` as written for Ann ("stands", "has", "reaches") in agreement with ``name``: a
    seat named "You" takes the plural form ("stand", "have", "reach")."""
    if not _is_you(name):
        return verb
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("ches", "shes", "sses", "xes", "zzes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def says(name: str, verb: str) -> str:
    """"Ann stands" / "You stand"."""
    return f"{name} {agree(name, verb)}"


GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    GAMES[cls.variant] = cls
    return cls


def new_game(variant: str, seats=("Player 1",), settings=None, seed=None, **setting_values) -> Game:
    if not isinstance(variant, str) or variant not in GAMES:
        raise RuleError(f"unknown variant {variant!r}; the variants are {', '.join(GAMES)}")
    return GAMES[variant](seats, settings, seed, **setting_values)


SAVED_KEYS = {"dicelab", "variant", "settings", "seats", "seed", "actions"}


def _check_saved(data: Any) -> None:
    """The whole saved document's schema, types and sizes, before anything is replayed."""
    if not isinstance(data, dict) or data.get("dicelab") != FORMAT:
        raise RuleError(f"not a saved dicelab game (format {FORMAT})")
    if set(data) != SAVED_KEYS:
        missing, extra = SAVED_KEYS - set(data), set(data) - SAVED_KEYS
        raise RuleError("malformed saved game: " + "; ".join(
            ([f"missing {', '.join(sorted(missing))}"] if missing else [])
            + ([f"unknown key(s) {', '.join(sorted(map(str, extra)))}"[:200]] if extra else [])))
    variant = data["variant"]
    if not isinstance(variant, str) or variant not in GAMES:
        raise RuleError(f"saved game: unknown variant {variant!r}; the variants are "
                        f"{', '.join(GAMES)}"[:300])
    settings = data["settings"]
    if not isinstance(settings, dict) or len(settings) > 20:
        raise RuleError("saved game: settings are a mapping of at most 20 names")
    for k, v in settings.items():
        ok = isinstance(v, (str, int, float, bool)) and not (isinstance(v, str) and len(v) > 40)
        if k == "pits":
            ok = isinstance(v, list) and len(v) <= 100 and all(
                isinstance(p, list) and len(p) == 2
                and all(isinstance(x, (int, float)) for x in p) for p in v)
        if not isinstance(k, str) or not ok:
            raise RuleError(f"saved game: setting {k!r} has a malformed value"[:200])
    seats = data["seats"]
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise RuleError(f"saved game: seats are a list of 1 to {MAX_SEATS} players")
    for seat in seats:
        if (not isinstance(seat, dict) or not set(seat) <= {"name", "strategy"}
                or not isinstance(seat.get("name"), str)
                or not isinstance(seat.get("strategy"), (str, type(None)))):
            raise RuleError(f"saved game: a seat is {{'name': text, 'strategy': name or null}}, "
                            f"got {seat!r}"[:300])
    check_seed(data["seed"], "saved game: the seed", " (a game replays only from its own seed)")
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RuleError(f"saved game: actions are a list of at most {MAX_ACTIONS}")
    for a in actions:
        if not isinstance(a, dict) or len(a) > 3 or not all(
                isinstance(k, str) and (isinstance(v, (str, int))
                                        or (isinstance(v, list) and len(v) <= 5
                                            and all(isinstance(x, int) for x in v)))
                for k, v in a.items()):
            raise RuleError(f"saved game: malformed action {a!r}"[:300])


def load_game(data: str | dict[str, Any], players=None) -> Game:
    """Rebuild a saved game by replaying its actions; ``players`` maps strategy names to players
    (default: the dicelab.players registry). The whole document is checked first."""
    if isinstance(data, (str, bytes)):
        if len(data) > MAX_SAVED_BYTES:
            raise RuleError(f"a saved game is at most {MAX_SAVED_BYTES // 1_000_000} MB")
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, bad UTF-8, deep nesting
            raise RuleError(f"not a saved dicelab game: {str(exc)[:200]}") from None
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
