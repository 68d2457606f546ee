"""The five-dice turn rules of Bones and Thousand, once (docs/explanation/rules.md "Bones",
"Thousand").

What a stand needs (Bones' minimum on the board; Thousand's opening, pits and barrel) and what a
stand or a bust does to a player's standing (the barrel, its attempts and fall, bolts and their
penalty), and how a Bones game goes on between turns (the final turns, the winner). The game
models, the players, the exact odds and the vectorised lab all call these functions, so there is
one copy of each rule.

Every function takes either plain numbers (a game, a player) or numpy arrays of the same shape
(the lab's batches, elementwise); plain numbers give plain Python numbers back, so the results
stay JSON-friendly and fast on the game's hot path. Pure: no param, no Panel.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy as np

from ..errors import RuleError
from ..i18n import L_
from .bones import check_preset

UNIT = {"bones": 50, "thousand": 5}  # every score of the variant is a multiple of this
# seed 000's computers (docs/explanation/rules.md "Bones"); Thousand's on its own scale (a 1 scores
# 10 there, 100 in Bones), with the threshold slider's range
STRATEGIES = {"bones": {"chicken": 100, "aggressive": 200, "gambler": 300},
              "thousand": {"chicken": 25, "aggressive": 50, "gambler": 100}}
THRESHOLD_RANGE = {"bones": (50, 2000), "thousand": (5, 500)}


@dataclass(frozen=True)
class FiveDiceRules:
    """The settings the turn rules and the odds depend on, hashable. Built by
    ``BonesSettings.turn_rules()`` / ``ThousandSettings.turn_rules()``; the fields of the other
    variant keep their defaults and are not read."""

    variant: str
    preset: str = "hypercard"
    choose_keepers: bool = False
    min_on_board: int = 600
    opening: int = 50
    pits: tuple[tuple[int, int], ...] = ((200, 300), (600, 700))
    barrel: int = 880
    target: int = 1000
    barrel_attempts: int = 3
    barrel_fall: int = 100
    bolts_per_penalty: int = 3
    bolt_penalty: int = 100

    @classmethod
    def of(cls, variant: str, values: dict[str, Any]) -> "FiveDiceRules":
        """From a variant's settings values (``Settings.to_dict()``); Bones' target is a game
        rule (the final turns), not a turn rule, so only Thousand's target is kept."""
        if variant == "bones":
            check_preset(values.get("preset", "hypercard"))
        names = RULE_FIELDS[variant]
        kw = {k: v for k, v in values.items() if k in names}
        if "pits" in kw:
            kw["pits"] = tuple((int(lo), int(hi)) for lo, hi in kw["pits"])
        if "choose_keepers" in kw:
            kw["choose_keepers"] = bool(kw["choose_keepers"])
        return cls(variant, **kw)

    @property
    def unit(self) -> int:
        return UNIT[self.variant]

    @property
    def kernel_key(self) -> tuple[str, str, bool]:
        """What one roll's scoring depends on."""
        if self.variant == "bones":
            return ("bones", self.preset, self.choose_keepers)
        return ("thousand", "", False)


_ALL = {f.name for f in fields(FiveDiceRules)} - {"variant"}
# the settings each variant's turn rules read (the rest keep their defaults)
RULE_FIELDS = {"bones": {"preset", "choose_keepers", "min_on_board"},
               "thousand": _ALL - {"preset", "choose_keepers", "min_on_board"}}


class Standing(NamedTuple):
    """A player's standing between turns: banked total, on the board (Bones) or opened
    (Thousand), and Thousand's barrel, failed barrel turns and bolts in a row."""

    total: Any
    on_board: Any = True
    on_barrel: Any = False
    barrel_turns: Any = 0
    bolts: Any = 0


# ----- scalar-or-array helpers (cheap on plain numbers: the game calls them on every step) ----
_ND = np.ndarray


def _where(cond, a, b):
    if cond.__class__ is _ND or a.__class__ is _ND or b.__class__ is _ND:
        return np.where(cond, a, b)
    return a if cond else b


def _max(a, b):
    if a.__class__ is _ND or b.__class__ is _ND:
        return np.maximum(a, b)
    return a if a >= b else b


def _zero(x):
    return np.zeros_like(x) if x.__class__ is _ND else 0


def _and(a, b):
    return a & b if a.__class__ is _ND or b.__class__ is _ND else (a and b)


def _not(a):
    return ~a if a.__class__ is _ND else not a


