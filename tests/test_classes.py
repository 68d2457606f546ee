"""Teach a class (issue 36, the service): ClassService over every rooms store.

A class made, students joining by code, seated, playing through the rooms, paused, ended; the
report's numbers are the coach's review of each table's game; forged and tampered tokens are
refused with nothing changed; the limits refuse with their message.
"""
from __future__ import annotations

import csv
import io
import json
import random
import time

import pytest

import dicelab
from dicelab.coach import as_game
from dicelab.errors import RuleError
from dicelab.i18n import using
from dicelab.rooms import ClassService, RoomService
from dicelab.rooms.class_model import CODE_LENGTH, CODE_LETTERS, class_code
from tests.test_rooms import HOSTILE, redis_server, redis_url, spec  # noqa: F401 (fixtures)

QUICK = {"target": 40}  # under40 to 40: a game of a round or two


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def make(store="memory", clock=None, **kw):
    rng = random.Random(7)
    rooms = RoomService(store, seeds=rng.getrandbits, **({"clock": clock} if clock else {}))
    return ClassService(rooms, seeds=rng.getrandbits, **kw)


@pytest.fixture
def classes():
    svc = make()
    yield svc
    svc.close()


def play_to_end(classes, code, tokens, rng=None):
    """Every student plays random legal actions at their table (computers play between)."""
    rng = rng or random.Random(3)
    rooms = classes.rooms
    students = {classes.student(code, t)["name"]: t for t in tokens}
    for _ in range(5000):
        busy = False
        for name, token in students.items():
            me = classes.student(code, token)
            rooms.play_computers(me["table"])
            game = rooms.state(me["table"])
            if not game.is_over:
                busy = True
                if game.current_player == me["seat"]:
                    rooms.act(me["table"], token, rng.choice(game.legal_actions()))
        if not busy:
            return
    raise AssertionError("the games did not end")


def snapshot(classes, code):
    """Everything stored of a class and its tables (to show a refusal changed nothing)."""
    rec = classes.store.get_class(code)
    rooms = {t["room"]: (classes.store.get(t["room"].casefold()).to_json(),
                         len(classes.store.actions(t["room"].casefold())))
             for t in rec.tables}
    return rec.to_json(), rooms


# ----- making a class, joining, seating ----------------------------------------------------------
def test_a_class_seats_its_students_in_join_order_at_even_tables(classes):
    klass, teacher = classes.create("Maths 9B", "under40", QUICK, table_size=3)
    assert len(klass.code) == CODE_LENGTH and set(klass.code) <= set(CODE_LETTERS)
    assert klass.status == "lobby"
    spaced = klass.code[:3].lower() + " " + klass.code[3:]  # as typed from the projector
    tokens = [classes.join(spaced, n) for n in ["Ann", "Bob", "Cy", "Dee", "Eve"]]
    assert classes.lookup(klass.code)["students"] == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    rec = classes.start(klass.code, teacher)
    assert rec.status == "playing"
    # 5 students, tables of at most 3: 3 + 2, filled in join order
    seats = [(s.name, s.table, s.seat) for s in rec.students]
    t1, t2 = rec.tables[0]["room"], rec.tables[1]["room"]
    assert seats == [("Ann", t1, 0), ("Bob", t1, 1), ("Cy", t1, 2), ("Dee", t2, 0),
                     ("Eve", t2, 1)]
    for token, (name, table, seat) in zip(tokens, seats):
        room = classes.rooms.room(table)
        assert room.started and room.klass == klass.code and not room.paused
        assert room.seat_of(token) == seat  # a student's token is their seat's token
        assert classes.student(klass.code, token)["table"] == table
    assert [t["seats"] for t in classes.tables(klass.code, teacher)] == [
        ["Ann", "Bob", "Cy"], ["Dee", "Eve"]]


