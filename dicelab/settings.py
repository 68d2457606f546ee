"""Rules settings of each variant as param objects (docs/explanation/rules.md), with their named
presets.

Each parameter has bounds and a step so a settings panel can be generated with ``pn.Param``.
"""
from __future__ import annotations

from typing import Any, ClassVar

import param

from .errors import RuleError
from .i18n import L_, Ln_, N_
from .names import variant_name as _game
from .rules.fivedice import FiveDiceRules


class Settings(param.Parameterized):
    """Base: named presets, validation, and a plain-dict form for saving games."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    variant: ClassVar[str] = ""

    def __init__(self, preset: str | None = None, **overrides):
        game = _game(self.variant)
        if preset is not None and not isinstance(preset, str):
            raise RuleError(L_("a preset is a name, got {value}", value=repr(preset)[:100]))
        if preset is not None and not self.PRESETS:
            raise RuleError(L_("{game} has no presets, got preset {preset}", game=game,
                               preset=repr(preset)[:100]))
        unknown = set(overrides) - set(self.param) - {"name"}
        if unknown:
            raise RuleError(Ln_("{game} has no setting {unknown}; its settings are {settings}",
                                "{game} has no settings {unknown}; its settings are "
                                "{settings}", len(unknown), game=game,
                                unknown=", ".join(sorted(map(str, unknown)))[:200],
                                settings=", ".join(self.names())))
        values: dict[str, Any] = {}
        if self.PRESETS:
            preset = preset or next(iter(self.PRESETS))
            if preset not in self.PRESETS:
                raise RuleError(L_("{game} presets are {presets}; unknown preset {preset}",
                                   game=game, presets=", ".join(self.PRESETS),
                                   preset=repr(preset)[:100]))
            values = {"preset": preset, **self.PRESETS[preset]}
        values.update(overrides)
        # numbers in messages as str: written as typed, ungrouped (as English always showed them)
        for p, v in values.items():  # bounds in words a player reads (param's are English)
            if isinstance(v, bool) and p in self.param and \
                    isinstance(self.param[p], param.Number):  # True is not the number 1 here
                raise RuleError(L_("{game} setting {setting} is a number, not {value}",
                                   game=game, setting=p, value=str(v)))
            bounds = getattr(self.param[p], "bounds", None) if p in self.param else None
            if bounds and isinstance(v, int) and not isinstance(v, bool):
                if bounds[1] is not None and v > bounds[1]:
                    raise RuleError(L_("{game} setting {setting} must be at most {high}, not "
                                       "{value}", game=game, setting=p, high=str(bounds[1]),
                                       value=str(v)))
                if bounds[0] is not None and v < bounds[0]:
                    raise RuleError(L_("{game} setting {setting} must be at least {low}, not "
                                       "{value}", game=game, setting=p, low=str(bounds[0]),
                                       value=str(v)))
        try:
            super().__init__(**values)
        except (ValueError, TypeError) as exc:  # param's type checks
            raise RuleError(L_("{game} setting: {reason}", game=game, reason=str(exc))) from None
        self.validate()

    @classmethod
    def names(cls) -> list[str]:
        return [p for p in cls.param if p != "name"]

    @classmethod
    def given(cls, args) -> dict[str, Any]:
        """The settings an argparse namespace holds (attributes by setting name, not None)."""
        return {p: getattr(args, p) for p in cls.names() if getattr(args, p, None) is not None}

    def to_dict(self) -> dict[str, Any]:
        out = {}
        for p in self.names():
            v = getattr(self, p)
            # a pit typed into a form may be anything until validated: keep it as it is
            out[p] = [list(x) if isinstance(x, (list, tuple)) else x for x in v] \
                if p == "pits" else v
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
            raise RuleError(L_("{game} settings are a mapping of names to values, got {kind}",
                               game=_game(cls.variant), kind=type(data).__name__))
        data = dict(data)
        return cls(preset=data.pop("preset", None), **data)

    def copy(self) -> Settings:
        return self.from_dict(self.to_dict())

    def validate(self) -> None:
        """Check what bounds alone cannot (steps, combinations); raise RuleError."""
        for p in self.names():
            par = self.param[p]
            step = getattr(par, "step", None)
            v = getattr(self, p)
            if isinstance(par, param.Integer) and step and step > 1 and v % step:
                raise RuleError(L_("{game} setting {setting} moves in steps of {step}, got "
                                   "{value}", game=_game(self.variant), setting=p, step=str(step),
                                   value=str(v)))

    def __eq__(self, other):
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())
        return f"{type(self).__name__}({args})"

    __str__ = __repr__


class BonesSettings(Settings):
    variant = "bones"
    PRESETS = {"hypercard": {}, "french": {"min_on_board": 600}}

    preset: param.Selector[str] = param.Selector(
        default="hypercard", objects=list(PRESETS),
        doc=N_("hypercard: a fourth die of a kind counts only if it is a 1 or a 5; "
               "french: the whole group of three or more is set aside."))
    choose_keepers = param.Boolean(default=False,
                                   doc=N_("The player picks which counting dice to set aside."))
    min_on_board = param.Integer(
        default=600, bounds=(50, 700), step=50,
        doc=N_("Turn total needed to stand before first getting on the board "
               "(50: any score). The french preset fixes 600."))
    target = param.Integer(default=10_000, bounds=(500, 100_000), step=500,
                           doc=N_("Banked total that starts the final turns."))

    def validate(self):
        super().validate()
        if self.preset == "french" and self.min_on_board != 600:
            raise RuleError(L_("the french preset fixes min_on_board at {points}", points=600))

    def turn_rules(self) -> FiveDiceRules:
        """The turn rules these settings make (dicelab.rules.fivedice)."""
        return FiveDiceRules.of(self.variant, self.to_dict())


class ThousandSettings(Settings):
    variant = "thousand"

    opening = param.Integer(default=50, bounds=(0, 500), step=5,
                            doc=N_("Turn total needed for a player's first stand."))
    pits = param.List(default=[(200, 300), (600, 700)],
                      doc=N_("(low, high): a total t with low <= t < high may stand only by "
                          "reaching high in one turn."))
    barrel = param.Integer(default=880, bounds=(0, 5000), step=5,
                           doc=N_("Standing to this or more sets the total to it; 0: no barrel."))
    target = param.Integer(default=1000, bounds=(100, 10_000), step=5, doc=N_("Winning total."))
    barrel_attempts = param.Integer(default=3, bounds=(1, 20), step=1,
                                    doc=N_("Turns on the barrel before falling off."))
    barrel_fall = param.Integer(default=100, bounds=(0, 1000), step=5,
                                doc=N_("Points lost on falling off the barrel."))
    bolts_per_penalty = param.Integer(
        default=3, bounds=(1, 20), step=1,
        doc=N_("Every this-many-th bolt in a row costs bolt_penalty."))
    bolt_penalty = param.Integer(
        default=100, bounds=(0, 1000), step=50,
        doc=N_("Points lost for bolts in a row (50 is half a bolt, 0 off)."))

    def validate(self):
        super().validate()
        if self.barrel and self.barrel >= self.target:
            raise RuleError(L_("the barrel ({barrel}) must be below the target ({target})",
                               barrel=str(self.barrel), target=str(self.target)))
        if self.opening >= self.target:
            raise RuleError(L_("the opening ({opening}) must be below the target ({target})",
                               opening=str(self.opening), target=str(self.target)))
        pits = _check_pits(self.pits, self.param.target.bounds[1])
        with param.parameterized.discard_events(self):
            self.pits = pits
        for low, high in pits:  # a stand onto the barrel could never climb out of the pit
            if self.barrel and low <= self.barrel < high:
                raise RuleError(L_("the barrel ({barrel}) may not be inside the pit "
                                   "{low}-{high}", barrel=str(self.barrel), low=str(low),
                                   high=str(high)))

    turn_rules = BonesSettings.turn_rules


MAX_PITS = 10
MAX_PIT_WIDTH = 1000
# A pit's width bounds the turn total the odds solver tables (a player in a pit needs at most
# high - low): with the barrel (at most 5000) it keeps every Thousand solve under ~0.3 s and 1 MB
# (benchmarks: a pit of 10,000,000 once froze a server for 34 s).


def _whole(x) -> int:
    import numbers

    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise RuleError(L_("a pit's ends are whole numbers, got {value}", value=repr(x)[:60]))
    return int(x)


def _check_pits(raw, top: int) -> list[tuple[int, int]]:
    """Thousand pits: at most MAX_PITS (low, high) pairs of whole multiples of 5, in increasing
    order, not overlapping, 0 <= low < high <= top (the highest target) and
    high - low <= MAX_PIT_WIDTH. (A pit above a lower target is never reached: harmless.)"""
    if len(raw) > MAX_PITS:
        raise RuleError(L_("at most {most} pits, got {n}", most=MAX_PITS, n=len(raw)))
    pits: list[tuple[int, int]] = []
    for pit in raw:
        if isinstance(pit, (str, bytes, dict)) or not hasattr(pit, "__len__") or len(pit) != 2:
            raise RuleError(L_("a pit is (low, high), got {value}", value=repr(pit)[:100]))
        low, high = (_whole(x) for x in pit)
        got = {"low": str(low), "high": str(high)}  # as typed, not grouped
        if not 0 <= low < high:
            raise RuleError(L_("a pit needs 0 <= low < high, got ({low}, {high})", **got))
        if low % 5 or high % 5:
            raise RuleError(L_("Thousand totals move in steps of 5: a pit's ends are multiples "
                               "of 5, got ({low}, {high})", **got))
        if high > top:
            raise RuleError(L_("a pit ends at {top} (the highest target) or below, got ({low}, "
                               "{high})", top=str(top), **got))
        if high - low > MAX_PIT_WIDTH:
            raise RuleError(L_("a pit is at most {most} wide, got ({low}, {high})",
                               most=str(MAX_PIT_WIDTH), **got))
        if pits and low < pits[-1][1]:
            raise RuleError(L_("pits go in increasing order without overlapping: ({low}, "
                               "{high}) after {before}", before=str(pits[-1]), **got))
        pits.append((low, high))
    return pits


class Under40Settings(Settings):
    variant = "under40"

    target = param.Integer(default=1000, bounds=(40, 100_000), step=10,
                           doc=N_("Total that wins at the end of a round."))


class YahtzeeSettings(Settings):
    variant = "yahtzee"
    PRESETS = {
        "official": {"rerolls": 2, "upper_bonus": 35, "yahtzee_bonus": 100, "joker": True},
        "seed": {"rerolls": 3, "upper_bonus": 0, "yahtzee_bonus": 0, "joker": False},
        "upper_bonus_only": {"rerolls": 2, "upper_bonus": 35, "yahtzee_bonus": 0, "joker": False},
        "no_bonus": {"rerolls": 2, "upper_bonus": 0, "yahtzee_bonus": 0, "joker": False},
    }

    preset: param.Selector[str] = param.Selector(default="official", objects=list(PRESETS),
                            doc=N_("official: 3 rolls, bonuses, forced joker; seed: seed 004 as "
                                "written (4 rolls, no bonuses, no joker)."))
    rerolls = param.Integer(
        default=2, bounds=(0, 5), step=1,
        doc=N_("Times a player may choose dice to roll again after the first roll."))
    upper_bonus = param.Integer(default=35, bounds=(0, 100), step=5,
                                doc=N_("Bonus when Aces..Sixes reach the threshold (0: none)."))
    upper_bonus_threshold = param.Integer(default=63, bounds=(0, 105), step=1)
    yahtzee_bonus = param.Integer(default=100, bounds=(0, 500), step=50,
                                  doc=N_("Bonus for each further Yahtzee once the box holds 50."))
    joker = param.Boolean(default=True, doc=N_("Forced joker rule for further Yahtzees."))
    filled_box_wastes_round = param.Boolean(
        default=False, doc=N_("Seed 004's console: naming a filled box wastes the round."))


SETTINGS: dict[str, type[Settings]] = {
    "bones": BonesSettings, "thousand": ThousandSettings,
    "under40": Under40Settings, "yahtzee": YahtzeeSettings,
}
