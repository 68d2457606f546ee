"""Rooms lose nothing: kill -9 mid-game (SQLite, Redis), and two processes sharing a room
through Redis with no lost or duplicated action.

The worker processes are this file run as a script (``python test_rooms_durability.py ...``):
each prints ``ACK <n> <action JSON>`` only after RoomService.act / play_computers returned, i.e.
after the store acknowledged action n.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading


from dicelab.rooms import RoomService

HERE = os.path.abspath(__file__)


# ----- the worker (runs in a subprocess) ---------------------------------------------------------
def worker(spec: str, room: str, tokens: dict[int, str], seed: int) -> None:
    """Play the seats whose tokens it holds, and any computer seat, until the game ends.
    Waits for news (pub/sub) while another process is on turn."""
    service = RoomService(spec)
    news = threading.Event()
    service.subscribe(room, lambda event: news.set())
    rng = random.Random(seed)
    woken = timeouts = 0

    def ack(n):
        action = service.state(room).actions[n]
        from dicelab.actions import to_json

        print("ACK", n, json.dumps(to_json(action)), flush=True)

    while True:
        news.clear()  # before looking, so news arriving after the look wakes the wait below
        game = service.state(room)
        if game.is_over:
            break
        seat = service.room(room).seats[game.current_player]
        if seat.is_computer:
            for n in service.play_computers(room, limit=1):
                ack(n)
        elif game.current_player in tokens:
            ack(service.act(room, tokens[game.current_player], rng.choice(game.legal_actions())))
        elif news.wait(30):
            woken += 1
        else:
            timeouts += 1
    print("DONE", woken, timeouts, flush=True)
    service.close()


if __name__ == "__main__":
    spec, room, tokens, seed = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
    worker(spec, room, {int(k): v for k, v in tokens.items()}, seed)
    sys.exit(0)


# ----- the tests ---------------------------------------------------------------------------------
from tests.test_rooms import RedisServer, need_redis  # noqa: E402


def spawn(spec, room, tokens, seed=0):
    return subprocess.Popen([sys.executable, HERE, spec, room, json.dumps(tokens), str(seed)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def acks(lines):
    return [(int(n), json.loads(a)) for kind, n, a in
            (line.split(" ", 2) for line in lines if line.startswith("ACK "))]


def endless_room(spec):
    """Ann and Bob (both played by the worker) and a computer, at under40 to a target no game
    reaches within the test: the kill always comes mid-game."""
    service = RoomService(spec)
    _, ann = service.create("Marathon", "under40", {"target": 100_000}, "Ann")
    bob = service.join("Marathon", "Bob")
    service.add_computer("Marathon", ann, "random")
    service.start("Marathon", ann)
    service.close()
    return {0: ann, 1: bob}


def read_acks_then_kill(proc, count, also_kill=None):
    """Read until ``count`` actions were acknowledged, then kill -9 (``also_kill`` first: the
    store's server dying under the writer); returns every acknowledged action."""
    return acks(read_lines_then_kill(proc, count, also_kill))


def read_lines_then_kill(proc, count, also_kill=None):
    """Read ``count`` lines, then kill -9 (``also_kill`` first); returns every line printed."""
    lines = []
    while len(lines) < count:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the worker ended early: {proc.stderr.read()[-3000:]}")
        lines.append(line.strip())
    if also_kill is not None:
        also_kill()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    lines += proc.stdout.read().splitlines()  # printed before the kill, still in the pipe
    proc.stderr.close()
    return lines


def check_nothing_lost(spec, acknowledged):
    service = RoomService(spec)  # a fresh process's view: store opened anew, game replayed
    log = service.store.actions("marathon")
    assert [n for n, _ in acknowledged] == list(range(len(acknowledged)))
    assert len(log) >= len(acknowledged)  # at most one more: written, then killed before ACK
    assert len(log) <= len(acknowledged) + 1
    for n, action in acknowledged:
        assert log[n] == action, n
    game = service.state("Marathon")
    assert game.version == len(log) and not game.is_over
    # and the game goes on after the restart
    service.play_computers("Marathon")
    assert service.state("Marathon").version >= len(log)
    service.close()


def test_sqlite_kill_9_loses_no_acknowledged_action(tmp_path):
    spec = f"sqlite://{tmp_path / 'rooms.sqlite3'}"
    tokens = endless_room(spec)
    acknowledged = read_acks_then_kill(spawn(spec, "Marathon", tokens), 60)
    assert len(acknowledged) >= 60
    check_nothing_lost(spec, acknowledged)


def test_redis_kill_9_of_server_and_writer_loses_no_acknowledged_action(tmp_path):
    need_redis()
    server = RedisServer(tmp_path).start()
    try:
        tokens = endless_room(server.url)
        acknowledged = read_acks_then_kill(spawn(server.url, "Marathon", tokens), 60,
                                           also_kill=server.kill)
        assert len(acknowledged) >= 60
        server.start()  # same port, same directory: Redis reloads its append-only file
        check_nothing_lost(server.url, acknowledged)
    finally:
        server.stop()


def test_two_processes_share_a_room_through_redis(tmp_path):
    """Ann plays from one process, Bob from another, a computer from whichever gets there first:
    every action is acknowledged by exactly one process and the log is the whole game."""
    need_redis()
    server = RedisServer(tmp_path).start()
    try:
        service = RoomService(server.url)
        _, ann = service.create("Shared", "yahtzee", None, "Ann")
        bob = service.join("Shared", "Bob")
        service.add_computer("Shared", ann, "random")
        service.start("Shared", ann)
        procs = [spawn(server.url, "Shared", {0: ann}, 1), spawn(server.url, "Shared", {1: bob}, 2)]
        outputs = [p.communicate(timeout=600) for p in procs]
        for p, (_, err) in zip(procs, outputs):
            assert p.returncode == 0, err[-3000:]
        done = [line.split() for out, _ in outputs for line in out.splitlines()
                if line.startswith("DONE")]
        assert len(done) == 2
        assert sum(int(d[1]) for d in done) > 0  # woken by pub/sub news of the other's actions
        per_process = [acks(out.splitlines()) for out, _ in outputs]
        numbers = [n for a in per_process for n, _ in a]
        log = service.store.actions("shared")
        assert sorted(numbers) == list(range(len(log)))  # none lost, none twice
        for a in per_process:
            for n, action in a:
                assert log[n] == action
        game = service.state("Shared")
        assert game.is_over and game.version == len(log)
        assert all(per_process)  # both processes did act
        service.close()
    finally:
        server.stop()
