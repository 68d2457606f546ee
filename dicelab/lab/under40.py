"""Vectorised Under40 games (docs/explanation/rules.md "Under40"): every game in the batch takes one
action of its player on turn per step, so rounds, bust pots, exact-40 awards and rotation run in
numpy."""
from __future__ import annotations

import numpy as np

from ..errors import RuleError
from ..i18n import _
from ..odds.under40 import stop_choices
from ..rules.under40 import GOAL, roll_points

_ROLL = np.array([roll_points(a, b) for a in range(1, 7) for b in range(1, 7)])


def _policy(spec: str):
    """(kind, parameter) of a player the vectorised lab knows."""
    from ..players import make_player

    p = make_player("under40", spec)
    kind = type(p).__name__
    if kind == "CautiousPlayer":
        return ("threshold", 0)
    if kind == "Under40ThresholdPlayer":
        return ("threshold", p.threshold)
    if kind == "Under40OptimalPlayer":
        return ("optimal", None)
    raise RuleError(_("{player} has no vectorised form for the under40 lab",
                      player=repr(spec)))


def simulate_games(players: list[str], n_games: int, seed=None, target: int = 1000):
    """Returns (winners (games,), totals (games, seats), actions per game)."""
    rng = np.random.default_rng(seed)
    seats = len(players)
    if seats < 2:
        raise RuleError(_("Under40 needs 2 or more players"))
    pols = [_policy(p) for p in players]
    g_all = np.arange(n_games)
    totals = np.zeros((n_games, seats), dtype=np.int64)
    score = np.zeros((n_games, seats), dtype=np.int64)
    stopped = np.zeros((n_games, seats), dtype=bool)
    busted = np.zeros((n_games, seats), dtype=bool)
    starter = rng.integers(seats, size=n_games)
    current = starter.copy()
    first_roll = np.ones(n_games, dtype=bool)
    pot = np.zeros(n_games, dtype=np.int64)
    winners = np.full(n_games, -1)
    actions = np.zeros(n_games, dtype=np.int64)
    active = g_all.copy()
    while active.size:
        a = active
        cur = current[a]
        me = score[a, cur]
        others = np.where(stopped[a] & ~busted[a], score[a], -1)
        others[np.arange(a.size), cur] = -1
        best = np.maximum(others.max(axis=1), 0)
        may_stop = ~first_roll[a] & (me > best)
        stop = np.zeros(a.size, dtype=bool)
        for s_, (kind, param) in enumerate(pols):
            mine = (cur == s_) & may_stop
            if not mine.any():
                continue
            if kind == "threshold":
                stop[mine] = me[mine] >= param
            else:  # the exact round solve, by players still in the round
                ga = a[mine]
                standing = stopped[ga] & ~busted[ga]
                standing[np.arange(ga.size), s_] = False  # my own earlier stop is not standing
                bits = np.where(standing, 1 << np.maximum(score[ga] // 2 - 1, 0), 0)
                masks = bits.sum(axis=1) | (1 << (me[mine] // 2 - 1))
                alive = (~busted[ga]).sum(axis=1)
                out = np.zeros(ga.size, dtype=bool)
                for n in np.unique(alive):
                    sel = alive == n
                    out[sel] = stop_choices(int(n), masks[sel])
                stop[mine] = out
        actions[a] += 1
        # rolls
        r = ~stop
        ga, cr = a[r], cur[r]
        score[ga, cr] += _ROLL[rng.integers(36, size=ga.size)]
        first_roll[ga] = False
        new = score[ga, cr]
        round_over = np.zeros(n_games, dtype=bool)
        award = np.zeros(n_games, dtype=np.int64)
        round_winner = np.full(n_games, -1)
        exact = new == GOAL
        round_over[ga[exact]] = True
        award[ga[exact]] = GOAL * seats
        round_winner[ga[exact]] = cr[exact]
        bust = new > GOAL
        gb, cb = ga[bust], cr[bust]
        busted[gb, cb] = True
        pot[gb] += score[gb, cb]
        alive = (~busted[gb]).sum(axis=1)
        last = alive == 1
        round_over[gb[last]] = True
        award[gb[last]] = pot[gb[last]]
        round_winner[gb[last]] = np.argmax(~busted[gb[last]], axis=1)
        # a stop, or a bust that leaves the round going, passes the turn
        pass_turn = np.zeros(n_games, dtype=bool)
        pass_turn[a[stop]] = True
        stopped[a[stop], cur[stop]] = True
        pass_turn[gb[~last]] = True
        gp = np.flatnonzero(pass_turn)
        if gp.size:
            nxt = current[gp].copy()
            moved = np.zeros(gp.size, dtype=bool)
            for k in range(1, seats + 1):
                cand = (current[gp] + k) % seats
                ok = ~moved & ~busted[gp, cand]
                nxt[ok] = cand[ok]
                moved |= ok
            current[gp] = nxt
            first_roll[gp] = True
        # round ends
        gr = np.flatnonzero(round_over)
        if gr.size:
            totals[gr, round_winner[gr]] += award[gr]
            won = totals[gr, round_winner[gr]] >= target
            winners[gr[won]] = round_winner[gr[won]]
            nr = gr[~won]
            starter[nr] = (starter[nr] + 1) % seats
            current[nr] = starter[nr]
            score[nr] = 0
            stopped[nr] = False
            busted[nr] = False
            pot[nr] = 0
            first_roll[nr] = True
        active = active[winners[active] < 0]
    return winners, totals, actions


def run(players, games, seed, progress, settings):
    from .results import LabResult, wilson
    from ..settings import Under40Settings

    cfg = Under40Settings(**settings)
    try:
        winners, totals, lengths = simulate_games(players, games, seed, cfg.target)
    except RuleError:
        if len(players) < 2:
            raise
        from .models import play_games

        wins, totals, lengths = play_games("under40", players, games, seed, settings, progress)
        winners = None
    if winners is not None:
        wins = np.bincount(winners, minlength=len(players)).astype(float)
    rows = []
    for i, spec in enumerate(players):
        lo, hi = wilson(int(round(wins[i])), games)
        rows.append({"player": spec, "seat": i + 1, "wins": float(wins[i]),
                     "win_rate": float(wins[i] / games), "win_rate_ci": [lo, hi],
                     "mean_final_total": float(np.mean(totals[:, i]))})
    return LabResult("under40", "games", games, seed, rows, {}, lengths, "actions")
