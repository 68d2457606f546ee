"""The one cache of solved tables (dicelab.odds.cachefile.TableCache, ``TABLES``): one build per
key however many threads ask at once, bounded in memory, files pruned; Yahtzee and the win
tables both use it."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from dicelab.odds import cachefile, win
from dicelab.odds import yahtzee as yz
from dicelab.odds.cachefile import TableCache


def eight_at_once(fn, keys):
    """``fn(key)`` from eight threads released together, two threads per key for four keys."""
    start = threading.Barrier(8)

    def run(key):
        start.wait()
        return fn(key)
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(run, keys))


def test_eight_threads_build_each_table_once(tmp_path):
    cache = TableCache(memory=8)
    built: dict = {}
    lock = threading.Lock()

    def build(key):
        with lock:
            built[key] = built.get(key, 0) + 1
        time.sleep(0.2)   # long enough for every other thread to ask meanwhile
        return {"key": key}

    def get(key):
        return cache.get(key, tmp_path / f"t-{key}.npz", lambda p: None, lambda: build(key),
                         lambda p, t: p.write_bytes(b"x"))
    keys = ["a", "b", "c", "d"] * 2
    tables = eight_at_once(get, keys)
    assert built == {"a": 1, "b": 1, "c": 1, "d": 1}
    assert all(t is tables[keys.index(k)] for t, k in zip(tables, keys))  # one object per key
    assert cache.builds == 4 and len(cache) == 4


def test_a_failed_build_fails_every_waiter_and_is_tried_again():
    cache = TableCache()
    calls = []

    def build():
        calls.append(1)
        time.sleep(0.2)
        raise ValueError("no")

    def get(_):
        try:
            return cache.get("k", None, None, build)
        except ValueError as exc:
            return exc
    out = eight_at_once(get, range(8))
    assert len(calls) == 1 and all(isinstance(x, ValueError) for x in out)
    with pytest.raises(ValueError):
        cache.get("k", None, None, build)   # not remembered: asked again, built again
    assert len(calls) == 2 and len(cache) == 0


def test_memory_and_files_are_bounded(tmp_path):
    cache = TableCache(memory=2)
    for i in range(5):
        path = tmp_path / f"t-{i}.npz"
        cache.get(i, path, lambda p: None, lambda i=i: [i], lambda p, t: p.write_bytes(b"x"),
                  keep=3)
        time.sleep(0.01)   # distinct modification times
    assert len(cache) == 2 and cache.values() == [[3], [4]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-2.npz", "t-3.npz", "t-4.npz"]
    assert cache.peek(0) is None and cache.peek(4) == [4]


def test_yahtzee_and_win_tables_share_the_cache_and_build_once(tmp_path, monkeypatch):
    monkeypatch.setattr(cachefile, "TABLES", TableCache())
    monkeypatch.setattr(yz, "TABLES", cachefile.TABLES)
    monkeypatch.setattr(win, "TABLES", cachefile.TABLES)
    solves = []
    real = yz._Solver.solve

    def counted(self, *a, **k):
        solves.append(1)
        time.sleep(0.2)
        return real(self, *a, **k)
    monkeypatch.setattr(yz._Solver, "solve", counted)
    tables = eight_at_once(lambda _: yz.solve("no_bonus", progress=False, cache=tmp_path),
                           range(8))
    assert len(solves) == 1 and all(t is tables[0] for t in tables)
    builds = []
    real_new = win._new

    def new(r, progress):
        builds.append(1)
        time.sleep(0.2)
        return real_new(r, progress)
    monkeypatch.setattr(win, "_new", new)
    tables = eight_at_once(lambda _: win.table("bones", progress=False, cache=tmp_path,
                                               target=1000, min_on_board=50), range(8))
    assert len(builds) == 1 and all(t is tables[0] for t in tables)
    assert cachefile.TABLES.builds == 2 and len(cachefile.TABLES) == 2
    assert np.isfinite(tables[0].W).all()


def test_a_yahtzee_solve_for_a_page_runs_in_a_worker_process(tmp_path, monkeypatch):
    """What a page's first readout of new rules asks for: the solve in a child process (here
    this process's solver refuses), the table then in this process's cache and on disk."""
    import queue

    from dicelab.odds.worker import Worker

    monkeypatch.setattr(cachefile, "TABLES", TableCache())
    monkeypatch.setattr(yz, "TABLES", cachefile.TABLES)

    def here(*a, **k):
        raise AssertionError("solved in the server's process")
    monkeypatch.setattr(yz._Solver, "solve", here)
    heard = queue.Queue()
    worker = Worker()
    worker.submit("k", lambda: yz.solve("no_bonus", progress=False, cache=tmp_path,
                                        elsewhere=True), heard.put)
    table = heard.get(timeout=300)
    assert not isinstance(table, Exception), table
    assert table.expected_score == pytest.approx(229.6385, abs=5e-5)
    assert yz.solve("no_bonus", progress=False, cache=tmp_path) is table
    assert len(list(tmp_path.glob("yahtzee-*.npz"))) == 1
