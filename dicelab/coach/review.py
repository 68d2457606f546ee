"""The review of a whole game: every decision of every seat replayed and judged
(``review(game)``), and the totals per seat. Its outputs are in ``render``."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..errors import RuleError
from ..games.base import Game, load_game
from ..i18n import L_, tr
from . import render
from .decision import Entry, decision
from .luck import DUEL, Segment, Step, Tracker, segments
from .values import ValueSource, luck_model_for, source_for_unit, sources_for, variant_of

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class SeatSummary:
    player: str
    seat: int
    computer: bool
    decisions: int = 0
    mistakes: int = 0
    lost: float = 0.0
    costliest: list[Entry] = field(default_factory=list)
    extra_lost: dict = field(default_factory=dict)  # later sources: name -> lost in all
    # decisions judged in the review's unit (``lost``; two-seat Bones' final turns are judged
    # by the chance to win), and per later source the decisions it valued
    valued: int = 0
    extra_valued: dict = field(default_factory=dict)
    # luck (``coach.luck``), per unit (English key): the seat's own rolls' luck, their
    # number, and its decisions' changes in that unit (0 or less: what its errors cost)
    luck: dict = field(default_factory=dict)
    rolls: dict = field(default_factory=dict)
    skill: dict = field(default_factory=dict)
    # a two-seat game judged by the chance to win (a ``duel``): the seat's luck minus the
    # other's, and the other's decisions' changes (their errors raise this seat's chance)
    luck_against: dict = field(default_factory=dict)
    others_skill: dict = field(default_factory=dict)

    @property
    def mean_lost(self) -> float:
        """Lost per decision judged in the review's unit."""
        return self.lost / self.valued if self.valued else 0.0

    def mean_extra_lost(self, name: str) -> float | None:
        """A later source's value lost per decision it valued (None: it valued none)."""
        n = self.extra_valued.get(name, 0)
        return self.extra_lost[name] / n if n else None

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "seat": self.seat, "computer": self.computer,
                "decisions": self.decisions, "mistakes": self.mistakes, "lost": self.lost,
                "mean_lost": self.mean_lost,
                **{f"{k}_lost": v for k, v in self.extra_lost.items()},
                **{f"mean_{k}_lost": self.mean_extra_lost(k)  # i18n: not shown
                   for k in self.extra_lost},
                "costliest": [{"index": e.index, "turn": e.turn, "lost": e.lost, "why": e.why}
                              for e in self.costliest],
                **({"luck": [{"unit": tr(u), "luck": v, "rolls": self.rolls.get(u, 0),
                              "decisions": self.skill.get(u, 0.0),
                              "luck_against": self.luck_against.get(u),
                              "others_decisions": self.others_skill.get(u)}
                             for u, v in self.luck.items()]} if self.luck else {})}


