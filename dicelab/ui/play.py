"""One table's controller: the game, the person's pending choices (held / set-aside dice), the
pacing of computer turns, and what was said. Views render it and call its actions; every
rule decision is the game model's (``apply``, ``is_legal``, ``need_to_stand``...).

The Play follows its game: it watches the model's ``state`` parameter (set on every
``apply``), so an action applied from anywhere (a button, a computer, ``g.apply("roll")`` in a
notebook cell) reaches every view the same way; a computer seat's strategy is watched too."""
from __future__ import annotations

import contextlib
import itertools
import logging
import weakref

import param

from ..actions import Reroll, Score
from ..errors import RuleError
from ..games.base import Game
from ..i18n import L_, N_, Msg, _, language, using
from .names import said, seat_name, strategy_label
from .pacing import ComputerPace
from .session import defer, one_message, served_doc, set_changed
from .variants import ui_for

log = logging.getLogger(__name__)

class Prefs(param.Parameterized):
    """Per-session preferences (not rules)."""

    sound = param.Boolean(default=True, doc=N_("Short rolling sounds."))
    anim_ms = param.Integer(default=400, bounds=(0, 1000), step=50,
                            label=N_("Roll animation (ms)"),
                            doc=N_("Length of the roll animation; 0 turns it off."))
    pace = param.Number(default=0.8, bounds=(0.05, 3.0), step=0.05,
                        label=N_("Computer pace (s per roll)"))
    dark = param.Boolean(default=False, precedence=-1, doc="The page is in its dark theme.")
    coach = param.Boolean(default=False, doc=N_("After each decision by a person, say what "
                                                 "it cost; review the game at its end."))


