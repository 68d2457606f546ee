"""Win-table lookups (issue 16, goal: under 1 ms once the table is loaded): two-seat Bones at the
default rules (target 10,000, min on board 600) and Thousand, at the start of a turn (a table
read) and mid-turn, the first lookup of its turn (it solves that turn: ``win.TurnPass``) and
repeated (cached), over many pairs of banked totals.

Reference ("plain"): 200 numpy matrix-vector products of a 5x230 matrix, timed in the same run:
a per-total pass over a 200-total turn cannot do less, so the ratio says how close a lookup is
to that floor whatever the load of the machine. Times are medians of wall time, and for first
lookups also the worst in CPU time, in microseconds.

Thousand: the default table is read from the cache folder when it is there (``dicelab odds
thousand --win --build``, about 9 minutes); otherwise its lookups are timed on a stand-in of the
same shape (random chances: the work of a lookup depends on the shape, not the values), said so
in the table. A small real table (target 150) is timed as well.

    .venv/bin/python benchmarks/win_lookup.py
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _table import met, print_table, timed  # noqa: E402

import numpy as np  # noqa: E402

from dicelab.odds import win, win_thousand  # noqa: E402
from dicelab.rules.fivedice import Standing  # noqa: E402
from dicelab.settings import ThousandSettings  # noqa: E402

SMALL = dict(target=150, barrel=100, pits=[(25, 50)], barrel_fall=50, bolt_penalty=50)


def reference() -> float:
    K = np.random.default_rng(0).random((5, 230))
    v = np.random.default_rng(1).random(230)
    out = np.empty(5)

    def plain():
        for _ in range(200):
            np.dot(K, v, out=out)
    return timed(plain, 50)[0]


def firsts(table, states, clear):
    """Median wall time of first lookups (the turn cache emptied before each), and the worst
    in CPU time of this thread (on a loaded machine the worst wall time is another process
    holding the core, not the lookup)."""
    wall, cpu = [], []
    for s in states:
        clear()
        t0, c0 = time.perf_counter(), time.thread_time()
        table.readout(*s)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    return statistics.median(wall), max(cpu)


def thousand_default():
    """The default Thousand table if cached, else a stand-in of its shape; and a label."""
    t = win_thousand.table_if_cached(ThousandSettings())
    if t is not None:
        return t, "thousand default"
    tr = win_thousand.thousand_win_rules(ThousandSettings())
    st = win_thousand.Statuses(tr)
    W = np.random.default_rng(0).random((st.n + 1, st.n + 1))
    W[:, st.n], W[st.n, :] = 1.0, 0.0
    bits = np.zeros(win_thousand._bit_offsets(st)[1], dtype=np.uint8)
    return win_thousand.ThousandWinTable(tr, W, bits), "thousand default (stand-in, not built)"


def thousand_states(t, rng, n):
    """Mid-turn states of opened players off the barrel, all over the table."""
    st, u = t.st, t.rules.unit
    rows = np.flatnonzero(st.opened & ~st.on_barrel & (st.bolts == 0))
    out = []
    while len(out) < n:
        i, j = rng.choice(rows, 2)
        b, o = int(st.total[i]), int(st.total[j])
        room = st.top - b
        if room < 2:
            continue
        tt = int(rng.integers(1, room)) * u
        if tt < int(st.need[i]) * u:
            tt = int(st.need[i]) * u
        out.append((Standing(b * u, True), Standing(o * u, True), tt, int(rng.integers(1, 5))))
    return out


def main():
    ref = reference()
    rng = np.random.default_rng(7)
    rows = []

    def row(label, us):
        rows.append((label, f"{us:.1f}", f"{us * 1e-6 / ref:.2f}x", met(us < 1000)))

    c0 = time.perf_counter()
    b = win.table("bones", progress=False)      # cached after the first build (< 60 s)
    load = time.perf_counter() - c0
    u, T = b.rules.unit, b.T
    mids = [(int(x) * u, int(y) * u, int(t) * u, int(n)) for x, y, t, n in
            zip(rng.integers(0, T, 200), rng.integers(0, T, 200), rng.integers(1, 6, 200),
                rng.integers(1, 6, 200))]
    mids = [s for s in mids if s[0] > 0 or s[2] >= 600]
    early = [(0, int(o) * u, 600, 3) for o in rng.integers(0, T, 50)]  # the longest turns
    row("bones: start of a turn (table read)", timed(lambda: b.readout(5000, 4500), 2000)[0] * 1e6)
    med, worst = firsts(b, mids, b._turn.cache_clear)
    row("bones: mid-turn, first of its turn (median)", med * 1e6)
    row(f"bones: mid-turn, first of its turn (worst of {len(mids)}, CPU)", worst * 1e6)
    med, worst = firsts(b, early, b._turn.cache_clear)
    row("bones: mid-turn, first, banked 0 (longest turn, median)", med * 1e6)
    row("bones: mid-turn, first, banked 0 (worst of 50, CPU)", worst * 1e6)
    b.readout(650, 1200, 300, 2)
    row("bones: mid-turn, repeated (turn cached)",
        timed(lambda: b.readout(650, 1200, 350, 2), 2000)[0] * 1e6)
    row("bones: final turn (reach table)", timed(lambda: b.readout(650, 10_000, 300, 2), 2000)[0]
        * 1e6)
    # choose_keepers: a max over the keeps of each roll, so no TurnPass (timed when cached:
    # python -c "from dicelab.odds import win; win.table('bones', choose_keepers=True)")
    r = win.win_rules("bones", choose_keepers=True)
    ck = win.cached_table(r.key, lambda: None, lambda p: win._load(p, r), lambda p, t: None, True)
    if ck is not None:
        med, worst = firsts(ck, early, ck._turn.cache_clear)
        row("bones choose_keepers: mid-turn, first, banked 0 (median)", med * 1e6)
        row("bones choose_keepers: mid-turn, first, banked 0 (worst of 50, CPU)", worst * 1e6)

    for t, label in ((win_thousand.table("thousand", progress=False, **SMALL),
                      "thousand T150"), thousand_default()):
        states = thousand_states(t, rng, 100)
        me, other = Standing(0, False), Standing(0, False)
        row(f"{label}: start of a turn (table read)", timed(lambda: t.readout(me, other), 2000)[0]
            * 1e6)
        med, worst = firsts(t, states, t._turn.cache_clear)
        row(f"{label}: mid-turn, first of its turn (median)", med * 1e6)
        row(f"{label}: mid-turn, first of its turn (worst of 100, CPU)", worst * 1e6)
        s = states[0]
        t.readout(*s)
        row(f"{label}: mid-turn, repeated (turn cached)", timed(lambda: t.readout(*s), 2000)[0]
            * 1e6)
    print_table(f"Win-table lookups (us; load average {os.getloadavg()[0]:.1f} on "
                f"{os.cpu_count()} cores; plain reference {ref * 1e6:.0f} us; Bones table "
                f"loaded in {load:.2f} s)", ["lookup", "us", "/ plain", "< 1 ms"], rows)


if __name__ == "__main__":
    main()