class Review:
    """Every judged decision of a game and the totals per seat."""

    COLUMNS = render.COLUMNS

    def __init__(self, game: Game, entries: list[Entry], source: ValueSource,
                 notes: list[str], extras: dict[str, ValueSource] | None = None,
                 steps: list[Step] | None = None):
        self.variant = game.variant
        self.names = list(game.names)
        self.finished = game.is_over
        self.actions = len(game.actions)
        self.entries = entries
        self.source = source
        self.unit_key = source.UNIT
        self.tolerance = source.tolerance
        self.note_words = notes  # lazy messages: ``notes`` in the reader's language
        # later sources that valued at least one decision: name -> source (their columns)
        self.extras = {k: v for k, v in (extras or {}).items()
                       if any(k in e.extra for e in entries)}
        self.game_json = game.to_json()
        self._tables: dict = {}  # language -> the table (``table``)
        self.seats: dict[str, SeatSummary] = {
            s.name: SeatSummary(s.name, i, s.is_computer) for i, s in enumerate(game.seats)}
        for s in self.seats.values():
            s.extra_lost = dict.fromkeys(self.extras, 0.0)
            s.extra_valued = dict.fromkeys(self.extras, 0)
        for e in entries:
            s = self.seats[e.player]
            s.decisions += 1
            s.mistakes += e.mistake
            if e.unit_key == self.unit_key:  # a final turn's loss is in games won, not points
                s.lost += e.lost
                s.valued += 1
            for k, side in e.extra.items():
                s.extra_lost[k] = s.extra_lost.get(k, 0.0) + side.lost
                s.extra_valued[k] = s.extra_valued.get(k, 0) + 1
        self.steps: list[Step] = steps or []
        self.winner = (game.names[game.state.winner]
                       if game.is_over and getattr(game.state, "winner", None) is not None
                       else None)
        self._add_luck()
        for s in self.seats.values():
            # a final turn thrown away decides the game: such a mistake comes first
            mine = [e for e in entries if e.player == s.player and e.lost > 0
                    and (e.unit_key == self.unit_key or e.mistake)]
            s.costliest = sorted(mine, key=lambda e: (e.unit_key == self.unit_key,
                                                      -e.lost))[:3]

    def _add_luck(self) -> None:
        by_seat = {s.seat: s for s in self.seats.values()}
        for st in self.steps:
            s, u = by_seat[st.seat], st.unit_key
            s.luck[u] = s.luck.get(u, 0.0) + st.luck
            s.rolls[u] = s.rolls.get(u, 0) + st.rolled
            s.skill[u] = s.skill.get(u, 0.0) + st.change
            if st.kind == DUEL:
                for o in by_seat.values():
                    o.luck.setdefault(u, 0.0)
                    o.rolls.setdefault(u, 0)
                    o.skill.setdefault(u, 0.0)
        for s in self.seats.values():
            for u in s.luck:
                if any(st.kind == DUEL and st.unit_key == u for st in self.steps):
                    others = [o for o in self.seats.values() if o is not s]
                    s.luck_against[u] = s.luck[u] - sum(o.luck.get(u, 0.0) for o in others)
                    s.others_skill[u] = sum(o.skill.get(u, 0.0) for o in others)

    @property
    def luck_units(self) -> list[str]:
        """The units the luck is valued in (English keys), the most used first."""
        count: dict[str, int] = {}
        for st in self.steps:
            count[st.unit_key] = count.get(st.unit_key, 0) + 1
        return sorted(count, key=lambda u: -count[u])

    def segments(self) -> list[Segment]:
        """Each segment's account (``luck.segments``): value(end) - value(start) = luck +
        decisions' changes, per segment of one unit, from each seat's side."""
        return segments(self.steps, len(self.names))

    def lucky(self, step: Step) -> int:
        """+1 for a very lucky roll, -1 for a very unlucky one, else 0 (``LUCKY`` of the
        unit's source: the thresholds the docs state)."""
        if not step.rolled:
            return 0
        own = [s for s in (self.source, *self.extras.values()) if s.UNIT == step.unit_key]
        limit = (own[0] if own else source_for_unit(step.unit_key)).LUCKY
        return 1 if step.luck >= limit else -1 if step.luck <= -limit else 0

    @property
    def unit(self) -> str:
        return tr(self.unit_key)

    @property
    def notes(self) -> list[str]:
        return [i18n.text(n) for n in self.note_words]

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def for_seat(self, name: str) -> Review:
        """The same review with only ``name``'s decisions (RuleError for an unknown name)."""
        if name not in self.seats:
            raise RuleError(L_("no seat {name} in this game; the seats are {seats}",
                               name=repr(name), seats=", ".join(self.names)))
        out = object.__new__(Review)
        out.__dict__.update(self.__dict__)
        out.entries = [e for e in self.entries if e.player == name]
        out.seats = {name: self.seats[name]}
        out._tables = {}
        return out

    # ----- outputs: one table, read by every renderer (``render``) ------------------------
    def table(self) -> pd.DataFrame:
        """Every decision as a DataFrame (``render.build``: its columns), built once per
        language: the text, CSV, JSON, HTML and the app's table all read it."""
        lang = i18n.language()
        if lang not in self._tables:
            self._tables[lang] = render.build(self)
        return self._tables[lang]

    def steps_table(self) -> pd.DataFrame:
        """Every valued action (a roll or a decision) with its value before and after, its
        luck and its change (``render.steps_table``: the chart and the per-roll view)."""
        return render.steps_table(self)

    def luck_by_turn(self) -> pd.DataFrame:
        """Luck and decisions' changes summed per turn and seat (and unit)."""
        df = self.steps_table()
        cols = ["turn", "seat", "player", "unit"]
        return df.groupby(cols, sort=True)[["luck", "change"]].sum().reset_index()

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per decision (the CSV's)."""
        return render.rows(self)

    def to_csv(self) -> str:
        return render.to_csv(self)

    def to_dict(self) -> dict[str, Any]:
        return render.to_dict(self)

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    def summary_lines(self) -> list[str]:
        return render.summary_lines(self)

    def title(self) -> str:
        """"Review of a bones game", "... (not finished)"."""
        return render.title(self)

    def text(self) -> str:
        """The review as aligned text: a table of decisions, then the totals."""
        return render.text(self)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        lost = ", ".join(f"{s.player} {self.source.fmt(s.lost)}" for s in self.seats.values())
        return f"<Review {self.variant}: {len(self.entries)} decisions; lost {lost}>"

    def plot(self, unit: str | None = None):
        """A bokeh figure: the value through the whole game for every seat (in ``unit``, an
        English unit key; default the most used), very lucky and unlucky rolls and costly
        decisions marked (``coach.plot``); None when no roll was valued."""
        from . import plot

        return plot.figure(self, unit)

    def _repr_html_(self) -> str:
        from . import plot

        return render.to_html(self) + plot.html(self)


class _AnyStrategy(dict):
    """A players map for load_game that seats every computer without building it: a review
    only replays the recorded actions."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return None


def as_game(game: Game | dict | str) -> Game:
    """A Game, a saved game (dict or its JSON text) -> the Game."""
    if isinstance(game, Game):
        return game
    if isinstance(game, (str, bytes, dict)):
        return load_game(game if not isinstance(game, bytes) else game.decode(),
                         players=_AnyStrategy())
    raise RuleError(L_("review takes a game or a saved game's JSON, got {kind}",
                       kind=type(game).__name__))


def review(game: Game | dict | str, seat: str | None = None, luck: bool = True) -> Review:
    """Replay ``game`` (through its own ``apply``) and judge every decision of every seat;
    with ``luck`` (the default) also value every roll (``Review.steps``, ``coach.luck``)."""
    game = as_game(game)
    sources = sources_for(game)
    notes = [why for s in sources if (why := s.supports(game))]
    fresh = type(game)(game.seats, game.settings, game.seed)
    entries = []
    tracker = Tracker(luck_model_for(game) if luck else None)
    turn_of = variant_of(game).turn
    for i, action in enumerate(game.actions):
        d = decision(fresh, sources)
        if luck and not fresh.is_over:
            tracker.step(fresh, d, i, turn_of(fresh), action)
        if d is None and not fresh.is_over and (note := sources[0].skip(fresh)) \
                and note not in notes and not any(s.takes_over(fresh) for s in sources[1:]):
            notes.append(note)
        if d is not None:
            key = d.source.key_of(fresh, action)
            if any(o.key == key for o in d.options):
                entries.append(d.judge(key, i))
            elif (note := d.source.unjudged(key)) not in notes:
                notes.append(note)
        fresh.apply(action)
        tracker.done(fresh)
    out = Review(game, entries, sources[0], notes, {s.name: s for s in sources[1:]},
                 tracker.finish(fresh) if luck else [])
    return out if seat is None else out.for_seat(seat)
