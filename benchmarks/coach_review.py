"""The coach (issue 17): review of a whole 13-round Yahtzee game (official rules) once the table
is loaded, against replaying the same game without judging it (the plain reference: the review
replays it too). Goal: a review under 1 s. Each run loads the table afresh from the disk cache
(solving it first if needed, not timed), so its first advice builds the turn tables cold."""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, print_table  # noqa: E402

import dicelab  # noqa: E402
from dicelab.games import Seat  # noqa: E402
from dicelab.odds import yahtzee as yz  # noqa: E402
from dicelab.players import make_player  # noqa: E402

RUNS = 5
GOAL = 1.0


def main():
    yz.solve("official", progress=True)  # solved once, then read from the disk cache
    rows, reviews = [], []
    for seed in range(RUNS):
        game = dicelab.new_game("yahtzee", [Seat("Greedy", make_player("yahtzee", "greedy"))],
                                seed=seed)
        game.play_computers()
        yz._MEMORY.clear()
        t0 = time.perf_counter()
        yz.solve("official", progress=False)
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        game.replay()
        replay = time.perf_counter() - t0
        t0 = time.perf_counter()
        review = dicelab.review(game)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        dicelab.review(game)
        warm = time.perf_counter() - t0
        reviews.append(cold)
        rows.append((seed, len(game.actions), len(review), f"{load * 1000:.0f} ms",
                     f"{replay * 1000:.1f} ms", f"{cold * 1000:.0f} ms", f"{warm * 1000:.0f} ms",
                     f"{cold / replay:.0f}x"))
    print_table("Review of a 13-round Yahtzee game (official rules, greedy player)",
                ("seed", "actions", "decisions", "table load", "replay (reference)",
                 "review", "review again", "review / replay"), rows)
    med = statistics.median(reviews)
    print(f"\nmedian review {med * 1000:.0f} ms; goal < {GOAL * 1000:.0f} ms: "
          f"{met(med < GOAL)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
