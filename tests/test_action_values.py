"""Die positions and die values given to actions and to ``score``: whole numbers only (bools,
floats and strings refused with the rule's words; numpy integers accepted)."""
from __future__ import annotations

import pytest

from dicelab import Reroll, Roll, Stand, score
from dicelab.errors import RuleError
from dicelab.games import new_game

from .conftest import assert_refused


@pytest.mark.parametrize("bad", [[1.5], [True], [0, 2.0], ["1"]])
def test_non_whole_positions_are_refused(bad):
    g = new_game("yahtzee", ["Ann"], seed=1)
    g.apply(Roll())
    assert_refused(g, {"type": "reroll", "positions": bad}, "whole")
    with pytest.raises(RuleError, match="whole"):
        Reroll(bad)
    with pytest.raises(RuleError, match="whole"):
        Roll(keep=bad)
    with pytest.raises(RuleError, match="whole"):
        Stand(keep=bad)


def test_whole_positions_of_numpy_ints_still_work():
    import numpy as np

    assert Reroll([np.int64(3), 1]).positions == (1, 3)


@pytest.mark.parametrize("dice", [[True, 2, 3, 4, 5], [1.0, 2, 3, 4, 5], [1.5, 2, 3, 4, 5]])
def test_bools_and_floats_are_not_dice(dice):
    with pytest.raises(RuleError, match="not a die value"):
        score("bones", dice)
    with pytest.raises(RuleError, match="not a die value"):
        score("thousand", dice)
