"""The analysis board (issue 35): server time of one step (a key press: the position set, every
view of the table redrawn into a Bokeh document, the odds of that position read), per variant,
against replaying the game from its start to that position (what a board without kept
positions would do: the plain reference). Goal: a step under 50 ms of CPU. Each position is
visited once going forward and once back (the odds' memo does not help: each is new)."""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, pct, print_table  # noqa: E402

from bokeh.document import Document  # noqa: E402

from dicelab.games import new_game  # noqa: E402
from dicelab.players import make_player  # noqa: E402
from dicelab.ui.analysis import AnalysisBoard  # noqa: E402

GOAL_MS = 50.0
GAMES = [("bones", ["optimal", "chicken"], {"target": 3000}),
         ("under40", ["optimal", "random"], {"target": 200}),
         ("thousand", ["optimal", "chicken"], {}),
         ("yahtzee", ["greedy"], {})]


def cpu_ms(fn) -> float:
    t = time.process_time()
    fn()
    return 1000 * (time.process_time() - t)


def main():
    rows = []
    for variant, players, settings in GAMES:
        g = new_game(variant, [(f"P{i}", make_player(variant, p))
                               for i, p in enumerate(players)], seed=7, **settings)
        g.play_computers()
        board = AnalysisBoard(g)
        board.__panel__().get_root(Document())  # the views' models, as on a page
        n = board.game.steps
        steps = [cpu_ms(lambda: board.key("ArrowLeft")) for _ in range(n - 1)]
        steps += [cpu_ms(lambda: board.key("ArrowRight")) for _ in range(n - 1)]
        picks = range(0, len(g.actions), max(1, len(g.actions) // 20))
        replay = [cpu_ms(lambda i=i: g.replay(i)) for i in picks]
        med, p95 = statistics.median(steps), pct(steps, 0.95)
        rows.append((variant, n, f"{med:.1f}", f"{p95:.1f}", f"{statistics.median(replay):.1f}",
                     f"< {GOAL_MS:.0f}", met(p95 < GOAL_MS)))
    print_table("Analysis board: CPU ms per step (all views redrawn)",
                ["variant", "positions", "median", "p95", "replay to it (median)", "goal (p95)",
                 "verdict"], rows)


if __name__ == "__main__":
    main()
