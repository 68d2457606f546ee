"""Shared by the benchmarks: time a call, a quantile, print rows as an aligned table, and say
whether a goal is met (``met``: run_all.py counts the MISSED it prints)."""
import statistics
import time


def timed(fn, repeat):
    """Median seconds of ``repeat`` calls of ``fn``, and the last call's result."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def rank(n: int, q: float) -> int:
    """Which of ``n`` sorted samples is the ``q`` quantile (the nearest one)."""
    return min(n - 1, round(q * (n - 1)))


def pct(xs, q):
    """The ``q`` quantile of ``xs``: one of its samples (``rank``)."""
    return sorted(xs)[rank(len(xs), q)]


def met(ok: bool) -> str:
    """A goal's verdict as every benchmark prints it: "met" or "MISSED" (a missed goal is a
    finding, not a failure: the script still exits 0)."""
    return "met" if ok else "MISSED"


def print_goals(title, rows):
    """``rows`` of (what, figure, goal, ok): each goal beside its figure, met or MISSED."""
    print_table(title, ["goal of", "figure", "goal", "verdict"],
                [(what, figure, goal, met(ok)) for what, figure, goal, ok in rows])


def print_table(title, header, rows):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
