"""The coach's value framework: an ``Option`` valued, the ``ValueSource`` that values the
options of a variant's decisions, and the registry that finds a game's sources by its variant
(as ``ui/variants`` finds its UI): the framework never asks which variant it judges. A variant
adds a module to this package that calls ``register``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .. import i18n
from ..errors import RuleError
from ..games.base import Game
from ..i18n import L_, Msg, N_, _, fixed, p_, percent, tr

# ----- values ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One thing the player could do, valued: ``key`` identifies it (``("roll",)``,
    ``("keep", (5, 5, 5))``, ``("box", "full_house")``), ``words`` says it (a lazy message,
    or a function giving the words: ``label`` is it in the reader's language)."""

    key: tuple
    words: Msg | Callable[[], str]
    value: float
    detail: dict = field(default_factory=dict, compare=False)

    @property
    def label(self) -> str:
        return self.words() if callable(self.words) else i18n.text(self.words)


class ValueSource:
    """How one variant values the options of a decision (a strategy object: subclass it).
    Its words render when read (``unit``, ``tolerance_words``, ``fmt``): a review kept by a
    page reads in the language of whoever looks at it."""

    name = "value"        # column name
    UNIT = N_("points")   # what a value measures, in words (English: the key of a unit)
    tolerance = 0.01      # a loss above this is a mistake
    TOLERANCE_WORDS = N_("0.01 points")
    LOSS = N_("{amount} points")  # a loss in this source's unit
    DISAGREE = 0.0  # a later source: where its best differs from the first's (``disagree``)
    # a roll whose luck is at least this either way is very lucky / very unlucky (about the
    # luckiest 5% of rolls in seeded games; the docs' explanation page lists them)
    LUCKY = 100.0

    @property
    def unit(self) -> str:
        return tr(self.UNIT)

    @property
    def tolerance_words(self) -> str:
        return tr(self.TOLERANCE_WORDS)

    def supports(self, game: Game) -> Msg | str | None:
        """None if this source can value ``game``'s decisions, else why not ("": no note)."""
        return None

    def skip(self, game: Game) -> Msg | None:
        """Why the decision now is not judged in this source's units (the review notes it
        once), or None."""
        return None

    def takes_over(self, game: Game) -> bool:
        """A later source: it judges the decision now, which the first source skips (two-seat
        Bones' final turns, by the chance to win)."""
        return False

    def options(self, game: Game) -> list[Option]:
        """The distinct options of the player on turn now, valued."""
        raise NotImplementedError

    def key_of(self, game: Game, action) -> tuple:
        """The option ``action`` is, in ``game`` now (before it is applied)."""
        raise NotImplementedError

    def state_words(self, game: Game) -> Msg:
        raise NotImplementedError

    def unjudged(self, key: tuple) -> Msg:
        """Why a choice outside ``options`` is not judged (a review notes it)."""
        return L_("{choice}: not valued", choice=key[0])

    def situation(self, game: Game) -> dict:
        """The state as numbers, for grouping decisions ("where is the value lost?")."""
        return {}

    def disagree(self, best_label: str, best: float, points_label: str, points: float) -> str:
        """A later source: one sentence where its best play is not the first source's
        (called when read, like ``why``)."""
        return _("By the {unit}, {best} ({best_value}) beats {points} ({points_value}).",
                 unit=self.unit, best=best_label, best_value=self.fmt(best),
                 points=points_label, points_value=self.fmt(points))

    def why(self, d: Any, chosen: Option, best: Option) -> str:
        """One plain sentence on why ``best`` was better than ``chosen`` (called when read:
        an entry keeps this call, not its text)."""
        return _("{best} is worth {best_value}, {chosen} {chosen_value}.",
                 best=cap(best.label), best_value=self.fmt(best.value),
                 chosen=chosen.label, chosen_value=self.fmt(chosen.value))

    def fmt(self, value: float) -> str:
        return fixed(value, 1)

    def heads(self) -> tuple[str, str, str]:
        """A later source's three columns of the text review: its value, the best, the
        loss."""
        return self.name, f"{self.name} best", f"{self.name} lost"  # i18n: not shown

    def fmt_loss(self, value: float) -> str:
        return tr(self.LOSS, amount=fixed(value, 1))


