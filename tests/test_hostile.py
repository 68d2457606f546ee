"""Hostile and unlucky input (issue 15): every bad value to the Python API, the CLI, a URL, a
saved game or a room gets RuleError or a usage message naming the problem, and nothing already
stored changes (RULES.md "Common": an illegal action raises a clear error and changes nothing)."""
from __future__ import annotations

import json
import math
import socket

import pytest

from dicelab import RuleError, load_game, new_game
from dicelab.cli import main
from dicelab.settings import BonesSettings, ThousandSettings, YahtzeeSettings


# ----- settings bounds: the same refusal for the API, the CLI, the app and the rooms ---------
@pytest.mark.parametrize("pits, words", [
    ([[math.inf, 2]], "whole numbers"),
    ([[0, math.nan]], "whole numbers"),
    ([[0.5, 100]], "whole numbers"),
    ([[True, 100]], "whole numbers"),
    ([[0, 10_000_000]], "highest target"),
    ([[1000, 2000]], None),                      # allowed: 1000 wide
    ([[0, 1000]], "barrel (880) may not be inside"),  # issue 13.2: the barrel in a pit
    ([[1000, 1100]], None),                      # allowed: above the target, never reached
    ([[9500, 10_005]], "highest target"),
    ([[202, 300]], "multiples of 5"),
    ([[300, 200]], "low < high"),
    ([[-5, 100]], "low < high"),
    ([[600, 700], [200, 300]], "increasing order"),
    ([[200, 300], [250, 350]], "overlapping"),
    ([[i * 50, i * 50 + 25] for i in range(11)], "at most 10 pits"),
    ([[1, 2, 3]], "(low, high)"),
    (["ab"], "(low, high)"),
    ([{"a": 1, "b": 2}], "(low, high)"),
    ("200-300", "list"),
    (None, "list"),
])
def test_thousand_pits_bounds(pits, words):
    if words is None:
        assert ThousandSettings(pits=pits).pits == [tuple(p) for p in pits]
        return
    with pytest.raises(RuleError, match=words.replace("(", r"\(").replace(")", r"\)")):
        ThousandSettings(pits=pits)


def test_thousand_pit_width_bounds_the_solver():
    """A pit is at most 1000 wide (within a target up to 10,000): the widest allowed pit and the
    highest barrel keep every odds table small (issue 15: a pit of 10,000,000 froze a server)."""
    with pytest.raises(RuleError, match="at most 1000 wide"):
        ThousandSettings(target=10_000, pits=[[0, 1005]])
    from dicelab.odds import fivedice

    for s in (ThousandSettings(target=10_000, barrel=0, opening=500, pits=[[0, 1000]]),
              ThousandSettings(target=10_000, barrel=5000, opening=500, pits=[])):
        sol = fivedice._solve_optimal(fivedice._situation(fivedice.as_rules(s), 0, False))
        assert sol.top <= 1000  # turn totals tabled, in units of 5 points
        assert sol.roll.nbytes + sol.value.nbytes <= 100_000


@pytest.mark.parametrize("kw, words", [
    ({"barrel": 1000}, "below the target"),
    ({"opening": 500, "target": 500, "barrel": 0, "pits": []}, "opening"),
    ({"preset": "french"}, "no presets"),
    ({"preset": 3}, "a preset is a name"),
    ({"target": 1e9}, "integer"),
    ({"barrel": 6000}, "at most 5000"),
])
def test_thousand_settings_against_each_other(kw, words):
    with pytest.raises(RuleError, match=words):
        ThousandSettings(**kw)


def test_settings_from_dict_refuses_non_mappings():
    for bad in (None, [1], "target=3", {1: 2}):
        with pytest.raises(RuleError, match="mapping"):
            BonesSettings.from_dict(bad)


def test_yahtzee_rule_sets_are_bounded():
    with pytest.raises(RuleError):
        YahtzeeSettings(rerolls=6)
    with pytest.raises(RuleError):
        YahtzeeSettings(upper_bonus_threshold=106)


