"""Yahtzee games in the lab, played through the game model by the registered players."""
from __future__ import annotations



def run(players, games, seed, progress, settings):
    from .results import LabResult, mean_ci, wilson
    from .models import play_games

    wins, totals, lengths = play_games("yahtzee", players, games, seed, settings, progress)
    rows = []
    for i, spec in enumerate(players):
        lo, hi = wilson(int(round(wins[i])), games)
        m, mlo, mhi = mean_ci(totals[:, i])
        rows.append({"player": spec, "seat": i + 1, "wins": float(wins[i]),
                     "win_rate": float(wins[i] / games), "win_rate_ci": [lo, hi],
                     "mean_score": m, "mean_score_ci": [mlo, mhi],
                     "mean_final_total": m})
    return LabResult("yahtzee", "games", games, seed, rows,
                     {r["player"]: totals[:, i] for i, r in enumerate(rows)}, lengths)
