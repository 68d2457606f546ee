"""Yahtzee box scoring, RULES.md "Yahtzee" (seed 004): the seed's examples, the forced joker
rule, the bonuses, and an independent brute-force reading checked over all 7,776 rolls."""
from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicelab
from dicelab.errors import RuleError
from dicelab.rules import yahtzee
from dicelab.rules.yahtzee import BOXES, LOWER, UPPER

# Every example of seed 004's "Yahtzee Scoring Guidelines", word for word.
SEED_004_EXAMPLES = [
    ((1, 1, 3, 4, 2), "aces", 2),
    ((1, 2, 3, 4, 2), "twos", 4),
    ((1, 3, 3, 4, 2), "threes", 6),
    ((1, 4, 4, 4, 2), "fours", 12),
    ((1, 5, 4, 4, 5), "fives", 10),
    ((6, 6, 4, 4, 5), "sixes", 12),
    ((6, 6, 4, 4, 5), "chance", 25),
    ((4, 4, 4, 5, 2), "three_of_a_kind", 19),
    ((3, 3, 3, 3, 2), "four_of_a_kind", 14),
    ((3, 3, 4, 3, 4), "full_house", 25),
    ((1, 4, 6, 2, 3), "small_straight", 30),
    ((2, 4, 6, 3, 5), "large_straight", 40),
    ((3, 3, 3, 3, 3), "yahtzee", 50),
]


@pytest.mark.parametrize("dice, box, points", SEED_004_EXAMPLES)
def test_seed_004_examples(dice, box, points):
    assert yahtzee.boxes(dice)[box] == points
    assert dicelab.yahtzee_boxes(dice)[box] == points


@pytest.mark.parametrize("dice, box", [
    ((1, 1, 3, 4, 2), "three_of_a_kind"),   # a pair is not three of a kind
    ((4, 4, 4, 5, 2), "four_of_a_kind"),
    ((4, 4, 4, 5, 2), "full_house"),        # three alike and two different is not a full house
    ((1, 2, 3, 5, 6), "small_straight"),    # 1 2 3 _ 5 6: no four in a row
    ((1, 4, 6, 2, 3), "large_straight"),    # four in a row is not five
    ((1, 2, 3, 4, 6), "large_straight"),
    ((3, 3, 3, 3, 2), "yahtzee"),
])
def test_dice_that_do_not_fit_score_zero(dice, box):
    """RULES.md: zero where the dice don't fit the box."""
    assert yahtzee.boxes(dice)[box] == 0


def test_five_of_a_kind_is_not_a_full_house_without_the_joker():
    """RULES.md: a Yahtzee is a Full House only as a joker."""
    for face in range(1, 7):
        assert yahtzee.boxes((face,) * 5)["full_house"] == 0
        opts = yahtzee.scoring_options((face,) * 5, BOXES, None, joker=True)
        assert opts["full_house"] == 0  # Yahtzee box still open: no joker yet
        opts = yahtzee.scoring_options((face,) * 5, ["full_house"], 50, joker=False)
        assert opts == {"full_house": 0}


@pytest.mark.parametrize("dice, small, large", [
    ((1, 2, 3, 4, 4), 30, 0), ((2, 3, 4, 5, 2), 30, 0), ((3, 4, 5, 6, 6), 30, 0),
    ((1, 2, 3, 4, 5), 30, 40), ((2, 3, 4, 5, 6), 30, 40), ((6, 5, 4, 3, 1), 30, 0),
])
def test_straights(dice, small, large):
    """A large straight also holds four in a row, so it fits Small Straight too."""
    b = yahtzee.boxes(dice)
    assert (b["small_straight"], b["large_straight"]) == (small, large)


def test_box_names_parse_as_typed():
    assert yahtzee.box_name("Full House") == "full_house"
    assert yahtzee.box_name("full_house") == "full_house"
    assert yahtzee.box_name("  THREE of a kind ") == "three_of_a_kind"
    assert yahtzee.box_name("Aces") == "aces"
    with pytest.raises(RuleError, match="unknown Yahtzee box"):
        yahtzee.box_name("Fullest House")
    with pytest.raises(RuleError, match="a die shows 1 to 6"):
        yahtzee.boxes((1, 2, 3, 4, 7))
    with pytest.raises(RuleError, match="needs 5 dice"):
        yahtzee.boxes((1, 2, 3, 4))