# ----- the Python API ----------------------------------------------------------------------------
@pytest.mark.parametrize("call, words", [
    (lambda: new_game("thousand", None), "seats are a list"),
    (lambda: new_game("bones", "AnnBob"), "seats are a list"),
    (lambda: new_game("bones", 5), "seats are a list"),
    (lambda: new_game("bones", {"Ann": 1}), "seats are a list"),
    (lambda: new_game("bones", [f"P{i}" for i in range(9)]), "1 to 8"),
    (lambda: new_game("bones", ["An\x00n"]), "control characters"),
    (lambda: new_game("bones", ["Ann\u202eboB"]), "control characters"),
    (lambda: new_game("bones", ["\x1b[31mAnn"]), "control characters"),
    (lambda: new_game("bones", [5]), "a seat is a name"),
    (lambda: new_game("bones", [{"name": 5}]), "a player.s name must be text"),
    (lambda: new_game("bones", ["x" * 10_000]), "at most 40"),
    (lambda: new_game("bones", [{"name": "A", "strategy": ["x"]}]), "strategy is a name"),
    (lambda: new_game("thousand", pits=[[math.inf, 2]]), "whole numbers"),
    (lambda: new_game(["bones"]), "unknown variant"),
    (lambda: new_game("bones", seed=-1), "seed"),
    (lambda: new_game("bones", seed=2 ** 80), "seed"),
    (lambda: new_game("bones", seed=1.5), "seed"),
    (lambda: new_game("bones", seed=True), "seed"),
    (lambda: new_game("bones", seed="7"), "seed"),
    (lambda: new_game("thousand", preset="french"), "no presets"),
    (lambda: new_game("bones", settings=ThousandSettings()), "BonesSettings"),
])
def test_api_refuses(call, words):
    with pytest.raises(RuleError, match=words):
        call()


def test_names_keep_emoji_and_collapse_tabs():
    g = new_game("bones", ["Ann\tLee", "\U0001F469\u200d\U0001F4BB"])
    assert g.names == ["Ann Lee", "\U0001F469\u200d\U0001F4BB"]


def test_refused_action_changes_nothing():
    g = new_game("thousand", ["A", "B"], seed=3)
    g.apply("roll")
    before = g.snapshot()
    for bad in (None, {"type": "reroll", "keep": [float("inf")]}, {"type": "roll", "keep": "x"},
                [1, 2], 3.5, "roll " + "9" * 5000, {"type": "score", "box": ["a"]}):
        with pytest.raises(RuleError):
            g.apply(bad)
        assert g.snapshot() == before


# ----- saved games --------------------------------------------------------------------------------
def saved() -> dict:
    g = new_game("thousand", ["Ann", {"name": "Cpu", "strategy": "chicken"}], seed=11)
    g.apply("roll")
    return g.to_dict()


def edited(**changes) -> dict:
    d = saved()
    d.update(changes)
    return d


@pytest.mark.parametrize("doc, words", [
    (edited(seed=None), "its own seed"),
    (edited(seed=-3), "seed"),
    (edited(seed=2 ** 70), "seed"),
    (edited(seed=True), "seed"),
    (edited(seed="11"), "seed"),
    ('{"dicelab": 1, "variant": "bones", "settings": {}, "seats": [{"name": "A"}], "seed": 1,'
     ' "actions": [{"type": "roll"}, {"type": "stand", "keep": [1e400]}]}', "malformed action"),
    ('{"dicelab": 1, "variant": "bones", "settings": {}, "seats": [{"name": "A"}], "seed": 1,'
     ' "actions": ' + "[" * 100_000 + "]" * 100_000 + "}", "not a saved dicelab game"),
    ("[" * 100_000 + "]" * 100_000, "not a saved dicelab game"),
    (b"\xff\xfe{}", "not a saved dicelab game"),
    ("x" * 30_000_000, "at most 20 MB"),
    (edited(actions=[{"type": "roll"}] * 200_001), "at most 200000"),
    (edited(actions={"a": 1}), "actions are a list"),
    (edited(actions=["roll"]), "malformed action"),
    (edited(actions=[{"type": "reroll", "positions": [[[[1]]]]}]), "malformed action"),
    (edited(seats="AnnBob"), "seats are a list"),
    (edited(seats=[]), "seats are a list"),
    (edited(seats=[{"name": 5}]), "a seat is"),
    (edited(seats=[{"name": "A\x07"}]), "control characters"),
    (edited(seats=[{"name": "A", "strategy": ["x"]}]), "a seat is"),
    (edited(seats=[{"name": "A", "evil": 1}]), "a seat is"),
    (edited(settings=[1]), "settings are a mapping"),
    (edited(settings={"pits": [[0, 10_000_000]]}), "highest target"),
    (edited(settings={"pits": [[0, [1]]]}), "malformed value"),
    (edited(settings={"target": {"a": 1}}), "malformed value"),
    (edited(settings={"x" * 50: 1}), "no setting"),
    (edited(variant=["bones"]), "unknown variant"),
    (edited(variant="chess"), "unknown variant"),
    (edited(evil=1), "unknown key"),
    (edited(dicelab=2), "format 1"),
    ({k: v for k, v in saved().items() if k != "seed"}, "missing seed"),
    (None, "not a saved dicelab game"),
])
def test_load_game_refuses(doc, words):
    with pytest.raises(RuleError, match=words):
        load_game(json.dumps(doc) if isinstance(doc, dict) else doc)
    if isinstance(doc, dict):
        with pytest.raises(RuleError, match=words):
            load_game(doc)


