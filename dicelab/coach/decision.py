"""One decision: the options of the player on turn valued (``Decision``, ``decision(game)``),
and a choice among them judged (``Entry``: what it lost, and why)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .. import i18n
from ..errors import RuleError
from ..games.base import Game
from ..i18n import _, n_, tr
from .values import (Option, ValueSource, cap, source_for_unit, source_named, sources_for,
                     units, variant_of)


@dataclass(frozen=True)
class Side:
    """A later source's values of one decision (``Entry.extra[name]``): the chance to win."""

    values: dict          # option key -> value
    chosen: float
    best: float
    best_key: tuple
    lost: float           # best - chosen: 0 for the best, never negative
    mistake: bool         # lost above that source's tolerance


@dataclass(frozen=True)
class Entry:
    """One decision of one seat, judged. Its words (``state``, ``why``, ``unit``, ``line()``)
    render when read, in the reader's language: an entry keeps lazy messages and the calls
    that say why, not text."""

    index: int            # the action's position in the game (0-based)
    turn: int             # the game's turn (Under40: round) number, from 1
    seat: int
    player: str
    computer: bool
    state_words: Any      # the situation in words (a lazy message): ``state``
    options: tuple[Option, ...]
    chosen: Option
    best: Option
    lost: float           # best.value - chosen.value: 0 for the best, never negative
    mistake: bool         # lost above the source's tolerance
    reasons: tuple        # calls giving sentences ("" in all when the choice was the best)
    unit_key: str         # the source's unit in English (``unit``: in the reader's language)
    extra: dict = field(default_factory=dict)  # later sources: name -> Side
    situation: dict = field(default_factory=dict)  # the state as numbers (source.situation)

    @property
    def state(self) -> str:
        return i18n.text(self.state_words)

    @property
    def why(self) -> str:
        """One sentence, or two where the chance to win disagrees ("" for the best)."""
        return " ".join(say() for say in self.reasons)

    @property
    def unit(self) -> str:
        return tr(self.unit_key)

    def line(self, source: ValueSource | None = None) -> str:
        """The short line the app and the terminal show after a decision."""
        src = self.source if self.unit_key in units() else source or ValueSource()
        chosen = src.fmt(self.chosen.value)
        if not self.mistake:
            if self.best.key != self.chosen.key and self.lost == 0:
                text = _("Best play: {choice} ({value}; {best} was as good).",
                         choice=self.chosen.label, value=chosen, best=self.best.label)
            else:
                text = _("Best play: {choice} ({value}).", choice=self.chosen.label,
                         value=chosen)
        else:
            text = _("{choice} cost {loss}: {best} was worth {best_value}, {choice_again} "
                     "{value}.", choice=cap(self.chosen.label),
                     loss=src.fmt_loss(self.lost), best=self.best.label,
                     best_value=src.fmt(self.best.value), choice_again=self.chosen.label,
                     value=chosen)
        for k, side in self.extra.items():  # the chance to win, where it is known
            x = source_named(k)
            if x.UNIT == self.unit_key:  # the decision was judged in it: said already
                continue
            if side.mistake:
                text += " " + _("{unit}: {chance}, {best_chance} by {best}.",
                                unit=cap(x.unit), chance=x.fmt(side.chosen),
                                best_chance=x.fmt(side.best), best=self._label(side.best_key))
            else:
                text += " " + _("{unit}: {chance}.", unit=cap(x.unit),
                                chance=x.fmt(side.chosen))
        return text

    def _label(self, key: tuple) -> str:
        return next((o.label for o in self.options if o.key == key), "")

    @property
    def source(self) -> ValueSource:
        """The source this decision was judged by (its numbers' format)."""
        return source_for_unit(self.unit_key)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "seat": self.seat,
                "player": self.player, "computer": self.computer, "state": self.state,
                "options": [{"option": o.label, "value": o.value,
                             **{k: v.values.get(o.key) for k, v in self.extra.items()}}
                            for o in self.options],
                "choice": self.chosen.label, "choice_value": self.chosen.value,
                "best": self.best.label, "best_value": self.best.value, "lost": self.lost,
                "mistake": self.mistake, "why": self.why, "unit": self.unit,
                "situation": self.situation,
                **self.extra_fields()}

    def extra_fields(self) -> dict[str, Any]:
        """The later sources' numbers, flat: win_choice_value, win_best, win_best_value,
        win_lost, win_mistake (the review's CSV, JSON and tables)."""
        out: dict[str, Any] = {}
        for k, v in self.extra.items():
            best = self._label(v.best_key)
            out.update({f"{k}_choice_value": v.chosen, f"{k}_best": best,
                        f"{k}_best_value": v.best, f"{k}_lost": v.lost,
                        f"{k}_mistake": v.mistake})
        return out


