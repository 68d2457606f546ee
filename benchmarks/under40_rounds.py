"""Under40 rounds of 2..8 players (issue 13 point 4): the first readout of a process builds the
tables for that many players (and fewer); later readouts look them up. Goal: a readout well
under 100 ms. Reference: the tests' plain-Python solve on the game's own state (3 players)."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from _table import met, print_table, timed  # noqa: E402

from dicelab.odds import under40 as u40  # noqa: E402
from tests.test_odds_under40_players import evaluate  # noqa: E402

# a mid-round position per size: me at 30 (may stop), the others below, one with no turn yet
CASES = {n: (30, (0,) + tuple(range(28 - 2 * (n - 2), 30, 2))[: n - 2]) for n in range(3, 9)}
CASES[2] = (30, (24,))


def main():
    t = time.perf_counter()
    u40._masks(), u40._landing()
    shared = time.perf_counter() - t
    rows = []
    for n in range(2, 9):
        score, others = CASES[n]
        cold, _ = timed(lambda: u40.readout(score, others), 1)
        warm, ro = timed(lambda: u40.readout(score, others), 500)
        plain = ""
        if n == 3:
            ref, got = timed(lambda: evaluate(3, None), 1)
            assert abs(got[0] - u40.readout(0, (0, 0)).win) < 1e-12
            plain = f"{ref * 1e3:,.0f} ms ({ref / warm:,.0f}x)"
        rows.append((n, f"{score} vs {others}", ro.decision, f"{cold * 1e3:.1f}",
                     f"{warm * 1e6:.0f}", plain, met(warm < 0.1)))
    print_table(f"Under40 round readouts (shared setup {shared * 1e3:.0f} ms once per process)",
                ["players", "position", "best", "first readout ms (builds tables)",
                 "readout us", "plain solve (3 players)", "< 100 ms"], rows)


if __name__ == "__main__":
    main()
