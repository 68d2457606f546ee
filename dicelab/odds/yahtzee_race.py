"""Yahtzee's last round played to win (issue 16): with one box left, the chance to finish
strictly above every other seat, exactly, for every keep and for scoring now.

With one open box the rest of a card's game is one turn: its final roll fills that box, so the
final score is ``total + gain(roll)``, where ``gain`` is the box's points (forced joker rule from
``rules.yahtzee.scoring_options``) plus the upper bonus it completes and the Yahtzee bonus it
earns (docs/explanation/rules.md "Yahtzee"). Any utility of the final roll then goes through the
classic chain (keep some dice, average over the rest) on the 252 sorted outcomes and 462 keeps of
``odds.yahtzee``: with the utility ``1[final > the others' best]`` the chain gives the chance to
win of every option, with ``gain`` it gives the expected points (the solitaire table's values).

The others. Seats whose card is full have fixed totals. A seat still to play its last box is
modelled as playing to win too, after you: it aims to finish above the best of your final score
and the full cards, taking among its options of equal chance the one with more expected points
(the ``policy`` below, which is also what the computers here play). Its final score's
distribution under that policy is computed exactly for every aim. This is exact when at most
one other seat is still to play (every two-seat game); with two or more, each is modelled
against you and the full cards only, independently (not against each other).
Seats with more than one box left (wasted rounds) are not modelled: ``race`` returns None.

    race(game)   -> Race or None   # the player on turn has one box left and others are seated
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from ..dice import multisets
from ..rules.yahtzee import UPPER, scoring_options, upper_bonus_due, yahtzee_bonus_due
from .yahtzee import dice_table

__all__ = ["Race", "gains", "policy_distributions", "race", "race_for"]

TIE = 1e-12  # win chances closer than this are equal: the option with more points is taken


@cache
def _transition() -> np.ndarray:
    """(462, 252): the chance of each outcome (``_Dice`` order) after keeping each keep and
    rolling the other dice."""
    D = dice_table()
    T = np.zeros((len(D.keeps), len(D.outcomes)))
    for r, k in enumerate(D.keeps):
        n = 5 - len(k)
        for rest, ways in multisets(n):
            T[r, D.outcome[tuple(sorted(k + rest))]] += ways / 6 ** n
    return T


@cache
def _options() -> np.ndarray:
    """(252, 31): each outcome's re-roll keeps (its sub-multisets but itself), padded by
    repeating one (a repeat changes no maximum)."""
    D = dice_table()
    rows = []
    for o, sub in zip(D.outcomes, D.sub):
        proper = [k for k in sub if k != D.row[o]]
        rows.append(proper + [proper[0]] * (31 - len(proper)))
    return np.array(rows, dtype=np.intp)


def gains(box: str, upper_total: int, yahtzee_box: int | None, settings) -> np.ndarray:
    """(252,) what each final roll adds to the total when it fills ``box``, the last open box:
    its points, the upper bonus it completes and the Yahtzee bonus it earns."""
    return np.array(_gains(box, upper_total, yahtzee_box, settings.joker, settings.yahtzee_bonus,
                           settings.upper_bonus, settings.upper_bonus_threshold))


@lru_cache(maxsize=256)
def _gains(box, upper, ybox, joker, ybonus, ubonus, threshold) -> tuple[int, ...]:
    out = []
    for o in dice_table().outcomes:
        pts = scoring_options(o, [box], ybox, joker)[box]
        g = pts + yahtzee_bonus_due(o, ybox, ybonus)
        if box in UPPER:
            g += (upper_bonus_due(upper + pts, threshold, ubonus)
                  - upper_bonus_due(upper, threshold, ubonus))
        out.append(g)
    return tuple(out)


def _chain(U: np.ndarray, rerolls: int) -> list:
    """``E[t]`` (462, m): each keep's value with t re-rolls left (t >= 1; ``E[0]`` None) for
    final-roll utilities ``U`` (252, m), every later choice taking the best value."""
    T, S = _transition(), _options()
    V, E = U, [None]
    for _ in range(rerolls):
        Ek = T @ V
        E.append(Ek)
        V = np.maximum(U, Ek[S].max(axis=1))
    return E


def _choose(U, Ew, g, Ep) -> np.ndarray:
    """The policy at one re-roll count: (252, m) the chosen option per roll and aim, 0 for
    scoring now, else 1 + the column of ``_options`` (a keep). Best chance to win; among
    equal chances the most expected points; among those scoring now, then the first keep."""
    S = _options()
    win = np.concatenate([U[:, None, :], Ew[S]], axis=1)           # (252, 32, m)
    pts = np.concatenate([g[:, None], Ep[S][:, :, 0]], axis=1)      # (252, 32)
    top = win.max(axis=1, keepdims=True)
    score = np.where(win >= top - TIE, pts[:, :, None], -np.inf)
    return score.argmax(axis=1)


@lru_cache(maxsize=64)
def policy_distributions(g: tuple[int, ...], rerolls: int):
    """For a last box with final-roll gains ``g``: (values, dist) where ``values`` are the
    distinct gains in rising order and ``dist[a]`` (len(values) + 1 aims, len(values)) is the
    distribution of the gain over ``values`` from the first roll under ``policy`` when a gain
    above ``values[a - 1]`` wins (aim 0: any gain wins)."""
    D = dice_table()
    T, S = _transition(), _options()
    gv = np.asarray(g)
    values = np.unique(gv)
    gi = np.searchsorted(values, gv)
    m, G = len(values) + 1, len(values)
    U = (gi[:, None] >= np.arange(m)[None, :]).astype(float)  # aim a: index >= a wins
    Ew = _chain(U, rerolls)
    Ep = _chain(gv[:, None].astype(float), rerolls)
    dist = np.zeros((252, m, G))
    dist[np.arange(252), :, gi] = 1.0
    first = dist.copy()
    for t in range(1, rerolls + 1):
        pick = _choose(U, Ew[t], gv.astype(float), Ep[t])          # (252, m)
        Dk = (T @ dist.reshape(252, m * G)).reshape(-1, m, G)      # keeps' distributions
        keep = S[np.arange(252)[:, None], np.maximum(pick - 1, 0)]
        dist = np.where((pick == 0)[:, :, None], first, Dk[keep, np.arange(m)[None, :]])
    return values, np.einsum("o,omg->mg", D.prob, dist)


@dataclass(frozen=True)
class Race:
    """The win readout of a last-box decision. Chances are of finishing strictly above every
    other seat (a tie wins nothing); points are the expected gain still to come."""

    box: str
    rerolls_left: int
    score_win: float                 # chance to win by scoring the box now
    score_points: int                # what scoring now adds (box, bonuses)
    keeps: dict                      # sorted kept dice -> (chance to win, expected points)
    choice: tuple                    # ("keep", dice) or ("box", name): the policy's choice
    points_choice: tuple             # the choice for points
    win_chance: float                # of ``choice``
    points_choice_win: float         # chance to win of the choice for points
    points_choice_points: float      # expected points of the choice for points
    exact: bool                      # at most one other seat still to play
    others_to_play: int

    @property
    def differs(self) -> bool:
        return self.choice != self.points_choice and \
            self.win_chance > self.points_choice_win + TIE


def _win_given(game, me: int, others_open: list, totals) -> tuple | None:
    """w(s) for my final scores s: the chance every other seat ends below s."""
    s = game.config
    full = [totals[i] for i in range(game.n_seats) if i != me and i not in others_open]
    fixed = max(full, default=None)
    models = []
    for i in others_open:
        card = game.card(i)
        (box,) = [b for b, v in card.items() if v is None]
        g = _gains(box, game.upper_total(i), card["yahtzee"], s.joker, s.yahtzee_bonus,
                   s.upper_bonus, s.upper_bonus_threshold)
        values, dist = policy_distributions(g, s.rerolls)
        cdf = np.hstack([np.zeros((len(dist), 1)), np.cumsum(dist, axis=1)])  # P(idx < j)
        models.append((totals[i], values, cdf))

    def w(final: int) -> float:
        if fixed is not None and final <= fixed:
            return 0.0
        best = final if fixed is None else max(final, fixed)
        p = 1.0
        for total, values, cdf in models:
            aim = int(np.searchsorted(values, best - total, side="right"))  # wins: > best
            below = int(np.searchsorted(values, final - total, side="left"))  # ends < final
            p *= cdf[aim, below]
        return p
    return w


def race(game) -> Race | None:
    """The race readout for the player on turn of a Yahtzee game, or None when it does not
    apply: one seat, more than one box left, another seat with more than one box left, or
    before the turn's first roll."""
    if game.is_over or game.n_seats < 2 or not game.state.rolls:
        return None
    me = game.current_player
    if len(game.open_boxes(me)) != 1:
        return None
    others_open = [i for i in range(game.n_seats) if i != me and game.open_boxes(i)]
    if any(len(game.open_boxes(i)) != 1 for i in others_open):
        return None
    totals = game.totals()
    w = _win_given(game, me, others_open, totals)
    card = game.card(me)
    (box,) = game.open_boxes(me)
    return race_for(box, game.upper_total(me), card["yahtzee"], game.dice, game.rerolls_left,
                    game.config, totals[me], w, len(others_open))


