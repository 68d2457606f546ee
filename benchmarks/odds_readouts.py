"""Live odds readouts (issue 3): one turn-state readout from the cached tables, against a
plain-Python solve of the same value timed in the same run. Goal: a readout under 1 ms."""
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, print_table, timed  # noqa: E402

from dicelab.odds import fivedice as fd  # noqa: E402
from dicelab.odds import under40 as u40  # noqa: E402
from dicelab.rules import bones as bones_rules  # noqa: E402
from dicelab.rules import thousand as thousand_rules  # noqa: E402
from dicelab.rules.under40 import distribution  # noqa: E402


def plain_turn_value(variant, turn_total, dice_left, need, clamp=None, hot_compulsory=False,
                     top=None):
    """max(stand, roll) at a turn state by a dict-based backward induction in plain Python
    (same model and grid top as dicelab.odds.fivedice, no numpy, nothing cached)."""
    u = fd.UNIT[variant]
    table = bones_rules.table if variant == "bones" else thousand_rules.table
    rows = {n: [(w / 6 ** n, pts // u, n - c or 5) for _d, w, pts, c in table(n) if c]
            for n in range(1, 6)}
    hot = [(p, x) for p, x, m in rows[5] if m == 5]
    p_nh = sum(p for p, _x, m in rows[5] if m != 5)
    p_hot = sum(p for p, _ in hot)
    e_nh = sum(p * x * u for p, x, m in rows[5] if m != 5)
    e_hot = sum(p * x * u for p, x in hot)

    def gain(t):
        return t * u if clamp is None else min(t * u, clamp)

    def tail(t, n):
        if n == 5 and hot_compulsory:
            if clamp is not None:
                return p_nh * clamp / (1 - p_hot)
            a = p_nh / (1 - p_hot)
            return a * t * u + (e_nh + a * e_hot) / (1 - p_hot)
        return gain(t)
    value = {}
    t0 = turn_total // u
    roll = 0.0
    for t in range(top - 1, t0 - 1, -1):
        for n in range(1, 6):
            roll = sum(p * (value[t + x, m] if t + x < top else tail(t + x, m))
                       for p, x, m in rows[n])
            may = t > 0 and t >= need // u and not (n == 5 and hot_compulsory)
            value[t, n] = max(roll, gain(t)) if may else roll
    return value[t0, dice_left]


def plain_round_win(score, other):
    """The Under40 round value by a plain recursion with Fractions, nothing cached across calls."""
    dist = [(x, Fraction(w, 36)) for x, w in distribution().items()]
    memo = {}

    def win(m, o):
        if (m, o) not in memo:
            roll = sum((p * (1 if m + x == 40 else win(m + x, o)) for x, p in dist
                        if m + x <= 40), Fraction(0))
            memo[m, o] = max(roll, 1 - win(o, m)) if m > o else roll
        return memo[m, o]
    return win(score, other)


def clear_caches():
    for f in (fd._solve_optimal, fd.solve_reach, fd.roll_kernel, u40._round):
        f.cache_clear()


def main():
    rows = []
    cases = [
        ("bones on board, 300 with 2 dice", "bones", 300, 2, {}, {"need": 0}),
        ("bones fresh (600), first roll", "bones", 0, 5, {"on_board": False}, {"need": 600}),
        ("thousand pit 225, 50 hot", "thousand", 50, 5, {"banked": 225},
         {"need": 75, "clamp": 655, "hot_compulsory": True}),
        ("thousand barrel, 60 with 3 dice", "thousand", 60, 3, {"banked": 880, "on_barrel": True},
         {"need": 120, "hot_compulsory": True}),
    ]
    for label, variant, t, n, state, plain in cases:
        clear_caches()

        def readout(variant=variant, t=t, n=n, state=state):
            return fd.turn_readout(variant, t, n, **state)
        cold, _ = timed(readout, 1)
        warm, ro = timed(readout, 2000)
        top = fd._solve_optimal(fd._situation(fd.as_rules(variant), **state)).top
        ref_time, ref = timed(
            lambda v=variant, t=t, n=n, top=top, kw=plain: plain_turn_value(v, t, n, top=top, **kw),
            1)
        best = max(ro.roll_value, ro.stand_value or -1e18)
        assert abs(best - ref) < 1e-9 * max(1, abs(ref)), (label, best, ref)
        rows.append((label, f"{warm * 1e6:.1f}", f"{cold * 1e3:.1f}", f"{ref_time * 1e3:.1f}",
                     f"{ref_time / warm:,.0f}x", met(warm < 1e-3)))
    clear_caches()
    cold, _ = timed(lambda: u40.round_readout(12, 20), 1)
    warm, ro = timed(lambda: u40.round_readout(12, 20), 2000)
    ref_time, ref = timed(lambda: plain_round_win(12, 20), 1)
    assert ref == ro.win
    rows.append(("under40 round, 12 against 20", f"{warm * 1e6:.1f}", f"{cold * 1e3:.1f}",
                 f"{ref_time * 1e3:.1f}", f"{ref_time / warm:,.0f}x",
                 met(warm < 1e-3)))
    print_table("One live odds readout (median) vs a plain-Python solve of the same value "
                "(goal < 1 ms)",
                ["state", "readout us", "first readout ms (builds tables)", "plain Python ms",
                 "plain / readout", "< 1 ms"], rows)


if __name__ == "__main__":
    main()
