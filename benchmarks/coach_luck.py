"""Luck and skill (issue 35): analysing a whole game with every roll's luck against the review
without luck (``dicelab.review(game, luck=False)``: the same replay and decisions), per variant.
Goal: at most 1.5x. CPU time (``time.process_time``, the machine is shared), the median of
interleaved runs over a few seeded games per variant, tables warmed first (not timed)."""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, print_table  # noqa: E402

import dicelab  # noqa: E402
from dicelab.games import Seat  # noqa: E402
from dicelab.players import make_player  # noqa: E402

GOAL = 1.5
RUNS = 3
CASES = {  # name -> (variant, computers, settings)
    "bones 2 seats, target 2,000 (win table)": ("bones", ["chicken", "gambler"],
                                                 {"target": 2000}),
    "bones 3 seats (points)": ("bones", ["chicken", "gambler", "aggressive"], {}),
    "thousand": ("thousand", ["threshold", "aggressive"], {}),
    "under40 4 players": ("under40", ["cautious", "threshold", "cautious", "threshold"], {}),
    "yahtzee official, 2 seats": ("yahtzee", ["greedy", "skill"], {}),
}
SEEDS = (1, 2, 3)


def game(variant, specs, settings, seed):
    seats = [Seat(f"{s} {i + 1}", make_player(variant, s), strategy=s)
             for i, s in enumerate(specs)]
    g = dicelab.new_game(variant, seats, seed=seed, **settings)
    g.play_computers(max_actions=100_000)
    return g


def cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def main():
    rows, worst = [], 0.0
    for name, (variant, specs, settings) in CASES.items():
        games = [game(variant, specs, settings, s) for s in SEEDS]
        for g in games:  # warm the tables and caches (not timed)
            dicelab.review(g)
        plain, full = [], []
        for _ in range(RUNS):  # interleaved, so a busy moment hits both
            plain.append(sum(cpu(lambda g=g: dicelab.review(g, luck=False)) for g in games))
            full.append(sum(cpu(lambda g=g: dicelab.review(g)) for g in games))
        p, f = statistics.median(plain), statistics.median(full)
        ratio = f / p if p else float("inf")
        worst = max(worst, ratio)
        actions = sum(len(g.actions) for g in games)
        rows.append((name, actions, f"{p * 1000 / len(games):.0f} ms",
                     f"{f * 1000 / len(games):.0f} ms", f"{ratio:.2f}x", f"<= {GOAL}x",
                     met(ratio <= GOAL)))
    print_table("Review of a whole game with luck vs without (CPU per game, median of "
                f"{RUNS} runs over {len(SEEDS)} games)",
                ("case", "actions", "without luck", "with luck", "ratio", "goal", "verdict"),
                rows)
    print(f"\nworst ratio {worst:.2f}x; goal <= {GOAL}x: {met(worst <= GOAL)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