def race_for(box, upper_total, yahtzee_box, dice, rerolls_left, settings, total, win_given,
             others_to_play: int = 0) -> Race:
    """The readout for explicit inputs: ``win_given(final)`` the chance to win with that final
    score (``_win_given``; a test may pass its own)."""
    D = dice_table()
    gv = np.array(_gains(box, upper_total, yahtzee_box, settings.joker, settings.yahtzee_bonus,
                         settings.upper_bonus, settings.upper_bonus_threshold))
    memo = {int(x): win_given(total + int(x)) for x in np.unique(gv)}
    U = np.array([memo[int(x)] for x in gv])[:, None]
    o = D.outcome[tuple(sorted(dice))]
    score = (float(U[o, 0]), int(gv[o]))
    keeps = {}
    if rerolls_left:
        Ew = _chain(U, rerolls_left)[rerolls_left]
        Ep = _chain(gv[:, None].astype(float), rerolls_left)[rerolls_left]
        for k in sorted(set(_options()[o].tolist())):
            keeps[D.keeps[k]] = (float(Ew[k, 0]), float(Ep[k, 0]))
    opts = [(("box", box), score)] + [(("keep", k), v) for k, v in keeps.items()]
    top = max(v[0] for _, v in opts)
    choice, (cw, _) = max((c for c in opts if c[1][0] >= top - TIE), key=lambda c: c[1][1])
    pchoice, (pw, pp) = max(opts, key=lambda c: c[1][1])
    return Race(box, rerolls_left, score[0], score[1], keeps, choice, pchoice, cw, pw, pp,
                others_to_play <= 1, others_to_play)