class Play(ComputerPace, param.Parameterized):
    """The controller of one game at one screen."""

    game = param.ClassSelector(class_=Game, constant=True)
    prefs = param.ClassSelector(class_=Prefs, constant=True)
    tick = param.Integer(default=0, doc="Bumped after every change anything shows, after "
                         "the views that show it (the tray's data-tick: the table is up to date).")
    # what changed, for the views that show it (each view watches the ones it reads)
    shown = param.Integer(default=0, doc="Bumped when the table shows a new state of the game.")
    seats = param.Integer(default=0, doc="Bumped when a seat changes how it plays (a strategy "
                          "swapped, a seat taken over by a computer, away or back).")
    choice = param.Integer(default=0, doc="Bumped when held or set-aside dice change.")
    said = param.Integer(default=0, doc="Bumped when ``message`` is set.")
    odds = param.Integer(default=0, doc="Bumped when odds computed elsewhere are ready.")
    roll_id = param.Integer(default=0, doc="Bumped after every roll (animation, sound).")
    rolled_n = param.Integer(default=0, doc="Dice thrown by the last roll.")
    fresh = param.Parameter(default=(), doc="Positions thrown by the last roll.")
    held = param.Parameter(default=(), doc="Yahtzee: positions held (not rolled again).")
    keep = param.Parameter(default=None, doc="choose_keepers: positions of the last roll "
                           "chosen to set aside (None: all counting dice).")
    message = param.String(default="", doc="Why the last action was refused.")
    last_events = param.List(default=[])
    computers = param.Boolean(default=True, doc="Let computer seats play (paced).")

    _registry: weakref.WeakKeyDictionary[Game, Play] = weakref.WeakKeyDictionary()
    _serials = itertools.count(1)

    def __init__(self, game: Game, prefs: Prefs | None = None, records=None, **params):
        super().__init__(game=game, prefs=prefs or Prefs(), **params)
        self.ui = ui_for(game)  # the variant's pieces of the table
        self.records = records
        self._cb = None
        self._observers: list = []
        self._unsettled = None
        self._thinking = False
        self._following = True
        self._seen = self._mark()
        self._serial = next(Play._serials)
        self._memo: dict = {}        # odds and the like, computed once per change (memo)
        self._views: list = []       # (counters, redraw) of the views that follow this play
        self._solve_error = None     # the table solve this game's odds waited for failed
        self._solve_asked = None     # the rules key of the solve asked for last
        self._shared: dict = {}      # objects its views share (shared)
        Play._registry[game] = self
        game.param.watch(self._game_changed, "state")
        for seat in game.seats:  # a computer whose strategy can be swapped (SwitchPlayer)
            p = seat.player
            if isinstance(p, param.Parameterized) and "strategy" in p.param:
                p.param.watch(lambda *__: self.changed("seats"), "strategy")
        # outside a server (a notebook): g.play_computers() from a cell plays at this pace
        self._sets_pace = served_doc() is None and game.pace is None
        if self._sets_pace:
            game.pace = self.prefs.pace
        self.prefs.param.watch(self._pace_changed, "pace")
        self._schedule()

    @classmethod
    def of(cls, game_or_play) -> "Play":  # i18n: not shown
        """The Play of a game (one per game, so separate components share selections)."""
        if isinstance(game_or_play, Play):
            return game_or_play
        play = cls._registry.get(game_or_play)
        return play if play is not None else cls(game_or_play)

    # ----- reading ---------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.game.variant

    @property
    def state(self):
        return self.game.state

    def is_computer(self, seat: int) -> bool:
        return self.game.seats[seat].is_computer

    def is_mine(self, seat: int) -> bool:
        """Is ``seat`` played at this screen? (Every person's seat, at a shared screen.)"""
        return not self.is_computer(seat)

    def seat_tag(self, seat: int) -> str:
        """How the scoreboard describes a seat."""
        s = self.game.seats[seat]
        if s.is_computer:
            return _("computer: {strategy}", strategy=strategy_label(
                getattr(s.player, "strategy", None) or s.strategy or "?"))
        return _("person")

    @property
    def person_on_turn(self) -> bool:
        g = self.game
        return not g.is_over and self.is_mine(g.current_player)

    @property
    def choosing(self) -> bool:
        """Dice to set aside are being chosen from the last roll (Bones' choose_keepers)."""
        return self.ui.choosing(self)

    def keep_positions(self) -> tuple[int, ...]:
        """Positions of the last roll that will be set aside (choose_keepers)."""
        st = self.game.state
        if self.keep is not None:
            return tuple(self.keep)
        return tuple(i for i, c in enumerate(st.counting) if c)

    def roll_action(self):
        return self.ui.roll_action(self)

    def stand_action(self):
        return self.ui.stand_action(self)

    @property
    def can_roll(self) -> bool:
        if not self.person_on_turn:
            return False
        a = self.roll_action()
        if isinstance(a, Reroll) and not a.positions:
            return False
        return self.game.is_legal(a)

    @property
    def can_stand(self) -> bool:
        a = self.stand_action()
        return a is not None and self.person_on_turn and self.game.is_legal(a)

    # ----- what a page showed ---------------------------------------------------------------
    def mark(self) -> str:
        """What a page shows of this game: this table and the length of the game's log. Every
        action a page sends carries the mark it showed (``seen``); an action sent from a page
        that had not shown the game as it is now (a double click, a retried or replayed
        message, a click on dice rolled since) is dropped without a word."""
        return f"{self._serial}.{len(self.game.actions)}"

    def stale(self, seen) -> bool:
        """Is ``seen`` (the mark a page sent with an action) not the game's mark now? None: an
        action from Python (a notebook cell, a test), not from a page: never stale."""
        if seen is None or seen == self.mark():
            return False
        log.debug("dropped an action sent from a page that showed %r, not %s", seen,
                  self.mark())
        return True

    # ----- person's actions (``seen``: the mark the page showed, None from Python) -----------
    def roll(self, seen=None) -> bool:
        if self.stale(seen):
            return False
        why = self.ui.roll_refusal(self)
        return self._refuse(why) if why else self._person(self.roll_action())

    def stand(self, seen=None) -> bool:
        if self.stale(seen):
            return False
        why = self.ui.stand_refusal(self)
        return self._refuse(why) if why else self._person(self.stand_action())

    def score(self, box: str, seen=None) -> bool:
        return not self.stale(seen) and self._person(Score(box))

    def toggle(self, pos: int, seen=None) -> bool:
        """Click on die ``pos``: hold/release (Yahtzee) or set aside (choose_keepers)."""
        if self.stale(seen):
            return False
        if not self.person_on_turn:
            return self._refuse(self._wait_text())
        chosen = self.ui.toggled(self, pos)
        if chosen is None or isinstance(chosen, str):  # nothing to do, or why not
            return chosen is not None and self._refuse(chosen)
        self.settle()
        self.changed("choice", "said", message="", **chosen)
        return True

    def key(self, key: str, seen=None) -> bool:
        """Keyboard: "." roll, "0" stand, "1".."5" hold/set aside, Enter roll (Yahtzee)."""
        if key in (".", ",", "Decimal") or (key == "Enter" and self.ui.enter_rolls):
            return self.roll(seen)
        if key == "0":
            return self.stand(seen)
        if key in ("1", "2", "3", "4", "5"):
            return self.toggle(int(key) - 1, seen)
        return False

    def act(self, what: str, seen) -> bool:
        """An action named by a page (``ActionBridge``): "roll" or "stand"."""
        action = {"roll": self.roll, "stand": self.stand}.get(what)
        return action is not None and action(seen)

    def _wait_text(self) -> str:
        g = self.game
        if g.is_over:
            return L_("The game is over: start a new game.")
        return L_("Please wait: it is {name}'s turn.", name=seat_name(
            g.seats[g.current_player].name))

    def _refuse(self, text) -> bool:
        self.settle()
        self._said = text  # a Msg says it again in another language (relabel)
        self.changed("said", message=str(text))
        return False

    def relabel(self) -> None:
        """The page's language changed: say the refusal shown again in it."""
        said = getattr(self, "_said", None)
        if self.message and isinstance(said, Msg):
            self.message = str(said)

    def _person(self, action) -> bool:
        if action is None:
            return False
        if not self.person_on_turn:
            return self._refuse(self._wait_text())
        return self._apply(action)

    # ----- applying --------------------------------------------------------------------------
    def _apply(self, action) -> bool:
        self.settle()
        try:
            self.game.apply(action)  # _game_changed shows it
        except RuleError as exc:
            return self._refuse(said(exc))
        return True

    # ----- following the game ----------------------------------------------------------------
    def _mark(self) -> tuple:
        g = self.game
        return (g.version, len(g.history), g.state)

    def _game_changed(self, event):
        if self._following:
            self.catch_up()

    @contextlib.contextmanager
    def quiet(self):
        """Apply several actions inside without showing each; ``catch_up`` after shows them."""
        self._following = False
        try:
            yield
        finally:
            self._following = True

    def catch_up(self, animate: bool = True, at_once: bool = False) -> bool:
        """Show what changed in the game since the views last saw it (False: nothing)."""
        g = self.game
        n_actions, n_events, before = self._seen
        if g.state is before:
            return False
        self._seen = self._mark()
        action = g.actions[-1] if g.version > n_actions else None
        self._shown(action, g.history[n_events:], before.current,
                    getattr(before, "turn_total", None), animate, at_once)
        return True

    def _shown(self, action, events, seat, before_turn_total, animate: bool = True,
               at_once: bool = False):
        """After ``action`` (played by ``seat``) was applied: what the views need to know
        (``at_once``: the whole table now, in one message, not the dice first)."""
        g = self.game
        if served_doc() is None:  # a notebook or a script: no browser to send the dice first
            at_once = True
        rolls = [e for e in events if e.data.get("dice") is not None] if animate else []
        with using(language()), param.parameterized.batch_call_watchers(self):
            set_changed(self, message="")
            self.last_events = events
            if rolls:
                self.roll_id += 1
                if isinstance(action, Reroll):
                    self.fresh = tuple(action.positions)
                else:
                    self.fresh = tuple(range(len(rolls[-1].data["dice"])))
                self.rolled_n = len(self.fresh)
            new = g.state
            if self.ui.drops_held(new, seat):
                self.held = ()
            set_changed(self, keep=None)
            self._unsettled = (events, seat, before_turn_total)
            if at_once:  # in the same batch: each view redraws once
                self.settle()
        # otherwise two steps: the dice tray watches roll_id and goes to the browser at once,
        # the rest follows on the next turn of the loop (the next action settles first)
        if not at_once:
            defer(self.settle, lock=True)
        self._schedule()

    def settle(self):
        """Bring every view up to date with the last action."""
        pending, self._unsettled = self._unsettled, None
        if pending is None:
            return
        if self.records is not None:
            try:
                self.records.observe(self, *pending)
            except Exception:  # records never break play
                pass
        self.changed("shown")

    def changed(self, *counters: str, **values) -> None:
        """Show a change: set ``values``, bump ``counters`` (the views that show them redraw,
        each once, in the page's language looked up once) and then ``tick``, as one message."""
        with one_message(), using(language()), param.parameterized.batch_call_watchers(self):
            for name, value in {**values, **{c: getattr(self, c) + 1 for c in counters}}.items():
                setattr(self, name, value)  # (param's ``update``: four times the cost here)
            for shows, redraw in list(self._views):  # view.py's ``follows``
                if not shows.isdisjoint(counters):
                    redraw()
            self.tick += 1

    def odds_ready(self) -> None:
        """Odds computed elsewhere (a solved table) are ready: the views of odds redraw."""
        self.changed("odds")

    def memo(self, key: str, fn):
        """``fn()`` computed once per change of what it reads (the game shown, the dice chosen,
        odds computed elsewhere): the hint and the odds panel share the odds."""
        now = (self.shown, self.choice, self.odds)
        hit = self._memo.get(key)
        if hit is not None and hit[0] == now:
            return hit[1]
        value = fn()
        self._memo[key] = (now, value)
        return value

    @property
    def followers(self) -> list:
        """The views that redraw on this play's counters: [(counters, redraw)] (view.py's
        ``follow`` adds to it, a table that retires takes its own out)."""
        return self._views

    # a table this game's odds need, solved elsewhere (ui/odds_view.py): what was asked, and
    # how it failed; a new game of these rules asks again
    @property
    def solve_error(self) -> Exception | None:
        return self._solve_error

    def solve_done(self, error: Exception | None = None) -> None:
        """The solve ended (from the solver's thread: only noted here; then odds_ready)."""
        self._solve_error = error

    @property
    def solve_asked(self):
        return self._solve_asked

    def ask_solve(self, key) -> None:
        """Note that the solve of ``key`` was asked for."""
        self._solve_asked = key

    def shared(self, key: str, make):
        """One object per play that several of its views share (``make()`` on first use)."""
        if key not in self._shared:
            self._shared[key] = make()
        return self._shared[key]

    def close(self):
        """Stop the computer pacing (a new game replaces this one)."""
        self.computers = False

    @param.depends("computers", watch=True)
    def _computers_changed(self):
        self._schedule()