# ----- what a stand needs ----------------------------------------------------------------------
def pit_bounds(r: FiveDiceRules, total):
    """(low, high) of the pit holding ``total`` (low <= total < high; the first listed pit if
    pits overlap), (0, 0) outside every pit."""
    low = high = _zero(total)
    for pit_low, pit_high in reversed(r.pits):  # reversed: the first pit holding it wins
        inside = _and(total >= pit_low, total < pit_high)
        low, high = _where(inside, pit_low, low), _where(inside, pit_high, high)
    return low, high


def pit(r: FiveDiceRules, total: int) -> tuple[int, int] | None:
    """The pit (low, high) holding ``total``, or None (plain numbers only)."""
    low, high = pit_bounds(r, total)
    return (low, high) if high else None


def stand_needs(r: FiveDiceRules, total, on_board=True, on_barrel=False) -> list[tuple[str, Any]]:
    """Each minimum that can apply to a stand, as (goal, turn total it needs; 0 when it does not
    apply), in the order that breaks ties: "stand" (always 0), then Bones' "board" or Thousand's
    "open", "barrel", "pit". A stand needs the largest."""
    if r.variant == "bones":
        return [("stand", 0), ("board", _where(on_board, 0, r.min_on_board))]
    low, high = pit_bounds(r, total)
    return [("stand", 0), ("open", _where(on_board, 0, r.opening)),
            ("barrel", _where(on_barrel, r.target - total, 0)),
            ("pit", _where(_and(_not(on_barrel), high > 0), high - total, 0))]


def stand_need(r: FiveDiceRules, total=0, on_board=True, on_barrel=False):
    """The turn total a player with banked ``total`` needs to stand (the game's
    ``need_to_stand``)."""
    need = _zero(total)
    for _goal, n in stand_needs(r, total, on_board, on_barrel):
        need = _max(need, n)
    return need


def stand_goal(r: FiveDiceRules, total: int, on_board: bool = True,
               on_barrel: bool = False) -> tuple[str, int]:
    """(the rule that sets the need, the need) for plain numbers: the first largest of
    ``stand_needs``."""
    return max(stand_needs(r, total, on_board, on_barrel), key=lambda gn: gn[1])


# ----- what a stand and a bust do --------------------------------------------------------------
def gain_cap(r: FiveDiceRules, total: int, on_barrel: bool = False) -> int | None:
    """The most a stand can add to ``total`` (a stand reaching the barrel sets the total to
    it), or None when a stand adds its whole turn total."""
    if r.variant == "bones" or not r.barrel or on_barrel:
        return None
    return r.barrel - total


def stand(r: FiveDiceRules, p: Standing, turn_total) -> tuple[Standing, Any]:
    """(standing after banking ``turn_total``, whether that stand wins the game). Thousand: a
    stand from the barrel wins; without a barrel reaching the target wins; reaching the barrel
    sets the total to it and starts the barrel's attempts. Bones' target starts the final turns,
    which is the game's business (``won`` is always False there). With arrays, the fields that
    every stand sets (on_board, bolts) come back as plain values that broadcast."""
    new = p.total + turn_total
    if r.variant == "bones":
        return p._replace(total=new, on_board=True), False
    won = _where(p.on_barrel, True, (not r.barrel) and new >= r.target)
    climbs = _and(_not(won), _and(bool(r.barrel), new >= r.barrel))
    after = Standing(total=_where(climbs, r.barrel, new), on_board=True,
                     on_barrel=_where(climbs, True, p.on_barrel),
                     barrel_turns=_where(climbs, 0, p.barrel_turns), bolts=0)
    return after, won


def bust(r: FiveDiceRules, p: Standing) -> Standing:
    """Standing after a bust. Bones: unchanged. Thousand on the barrel: one more failed attempt;
    the last one falls off the barrel, losing barrel_fall. Off the barrel: a bolt; every
    bolts_per_penalty-th in a row costs bolt_penalty and starts the count again."""
    if r.variant == "bones":
        return p
    tries = p.barrel_turns + 1
    fall = _and(p.on_barrel, tries >= r.barrel_attempts)
    bolts = p.bolts + 1
    penalty = _and(_not(p.on_barrel), bolts >= r.bolts_per_penalty)
    total = p.total - _where(fall, r.barrel_fall, 0) - _where(penalty, r.bolt_penalty, 0)
    return Standing(total=total, on_board=p.on_board,
                    on_barrel=_and(p.on_barrel, _not(fall)),
                    barrel_turns=_where(p.on_barrel, _where(fall, 0, tries), p.barrel_turns),
                    bolts=_where(p.on_barrel, p.bolts, _where(penalty, 0, bolts)))