@dataclass(frozen=True)
class Decision:
    """The options of the player on turn in one state (``decision(game)``)."""

    source: ValueSource
    seat: int
    player: str
    computer: bool
    turn: int
    state: str
    options: tuple[Option, ...]
    extra: tuple = ()  # (source, options) of the other sources
    situation: dict = field(default_factory=dict)

    @property
    def best(self) -> Option:
        return max(self.options, key=lambda o: o.value)

    def option(self, key: tuple) -> Option:
        for o in self.options:
            if o.key == key:
                return o
        raise RuleError(  # i18n: not shown (a defect, not a player's error)
            f"internal: no option {key!r} among {[o.key for o in self.options]}")

    def judge(self, key: tuple, index: int = -1) -> Entry:
        chosen, best = self.option(key), self.best
        lost = best.value - chosen.value
        if chosen.key == best.key or lost < 0:  # lost < 0 only by float rounding of a tie
            lost = 0.0
        mistake = lost > self.source.tolerance
        # the sentences are said when read (in the reader's language): keep the calls
        why = [partial(self.source.why, self, chosen, best)] if lost > 0 else []
        extra = {}
        for src, opts in self.extra:
            by = {o.key: o.value for o in opts}
            if key not in by:
                continue
            top_key = max(by, key=by.get)
            top = by[top_key]
            lost_here = 0.0 if top_key == key else max(top - by[key], 0.0)
            extra[src.name] = Side(by, by[key], top, top_key, lost_here,
                                   lost_here > src.tolerance)
            if best.key in by and top - by[best.key] > src.DISAGREE:
                why.append(partial(_disagree, src, self.option(top_key), top, best,
                                   by[best.key]))
        return Entry(index, self.turn, self.seat, self.player, self.computer, self.state,
                     self.options, chosen, best, lost, mistake, tuple(why), self.source.UNIT,
                     extra, self.situation)

    def hint(self) -> str:
        """The coach's advice before the decision: the options, best first."""
        fmt = self.source.fmt
        ranked = sorted(self.options, key=lambda o: -o.value)
        shown = "; ".join(f"{o.label} {fmt(o.value)}" for o in ranked[:4])
        if len(ranked) > 4:
            return n_("Coach: best is {best} ({unit}: {options} (and {n} more)).",
                      "Coach: best is {best} ({unit}: {options} (and {n} more)).",
                      len(ranked) - 4, best=ranked[0].label, unit=self.source.unit,
                      options=shown)
        return _("Coach: best is {best} ({unit}: {options}).", best=ranked[0].label,
                 unit=self.source.unit, options=shown)


def _disagree(src: ValueSource, top: Option, top_value: float, best: Option,
              value: float) -> str:
    return src.disagree(top.label, top_value, best.label, value)


def decision(game: Game, sources: list[ValueSource] | None = None) -> Decision | None:
    """The decision the player on turn faces now, valued; None when the game is over, the
    rules leave one option, or the source cannot value this game."""
    if game.is_over:
        return None
    sources = sources or sources_for(game)
    main = sources[0]
    if main.supports(game) is not None or len(game.legal_actions()) < 2:
        return None
    if main.skip(game) is not None:  # a later source may judge it (Bones' final turns)
        main = next((s for s in sources[1:] if s.takes_over(game)), None)
        if main is None:
            return None
    options = main.options(game)
    if len(options) < 2:
        return None
    # the later sources' columns (one that judges the decision fills its own column too)
    extra = tuple((s, options if s is main else s.options(game)) for s in sources[1:]
                  if s is main or s.supports(game) is None)
    seat = game.current_player
    return Decision(main, seat, game.names[seat], game.seats[seat].is_computer,
                    variant_of(game).turn(game), main.state_words(game), tuple(options), extra,
                    main.situation(game))


def hint_text(game: Game) -> str | None:
    """The coach's hint for the player on turn, or None when there is nothing to decide."""
    d = decision(game)
    return None if d is None else d.hint()


def judge(game: Game, action) -> Entry | None:
    """The entry ``action`` would make in ``game`` now (before it is applied); None when it is
    not a decision. The game does not change."""
    from ..actions import coerce

    action = game.check(action)
    d = decision(game)
    if d is None:
        return None
    key = d.source.key_of(game, coerce(action))
    if not any(o.key == key for o in d.options):
        return None
    return d.judge(key, game.version)
