"""The coach in the lab: each player's mean value lost per decision over a sample of games
played through the real game models (``dicelab simulate ... --json``)."""
from __future__ import annotations

import numpy as np

from ..games import Seat, new_game
from ..players import make_player

SAMPLE = 20  # games reviewed: the coach replays each decision, so a sample, not every game


def coach_losses(variant: str, players: list[str], games: int = SAMPLE, seed: int | None = 0,
                 settings: dict | None = None) -> dict:
    """{"games", "unit", "tolerance", "notes", "players": [{player, decisions, mistakes, lost,
    mean_lost_per_decision}] in seat order} over ``games`` seeded games."""
    from ..coach import review

    seats = len(players)
    decisions = np.zeros(seats, dtype=np.int64)
    mistakes = np.zeros(seats, dtype=np.int64)
    lost = np.zeros(seats)
    unit, tolerance, notes = "", 0.0, []
    for child in np.random.SeedSequence(seed).spawn(games):
        s = int(child.generate_state(1)[0])
        game = new_game(variant, [Seat(f"{p} #{i + 1}", make_player(variant, p), strategy=p)
                                  for i, p in enumerate(players)], seed=s, **(settings or {}))
        game.play_computers(max_actions=1_000_000)
        r = review(game)
        unit, tolerance = r.unit, r.tolerance
        notes += [n for n in r.notes if n not in notes]
        for i, summary in enumerate(r.seats.values()):
            decisions[i] += summary.decisions
            mistakes[i] += summary.mistakes
            lost[i] += summary.lost
    rows = [{"player": p, "decisions": int(d), "mistakes": int(m), "lost": float(x),
             "mean_lost_per_decision": float(x / d) if d else None}
            for p, d, m, x in zip(players, decisions, mistakes, lost)]
    return {"games": games, "unit": unit, "tolerance": tolerance, "notes": notes,
            "players": rows}
