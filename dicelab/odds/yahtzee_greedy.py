"""One-turn lookahead for Yahtzee: keep for the best box score at the end of this turn, with no
thought for later turns (the ``greedy`` computer). Reuses the solver's keep/roll chain."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..dice import check_dice
from ..rules.yahtzee import BOXES
from .yahtzee import BIT, Block, dice_table, options_matrix


@lru_cache(maxsize=4096)
def _turn(mask: int, joker: bool, rerolls: int) -> tuple[np.ndarray, list]:
    """(best immediate points of each final roll (252), [None, E1, E2, ...] keep values)."""
    final = options_matrix(mask, joker).max(axis=0).astype(np.float64)
    blk = Block(1)
    blk.rolls[:, 0] = final
    keeps = [None]
    for _ in range(rerolls):
        blk.estep()
        keeps.append(blk.be[:, 0].copy())
        blk.mstep()
    return final, keeps


def greedy_choice(open_boxes, dice, rerolls_left: int, joker: bool, rerolls: int):
    """("keep", sorted dice) to re-roll the rest, or ("box", name): the choice that maximises the
    expected points of the box filled at the end of this turn."""
    D = dice_table()
    dice = tuple(sorted(check_dice(dice, 5)))
    mask = sum(BIT[b] for b in BOXES if b not in set(open_boxes))
    o = D.outcome[dice]
    final, keeps = _turn(mask, joker, rerolls)
    if rerolls_left:
        sub = D.sub[o]
        values = keeps[rerolls_left][sub]
        best = int(np.argmax(values))
        keep = D.keeps[sub[best]]
        if len(keep) < 5 and values[best] > final[o] + 1e-9:
            return ("keep", keep)
    column = options_matrix(mask, joker)[:, o]
    # highest points now; ties go to the first box on the card
    return ("box", BOXES[int(np.argmax(column))])
