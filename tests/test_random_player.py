"""A random computer seat follows its game's seed: the same seed plays the same game, in the game
model and in ``dicelab simulate``."""
from __future__ import annotations

import subprocess
import sys

from dicelab.games import Seat, new_game
from dicelab.players import make_player


def _random_game(seed):
    g = new_game("bones", [Seat("R1", make_player("bones", "random"), strategy="random"),
                           Seat("R2", make_player("bones", "random"), strategy="random")],
                 seed=seed, target=1500, min_on_board=50)
    g.play_computers(max_actions=20_000)
    return [str(a) for a in g.actions], g.totals()


def test_random_player_is_seeded_from_the_game():
    assert _random_game(5) == _random_game(5)
    assert _random_game(5) != _random_game(6)


def test_simulate_with_a_random_seat_is_reproducible():
    cmd = [sys.executable, "-c", "import sys; from dicelab.cli import main; sys.exit(main())",
           "simulate", "under40", "--players", "random,cautious",
           "--games", "30", "--seed", "0"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
