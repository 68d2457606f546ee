"""Games played through the real game models (any variant, any player): the reference the
vectorised simulators are checked against, and the runner where none is vectorised yet."""
from __future__ import annotations

import numpy as np

from ..games import Seat, new_game
from ..players import make_player


def play_games(variant: str, players: list[str], n_games: int, seed: int | None = 0,
               settings: dict | None = None, progress: bool = False):
    """Returns (wins per seat (ties shared), totals (games, seats), turns per game; actions per
    game where the state counts no turns, as in Under40's rounds). A game
    still going after ``MAX_TURNS`` turns is stopped: nobody wins it (the wins then add up to
    fewer than ``n_games``)."""
    from . import results
    from .results import progress_bar

    seq = np.random.SeedSequence(seed)
    seats = len(players)
    wins = np.zeros(seats)
    totals = np.zeros((n_games, seats))
    turns = np.zeros(n_games, dtype=np.int64)
    for g, child in enumerate(progress_bar(seq.spawn(n_games), progress, desc=variant,
                                           unit="game", total=n_games)):
        s = int(child.generate_state(1)[0])
        game = new_game(variant, [Seat(f"{p} #{i + 1}", make_player(variant, p), strategy=p)
                                  for i, p in enumerate(players)], seed=s, **(settings or {}))
        def length(game=game) -> int:
            return getattr(game.state, "turn", len(game.actions))

        while not game.is_over and length() < results.MAX_TURNS:
            before = len(game.actions)
            game.play_computers(max_actions=1_000)
            if len(game.actions) == before:
                break  # a person's seat, or nothing left to play
        if not game.is_over:
            totals[g] = game.totals()
            turns[g] = length()
            continue
        w = game.winners
        for i in w:
            wins[i] += 1 / len(w)
        totals[g] = game.totals()
        turns[g] = length()
    return wins, totals, turns
