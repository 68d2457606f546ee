"""benchmarks/rooms_load.py's yardstick, the lone session, is measured over its full number of
actions even when a game ends early: a Bones game ends at once on a BONES (five of a kind,
10,000, RULES.md "Bones"), and one run's lone room ended after 9 actions, a "p95" of 7 samples
(279 ms: a ratio of 0.18x). Lone rooms are now played one after another until enough actions."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "rooms_load.py"


def load_benchmark():
    spec = importlib.util.spec_from_file_location("rooms_load_for_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lone_rooms_are_played_until_their_actions_were(monkeypatch):
    rl = load_benchmark()
    made, ends = [], iter([9, 81, 5])  # the first game ends on a BONES after 9 actions

    def seat_rooms(service, prefix, n_rooms, per_room, n_actions, think, rng):
        made.append((prefix, n_rooms, per_room, n_actions))
        return [(prefix, ["token"])]

    def play_alone(out, name, service, pid, game):
        n = next(ends)
        out.update({f"{name}_actions": n, name: [float(n)] * (n - rl.WARMUP),
                    f"{name}_pages": [float(n)] * (n - rl.WARMUP), f"{name}_wall": 1.0,
                    f"{name}_server_cpu": 0.5, f"{name}_loop_cpu": 0.4,
                    f"{name}_client_cpu": 0.1})
        return {"lost": 0, "duplicated": 0, "wrong_pages": 0, "problems": [], "room": game}

    monkeypatch.setattr(rl, "seat_rooms", seat_rooms)
    monkeypatch.setattr(rl, "open_seats", lambda url, rooms: [f"page of {rooms[0][0]}"])
    monkeypatch.setattr(rl, "play_alone", play_alone)
    out, seats = {}, []
    checks = rl.play_lone(out, None, 1, "url", 90, 0.5, random.Random(1), seats)
    # a second room for the 81 actions left, then no third: 90 were played
    assert made == [("lone", 1, 1, 90), ("lone-2", 1, 1, 81)]
    assert [c["room"] for c in checks] == ["lone", "lone-2"]
    assert seats == ["page of lone", "page of lone-2"]
    assert out["lone_actions"] == 90 and out["lone_rooms"] == 2
    assert out["lone"] == [9.0] * 7 + [81.0] * 79  # both rooms' latencies, in order
    assert out["lone_wall"] == 2.0 and out["lone_server_cpu"] == 1.0


def test_a_lone_room_that_plays_its_actions_is_the_only_one(monkeypatch):
    rl = load_benchmark()
    monkeypatch.setattr(rl, "seat_rooms", lambda *a: [("lone", ["token"])])
    monkeypatch.setattr(rl, "open_seats", lambda url, rooms: ["page"])
    monkeypatch.setattr(rl, "play_alone", lambda out, name, *a: out.update(
        {f"{name}_actions": 90, name: [1.0] * 88}) or {"problems": []})
    out = {}
    assert len(rl.play_lone(out, None, 1, "url", 90, 0.5, random.Random(1), [])) == 1
    assert out["lone_rooms"] == 1 and out["lone_actions"] == 90


def test_the_ratio_comes_with_the_interval_its_slowest_actions_allow():
    """The p95 ratio's bootstrap interval: exact when every action took the same time, around
    the printed ratio otherwise, and wider for fewer actions (a p95 of 20 rests on 1 action)."""
    rl = load_benchmark()
    assert rl.ratio_interval([30.0] * 280, [15.0] * 88) == (2.0, 2.0)
    rng = random.Random(7)
    lone = [rng.lognormvariate(2.1, 0.2) for _ in range(88)]
    loaded = [rng.lognormvariate(2.4, 0.25) for _ in range(280)]
    lo, hi = rl.ratio_interval(loaded, lone)
    ratio = rl.pct(loaded, .95) / rl.pct(lone, .95)
    assert lo < ratio < hi
    assert 1.0 < lo and hi < 2.5
    few_lo, few_hi = rl.ratio_interval(loaded[:40], lone[:20])
    assert few_hi - few_lo > hi - lo
    assert rl.ratio_interval(loaded, lone) == (lo, hi)  # the same draws every time