class ChanceSource(ValueSource):
    """A source whose values are chances (0..1): shown as percentages, lost in percentage
    points (``LOSS``)."""

    tolerance = 1e-4
    TOLERANCE_WORDS = N_("0.01 percentage points")
    LUCKY = 0.15  # 15 percentage points (about the luckiest 5% of a game's rolls)
    LOSS = N_("{amount} percentage points")

    def fmt(self, value: float) -> str:
        return percent(value, 1)

    def fmt_loss(self, value: float) -> str:
        return tr(self.LOSS, amount=fixed(100 * value, 1))


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def pct(p: float) -> str:
    whole = abs(100 * p - round(100 * p)) < 0.05 or p > 0.1
    return percent(p, 0 if whole else 1)


def dice_list(dice) -> str:
    return " ".join(map(str, dice))


# the one-word options, said when read; a context tells them apart from the same English word
# elsewhere ("rolling" as a player's state)
def rolling() -> str:
    return p_("coach option", "rolling")


def standing() -> str:
    return p_("coach option", "standing")


def rolling_on() -> str:
    return p_("coach option", "rolling on")


def stopping() -> str:
    return p_("coach option", "stopping")


def scoring() -> str:
    return p_("coach option", "scoring")


def keeping() -> str:
    return p_("coach option", "keeping")


class GameWinSource(ChanceSource):
    """The chance to win the game, beside a variant's own unit where an exact play-to-win
    solver covers the decision (a later source: its column, and one sentence where its best
    play is not the first source's)."""

    name = "win"
    UNIT = N_("chance to win the game")
    LOSS = N_("{amount} percentage points of win chance")
    # the points' best play and the play that wins most "disagree" (one sentence says so)
    # where their win chances differ by more than this: 0.1 percentage points, so the two
    # numbers the sentence prints differ
    DISAGREE = 1e-3

    def heads(self) -> tuple[str, str, str]:
        return (p_("review column", "win"), p_("review column", "win best"),
                p_("review column", "win lost"))

    def disagree(self, best_label: str, best: float, points_label: str, points: float) -> str:
        """One sentence where the points' best play is not the play that wins most."""
        return _("Points and the chance to win disagree here: {best} wins the game "
                 "{best_chance} of the time, {points} (the points play) {points_chance}.",
                 best=best_label, best_chance=self.fmt(best), points=points_label,
                 points_chance=self.fmt(points))


# ----- the registry ------------------------------------------------------------------------------
def _next_turn(game: Game) -> int:
    return game.state.turn + 1


@dataclass(frozen=True)
class Variant:
    """What the coach knows of one variant: its value sources (the first decides "best" and
    "lost"; later ones add columns), its name in a sentence ("a bones game") and the number of
    the turn (or round) a decision is in, as the game's table numbers it."""

    name: str
    sources: tuple[Callable[[], ValueSource], ...]
    words: Callable[[], str]
    turn: Callable[[Game], int] = _next_turn
    luck: Callable[[], Any] | None = None  # its ``luck.LuckModel`` (None: no luck)


VARIANTS: dict[str, Variant] = {}
# variant -> value sources (the registry's view kept for callers of the one-module coach)
SOURCES: dict[str, list[Callable[[], ValueSource]]] = {}
_BY_UNIT: dict[str, ValueSource] = {}  # a unit's first registered source: its numbers' format


def register(variant: Variant) -> Variant:
    VARIANTS[variant.name] = variant
    SOURCES[variant.name] = list(variant.sources)
    for make in variant.sources:
        if make.UNIT not in _BY_UNIT:
            _BY_UNIT[make.UNIT] = make()
    return variant


def variant_of(game: Game | str) -> Variant:
    name = game if isinstance(game, str) else game.variant
    if name not in VARIANTS:
        raise RuleError(L_("the coach knows bones, thousand, under40 and yahtzee, not "
                           "{variant}", variant=repr(name)))
    return VARIANTS[name]


def sources_for(game: Game) -> list[ValueSource]:
    return [make() for make in variant_of(game).sources]


def source_for_unit(unit_key: str) -> ValueSource:
    """A source measuring in ``unit_key`` (its numbers' format and words)."""
    return _BY_UNIT[unit_key]


def source_named(name: str) -> ValueSource:
    """The source whose column is ``name`` ("win": the chance to win the game)."""
    return next(s for s in _BY_UNIT.values() if s.name == name)


def luck_model_for(game: Game):
    """A new luck model for ``game``'s variant (None where the coach has none)."""
    make = variant_of(game).luck
    return None if make is None else make()


def variant_words(variant: str) -> str:
    """A variant's name in a sentence ("a bones game")."""
    return VARIANTS[variant].words() if variant in VARIANTS else variant


def units() -> dict[str, ValueSource]:
    """Every registered unit (English key) -> a source measuring in it."""
    return _BY_UNIT