def test_a_student_alone_and_each_against_computers_get_computers(classes):
    klass, teacher = classes.create("Solo", "under40", QUICK, table_size=2)
    for n in ["Ann", "Bob", "Computer 1"]:  # a student who took a computer's name
        classes.join(klass.code, n)
    rec = classes.start(klass.code, teacher)
    assert [t["seats"] for t in classes.tables(klass.code, teacher)] == [
        ["Ann", "Bob"], ["Computer 1", "Computer 2"]]
    # under40's default computer
    assert rec.tables[1]["seats"][1] == {"computer": "optimal", "name": "Computer 2"}

    klass, teacher = classes.create("Drill", "under40", QUICK, seating="computers",
                                    opponents=2, strategy="random")
    classes.join(klass.code, "Ann")
    classes.join(klass.code, "Bob")
    classes.start(klass.code, teacher)
    tables = classes.tables(klass.code, teacher)
    assert [t["seats"] for t in tables] == [["Ann", "Computer 1", "Computer 2"],
                                            ["Bob", "Computer 1", "Computer 2"]]
    room = classes.rooms.room(tables[0]["room"])
    assert [s.strategy for s in room.seats] == [None, "random", "random"]


def test_shuffled_seating_is_a_permutation_and_late_comers_get_a_table_at_once(classes):
    klass, teacher = classes.create("Shuffle", "under40", QUICK, order="shuffle")
    names = [f"S{i}" for i in range(8)]
    for n in names:
        classes.join(klass.code, n)
    rec = classes.start(klass.code, teacher)
    seated = [rec.students[t["student"]].name for table in rec.tables for t in table["seats"]]
    assert sorted(seated) == sorted(names) and seated != names  # seed 7: not join order
    late = classes.join(klass.code, "Late")
    me = classes.student(klass.code, late)
    room = classes.rooms.room(me["table"])
    assert room.started and [s.name for s in room.seats] == ["Late", "Computer 1"]
    assert me["seat"] == 0 and me["status"] == "playing"


def test_codes_and_names_are_checked():
    classes = make()
    klass, _ = classes.create("Names", "under40", QUICK)
    assert class_code(f" {klass.code.lower()[:2]}-{klass.code[2:]} ") == klass.code
    for bad in HOSTILE + ["ABCDE", "ABCDEFG", "ABCDE1", "ABCDEB"]:
        with pytest.raises(RuleError):
            class_code(bad)
    classes.join(klass.code, "Zoë")
    with pytest.raises(RuleError, match="already has a player named"):
        classes.join(klass.code, "ZOË")
    for bad in [None, 5, "", " ", "x" * 41, "a\x00b", "\u202eevil"]:
        with pytest.raises(RuleError):
            classes.join(klass.code, bad)
    assert classes.lookup(klass.code)["students"] == ["Zoë"]
    for bad in [None, "", "x" * 41, "\x07"]:
        with pytest.raises(RuleError):
            classes.create(bad, "under40", QUICK)
    with pytest.raises(RuleError, match="variants"):
        classes.create("X", "chess")
    with pytest.raises(RuleError, match="at least"):
        classes.create("X", "bones", {"target": 3})
    for kw in ({"table_size": 1}, {"table_size": 9}, {"table_size": True}, {"seating": "x"},
               {"order": "x"}, {"opponents": 0}, {"strategy": "nobody"}):
        with pytest.raises(RuleError):
            classes.create("X", "under40", QUICK, **kw)


def test_wrong_codes_are_rate_limited_per_address():
    clock = Clock()
    classes = make(clock=clock, code_tries=3)
    klass, _ = classes.create("Quiz", "under40", QUICK)
    wrong = "CCCCCC" if klass.code != "CCCCCC" else "DDDDDD"
    for _ in range(3):
        with pytest.raises(RuleError, match="no class has this code"):
            classes.join(wrong, "Mallory", client="10.0.0.9")
    with pytest.raises(RuleError, match="too many wrong class codes"):
        classes.join(klass.code, "Mallory", client="10.0.0.9")  # even the right one, now
    classes.join(klass.code, "Ann", client="10.0.0.1")  # another address is not held up
    clock.now += 61
    classes.join(klass.code, "Mallory", client="10.0.0.9")
    assert classes.lookup(klass.code)["students"] == ["Ann", "Mallory"]


