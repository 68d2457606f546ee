"""The live chance-to-win estimate (issue 16): play-outs in a background thread, refined in
steps, restarted when the game moves, shown labelled as an estimate in the odds panel and the
win chart."""
from __future__ import annotations

import threading
import time

import pytest

import dicelab
from dicelab.games import Seat
from dicelab.lab import win_live
from dicelab.lab.win_live import LiveEstimate, applies
from dicelab.odds import win
from dicelab.players import make_player


def wait_for(cond, what: str, limit: float = 120.0):
    """Poll until ``cond()`` (the limit only stops a hung test; nothing asserts a time)."""
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


def test_applies_where_no_exact_chance_exists():
    assert not applies(dicelab.new_game("bones", ["A", "B"], seed=1))  # the exact table
    assert applies(dicelab.new_game("bones", ["A", "B", "C"], seed=1))
    for v in ("thousand", "under40", "yahtzee"):
        assert applies(dicelab.new_game(v, ["A", "B"], seed=1))
    assert not applies(dicelab.new_game("yahtzee", ["A"], seed=1))


def test_refined_estimate_holds_the_exact_chance(tmp_path, monkeypatch):
    """Two `winning` Bones seats (target 500): each published step's 95% interval; the last
    one (600 play-outs) holds the exact table's chance."""
    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    # a whole core: at the server's share (a quarter) the 650 play-outs rested 3 s for each
    # second they played, 30 s of the suite's time (the share has a test of its own)
    monkeypatch.setattr(win_live._POOL, "share", 1.0)
    g = dicelab.new_game("bones", [Seat("A", make_player("bones", "winning")),
                                   Seat("B", make_player("bones", "winning"))],
                         seed=5, target=500, min_on_board=50)
    t = win.table(g.config, progress=False)
    st = g.state
    exact = t.start_chance(st.totals[st.current], st.totals[1 - st.current])
    seen = []
    live = LiveEstimate(notify=lambda est, key: seen.append((est, key)), steps=(50, 600),
                        seed=11)
    assert live.restart(g)
    wait_for(lambda: len(seen) == 2, "two steps")
    assert [e.playouts for e, _ in seen] == [50, 600] and {k for _, k in seen} == {0}
    est = seen[-1][0]
    lo, hi = est.intervals[st.current]
    assert lo <= exact <= hi and abs(sum(est.chances) - 1) < 1e-12
    assert lo < est.chances[st.current] < hi and hi - lo < 0.09
    assert live.result is est and not live.running


def test_play_outs_run_off_the_callers_thread_and_a_move_restarts(monkeypatch):
    """While a chunk of play-outs is held in the background, the caller's thread goes on and
    applies a move; the held run's result is dropped, the new state's is published."""
    gate = threading.Event()
    where = []
    real = win_live.play_chunk

    def held(*args):
        where.append(threading.current_thread())
        gate.wait(60)
        return real(*args)
    monkeypatch.setattr(win_live, "play_chunk", held)
    g = dicelab.new_game("under40", ["A", "B", "C"], seed=3)
    seen = []
    live = LiveEstimate(notify=lambda est, key: seen.append(key), steps=(5,), seed=1,
                        pool=win_live._Runner(where="thread"))  # (the held estimate is here)
    live.restart(g)
    wait_for(lambda: where, "a chunk started")
    g.apply("roll")                     # the page's thread is free while the chunk runs
    live.restart(g)
    assert threading.main_thread() not in where and seen == []
    gate.set()
    wait_for(lambda: seen, "the new state's estimate")
    assert seen == [1] and live.key == 1 and live.result.playouts == 5
    assert all(t.name == "dicelab-estimate" for t in where)


def test_play_outs_leave_the_live_seats_alone():
    """A skill computer's coin is its own: play-outs play fresh copies of the seats."""
    from dicelab.lab.win import playout_seats

    g = dicelab.new_game("yahtzee", [Seat("A", make_player("yahtzee", "skill:0.5")),
                                     Seat("B")], seed=2)
    before = g.seats[0].player._rng.bit_generator.state
    seats = playout_seats(g)
    assert seats[0].player is not g.seats[0].player and seats[0].player.skill == 0.5
    assert seats[1].player.spec == "optimal"
    assert g.seats[0].player._rng.bit_generator.state == before


def test_panel_and_chart_show_the_estimate(monkeypatch):
    from dicelab.ui import OddsPanel, Play
    from dicelab.ui.win_chart import WinChart

    monkeypatch.setattr(win_live, "STEPS", (10, 20))
    g = dicelab.new_game("under40", ["Ann", "Bob", "Cy"], seed=4)
    play = Play(g)
    panel, chart = OddsPanel(play=play), WinChart(play=play)
    assert "estimating from play-outs" in panel._est.object and panel._est.visible
    assert chart._fig.title.text == "Chance to win (estimate from play-outs)"
    wait_for(lambda: "20 simulated play-outs" in panel._est.object, "the second step")
    text = panel._est.object
    assert "Chance to win (estimate)" in text and "95% interval" in text
    for name in ("Ann", "Bob", "Cy"):
        assert f"{name}: <b>" in text
    data = chart._src.data
    assert data["x"] == [0] and abs(sum(data[f"p{i}"][0] for i in range(3)) - 1) < 1e-12
    play.roll()
    assert "estimating from play-outs" in panel._est.object   # restarted on the move
    wait_for(lambda: chart._src.data["x"] == [0, 1], "a point for the new state")


