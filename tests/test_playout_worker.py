"""Live estimates play out in a process of their own (issue 15): the served pages' thread
never waits for Python's lock while play-outs run. Same results as in a thread, a worker that
dies is started again, and it ends with the server's end of its socket."""
from __future__ import annotations

import os
import time
from types import SimpleNamespace

import dicelab
from dicelab.lab import win_live
from dicelab.lab.playout_worker import PlayoutWorker, WorkerGone
from dicelab.lab.win import playout_seats


def shared_of(game, seed=7):
    base = game.continued(playout_seats(game, "optimal"), 0)
    return win_live._Shared(("test", seed), base, (10,), "optimal", None, seed)


def test_the_worker_gives_what_the_thread_gives():
    game = dicelab.new_game("bones", ["A", "B", "C"], seed=4, target=1000)
    game.apply("roll")
    thread = win_live._Runner(share=1.0, where="thread")
    process = win_live._Runner(share=1.0, where="process")
    try:
        a, b = shared_of(game), shared_of(game)
        first = thread.play(a, 5, None, 0)
        assert process.play(b, 5, None, 0) == first
        # a later chunk carries the first one's wins on: same again, base sent only once
        wins = [c * 5 for c in first.chances]
        assert process.play(b, 5, wins, 5) == thread.play(a, 5, wins, 5)
        assert process.worker.pid not in (None, os.getpid()) and process.worker.starts == 1
        assert process._spent > 0  # the child's CPU counts towards the runner's share
    finally:
        process.worker.close()


def test_a_dead_worker_is_started_again():
    game = dicelab.new_game("under40", ["A", "B"], seed=2)
    worker = PlayoutWorker()
    try:
        shared = shared_of(game)
        est, _ = worker.run(shared, 5, None, 0)
        os.kill(worker.pid, 9)
        worker._proc.wait(10)
        again, _ = worker.run(shared, 5, None, 0)  # a new child: the state is sent again
        assert worker.starts == 2 and again == est
    finally:
        worker.close()


def test_a_position_the_computers_cannot_play_is_an_error_not_a_dead_worker():
    game = dicelab.new_game("under40", ["A", "B"], seed=2)
    worker = PlayoutWorker()
    try:
        # no game: the play-outs raise in the child
        broken = win_live._Shared(("test", 8), SimpleNamespace(seats=[]), (10,), "optimal",
                                  None, 8)
        try:
            worker.run(broken, 5, None, 0)
        except WorkerGone:
            raise AssertionError("the worker died")
        except RuntimeError:
            pass
        else:
            raise AssertionError("no error")
        pid = worker.pid
        worker.run(shared_of(game), 5, None, 0)
        assert worker.pid == pid and worker.starts == 1
    finally:
        worker.close()


def test_the_worker_ends_with_the_servers_end_of_its_socket():
    game = dicelab.new_game("under40", ["A", "B"], seed=2)
    worker = PlayoutWorker()
    worker.run(shared_of(game), 5, None, 0)
    proc = worker._proc
    worker._conn.close()  # what a server killed with -9 leaves behind
    end = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    assert proc.poll() == 0
    worker.close()


def test_a_worker_that_cannot_start_leaves_the_play_outs_to_the_thread(monkeypatch):
    """No process can be started (here: no Python at sys.executable): each chunk fails, and
    after GIVE_UP failures in a row the runner plays them in its thread, with a warning."""
    import sys

    game = dicelab.new_game("under40", ["A", "B"], seed=2)
    runner = win_live._Runner(share=1.0, where="process")
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    shared = shared_of(game)
    for _ in range(win_live.GIVE_UP):
        try:
            runner.play(shared, 5, None, 0)
        except OSError:
            pass
        else:
            raise AssertionError("a chunk without a worker gave a result")
    assert runner.worker is None
    est = runner.play(shared, 5, None, 0)
    assert est.playouts == 5
    assert est == win_live._Runner(share=1.0, where="thread").play(shared_of(game), 5, None, 0)


def test_the_worker_runs_only_on_cpu_time_nothing_else_wants():
    game = dicelab.new_game("bones", ["A", "B", "C"], seed=4, target=1000)
    worker = PlayoutWorker()
    try:
        worker.run(shared_of(game), 5, None, 0)
        if hasattr(os, "SCHED_IDLE"):  # Linux: a page that wakes takes the CPU back at once
            assert os.sched_getscheduler(worker.pid) == os.SCHED_IDLE
        else:
            assert os.getpriority(os.PRIO_PROCESS, worker.pid) > os.getpriority(
                os.PRIO_PROCESS, 0)
    finally:
        worker.close()