def test_limits_refuse_with_a_translated_message():
    classes = make(max_students=2, max_classes=1)
    klass, teacher = classes.create("Small", "under40", QUICK)
    classes.join(klass.code, "Ann")
    classes.join(klass.code, "Bob")
    with pytest.raises(RuleError, match="Small is full: 2 students at most") as full:
        classes.join(klass.code, "Cy")
    with pytest.raises(RuleError, match="at most 1 classes") as many:
        classes.create("Another", "under40", QUICK)
    with using("fr"):
        assert "Small" in str(full.value) and "full" not in str(full.value)
        assert "1" in str(many.value) and "classes:" not in str(many.value)
    classes.end(klass.code, teacher)  # an ended class leaves room for another
    classes.create("Another", "under40", QUICK)


# ----- who may do what ---------------------------------------------------------------------------
def tampered(token):
    return [token[:-1] + ("A" if token[-1] != "A" else "B"), token.upper(), token + "x",
            "", None, 5, ["x"], "x" * 10_000]


def test_forged_and_tampered_tokens_are_refused_and_change_nothing(classes):
    klass, teacher = classes.create("Secure", "under40", QUICK)
    other, other_teacher = classes.create("Other", "under40", QUICK)
    ann, bob, cy = (classes.join(klass.code, n) for n in ["Ann", "Bob", "Cy"])
    outsider = classes.join(other.code, "Eve")
    before = snapshot(classes, klass.code)
    for token in tampered(teacher) + [ann, outsider, other_teacher]:
        for call in (lambda: classes.start(klass.code, token),
                     lambda: classes.set_coach_lines(klass.code, token, False),
                     lambda: classes.end(klass.code, token)):
            with pytest.raises(RuleError):
                call()
        assert snapshot(classes, klass.code) == before
    classes.start(klass.code, teacher)
    rec = classes.record(klass.code, teacher)
    table0 = rec.tables[0]["room"]
    table1 = rec.tables[1]["room"]
    before = snapshot(classes, klass.code)
    for token in tampered(teacher) + [ann, bob, outsider, other_teacher]:
        for call in (lambda: classes.pause(klass.code, token),
                     lambda: classes.end(klass.code, token),
                     lambda: classes.numbers(klass.code, token),
                     lambda: classes.report_csv(klass.code, token),
                     lambda: classes.tables(klass.code, token),
                     lambda: classes.costliest(klass.code, token),
                     lambda: classes.position(klass.code, token, table0, 0),
                     lambda: classes.game_file(klass.code, token, table1),
                     lambda: classes.rooms.pause(table0, token),
                     lambda: classes.rooms.act(table1, token, "roll")):
            with pytest.raises(RuleError):
                call()
        assert snapshot(classes, klass.code) == before
    # a student reads their own numbers and game, never another's; a code joins one class
    for token in tampered(ann) + [outsider, other_teacher]:
        with pytest.raises(RuleError):
            classes.my_numbers(klass.code, token)
        with pytest.raises(RuleError):
            classes.student(klass.code, token)
    assert classes.my_numbers(klass.code, ann)["student"] == "Ann"
    with pytest.raises(RuleError, match="own game"):
        classes.game_file(klass.code, cy, table0)
    assert json.loads(classes.game_file(klass.code, cy))["seats"][0]["name"] == "Cy"
    with pytest.raises(RuleError):
        classes.student(other.code, ann)
    assert snapshot(classes, klass.code) == before


# ----- pace and the report -----------------------------------------------------------------------
def test_pause_resume_end_hold_every_table(classes):
    klass, teacher = classes.create("Paced", "under40", QUICK, seating="computers")
    ann = classes.join(klass.code, "Ann")
    classes.start(klass.code, teacher)
    table = classes.student(klass.code, ann)["table"]
    rooms = classes.rooms
    rooms.play_computers(table)
    classes.pause(klass.code, teacher)
    game = rooms.state(table)
    n = len(game.actions)
    assert rooms.room(table).paused and classes.student(klass.code, ann)["status"] == "paused"
    with pytest.raises(RuleError, match="paused"):
        rooms.act(table, ann, game.legal_actions()[0])
    assert rooms.play_computers(table) == [] and len(rooms.state(table).actions) == n
    late = classes.join(klass.code, "Late")  # seated paused, like the others
    assert rooms.room(classes.student(klass.code, late)["table"]).paused
    classes.resume(klass.code, teacher)
    assert not rooms.room(table).paused
    play_to_end(classes, klass.code, [ann])
    classes.end(klass.code, teacher)
    assert rooms.room(table).paused
    with pytest.raises(RuleError, match="has ended"):
        classes.join(klass.code, "Later")
    with pytest.raises(RuleError, match="has ended"):
        classes.resume(klass.code, teacher)
    classes.set_coach_lines(klass.code, teacher, False)
    assert classes.student(klass.code, ann)["coach_lines"] is False