# ----- the forced joker rule (RULES.md, preset official) -------------------------------------

def test_joker_forces_the_upper_box_when_open():
    opts = yahtzee.scoring_options((4,) * 5, BOXES[:-2] + ("chance",), 50, joker=True)
    assert opts == {"fours": 20}


def test_joker_lower_boxes_take_full_value_when_the_upper_box_is_filled():
    open_boxes = [b for b in BOXES if b not in ("fours", "yahtzee")]
    opts = yahtzee.scoring_options((4,) * 5, open_boxes, 50, joker=True)
    assert opts == {"three_of_a_kind": 20, "four_of_a_kind": 20, "full_house": 25,
                    "small_straight": 30, "large_straight": 40, "chance": 20}


def test_joker_scores_zero_in_an_open_upper_box_when_no_lower_box_is_open():
    opts = yahtzee.scoring_options((4,) * 5, ["aces", "sixes"], 50, joker=True)
    assert opts == {"aces": 0, "sixes": 0}


def test_joker_applies_when_the_yahtzee_box_holds_zero():
    """'with the Yahtzee box filled': a scratched (0) Yahtzee box still forces the joker."""
    assert yahtzee.scoring_options((2,) * 5, ["twos", "chance"], 0, joker=True) == {"twos": 10}
    assert yahtzee.scoring_options((2,) * 5, ["full_house"], 0, joker=True) == {"full_house": 25}


def test_no_joker_rule_means_plain_box_values():
    """Preset seed: no joker; a Yahtzee with its box filled goes anywhere at printed value."""
    opts = yahtzee.scoring_options((4,) * 5, ["fours", "full_house", "large_straight"], 50,
                                   joker=False)
    assert opts == {"fours": 20, "full_house": 0, "large_straight": 0}


def test_not_a_yahtzee_is_untouched_by_the_joker():
    opts = yahtzee.scoring_options((4, 4, 4, 4, 2), ["fours", "full_house"], 50, joker=True)
    assert opts == {"fours": 16, "full_house": 0}


# ----- bonuses -----------------------------------------------------------------------------

def test_yahtzee_bonus():
    """100 for each further Yahtzee once the Yahtzee box holds 50 (preset official)."""
    assert yahtzee.yahtzee_bonus_due((6,) * 5, 50, 100) == 100
    assert yahtzee.yahtzee_bonus_due((6,) * 5, 0, 100) == 0        # box scratched: no bonus
    assert yahtzee.yahtzee_bonus_due((6,) * 5, None, 100) == 0     # the first Yahtzee
    assert yahtzee.yahtzee_bonus_due((6, 6, 6, 6, 5), 50, 100) == 0
    assert yahtzee.yahtzee_bonus_due((6,) * 5, 50, 0) == 0         # preset seed: no bonus


def test_upper_bonus_at_63_exactly_and_not_at_62():
    assert yahtzee.upper_bonus_due(63, 63, 35) == 35
    assert yahtzee.upper_bonus_due(62, 63, 35) == 0
    assert yahtzee.upper_bonus_due(105, 63, 35) == 35
    assert yahtzee.upper_bonus_due(70, 63, 0) == 0


# ----- independent reading, all 7,776 rolls ----------------------------------------------------

def reference_boxes(dice):
    """RULES.md read afresh: count faces, look for runs in the sorted distinct faces."""
    counts = Counter(dice)
    total = sum(dice)
    run = "".join(str(f) for f in sorted(counts))
    shape = sorted(counts.values())
    out = {name: face * counts[face] for face, name in enumerate(UPPER, start=1)}
    out["three_of_a_kind"] = total if shape[-1] >= 3 else 0
    out["four_of_a_kind"] = total if shape[-1] >= 4 else 0
    out["full_house"] = 25 if shape == [2, 3] else 0
    out["small_straight"] = 30 if any(s in run for s in ("1234", "2345", "3456")) else 0
    out["large_straight"] = 40 if run in ("12345", "23456") else 0
    out["yahtzee"] = 50 if shape == [5] else 0
    out["chance"] = total
    return out


