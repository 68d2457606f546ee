"""A class loses nothing (issue 36): kill -9 of the server mid-class on SQLite (every
acknowledged join, seat and action is back), and a teacher and students served by two
processes sharing Redis see the same class.

The worker processes are this file run as a script; a line is printed only after the service
call returned (the store acknowledged it). Table play reuses the rooms' worker
(tests/test_rooms_durability.py).
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading

HERE = os.path.abspath(__file__)


def join_worker(spec: str, code: str, first: int) -> None:
    """Join students S<first>, S<first+1>... (a started class seats each at once)."""
    from dicelab.rooms import ClassService

    classes = ClassService(spec)
    for i in range(first, first + 1000):
        token = classes.join(code, f"S{i}")
        print("JOINED", f"S{i}", token, flush=True)


def play_worker(spec: str, code: str, names: list[str]) -> None:
    """Join as these students, wait for the teacher's start (news from the other process),
    then play their table to the end with random legal actions."""
    from dicelab.rooms import ClassService

    classes = ClassService(spec)
    news = threading.Event()
    classes.subscribe(code, lambda kind: news.set())
    tokens = {n: classes.join(code, n) for n in names}
    print("JOINED", json.dumps(tokens), flush=True)
    rng = random.Random(5)
    while classes.student(code, tokens[names[0]])["table"] is None:
        news.wait(30)
        news.clear()
    me = {n: classes.student(code, t) for n, t in tokens.items()}
    table = me[names[0]]["table"]
    by_seat = {m["seat"]: tokens[n] for n, m in me.items()}
    while True:
        news.clear()
        game = classes.rooms.state(table)
        if game.is_over:
            break
        if game.current_player in by_seat:
            classes.rooms.act(table, by_seat[game.current_player],
                              rng.choice(game.legal_actions()))
        elif not classes.rooms.play_computers(table, limit=1):
            news.wait(30)
    print("DONE", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "join":
        join_worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        play_worker(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))
    sys.exit(0)


# ----- the tests ---------------------------------------------------------------------------------
from dicelab.rooms import ClassService  # noqa: E402
from tests.test_rooms import RedisServer, need_redis  # noqa: E402
from tests.test_rooms_durability import (read_acks_then_kill,  # noqa: E402
                                         read_lines_then_kill, spawn)


def test_sqlite_kill_9_mid_class_loses_no_student_seat_or_action(tmp_path):
    spec = f"sqlite://{tmp_path / 'rooms.sqlite3'}"
    classes = ClassService(spec)
    klass, teacher = classes.create("Marathon", "under40", {"target": 100_000})
    ann, bob = classes.join(klass.code, "Ann"), classes.join(klass.code, "Bob")
    classes.start(klass.code, teacher)
    table = classes.student(klass.code, ann)["table"]
    classes.rooms.close()
    # the students' tokens are their seats' tokens: the rooms' worker plays them
    acknowledged = read_acks_then_kill(spawn(spec, table, {0: ann, 1: bob}), 40)
    proc = subprocess.Popen([sys.executable, HERE, "join", spec, klass.code, "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    joined = [line.split() for line in read_lines_then_kill(proc, 6)]

    classes = ClassService(spec)  # a restarted server: the store opened anew
    rec = classes.record(klass.code, teacher)
    assert rec.status == "playing" and rec.name == "Marathon"
    names = [s.name for s in rec.students]
    assert names[:2] == ["Ann", "Bob"]
    assert [n for _, n, _ in joined] == names[2:2 + len(joined)]  # every acknowledged join
    assert len(names) <= 2 + len(joined) + 1  # at most one more: stored, killed before printing
    for _, name, token in joined:  # each late-comer has their seat, and it plays
        me = classes.student(klass.code, token)
        assert me["name"] == name and me["seat"] == 0
        room = classes.rooms.room(me["table"])
        assert room.started and room.seat_of(token) == 0
        game = classes.rooms.state(me["table"])
        classes.rooms.play_computers(me["table"])
        if not game.is_over and game.current_player == 0:
            classes.rooms.act(me["table"], token, game.legal_actions()[0])
    log = classes.store.actions(table.casefold())
    assert len(acknowledged) >= 40 and len(acknowledged) <= len(log) <= len(acknowledged) + 1
    for n, action in acknowledged:
        assert log[n] == action, n
    assert classes.tables(klass.code, teacher)[0]["actions"] == len(log)
    classes.close()
    classes.rooms.close()


def test_a_teacher_and_students_on_two_processes_share_a_class_through_redis(tmp_path):
    need_redis()
    server = RedisServer(tmp_path).start()
    try:
        classes = ClassService(server.url)
        klass, teacher = classes.create("Shared", "under40", {"target": 40})
        heard: list[str] = []
        joined = threading.Event()

        def news(kind):
            heard.append(kind)
            if len(classes.record(klass.code, teacher).students) == 2:
                joined.set()

        classes.subscribe(klass.code, news)
        proc = subprocess.Popen([sys.executable, HERE, "play", server.url, klass.code,
                                 json.dumps(["Ann", "Bob"])],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert joined.wait(60), proc.stderr.read()[-3000:] if proc.poll() is not None else ""
        tokens = json.loads(proc.stdout.readline().split(" ", 1)[1])
        classes.start(klass.code, teacher)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and "DONE" in out, err[-3000:]
        table = classes.tables(klass.code, teacher)[0]
        assert table["over"] and table["seats"] == ["Ann", "Bob"]
        assert heard.count("action") >= 1  # the teacher's process heard the other's actions
        import dicelab

        review = dicelab.review(classes.game_file(klass.code, teacher, table["room"]))
        for row in classes.numbers(klass.code, teacher):
            assert row["decisions"] == review.seats[row["student"]].decisions
        assert classes.my_numbers(klass.code, tokens["Ann"])["student"] == "Ann"
        classes.close()
        classes.rooms.close()
    finally:
        server.stop()