def test_load_game_checks_everything_before_replaying(monkeypatch):
    """A bad last action refuses the document before a single action is replayed."""
    from dicelab.games import base

    doc = saved()
    doc["actions"].append({"type": "roll", "keep": [1.5]})
    applied = []
    monkeypatch.setattr(base.Game, "apply", lambda self, a: applied.append(a))
    with pytest.raises(RuleError, match="malformed action"):
        load_game(doc)
    assert applied == []


def test_load_game_round_trip_still_works():
    d = saved()
    assert load_game(json.dumps(d)).to_dict() == d


# ----- the command line ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["simulate", "bones", "--players", "chicken", "--games", "2", "--seed", "-1"], "seed"),
    (["simulate", "thousand", "--players", "chicken", "--games", "2", "--preset", "french"],
     "--preset is not a setting of Thousand"),
    (["play", "thousand", "--preset", "french", "--players", "A"],
     "--preset is not a setting of Thousand"),
    (["play", "bones", "--players", "A\x01"], "control characters"),
    (["play", "bones", "--players", "A", "--seed", "-4"], "seed"),
    (["serve", "--port", "99999"], "--port is 1 to 65535"),
    (["serve", "--port", "-2"], "--port is 1 to 65535"),
])
def test_cli_usage_errors(argv, words, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicelab: ") and words in err and "Traceback" not in err


def test_cli_port_in_use(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err


# ----- URL query values ---------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [b"\xff\xfe", b"\xff", b"a" * 500, b"ab\x00c", b"\xc3"])
def test_url_values_that_are_not_text_are_ignored(raw, monkeypatch):
    import panel as pn

    from dicelab.ui import app

    monkeypatch.setattr(type(pn.state), "session_args",
                        property(lambda self: {"room": [raw], "pace": [raw]}))
    assert app._arg("room") is None and app._arg("pace") is None
    monkeypatch.setattr(type(pn.state), "session_args",
                        property(lambda self: {"room": ["Table 1".encode()]}))
    assert app._arg("room") == "Table 1"


def test_app_opens_with_hostile_url_values(monkeypatch, tmp_path):
    """The whole app builds (no traceback page) with ?room=%FF%FE&pace=%FF&anim=nan."""
    import panel as pn

    from dicelab.ui import create_app

    monkeypatch.setenv("DICELAB_ROOMS", "memory")
    monkeypatch.setattr(type(pn.state), "session_args", property(
        lambda self: {"room": [b"\xff\xfe"], "pace": [b"\xff"], "anim": [b"nan"],
                      "sound": [b"\xfe"]}))
    page = create_app(tmp_path / "records.sqlite3")
    assert page is not None


# ----- rooms --------------------------------------------------------------------------------------
from dicelab.rooms import MemoryStore, RoomService, SQLiteStore  # noqa: E402


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def started(service, variant="bones", computers=0):
    room, token = service.create("T1", variant, {}, "Ann")
    for _ in range(computers):
        service.add_computer("T1", token, "chicken")
    service.start("T1", token)
    return token


def test_room_settings_bounds_are_the_same_refusal():
    service = RoomService(MemoryStore())
    with pytest.raises(RuleError, match="highest target"):
        service.create("Pit", "thousand", {"pits": [[0, 10_000_000]]}, "Ann")
    with pytest.raises(RuleError, match="whole numbers"):
        service.create("Pit", "thousand", {"pits": [[0.5, 100]]}, "Ann")
    assert service.list_all() == []


def test_act_twice_with_the_same_number_plays_once():
    service = RoomService(MemoryStore())
    token = started(service)
    assert service.act("T1", token, "roll", expect=0) == 0
    assert service.act("T1", token, "roll", expect=0) == 0  # a retry: answered, not played
    assert len(service.log("T1")) == 1
    game = service.state("T1")
    if game.legal_actions():
        with pytest.raises(RuleError, match="moved on"):  # another action took place 0
            service.act("T1", token, "stand", expect=0)
        with pytest.raises(RuleError, match="moved on"):  # not there yet
            service.act("T1", token, "roll", expect=5)
    for bad in (-1, True, "0", 1.0):
        with pytest.raises(RuleError, match="expect"):
            service.act("T1", token, "roll", expect=bad)
    assert len(service.log("T1")) == 1


def test_creator_removes_a_computer_from_a_full_room():
    service = RoomService(MemoryStore())
    room, token = service.create("Full", "bones", {}, "Ann")
    for _ in range(7):
        service.add_computer("Full", token, "chicken")
    assert service.room("Full").is_full
    service.remove_seat("Full", token, 7)
    assert len(service.room("Full").seats) == 7


def test_room_limits_per_server_and_per_address():
    service = RoomService(MemoryStore(), max_rooms=3, max_per_client=2)
    service.create("A1", "bones", {}, "Ann", client="10.0.0.1")
    service.create("A2", "bones", {}, "Ann", client="10.0.0.1")
    with pytest.raises(RuleError, match="at most 2 games from one address"):
        service.create("A3", "bones", {}, "Ann", client="10.0.0.1")
    service.create("B1", "bones", {}, "Bob", client="10.0.0.2")
    with pytest.raises(RuleError, match="at most 3 games"):
        service.create("B2", "bones", {}, "Bob", client="10.0.0.3")
    assert [r.name for r in service.list_all()] == ["A1", "A2", "B1"]
    with pytest.raises(RuleError):
        RoomService(MemoryStore(), max_rooms=0)


def test_expiry_times_come_from_the_environment(monkeypatch):
    assert (RoomService(MemoryStore()).keep_finished, RoomService(MemoryStore()).idle) == \
        (3600.0, 21600.0)
    monkeypatch.setenv("DICELAB_KEEP_FINISHED", "120")
    monkeypatch.setenv("DICELAB_IDLE", "900.5")
    service = RoomService(MemoryStore())
    assert (service.keep_finished, service.idle) == (120.0, 900.5)
    assert RoomService(MemoryStore(), idle=60).idle == 60.0  # an argument wins
    for bad in ("soon", "0", "-5", "nan", "inf", "1e12"):
        monkeypatch.setenv("DICELAB_IDLE", bad)
        with pytest.raises(RuleError, match="DICELAB_IDLE is a number of seconds"):
            RoomService(MemoryStore())
    monkeypatch.delenv("DICELAB_IDLE")
    with pytest.raises(RuleError, match="DICELAB_KEEP_FINISHED"):
        RoomService(MemoryStore(), keep_finished=True)


def test_finished_and_idle_rooms_expire_into_the_history():
    clock = Clock()
    service = RoomService(MemoryStore(), clock=clock, keep_finished=60, idle=600)
    token = started(service, computers=1)
    service.create("Idle", "bones", {}, "Bob")
    game = service.state("T1")
    while not game.is_over:  # Ann stands at once; the computer plays its turns
        if game.current_player == game.seats.index(next(s for s in game.seats if s.name == "Ann")):
            n = len(game.actions)
            a = "roll" if not game.legal_actions() or game.state.turn_total == 0 else "stand"
            if not game.is_legal(a):
                a = game.legal_actions()[0]
            service.act("T1", token, a, expect=n)
        else:
            service.play_computers("T1")
        game = service.state("T1")
    assert service.room("T1").finished and service.room("T1").public()["finished"]
    clock.now += 30
    assert service.expire() == []
    clock.now += 31
    assert service.expire() == ["t1"]
    assert [r.name for r in service.list_all()] == ["Idle"]
    assert [r.name for r in service.history()] == ["T1"]
    assert len(service.log("T1")) == len(game.actions)  # kept, with its log
    clock.now += 600
    assert service.expire() == ["idle"] and service.list_all() == []


def test_damaged_rows_are_skipped_and_reported(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteStore(path)
    service = RoomService(store)
    token = started(service)
    service.act("T1", token, "roll")
    service.create("Good", "bones", {}, "Bob")
    heard = []
    service.subscribe(None, lambda e: heard.append(e))
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("INSERT INTO rooms VALUES ('bad', 0, 0, 'not json{')")
    db.execute("INSERT INTO rooms VALUES ('bad2', 0, 1, '{\"name\": 5}')")
    db.execute("INSERT INTO rooms VALUES ('bad3', 0, 2, '[1, 2]')")
    db.commit()
    assert [r.name for r in service.list_all()] == ["T1", "Good"]
    assert set(service.damaged) == {"bad", "bad2", "bad3"}
    # the change watcher goes on reporting other rooms' news
    db.execute("UPDATE rooms SET room = json_set(room, '$.rev', 99) WHERE key = 'good'")
    db.commit()
    deadline = __import__("time").time() + 5
    while not any(e.room == "good" for e in heard) and __import__("time").time() < deadline:
        __import__("time").sleep(0.05)
    assert any(e.room == "good" for e in heard)
    # a bad action row breaks only its room, with a message naming it
    service2 = RoomService(SQLiteStore(path))
    db.execute("UPDATE actions SET action = 'garbage' WHERE key = 't1' AND idx = 0")
    db.commit()
    with pytest.raises(RuleError, match="damaged"):
        service2.state("T1")
    assert [r.name for r in service2.list_all()] == ["T1", "Good"]
    db.close()
    service.close()
    service2.close()


def test_a_room_in_play_is_idle_only_when_its_log_stands_still():
    clock = Clock()
    service = RoomService(MemoryStore(), clock=clock, idle=600)
    token = started(service)
    service.act("T1", token, "roll")
    clock.now += 601
    assert service.expire() == []  # first look at its log: it may have moved meanwhile
    clock.now += 300
    service.act("T1", token, service.state("T1").legal_actions()[0])
    assert service.expire() == []
    clock.now += 601
    assert service.expire() == ["t1"]


# ----- damaged files ------------------------------------------------------------------------------
def damage(path, how):
    import sqlite3

    if how == "garbage":
        path.write_bytes(b"\x00\xffnot a database at all" * 100)
    elif how == "text":
        path.write_text("records: none\n")
    elif how == "folder":
        path.mkdir()
        (path / "x").write_text("x")
    elif how in ("truncated", "half"):
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE records (variant TEXT, key TEXT, value INTEGER, value2 INTEGER,"
                   " who TEXT, at REAL, PRIMARY KEY (variant, key))")
        db.executemany("INSERT INTO records VALUES (?, ?, 1, 1, 'x', 0)",
                       [(f"v{i}", "k" * 500) for i in range(200)])
        db.commit()
        db.close()
        data = path.read_bytes()
        path.write_bytes(data[:100] if how == "truncated" else data[: len(data) // 2])
    elif how == "other schema":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE records (id INTEGER, blob BLOB)")
        db.commit()
        db.close()
    elif how == "other program":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE photos (id INTEGER)")
        db.commit()
        db.close()
    elif how == "header only":
        path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)


DAMAGE = ["garbage", "text", "folder", "truncated", "half", "other schema", "other program",
          "header only"]


@pytest.mark.parametrize("how", DAMAGE)
def test_damaged_records_file_is_set_aside(how, tmp_path, caplog):
    from dicelab.ui.records import RecordStore

    path = tmp_path / "records.sqlite3"
    damage(path, how)
    store = RecordStore(path)
    assert store.offer("bones", "game_total", 1200, "Ann")
    assert store.get("bones")["game_total"]["value"] == 1200
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(
        ("-wal", "-shm"))]
    if how == "half":  # half a file may still read as a smaller database: then kept
        assert store.problem is None or len(aside) == 1
        return
    assert len(aside) == 1 and "set aside as" in store.problem
    assert "set aside" in caplog.text


def test_a_healthy_records_file_is_kept(tmp_path):
    from dicelab.ui.records import RecordStore

    path = tmp_path / "records.sqlite3"
    RecordStore(path).offer("bones", "game_total", 900, "Ann")
    store = RecordStore(path)
    assert store.problem is None and store.get("bones")["game_total"]["value"] == 900
    assert [p.name for p in tmp_path.iterdir() if ".damaged" in p.name] == []


def test_the_app_works_on_a_damaged_records_file(tmp_path, monkeypatch):
    from dicelab.ui.app import DicelabApp

    monkeypatch.setenv("DICELAB_ROOMS", "memory")
    path = tmp_path / "records.sqlite3"
    damage(path, "garbage")
    app = DicelabApp(records_path=path)
    assert "set aside" in app.start_screen.message
    assert "set aside" in app.start_screen._msg.object


@pytest.mark.parametrize("how", ["garbage", "folder", "other program", "truncated"])
def test_damaged_rooms_file_is_set_aside(how, tmp_path):
    path = tmp_path / "rooms.sqlite3"
    damage(path, how)
    store = SQLiteStore(path)
    assert "set aside" in store.problem
    service = RoomService(store)
    service.create("Fresh", "bones", {}, "Ann")
    assert [r.name for r in service.list_all()] == ["Fresh"]
    service.close()


def test_serve_warns_of_damaged_files(tmp_path, monkeypatch):
    from dicelab import cli

    records = tmp_path / "records.sqlite3"
    rooms = tmp_path / "rooms.sqlite3"
    damage(records, "garbage")
    damage(rooms, "other program")
    monkeypatch.setenv("DICELAB_RECORDS", str(records))
    monkeypatch.setenv("DICELAB_ROOMS", f"sqlite://{rooms}")
    warnings = cli._file_checks()
    assert len(warnings) == 2 and all("set aside" in w for w in warnings)
    assert cli._file_checks() == []  # fresh files now


# ----- caches with a size bound -------------------------------------------------------------------
def test_five_dice_solves_are_kept_in_a_bounded_cache():
    from dicelab.odds import fivedice

    for solve in (fivedice._solve_optimal, fivedice._solve_threshold, fivedice.solve_reach):
        assert solve.cache_info().maxsize == fivedice.SOLVES
    s = ThousandSettings(barrel=880, pits=[])
    for banked in range(0, 880, 5):  # each banked total below the barrel is its own grid
        fivedice.optimal_turn_ev(s, banked=banked)
    assert fivedice._solve_optimal.cache_info().currsize <= fivedice.SOLVES


def test_yahtzee_tables_are_kept_in_bounded_caches(tmp_path, monkeypatch):
    """Every distinct Yahtzee rule set used to add a table to memory and disk for good."""
    from dicelab.odds import yahtzee as yz

    from dicelab.odds.cachefile import TableCache

    monkeypatch.setattr(yz, "TABLES", TableCache(memory=2))
    monkeypatch.setattr(yz, "DISK_TABLES", 2)

    class Quick:  # the bounds are what is tested here, not the solver (tested elsewhere)
        def __init__(self, rules):
            self.rules = rules

        def solve(self, progress=False):
            return __import__("numpy").zeros((yz.FULL + 1) * self.rules.Y * self.rules.U)
    monkeypatch.setattr(yz, "_Solver", Quick)
    tables = [yz.solve(YahtzeeSettings(yahtzee_bonus=50 * i, rerolls=3), progress=False,
                       cache=tmp_path) for i in range(4)]   # (no table shipped for these)
    assert len(yz.TABLES) == 2 and yz.TABLES.values() == tables[2:]
    assert len(list(tmp_path.glob("yahtzee-*.npz"))) == 2


def test_shared_worker_does_identical_work_once_and_bounds_its_queue():
    import threading

    from dicelab.odds.worker import Worker

    worker = Worker(max_queued=2)
    gate = threading.Event()
    runs, heard = [], []
    finished = threading.Semaphore(0)

    def work(name):
        def run():
            gate.wait(10)
            runs.append(name)
            return name
        return run

    def done(result):
        heard.append(result)
        finished.release()
    assert worker.submit("a", work("a"), done) == 0
    assert worker.submit("a", work("a again"), done) == 0   # joins the same job
    assert worker.submit("b", work("b"), done) == 1
    with pytest.raises(RuleError, match="busy"):
        worker.submit("c", work("c"), done)
    assert worker.position("b") == 1
    gate.set()
    for _ in range(3):
        assert finished.acquire(timeout=10)
    assert runs == ["a", "b"] and sorted(heard) == ["a", "a", "b"]
    assert worker.position("a") is None


def test_yahtzee_odds_are_solved_by_the_worker_not_the_page(monkeypatch):
    import threading

    from dicelab.ui import odds_view

    page_thread = threading.get_ident()
    solved_on, bumps = [], threading.Semaphore(0)

    class Mod:
        table = None

        def cached(self, settings):
            return self.table

        def rules_key(self, settings):
            return "test-key-" + repr(settings.to_dict())

        def solve(self, settings, progress=False, elsewhere=False):
            assert elsewhere  # the solve itself in the worker's process
            solved_on.append(threading.get_ident())
            self.table = "TABLE"
            return self.table
    mod = Mod()

    class FakePlay:  # what odds_view asks of a Play
        solve_error = solve_asked = None

        def solve_done(self, error=None):
            self.solve_error = error

        def ask_solve(self, key):
            self.solve_asked = key

        def odds_ready(self):
            bumps.release()
    play = FakePlay()
    game = new_game("yahtzee", ["A"], seed=1)
    assert odds_view._yahtzee_table(mod, game, play) is None
    assert bumps.acquire(timeout=10)
    assert solved_on and solved_on[0] != page_thread
    assert odds_view._yahtzee_table(mod, game, play) == "TABLE"


# ----- the lobby with many rooms ------------------------------------------------------------------
def test_lobby_shows_a_page_and_redraws_only_changed_rows(monkeypatch):
    from dicelab.rooms import backend as rooms_backend
    from dicelab.rooms.pacer import Pacer
    from dicelab.ui import lobby as lobby_mod

    service = RoomService(MemoryStore(), max_rooms=1000)
    monkeypatch.setattr(rooms_backend, "_backend", (service, Pacer(service, pace=0.0)))
    tokens = [service.create(f"Room {i}", "bones", {}, "Ann")[1] for i in range(40)]
    lobby = lobby_mod.Lobby(lobby_mod.SeatKeeper(), on_open=lambda *a: None)
    buttons = [o for o in lobby._list.objects if hasattr(o, "label")]
    assert len(lobby._lists["open"].rows) == lobby.PAGE and "28 not shown" in buttons[0].label
    first = dict((k, v[1]) for k, v in lobby._rows.items())
    service.join("Room 3", "Bob")
    lobby.refresh()
    again = dict((k, v[1]) for k, v in lobby._rows.items())
    assert again["room 3"] is not first["room 3"]  # changed: drawn again
    assert all(again[k] is first[k] for k in first if k != "room 3")  # the others kept
    buttons[0].clicks += 1  # "Show more"
    assert len(lobby._rows) == len(lobby._lists["open"].rows) == 2 * lobby.PAGE
    assert len(tokens) == 40
    opened = []
    lobby._on_open = lambda name, token: opened.append(name)
    lobby.player = "Cy"
    lobby._lists["open"]._handle_msg({"act": "join", "name": "Room 5"})  # a row's button
    lobby._lists["open"]._handle_msg({"act": "evil", "name": "Room 6"})  # ignored
    lobby._lists["open"]._handle_msg(["junk"])
    assert opened == ["Room 5"]


def test_a_pit_typed_into_a_form_is_refused_at_the_start(monkeypatch):
    """The app's and the lobby's settings objects take what a form field gives; the game or
    room built from them refuses it with the rule's words, and nothing is created."""
    from dicelab.games import GAMES

    s = ThousandSettings()
    s.pits = [5]  # what a LiteralInput accepts
    with pytest.raises(RuleError, match=r"a pit is \(low, high\)"):
        GAMES["thousand"](["Ann"], s)
    s.pits = [[0, 10_000_000]]
    service = RoomService(MemoryStore())
    with pytest.raises(RuleError, match="highest target"):
        service.create("Pits", "thousand", s.to_dict(), "Ann")
    assert service.list_all() == []


# ----- every public call with hostile values ------------------------------------------------------
HOSTILE = [None, 5, -1, 2.5, math.inf, math.nan, True, "x", [], [1] * 100, {"a": 1}, "1" * 10_000,
           10 ** 30]


def _public_calls():
    import dicelab
    from dicelab.lab import simulate
    from dicelab.odds import fivedice as fd
    from dicelab.players import make_player

    return {
        "score dice": lambda v: dicelab.score("bones", v),
        "score variant": lambda v: dicelab.score(v, [1, 2, 3]),
        "yahtzee_boxes": lambda v: dicelab.yahtzee_boxes(v),
        "yahtzee_boxes preset": lambda v: dicelab.yahtzee_boxes([1, 2, 3, 4, 5], v),
        "parse_action": lambda v: dicelab.parse_action(v),
        "turn_readout total": lambda v: fd.turn_readout("bones", v),
        "turn_readout dice": lambda v: fd.turn_readout("bones", 0, v),
        "turn_readout banked": lambda v: fd.turn_readout("thousand", 0, 5, banked=v),
        "reach_chance": lambda v: fd.reach_chance("bones", v),
        "threshold_turn_ev": lambda v: fd.threshold_turn_ev("bones", v),
        "bust_chance": lambda v: fd.bust_chance("bones", v),
        "keep_options": lambda v: fd.keep_options("bones", v),
        "strategy_turn_ev": lambda v: fd.strategy_turn_ev("bones", v),
        "simulate games": lambda v: simulate("bones", "chicken", games=v),
        "simulate players": lambda v: simulate("bones", v, games=1),
        "simulate seed": lambda v: simulate("bones", "chicken", games=1, seed=v),
        "make_player": lambda v: make_player("bones", v),
        "apply": lambda v: dicelab.new_game("bones").apply(v),
        "new_game target": lambda v: dicelab.new_game("bones", target=v),
        "new_game rerolls": lambda v: dicelab.new_game("yahtzee", rerolls=v),
        "new_game seats": lambda v: dicelab.new_game("bones", v),
        "new_game seed": lambda v: dicelab.new_game("bones", seed=v),
        "load_game": lambda v: dicelab.load_game(v),
    }


@pytest.mark.parametrize("name", sorted(_public_calls()))
def test_public_calls_refuse_hostile_values_with_rule_error(name):
    call = _public_calls()[name]
    answered = []
    for value in HOSTILE:
        try:
            result = call(value)
        except RuleError as err:
            assert str(err).strip(), (name, value)  # a refusal that says why
        else:
            assert result is not None, (name, value)
            answered.append(value)
    assert answered == ANSWERS.get(name, []), name


# the hostile values that are fine answers: five dice, a seed, Thousand's banked 5 and -1 (a
# total may fall below 0), five rerolls, five games, the default preset
ANSWERS = {"bust_chance": [5], "reach_chance": [5], "turn_readout dice": [5],
           "turn_readout banked": [5, -1], "new_game rerolls": [5], "new_game seed": [None, 5],
           "simulate games": [5], "simulate seed": [None, 5], "yahtzee_boxes preset": [None]}


def test_room_limits_count_the_same_on_sqlite(tmp_path):
    service = RoomService(SQLiteStore(tmp_path / "rooms.sqlite3"), max_rooms=3, max_per_client=1)
    service.create("A1", "bones", {}, "Ann", client="10.0.0.1")
    with pytest.raises(RuleError, match="at most 1 games from one address"):
        service.create("A2", "bones", {}, "Ann", client="10.0.0.1")
    service.create("B1", "bones", {}, "Bob", client="10.0.0.2")
    service.create("C1", "bones", {}, "Cy")
    with pytest.raises(RuleError, match="at most 3 games"):
        service.create("D1", "bones", {}, "Di", client="10.0.0.4")
    assert service.store.counts("") == (3, 1)
    service.close()


def test_the_pacer_leaves_a_new_yahtzee_solve_to_the_shared_worker(monkeypatch):
    """A Yahtzee room whose optimal computer meets new rules: the table is solved by the
    worker, not in the pacer's thread (which paces every room of the server)."""
    import threading
    import time as _time

    from dicelab.actions import Score
    from dicelab.odds import yahtzee as yz
    from dicelab.rooms.pacer import Pacer

    solved_in = []
    real = yz.solve

    def solve(settings, progress=False, cache=True, elsewhere=False):
        solved_in.append(threading.current_thread().name)
        return real(settings, progress=False, cache=cache, elsewhere=elsewhere)
    monkeypatch.setattr(yz, "solve", solve)
    monkeypatch.setattr(yz, "cached", lambda s: real(s, False) if solved_in else None)
    service = RoomService(MemoryStore())
    room, token = service.create("Y", "yahtzee", {}, "Ann")
    service.add_computer("Y", token, "optimal")
    service.start("Y", token)
    while service.state("Y").current_player == 0:  # Ann's turn first: she rolls and scores
        g = service.state("Y")
        scores = [a for a in g.legal_actions() if isinstance(a, Score)]
        service.act("Y", token, scores[0] if scores else "roll")
    before = len(service.log("Y"))
    pacer = Pacer(service, pace=0.0)
    try:
        pacer.watch("Y")
        deadline = _time.time() + 300
        while len(service.log("Y")) <= before and _time.time() < deadline:
            _time.sleep(0.1)
    finally:
        pacer.close()
    assert len(service.log("Y")) > before  # the computer played once the table was there
    assert solved_in[0].startswith("dicelab-solve")  # the first (the real) solve: the worker


def test_records_damaged_while_the_app_runs_are_set_aside(tmp_path):
    from dicelab.ui.records import RecordStore

    path = tmp_path / "records.sqlite3"
    store = RecordStore(path)
    store.offer("bones", "game_total", 700, "Ann")
    path.write_bytes(b"\x00garbage" * 500)  # damaged under a running app
    assert store.get("bones")["game_total"]["value"] is None  # afresh, no traceback
    assert store.offer("bones", "game_total", 800, "Bob")
    assert "set aside" in store.problem
    assert RecordStore(path).get("bones")["game_total"]["value"] == 800