def turn_start(game, seat: int | None = None) -> tuple[float, float] | None:
    """Before a last-box turn's first roll: (chance to win playing to win, chance to win
    playing for points), exact under the model above; None where ``race`` would not apply."""
    seat = game.current_player if seat is None else seat
    if game.is_over or game.n_seats < 2 or len(game.open_boxes(seat)) != 1:
        return None
    others_open = [i for i in range(game.n_seats) if i != seat and game.open_boxes(i)]
    if any(len(game.open_boxes(i)) != 1 for i in others_open):
        return None
    s, totals = game.config, game.totals()
    w = _win_given(game, seat, others_open, totals)
    (box,) = game.open_boxes(seat)
    g = _gains(box, game.upper_total(seat), game.card(seat)["yahtzee"], s.joker,
               s.yahtzee_bonus, s.upper_bonus, s.upper_bonus_threshold)
    values, dist = policy_distributions(g, s.rerolls)
    u = np.array([w(totals[seat] + int(v)) for v in values])
    by_points = float(dist[0] @ u)  # aim 0: every gain "wins", so the policy is points play
    gv = np.asarray(g)
    U = u[np.searchsorted(values, gv)][:, None]
    V = U
    if s.rerolls:
        Ew = _chain(U, s.rerolls)
        V = np.maximum(U, Ew[s.rerolls][_options()].max(axis=1))
    return float(dice_table().prob @ V[:, 0]), by_points