def attempts_left(r: FiveDiceRules, p: Standing) -> int | None:
    """Barrel turns a player on the barrel has left, None off the barrel."""
    return r.barrel_attempts - p.barrel_turns if p.on_barrel else None


def check_standing(r: FiveDiceRules, p: Standing) -> None:
    """RuleError unless ``p`` (plain numbers) is a standing these rules can reach between
    turns: whole numbers, a Bones total >= 0 and no barrel, a Thousand barrel player at exactly
    the barrel with attempts left, no one past the barrel or (without one) the target."""
    total, _on_board, on_barrel, barrel_turns, bolts = p
    for name, v in (("banked", total), ("barrel_turns", barrel_turns), ("bolts", bolts)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise RuleError(L_("{name} is a whole number, got {value}", name=name,
                               value=repr(v)[:60]))
    if barrel_turns < 0 or bolts < 0:
        raise RuleError(L_("barrel_turns and bolts are counts (>= 0)"))
    if r.variant == "bones":
        if total < 0:
            raise RuleError(L_("a Bones total is never negative, got {total}",
                               total=total))
        if on_barrel:
            raise RuleError(L_("Bones has no barrel"))
        return
    if on_barrel:
        if not r.barrel:
            raise RuleError(L_("Thousand: the barrel is off in these settings (barrel 0)"))
        if total != r.barrel:
            raise RuleError(L_("Thousand barrel: a player on the barrel has exactly {barrel}, "
                               "not {total}", barrel=r.barrel, total=total))
        if barrel_turns >= r.barrel_attempts:
            raise RuleError(L_("Thousand barrel: {attempts} attempts, {used} already used",
                               attempts=r.barrel_attempts, used=barrel_turns))
    elif r.barrel and total >= r.barrel and not (total == r.barrel and r.barrel_fall == 0):
        # with barrel_fall 0 a player who falls off the barrel stays at the barrel's total
        raise RuleError(L_("Thousand barrel: a stand reaching {barrel} sets the total to "
                           "{barrel} on the barrel, so {total} off the barrel cannot happen",
                           barrel=r.barrel, total=total))
    elif not r.barrel and total >= r.target:
        raise RuleError(L_("Thousand: a total of {total} has already won (target {target})",
                           total=total, target=r.target))


# ----- Bones between turns: the final turns and the winner -----------------------------------
# (docs/explanation/rules.md "Bones")
# The game (games/bones.py), the computers (players/fivedice.py) and the lab's two loops
# (lab/fivedice.py, lab/win.py) all sequence a Bones game with these, on plain numbers or on
# arrays (one entry per game; ``final_from`` -1 where nobody has reached the target yet).
def starts_final_turns(total, target: int, final_from):
    """Whether a stand that brought a player to ``total`` starts the final turns: the first to
    reach ``target`` (``final_from`` None or -1 while nobody has)."""
    if final_from is None:
        return total >= target
    return _and(final_from < 0, total >= target)


def leader_total(totals, seat):
    """The highest total of the players other than ``seat`` (``totals``: one entry per seat,
    or (games, seats) with one ``seat`` per game): what a final turn must pass."""
    if totals.__class__ is _ND:
        others = totals.astype(np.int64, copy=True)
        others[np.arange(others.shape[0]), seat] = np.iinfo(np.int64).min
        return others.max(axis=1)
    return max(t for i, t in enumerate(totals) if i != seat)


def passes_leader(total, turn_total, lead):
    """A final turn's aim ("one turn to try to exceed"): standing now ends above ``lead``. Every
    computer stands in its final turn exactly when it does (and the rules allow a stand)."""
    return total + turn_total > lead


def final_turn_need(r: FiveDiceRules, total, lead):
    """The smallest turn total that passes ``lead`` from ``total`` (scores are multiples of the
    unit), at least one unit."""
    return _max(lead - total + r.unit, r.unit)


def final_turns_over(final_from, next_seat):
    """The final turns end when the dice come back to the player who reached the target."""
    return final_from == next_seat


def bones_winner(totals, reached_at):
    """Bones' winner once the final turns are over: the highest total; a tie goes to the player
    who reached that total first (the smaller ``reached_at``). One entry per seat, or
    (games, seats) arrays for one winner per game."""
    if totals.__class__ is _ND:
        best = totals.max(axis=1, keepdims=True)
        first = np.where(totals == best, reached_at, np.iinfo(np.int64).max)
        return first.argmin(axis=1)
    return min(range(len(totals)), key=lambda i: (-totals[i], reached_at[i]))