def test_play_outs_take_at_most_their_share_of_a_core(monkeypatch):
    """A served page shares its process with every other page: the runner rests after each
    chunk so that play-outs take at most ``share`` of a core, however many pages estimate."""
    runner = win_live._Runner(share=0.25)
    done = threading.Event()
    spins = []

    def chunk(i):
        end = time.thread_time() + 0.02  # 20 ms of CPU, as a chunk of play-outs
        while time.thread_time() < end:
            pass
        spins.append(i)

    for i in range(10):
        runner.submit(chunk, i)
    runner.submit(done.set)  # runs after the tenth chunk and its rest (too quick to count)
    wait_for(done.is_set, "ten chunks")
    assert spins == list(range(10))
    # rest = busy * (1 / share - 1): 3 s of rest per CPU second
    assert runner.rested == pytest.approx(3 * runner.busy, rel=0.02) and runner.busy >= 0.2
    monkeypatch.setenv("DICELAB_ESTIMATE_SHARE", "0.5")
    assert win_live._Runner().share == 0.5
    for bad, expected in (("lots", 0.25), ("nan", 0.25), ("0.001", 0.05), ("7", 1.0),
                          ("0", 0.0), ("-1", 0.0)):
        monkeypatch.setenv("DICELAB_ESTIMATE_SHARE", bad)
        assert win_live._Runner().share == expected
    # 0: no estimates at all (a server that wants its cores for the players)
    monkeypatch.setattr(win_live, "_POOL", win_live._Runner(share=0.0))
    assert not applies(dicelab.new_game("thousand", ["A", "B"], seed=1))


def test_views_of_one_room_state_share_one_estimate(monkeypatch):
    """Issue 16/15: the viewers of a network room each hold a copy of the game; they read one
    estimate per state (one run of play-outs), not one each. A move starts one new run for
    all of them; a run nobody shows any more stops."""
    from dicelab.rooms import MemoryStore, RoomService
    from dicelab.ui.room_play import RoomPlay
    from dicelab.ui.win_estimate import win_estimate

    monkeypatch.setattr(win_live, "STEPS", (10, 20))
    calls = []
    real = win_live._POOL.play  # the chunks, wherever they run (the worker process)

    def counted(shared, n, wins, done):
        calls.append(repr(shared.base.state))
        return real(shared, n, wins, done)
    monkeypatch.setattr(win_live._POOL, "play", counted)
    service = RoomService(MemoryStore())
    room, ann = service.create("Trio", "under40", {"target": 200}, "Ann")
    bob = service.join("Trio", "Bob")
    cy = service.join("Trio", "Cy")
    service.start("Trio", ann)
    room = service.room("Trio")
    views = [RoomPlay(service, room, ann), RoomPlay(service, room, bob),
             RoomPlay(service, room, None)]
    ests = [win_estimate(v) for v in views]
    shared = ests[0].live.shared
    assert shared is not None and all(e.live.shared is shared for e in ests)
    assert win_live.shared_count() == 1
    wait_for(lambda: all(e.live.result is not None and e.live.result.playouts == 20
                         for e in ests), "every view's estimate")
    # one run: 20 play-outs in chunks of CHUNK, whatever the number of views
    assert len(calls) == 20 // win_live.CHUNK and shared.chunks == len(calls)
    assert len({e.live.result.chances for e in ests}) == 1
    # a move: every view follows it to one new estimate
    token = {room.seat_of(t): t for t in (ann, bob, cy)}[views[0].game.current_player]
    service.act("Trio", token, "roll")
    for v in views:
        v.sync()
    moved = ests[0].live.shared
    assert moved is not shared and all(e.live.shared is moved for e in ests)
    assert all(e.live.key == len(v.game.actions) for e, v in zip(ests, views))
    # the views leave one by one: the run goes on while one is left, then stops
    ests[0].live.stop()
    ests[1].live.stop()
    assert not moved.stopped and moved.readers
    ests[2].live.stop()
    assert moved.stopped or moved.done
    n = len(calls)
    time.sleep(3 * win_live.SETTLE)
    assert len(calls) - n <= 1      # at most the chunk that was under way
    # the finished estimate stays a while for a later page, then goes (KEEP, KEPT)
    assert shared.key in win_live._SHARED
    monkeypatch.setattr(win_live, "KEEP", 0.0)
    late = LiveEstimate(steps=(10, 20))
    assert late.restart(dicelab.new_game("under40", ["A", "B"], seed=1))
    assert shared.key not in win_live._SHARED


def test_a_served_page_restarts_its_estimate_after_showing_the_move(monkeypatch):
    """Issue 15: on a served page the estimate's restart waits until the page's update is
    done (every page of a room paid it at every action, before the table went out). The move
    shows "estimating" at once (the old estimate is for fewer actions); several moves before
    the restart runs restart it once, at the latest state."""
    import asyncio

    from bokeh.document import Document
    from panel.io.state import set_curdoc

    from dicelab.ui import Play
    from dicelab.ui.win_estimate import estimate_html, win_estimate

    monkeypatch.setattr(win_live, "STEPS", (10, 20))
    restarts = []
    real = LiveEstimate.restart
    monkeypatch.setattr(LiveEstimate, "restart",
                        lambda self, game: restarts.append(len(game.actions)) or real(self, game))

    class Served(Document):
        session_context = object()  # what makes dicelab treat it as a served page

    loop = asyncio.new_event_loop()
    doc = Served()

    async def scenario():
        g = dicelab.new_game("under40", ["Ann", "Bob", "Cy"], seed=4)
        play = Play(g)
        est = win_estimate(play)
        assert restarts == [0]  # made: started at once
        g.apply("roll")
        g.apply("roll")
        assert restarts == [0] and est.key == 0  # not yet: the page's update comes first
        assert "estimating from play-outs" in estimate_html(play)  # yet not shown as current
        await asyncio.sleep(0)
        assert restarts == [0, 2] and est.key == 2 and est.live.key == 2
        est.live.stop()

    with set_curdoc(doc):
        loop.run_until_complete(scenario())
    loop.close()
