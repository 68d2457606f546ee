"""The one cache of solved tables (dicelab.odds.cachefile.TableCache, ``TABLES``): one build per
key however many threads ask at once, bounded in memory, files pruned; Yahtzee and the win
tables both use it."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

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