def reference_options(dice, open_boxes, yahtzee_box, joker):
    """The forced joker rule as RULES.md words it, built without scoring_options."""
    raw = reference_boxes(dice)
    if not (joker and yahtzee_box is not None and len(set(dice)) == 1):
        return {b: raw[b] for b in open_boxes}
    upper = UPPER[dice[0] - 1]
    if upper in open_boxes:
        return {upper: raw[upper]}
    lower = [b for b in open_boxes if b in LOWER]
    fixed = {"full_house": 25, "small_straight": 30, "large_straight": 40}
    if lower:
        return {b: fixed.get(b, raw[b]) for b in lower}
    return {b: 0 for b in open_boxes}


def test_every_roll_matches_the_reference():
    rolls = list(product(range(1, 7), repeat=5))
    assert len(rolls) == 7776
    tally = Counter()
    for dice in rolls:
        got = yahtzee.boxes(dice)
        assert got == reference_boxes(dice), dice
        tally.update(b for b, v in got.items() if v and b not in UPPER)
    # known counts of the 7,776 ordered rolls
    assert tally["yahtzee"] == 6
    assert tally["large_straight"] == 240
    assert tally["full_house"] == 300
    assert tally["four_of_a_kind"] == 156
    assert tally["three_of_a_kind"] == 1656
    assert tally["small_straight"] == 1200


def test_joker_options_match_the_reference_for_every_yahtzee_and_card():
    """All six Yahtzees against every set of open boxes that leaves the Yahtzee box filled."""
    others = [b for b in BOXES if b != "yahtzee"]
    checked = 0
    for face in range(1, 7):
        dice = (face,) * 5
        for k in range(1, len(others) + 1):
            for open_boxes in combinations(others, k):
                for box_value in (0, 50):
                    for joker in (True, False):
                        got = yahtzee.scoring_options(dice, open_boxes, box_value, joker)
                        assert got == reference_options(dice, open_boxes, box_value, joker)
                        checked += 1
    assert checked == 6 * (2 ** 12 - 1) * 4


# ----- properties ------------------------------------------------------------------------------

dice5 = st.lists(st.integers(1, 6), min_size=5, max_size=5)
box_sets = st.sets(st.sampled_from(BOXES), min_size=1)


@given(dice5, st.randoms())
def test_order_of_the_dice_does_not_matter(dice, rnd):
    shuffled = list(dice)
    rnd.shuffle(shuffled)
    assert yahtzee.boxes(dice) == yahtzee.boxes(shuffled)


@given(dice5)
def test_sums_and_implications(dice):
    b = yahtzee.boxes(dice)
    assert b["chance"] == sum(dice) == sum(b[u] for u in UPPER)
    assert b["three_of_a_kind"] in (0, sum(dice))
    if b["four_of_a_kind"]:
        assert b["three_of_a_kind"]
    if b["yahtzee"]:
        assert b["four_of_a_kind"] and not b["full_house"]
    if b["large_straight"]:
        assert b["small_straight"]
    if b["full_house"]:
        assert b["three_of_a_kind"] and not b["four_of_a_kind"]


@given(dice5, box_sets, st.sampled_from([None, 0, 50]), st.booleans())
def test_options_are_open_boxes_and_never_empty(dice, open_boxes, yahtzee_box, joker):
    if yahtzee_box is not None:
        open_boxes = open_boxes - {"yahtzee"} or {"chance"}
    opts = yahtzee.scoring_options(dice, open_boxes, yahtzee_box, joker)
    assert opts and set(opts) <= set(open_boxes)
    assert list(opts) == [b for b in BOXES if b in opts]  # card order
    assert opts == reference_options(dice, [b for b in BOXES if b in open_boxes],
                                     yahtzee_box, joker)
    if not (joker and yahtzee_box is not None and len(set(dice)) == 1):
        raw = yahtzee.boxes(dice)
        assert opts == {b: raw[b] for b in BOXES if b in open_boxes}
