"""The coach in the lab: each player's mean value lost per decision over a sample of games
played through the real game models (``dicelab simulate ... --json``)."""
from __future__ import annotations

import numpy as np

from ..games import Seat, new_game
from ..i18n import tr
from ..players import make_player
from .results import mean_ci

SAMPLE = 20  # games reviewed: the coach replays each decision, so a sample, not every game


def coach_losses(variant: str, players: list[str], games: int = SAMPLE, seed: int | None = 0,
                 settings: dict | None = None) -> dict:
    """{"games", "unit", "tolerance", "notes", "players": [{player, decisions, mistakes, lost,
    mean_lost_per_decision}] in seat order} over ``games`` seeded games. ``lost`` is in the
    review's unit over the decisions judged in it; where the chance to win is known for every
    decision (two-seat Bones with its win table) each row adds win_decisions, win_lost and
    mean_win_lost_per_decision, and the result win_unit."""
    from ..coach import review

    seats = len(players)
    decisions = np.zeros(seats, dtype=np.int64)
    mistakes = np.zeros(seats, dtype=np.int64)
    valued = np.zeros(seats, dtype=np.int64)
    lost = np.zeros(seats)
    extra_n: dict[str, np.ndarray] = {}
    extra_lost: dict[str, np.ndarray] = {}
    extra_units: dict[str, str] = {}
    partial: set[str] = set()  # later sources that left regular decisions out (no table yet)
    unit, tolerance, notes = "", 0.0, []
    luck: dict[str, np.ndarray] = {}   # unit -> [game, seat]: each seat's luck in the game
    skill: dict[str, np.ndarray] = {}  # unit -> [game, seat]: its decisions' changes
    rolls: dict[str, np.ndarray] = {}
    luck_units: dict[str, str] = {}
    for g, child in enumerate(np.random.SeedSequence(seed).spawn(games)):
        s = int(child.generate_state(1)[0])
        game = new_game(variant, [Seat(f"{p} #{i + 1}", make_player(variant, p), strategy=p)
                                  for i, p in enumerate(players)], seed=s, **(settings or {}))
        game.play_computers(max_actions=1_000_000)
        r = review(game)
        unit, tolerance = r.unit, r.tolerance
        notes += [n for n in r.notes if n not in notes]
        for k, src in r.extras.items():
            extra_units[k] = src.unit
            if any(k not in e.extra for e in r):
                partial.add(k)
        for i, summary in enumerate(r.seats.values()):
            for u, x in summary.luck.items():
                luck_units[u] = tr(u)
                luck.setdefault(u, np.zeros((games, seats)))[g, i] = x
                skill.setdefault(u, np.zeros((games, seats)))[g, i] = summary.skill.get(u, 0.0)
                rolls.setdefault(u, np.zeros(seats, dtype=np.int64))[i] += summary.rolls.get(u, 0)
            decisions[i] += summary.decisions
            mistakes[i] += summary.mistakes
            valued[i] += summary.valued
            lost[i] += summary.lost
            for k, x in summary.extra_lost.items():
                extra_lost.setdefault(k, np.zeros(seats))[i] += x
                extra_n.setdefault(k, np.zeros(seats, dtype=np.int64))[i] += \
                    summary.extra_valued[k]
    rows = [{"player": p, "decisions": int(decisions[i]), "mistakes": int(mistakes[i]),
             "lost": float(lost[i]),
             "mean_lost_per_decision": float(lost[i] / valued[i]) if valued[i] else None}
            for i, p in enumerate(players)]
    out = {"games": games, "unit": unit, "tolerance": tolerance, "notes": notes,
           "players": rows}
    # each seat's luck per game in every unit (mean, its 95% interval: about 0, as the luck
    # of a roll averages 0 over its outcomes) beside its decisions' changes per game
    for i, row in enumerate(rows):
        row["luck"] = [{"unit": luck_units[u], "rolls": int(rolls[u][i]),
                        "mean_luck_per_game": mean_ci(luck[u][:, i])[0],
                        "mean_luck_per_game_ci": list(mean_ci(luck[u][:, i])[1:]),
                        "mean_decisions_per_game": float(skill[u][:, i].mean())}
                       for u in luck]
    for k in extra_lost:
        if k in partial:
            continue  # a mean over some decisions only would mislead: the notes say why
        out[f"{k}_unit"] = extra_units[k]
        for i, row in enumerate(rows):
            n = int(extra_n[k][i])
            row.update({f"{k}_decisions": n, f"{k}_lost": float(extra_lost[k][i]),
                        # i18n: not shown (a JSON key)
                        f"mean_{k}_lost_per_decision": float(extra_lost[k][i] / n) if n
                        else None})
    return out