def test_the_report_is_the_coach_review_of_each_table(classes):
    klass, teacher = classes.create("Report", "under40", QUICK)
    tokens = [classes.join(klass.code, n) for n in ["Ann", "=HYPERLINK(\"x\")", "Cy"]]
    classes.start(klass.code, teacher)
    play_to_end(classes, klass.code, tokens)
    report = classes.report(klass.code, teacher)
    assert list(report["student"]) == ["Ann", "=HYPERLINK(\"x\")", "Cy"]
    for token, row in zip(tokens, report.to_dict("records")):
        game = classes.game_file(klass.code, token)  # the student's own game file
        seat = dicelab.review(game).seats[row["student"]]  # the review opens it
        assert (row["decisions"], row["mistakes"]) == (seat.decisions, seat.mistakes)
        assert row["value_lost"] == pytest.approx(seat.lost, abs=1e-12)
        assert row["decisions"] > 0 and row["finished"]
        saved = as_game(game)
        assert row["won"] == (row["student"] in [saved.names[w] for w in saved.winners])
        assert classes.my_numbers(klass.code, token) == row
    assert report["won"][:2].sum() == 1  # one of the two at the first table won
    rows = list(csv.DictReader(io.StringIO(classes.report_csv(klass.code, teacher))))
    assert rows[1]["student"] == "'=HYPERLINK(\"x\")"  # the coach's guard: no formula
    assert [int(r["decisions"]) for r in rows] == list(report["decisions"])
    data = json.loads(classes.report_json(klass.code, teacher))
    assert data["class"] == "Report" and data["students"][1]["student"] == "=HYPERLINK(\"x\")"
    costly = sorted((e.lost for t in tokens for e in dicelab.review(
        classes.game_file(klass.code, t), seat=classes.student(klass.code, t)["name"])
        if e.lost > 0), reverse=True)
    worst = classes.costliest(klass.code, teacher, 3)
    assert [w["lost"] for w in worst] == costly[:3] and worst
    position = classes.position(klass.code, teacher, worst[0]["table"], worst[0]["index"])
    assert len(position.actions) == worst[0]["index"]
    entry = dicelab.review(position.to_json())  # the position is the game before that choice
    assert entry.actions == worst[0]["index"]


# ----- every store: two services see the same class ----------------------------------------------
def test_two_servers_share_a_class(spec):  # noqa: F811 (a fixture)
    from tests.test_rooms import second_service

    a = ClassService(RoomService(spec))
    # another process's view (memory: one process, one service)
    b = a if spec == "memory" else ClassService(second_service(a.rooms, spec))
    klass, teacher = a.create("Shared", "under40", QUICK)
    heard = []
    a.subscribe(klass.code, heard.append)
    ann = b.join(klass.code, "Ann")
    bob = b.join(klass.code, "Bob")
    assert a.lookup(klass.code)["students"] == ["Ann", "Bob"]
    a.start(klass.code, teacher)
    table = b.student(klass.code, ann)["table"]
    game = b.rooms.state(table)
    token = ann if game.current_player == 0 else bob
    b.rooms.act(table, token, game.legal_actions()[0])
    assert a.tables(klass.code, teacher)[0]["actions"] == 1
    for _ in range(100):  # the other stores tell through a thread of their own
        if "action" in heard:
            break
        time.sleep(0.05)
    assert "class" in heard and "action" in heard
    a.close(), b.close(), a.rooms.close(), b.rooms.close()
