"""The exact chance to win of a game in play, where a win table gives it (issue 16): the one
place that says which games have it, for the odds panel, the win chart and the live estimates.

- Two-seat Bones: ``odds.win`` (built in another process the first time it is asked for).
- Two-seat Thousand: ``odds.win_thousand``, only when its table is already cached (memory or
  the cache folder). A page never builds it: the default table takes many minutes (README,
  "Chance to win"); until it is there, pages show the estimate from play-outs.
"""
from __future__ import annotations

from ..errors import RuleError

__all__ = ["is_exact", "table_for", "readout", "seat_chances"]


def is_exact(game) -> bool:
    """Is the chance to win of this game exact (a win table), not estimated from play-outs?
    Two-seat Bones always (its table may still be building); two-seat Thousand once its table
    is cached."""
    if game.n_seats != 2:
        return False
    if game.variant == "bones":
        return True
    return game.variant == "thousand" and table_for(game) is not None


def table_for(game):
    """The game's win table if it can be read now, else None (Bones: a first call starts its
    build in another process; Thousand: nothing is built)."""
    if game.n_seats != 2:
        return None
    try:
        if game.variant == "bones":
            from . import win

            return win.table_if_ready(game.config)
        if game.variant == "thousand":
            from . import win_thousand

            return win_thousand.table_if_cached(game.config)
    except RuleError:   # rules the solver takes not (a Bones target below the minimum on board)
        return None
    return None


def readout(game, state=None, table=None):
    """``odds.win.WinReadout`` of the player on turn in ``state`` (default: the game's now), or
    None where there is no table (yet)."""
    table = table_for(game) if table is None else table
    if table is None:
        return None
    st = game.state if state is None else state
    me = st.current
    if game.variant == "bones":
        mine, theirs = st.totals[me], st.totals[1 - me]
    else:
        mine, theirs = game.standing(st, me), game.standing(st, 1 - me)
    return table.readout(mine, theirs, st.turn_total, st.dice_left)


def seat_chances(game) -> tuple[float, float] | None:
    """Both seats' chances to win now, or None (no exact table for this game, or not yet)."""
    if not is_exact(game):
        return None
    if game.is_over:
        return tuple(1.0 if i == game.winner else 0.0 for i in range(2))
    r = readout(game)
    if r is None:
        return None
    p = r.win_chance
    return (p, 1 - p) if game.state.current == 0 else (1 - p, p)
