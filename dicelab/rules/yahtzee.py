"""Yahtzee box scoring and the forced joker rule (docs/explanation/rules.md "Yahtzee"; seed 004).
Pure."""
from __future__ import annotations

from functools import cache

from ..dice import check_dice
from ..errors import RuleError
from ..i18n import L_, Joined, Msg, N_

UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")
LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
         "large_straight", "yahtzee", "chance")
BOXES = UPPER + LOWER
# English labels (also what a typed box name is matched against); shown with label(box)
LABELS = {
    "aces": N_("Aces"), "twos": N_("Twos"), "threes": N_("Threes"), "fours": N_("Fours"),
    "fives": N_("Fives"), "sixes": N_("Sixes"), "three_of_a_kind": N_("Three of a Kind"),
    "four_of_a_kind": N_("Four of a Kind"), "full_house": N_("Full House"),
    "small_straight": N_("Small Straight"), "large_straight": N_("Large Straight"),
    "yahtzee": N_("Yahtzee"), "chance": N_("Chance"),
}


def label(box: str) -> Msg:
    """A box's label in the reader's language (lazy: ``str()`` or an f-string renders it)."""
    return Msg(LABELS[box])
FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT, YAHTZEE = 25, 30, 40, 50
JOKER_FIXED = {"full_house": FULL_HOUSE, "small_straight": SMALL_STRAIGHT,
               "large_straight": LARGE_STRAIGHT}


def box_name(text: str) -> str:
    """The box named by ``text`` ("Full House", "full_house", "full house"), or RuleError."""
    key = "_".join(str(text).strip().lower().replace("-", " ").replace("_", " ").split())
    if key not in BOXES:
        raise RuleError(L_("unknown Yahtzee box {box}; the boxes are: {boxes}",
                           box=repr(text)[:60], boxes=Joined(label(b) for b in BOXES)))
    return key


_RUNS_OF_FOUR = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})


@cache
def _boxes_sorted(dice: tuple[int, ...]) -> tuple[int, ...]:
    counts = [dice.count(f) for f in range(1, 7)]
    total = sum(dice)
    faces = set(dice)
    small = any(r <= faces for r in _RUNS_OF_FOUR)
    return (
        *(f * counts[f - 1] for f in range(1, 7)),
        total if max(counts) >= 3 else 0,
        total if max(counts) >= 4 else 0,
        FULL_HOUSE if sorted(c for c in counts if c) == [2, 3] else 0,  # not five alike
        SMALL_STRAIGHT if small else 0,
        LARGE_STRAIGHT if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0,
        YAHTZEE if max(counts) == 5 else 0,
        total,
    )


def boxes(dice) -> dict[str, int]:
    """Points of five dice in every box, as printed on the card (no joker)."""
    dice = check_dice(dice, 5)
    return dict(zip(BOXES, _boxes_sorted(tuple(sorted(dice)))))


def is_yahtzee(dice) -> bool:
    return len(set(dice)) == 1 and len(dice) == 5


def scoring_options(dice, open_boxes, yahtzee_box: int | None, joker: bool) -> dict[str, int]:
    """The boxes that may be filled with these dice now, and their points.

    ``open_boxes``: boxes still empty; ``yahtzee_box``: what the Yahtzee box holds (None if open).
    With ``joker`` (forced joker rule), a Yahtzee with the Yahtzee box filled must go in its upper
    box if open; else in any open lower box at full value; else zero in an open upper box.
    """
    return options_of_checked(tuple(sorted(check_dice(dice, 5))), open_boxes, yahtzee_box, joker)


def options_of_checked(dice: tuple[int, ...], open_boxes, yahtzee_box: int | None,
                       joker: bool) -> dict[str, int]:
    """``scoring_options`` of dice already checked and sorted (the solver asks 25,000 times)."""
    raw = dict(zip(BOXES, _boxes_sorted(dice)))
    opened = set(open_boxes)
    open_boxes = [b for b in BOXES if b in opened]
    if not (joker and yahtzee_box is not None and is_yahtzee(dice)):
        return {b: raw[b] for b in open_boxes}
    upper = UPPER[dice[0] - 1]
    if upper in open_boxes:
        return {upper: raw[upper]}
    lower = [b for b in open_boxes if b in LOWER]
    if lower:
        return {b: JOKER_FIXED.get(b, raw[b]) for b in lower}
    return {b: 0 for b in open_boxes}


def yahtzee_bonus_due(dice, yahtzee_box: int | None, bonus: int) -> int:
    """The Yahtzee bonus for this roll: ``bonus`` for a further Yahtzee once the box holds 50."""
    return bonus if bonus and yahtzee_box == YAHTZEE and is_yahtzee(dice) else 0


def upper_bonus_due(upper_total: int, threshold: int, bonus: int) -> int:
    return bonus if upper_total >= threshold else 0
