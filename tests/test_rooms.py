"""Network game rooms (issue 6, backend): the rules of RoomService over every store.

The API tests run on the memory, SQLite and Redis stores alike (Redis: a real redis-server
started here on a free port, skipped only when redis-server is not installed).
"""
from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dicelab
from dicelab.errors import RuleError
from dicelab.rooms import (Conflict, MemoryStore, Room, RoomService, SQLiteStore, open_store,
                           room_name)

SHORT = {"bones": {"target": 1000}, "thousand": {"target": 300, "barrel": 250, "pits": []},
         "under40": {"target": 200}, "yahtzee": {}}
HOSTILE = [None, 5, 2.5, True, [], {}, ["a"], {"a": 1}, "", " ", "x" * 10_000, "\x00",
           "a\nb", "\ud800", "\u202eevil", "<script>alert(1)</script>", "' OR 1=1 --"]


# ----- a real redis-server -----------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A redis-server of our own: AOF on, fsync at every write, no RDB snapshots."""

    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        import redis

        self.proc = subprocess.Popen(
            [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "yes", "--appendfsync", "always",
             "--dir", str(self.dir), "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port)
        for _ in range(600):  # until it answers (loading the AOF after a restart takes a moment)
            try:
                if client.ping():
                    return self
            except (redis.ConnectionError, redis.BusyLoadingError):
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        log = (self.dir / "redis.log").read_text() if (self.dir / "redis.log").exists() else ""
        raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log[-2000:]}")

    def kill(self) -> None:
        """kill -9: no shutdown, no final save."""
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()


def need_redis():
    pytest.importorskip("redis", reason="the redis Python client is not installed "
                                        "(pip install -e '.[test]')")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install -y redis-server)")


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    need_redis()
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server):
    import redis

    redis.Redis.from_url(redis_server.url).flushdb()  # each test starts with no rooms
    return redis_server.url


@pytest.fixture(params=["memory", "sqlite", "redis"])
def spec(request, tmp_path):
    """A store spec for open_store; two services opened on it share the rooms."""
    if request.param == "memory":
        return "memory"
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'rooms.sqlite3'}"
    return request.getfixturevalue("redis_url")


@pytest.fixture
def service(spec):
    svc = RoomService(spec)
    yield svc
    svc.close()


def second_service(service, spec):
    """Another server process's view of the same rooms (memory: the same store object)."""
    return RoomService(service.store if spec == "memory" else spec)


def table(service, variant="under40", settings=None, computers=0):
    """A room of Ann (creator) and Bob, plus computers; returns (tokens by seat)."""
    room, ann = service.create("Table", variant, settings or SHORT[variant], "Ann")
    bob = service.join("Table", "Bob")
    for _ in range(computers):
        service.add_computer("Table", ann, "random")
    return {0: ann, 1: bob}


def refused(call, *words):
    with pytest.raises(RuleError) as err:
        call()
    for w in words:
        assert w.lower() in str(err.value).lower(), (w, str(err.value))
    return str(err.value)


def play_to_end(service, name, tokens, seed=0):
    """Persons act with random legal moves, computers on the server, until the game ends."""
    rng = random.Random(seed)
    game = service.state(name)
    while not game.is_over:
        service.play_computers(name)
        game = service.state(name)
        if game.is_over:
            break
        service.act(name, tokens[game.current_player], rng.choice(game.legal_actions()))
        game = service.state(name)
    return game


# ----- the lobby ---------------------------------------------------------------------------------
def test_create_list_join_start(service):
    room, ann = service.create("  Friday   night ", "thousand", {"target": 500, "barrel": 400},
                               "Ann")
    assert room.name == "Friday night"  # outer spaces trimmed, runs collapsed
    assert room.settings == dicelab.settings.SETTINGS["thousand"].from_dict(
        {"target": 500, "barrel": 400}).to_dict()
    bob = service.join("friday night", "Bob")  # names are found whatever their case
    assert bob != ann
    assert [r.name for r in service.list_open()] == ["Friday night"]
    public = service.room("Friday night").public()
    assert [s["name"] for s in public["seats"]] == ["Ann", "Bob"]
    assert ann not in json.dumps(public) and "holder" not in json.dumps(public)
    game = service.start("Friday night", ann)
    assert game.names == ["Ann", "Bob"] and game.settings.target == 500
    assert service.list_open() == []  # a started room is no longer open
    assert service.seat_of("Friday night", bob) == 1


def test_name_clash_is_refused_whatever_the_case(service):
    service.create("Table", "bones", None, "Ann")
    refused(lambda: service.create("TABLE", "yahtzee", None, "Eve"), "already exists")


def test_join_refused_after_start_when_full_and_on_a_taken_name(service):
    tokens = table(service)
    refused(lambda: service.join("Table", "bob"), "already has a player named")
    for i in range(6):
        service.join("Table", f"P{i}")
    refused(lambda: service.join("Table", "Ninth"), "full")
    refused(lambda: service.add_computer("Table", tokens[0], "random"), "full")
    service.leave("Table", tokens[1])  # Bob goes: a seat is free again
    assert len(service.room("Table").seats) == 7
    service.start("Table", tokens[0])
    msg = refused(lambda: service.join("Table", "Late"), "started", "no one can join")
    assert "Late" not in [s.name for s in service.room("Table").seats], msg


def test_only_the_creator_seats_computers_and_starts(service):
    tokens = table(service)
    refused(lambda: service.add_computer("Table", tokens[1], "random"), "only the creator")
    refused(lambda: service.start("Table", tokens[1]), "only the creator")
    refused(lambda: service.start("Table", "forged-token"), "only the creator")
    refused(lambda: service.add_computer("Table", tokens[0], "nonsense"), "no computer player")
    seat = service.add_computer("Table", tokens[0], "cautious")
    assert service.room("Table").seats[seat].name == "Computer 1"
    refused(lambda: service.remove_seat("Table", tokens[0], 1), "is a person")
    service.remove_seat("Table", tokens[0], seat)
    service.start("Table", tokens[0])
    refused(lambda: service.start("Table", tokens[0]), "has started")
    refused(lambda: service.add_computer("Table", tokens[0], "random"), "has started")


def test_under40_needs_two_players_to_start(service):
    _, ann = service.create("Alone", "under40", None, "Ann")
    refused(lambda: service.start("Alone", ann), "2 to 8 players")
    assert not service.room("Alone").started


def test_leaving_before_the_start(service):
    tokens = table(service)
    service.leave("Table", tokens[1])
    assert [s.name for s in service.room("Table").seats] == ["Ann"]
    refused(lambda: service.leave("Table", tokens[1]), "holds no seat")
    service.leave("Table", tokens[0])  # the creator leaving closes the room
    refused(lambda: service.room("Table"), "no game named")
    assert service.list_open() == []


# ----- playing -----------------------------------------------------------------------------------
def test_nobody_acts_for_another_seat_nor_out_of_turn(service):
    tokens = table(service)
    refused(lambda: service.act("Table", tokens[0], "roll"), "not started")
    service.start("Table", tokens[0])
    game = service.state("Table")
    on_turn, other = game.current_player, 1 - game.current_player
    before = game.snapshot()
    refused(lambda: service.act("Table", tokens[other], "roll"), "turn")
    refused(lambda: service.act("Table", "stolen", "roll"), "holds no seat")
    refused(lambda: service.act("Table", None, "roll"), "holds no seat")
    refused(lambda: service.act("Table", tokens[on_turn], "stand"))  # must roll first
    refused(lambda: service.act("Table", tokens[on_turn], {"type": "fly"}), "action")
    refused(lambda: service.act("Table", tokens[on_turn], {"type": "roll", "keep": "x"}))
    assert service.state("Table").snapshot() == before
    assert service.store.actions("table") == []
    assert service.act("Table", tokens[on_turn], {"type": "roll"}) == 0
    assert service.store.actions("table") == [{"type": "roll"}]


def test_a_whole_game_two_browsers_and_a_computer(service, spec):
    for i, variant in enumerate(dicelab.VARIANTS):
        name = f"Game {variant}"
        _, ann = service.create(name, variant, SHORT[variant], "Ann")
        bob = service.join(name, "Bob")
        service.add_computer(name, ann, "random")
        service.start(name, ann)
        game = play_to_end(service, name, {0: ann, 1: bob}, seed=i)
        assert game.is_over and game.version == len(service.store.actions(name.casefold()))
        refused(lambda: service.act(name, ann, "roll"), "over")
        # another process (or this one restarted) rebuilds the same game from the store
        other = second_service(service, spec)
        assert other.state(name).to_dict() == game.to_dict()
        assert other.state(name).history == game.history
        other.close()


def test_a_second_process_sees_each_action_and_picks_up_the_turn(service, spec):
    tokens = table(service)
    service.start("Table", tokens[0])
    other = second_service(service, spec)
    rng = random.Random(1)
    for n in range(30):  # the two services take turns acting on one room
        svc = (service, other)[n % 2]
        game = svc.state("Table")
        if game.is_over:
            break
        svc.act("Table", tokens[game.current_player], rng.choice(game.legal_actions()))
        assert other.state("Table").to_dict() == service.state("Table").to_dict()
    assert service.version("Table") == other.version("Table")
    other.close()


def test_a_game_touched_outside_the_service_is_rebuilt_from_the_store(service):
    tokens = table(service)
    game = service.start("Table", tokens[0])
    game.apply("roll")  # someone forgot to go through act: not in the store
    assert service.state("Table").version == 0
    assert service.state("Table").snapshot() == service.state("Table").replay().snapshot()


def test_drop_reclaim_and_take_over(spec, tmp_path):
    now = [1000.0]
    service = RoomService(spec, grace=60, clock=lambda: now[0])
    tokens = table(service)
    service.start("Table", tokens[0])
    refused(lambda: service.take_over("Table", 1, "random"), "at the table")
    service.away("Table", tokens[1])  # Bob's browser closed
    now[0] += 30
    refused(lambda: service.take_over("Table", 1, "random"), "away 30 s", "after 60 s")
    assert service.reclaim("Table", tokens[1]) == 1  # he reloaded in time
    service.away("Table", tokens[1])
    now[0] += 61
    refused(lambda: service.take_over("Table", 1, "nonsense"), "no computer player")
    refused(lambda: service.take_over("Table", 5, "random"), "seats 0 to 1")
    refused(lambda: service.take_over("Table", True, "random"), "seats 0 to 1")
    service.take_over("Table", 1, "random")
    refused(lambda: service.take_over("Table", 1, "random"), "already plays")
    game = service.state("Table")
    if game.current_player == 1:
        refused(lambda: service.act("Table", tokens[1], "roll"), "computer plays")
    # the computer now plays Bob's turns: only Ann is ever asked
    while not game.is_over and (game.current_player == 1 or len(game.actions) < 40):
        if service.play_computers("Table"):
            continue
        game = service.state("Table")
        if not game.is_over:
            service.act("Table", tokens[0], random.Random(len(game.actions)).choice(
                game.legal_actions()))
        game = service.state("Table")
    assert service.reclaim("Table", tokens[1]) == 1  # Bob is back: his seat is his again
    assert service.room("Table").seats[1].strategy is None
    # a person who leaves after the start leaves an empty seat for a computer to take
    service.leave("Table", tokens[0])
    assert service.room("Table").seats[0].is_empty
    refused(lambda: service.reclaim("Table", tokens[0]), "holds no seat")
    now[0] += 61
    service.take_over("Table", 0, "random")
    service.close()


def test_subscribers_hear_of_every_change(service):
    lobby, room_events = [], []
    service.subscribe(None, lobby.append)
    tokens = table(service)
    unsubscribe = service.subscribe("table", room_events.append)
    service.start("Table", tokens[0])
    game = service.state("Table")
    service.act("Table", tokens[game.current_player], "roll")
    assert [e.kind for e in room_events] == ["room", "action"]
    assert {e.room for e in lobby} == {"table"} and len(lobby) == 4  # create, join, start, act
    unsubscribe()
    service.subscribe("Table", lambda e: 1 / 0)  # a broken subscriber harms nobody
    game = service.state("Table")
    # the first roll may have ended the round (a bust or exactly 40): take any legal action
    service.act("Table", tokens[game.current_player], game.legal_actions()[-1])
    assert len(room_events) == 2 and len(lobby) == 5


def test_another_process_hears_of_each_action(spec):
    """Two services on one store, as two server processes: Redis's pub/sub or the SQLite
    file's data_version (``panel serve --num-procs``) carries each change."""
    if spec == "memory":
        pytest.skip("a memory store lives in one process")
    a, b = RoomService(spec), RoomService(spec)
    heard = threading.Event()
    events = []
    tokens = table(a)
    a.start("Table", tokens[0])

    def hear(event):  # news of the start may still be on its way: wait for the action's
        events.append(event)
        if event.kind == "action":
            heard.set()

    b.subscribe("Table", hear)
    game = a.state("Table")
    a.act("Table", tokens[game.current_player], "roll")
    assert heard.wait(30), f"no news of the action from the other process; heard {events}"
    assert b.state("Table").version == 1
    made, gone = threading.Event(), threading.Event()
    b.subscribe(None, lambda event: event.room == "brief" and (
        gone if event.kind == "deleted" else made).set())
    room, ann = a.create("Brief", "bones", {}, "Ann")
    assert made.wait(30), "no news of the new room from the other process"
    a.leave("Brief", ann)  # the creator leaving before the start closes the room
    assert gone.wait(30), "no news of the closed room from the other process"
    a.close()
    b.close()


def test_computers_racing_in_two_services_append_each_action_once(spec, tmp_path):
    if spec == "memory":
        spec_a = spec_b = MemoryStore()
    else:
        spec_a = spec_b = spec
    a, b = RoomService(spec_a), RoomService(spec_b)
    _, ann = a.create("Bots", "under40", {"target": 400}, "Ann")
    for _ in range(3):
        a.add_computer("Bots", ann, "random")
    a.start("Bots", ann)
    played = {"a": [], "b": []}
    rng = random.Random(3)

    def run(svc, key):
        while not svc.state("Bots").is_over:
            played[key] += svc.play_computers("Bots", limit=5)
            g = svc.state("Bots")
            if not g.is_over and g.current_player == 0:
                try:
                    svc.act("Bots", ann, rng.choice(g.legal_actions()))
                except RuleError:
                    pass  # the other thread acted for Ann first, or the turn moved on

    threads = [threading.Thread(target=run, args=(a, "a")), threading.Thread(target=run,
                                                                               args=(b, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = a.store.actions("bots")
    assert not set(played["a"]) & set(played["b"])  # no action number written twice
    assert a.state("Bots").is_over and b.state("Bots").to_dict() == a.state("Bots").to_dict()
    assert len(log) == a.state("Bots").version
    a.close()
    b.close()


# ----- hostile input -----------------------------------------------------------------------------
def test_room_names_are_checked_with_a_clear_message():
    assert room_name("Über Tisch_2-b") == "Über Tisch_2-b"
    refused(lambda: room_name("<script>"), "letters, digits, spaces, - and _ only", "'<'")
    refused(lambda: room_name("a\tb"), "letters, digits")
    refused(lambda: room_name("x" * 41), "at most 40")
    refused(lambda: room_name("   "), "needs a name")
    refused(lambda: room_name(42), "must be text")


def test_hostile_player_names_are_stored_as_given_or_refused(service):
    _, ann = service.create("Safe", "bones", None, "<script>alert(1)</script>")
    service.join("Safe", "'; DROP TABLE rooms; --")
    service.join("Safe", "Zoë 👩\u200d👩\u200d👧")
    names = [s.name for s in service.room("Safe").seats]
    assert names == ["<script>alert(1)</script>", "'; DROP TABLE rooms; --",
                     "Zoë 👩\u200d👩\u200d👧"]
    for bad, words in [("\x00", "control"), ("a\x1bb", "control"), ("\u202eevil", "control"),
                       ("\ud800", "control"), ("x" * 41, "at most 40"), ("x" * 10**6, "at most"),
                       ("   ", "needs a name"), (None, "text"), (7, "text"), (["a"], "text")]:
        refused(lambda: service.join("Safe", bad), *words.split())
    assert len(service.room("Safe").seats) == 3


def _everything(service) -> dict:
    """Every room's record and log: what a refused call must leave as it was."""
    return {r.name: (r.to_json(), [str(a) for a in service.log(r.name)])
            for r in service.list_all()}


# the hostile values some entry points take as they are: names stored as given (escaped
# where shown), no settings meaning the defaults, no name meaning a generated one
HOSTILE_NAMES = {"<script>alert(1)</script>", "' OR 1=1 --"}
ACCEPTS = {"create player": lambda v: isinstance(v, str) and v in HOSTILE_NAMES,
           "join player": lambda v: isinstance(v, str) and v in HOSTILE_NAMES,
           "create settings": lambda v: v is None or v == {},
           "computer name": lambda v: v is None}


@pytest.mark.parametrize("bad", HOSTILE)
def test_every_entry_point_refuses_bad_input_without_crashing(bad):
    service = RoomService("memory")
    tokens = table(service)
    calls = {"create room": lambda: service.create(bad, "bones", None, "A"),
             "create variant": lambda: service.create("R", bad, None, "A"),
             "create settings": lambda: service.create("R2", "bones", bad, "A"),
             "create player": lambda: service.create("R3", "bones", None, bad),
             "join room": lambda: service.join(bad, "Z"),
             "join player": lambda: service.join("Table", bad),
             "computer token": lambda: service.add_computer("Table", bad, "random"),
             "computer strategy": lambda: service.add_computer("Table", tokens[0], bad),
             "computer name": lambda: service.add_computer("Table", tokens[0], "random", bad),
             "remove seat": lambda: service.remove_seat("Table", tokens[0], bad),
             "start room": lambda: service.start(bad, tokens[0]),
             "start token": lambda: service.start("Table", bad),
             "leave": lambda: service.leave("Table", bad),
             "reclaim": lambda: service.reclaim("Table", bad),
             "away": lambda: service.away("Table", bad),
             "take over token": lambda: service.take_over("Table", bad, "x"),
             "take over seat": lambda: service.take_over("Table", 0, bad),
             "state": lambda: service.state(bad)}
    for what, call in calls.items():
        before = _everything(service)
        if ACCEPTS.get(what, lambda v: False)(bad):
            call()
            assert _everything(service) != before, what  # it did what it was asked
            continue
        with pytest.raises(RuleError) as err:
            call()
        assert str(err.value).strip(), what           # a message a person can read
        assert _everything(service) == before, what  # and nothing changed
    assert service.seat_of("Table", bad) is None      # no token of the table
    _, ann = service.create("Clean", "bones", None, "Ann")
    service.start("Clean", ann)
    before = service.state("Clean").snapshot()
    for token in (bad, ann):
        with pytest.raises(RuleError) as err:
            service.act("Clean", token, bad)
        assert str(err.value).strip()
    assert service.state("Clean").snapshot() == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                               max_size=4),
    max_leaves=12)
action_like = st.fixed_dictionaries({"type": st.sampled_from(["roll", "stand", "reroll",
                                                             "score"])}, optional={
    "keep": json_values, "positions": json_values, "box": json_values, "x": json_values})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=json_values, action=json_values | action_like, name=json_values)
def test_any_json_from_a_browser_is_refused_or_played(settings_, action, name):
    service = RoomService("memory")
    try:
        room, _ = service.create("Fuzz", "yahtzee", settings_, name)
        assert json.loads(room.to_json())["settings"] == room.settings  # stored as plain JSON
    except RuleError:
        pass
    _, ann = service.create("Play", "yahtzee", None, "Ann")
    service.start("Play", ann)
    before = service.state("Play").snapshot()
    try:
        service.act("Play", ann, action)
    except RuleError:
        assert service.state("Play").snapshot() == before


# ----- stores ------------------------------------------------------------------------------------
def test_append_is_compare_and_append(spec):
    store = open_store(spec)
    store.create(Room("Log", "bones", {}, creator="x"))
    store.append("log", 0, {"type": "roll"})
    with pytest.raises(Conflict):
        store.append("log", 0, {"type": "stand"})  # someone else wrote action 0 first
    with pytest.raises(Conflict):
        store.append("log", 2, {"type": "stand"})  # no gaps either
    store.append("log", 1, {"type": "stand"})
    assert store.actions("log") == [{"type": "roll"}, {"type": "stand"}]
    assert store.actions("log", 1) == [{"type": "stand"}]
    refused(lambda: store.append("nothere", 0, {"type": "roll"}), "no game named")
    store.close()


def test_open_store_specs(tmp_path, monkeypatch):
    assert isinstance(open_store("memory"), MemoryStore)
    store = open_store(f"sqlite://{tmp_path / 'x' / 'rooms.db'}")
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "x" / "rooms.db"
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()
    refused(lambda: open_store("postgres://x"), "DICELAB_ROOMS", "memory")
    refused(lambda: open_store("sqlite://"), "needs a path")
    monkeypatch.setenv("DICELAB_ROOMS", "memory")
    assert isinstance(RoomService().store, MemoryStore)
    monkeypatch.delenv("DICELAB_ROOMS")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda app: str(tmp_path / app))
    default = RoomService()
    assert default.store.path == tmp_path / "dicelab" / "rooms.sqlite3"
    default.close()


# ----- the lobby's pages (issue 15: a paged lobby; expired rooms in the history) ---------------
def test_lobby_pages_and_history_on_every_store(spec):
    now = [1000.0]
    service = RoomService(spec, clock=lambda: now[0], idle=600)
    try:
        tokens = {}
        for i in range(7):
            now[0] += 1
            _, tokens[i] = service.create(f"R{i}", "bones", {}, "Ann")
        for i in (1, 3, 5):
            service.start(f"R{i}", tokens[i])
        page = service.lobby(2)
        assert [r.name for r in page["open"][0]] == ["R0", "R2"] and page["open"][1] == 4
        assert [r.name for r in page["play"][0]] == ["R1", "R3"] and page["play"][1] == 3
        now[0] += 500
        service.act("R3", tokens[3], "roll", expect=0)  # R3 is in use: it stays
        now[0] += 200
        assert set(service.expire()) == {"r0", "r1", "r2", "r4", "r5", "r6"}
        page = service.lobby(5)
        assert (page["open"], [r.name for r in page["play"][0]], page["play"][1]) == \
            (([], 0), ["R3"], 1)
        assert [r.name for r in service.history()] == ["R0", "R1", "R2", "R4", "R5", "R6"]
        assert [r.name for r in service.list_all()] == ["R3"]
        assert service.store.counts("") == (1, 1)
    finally:
        service.close()


def test_redis_lobby_page_reads_only_its_rooms(redis_url):
    now = iter(range(1000, 2000))
    service = RoomService(redis_url, max_rooms=1000, clock=lambda: float(next(now)))
    try:
        tokens = [service.create(f"R{i}", "bones", {}, "Ann")[1] for i in range(40)]
        for i in range(0, 40, 2):
            service.start(f"R{i}", tokens[i])
        read = []
        mget = service.store._r.mget
        service.store._r.mget = lambda keys: read.append(len(keys)) or mget(keys)
        rooms, total = service.store.page(True, 5)
        assert ([r.name for r in rooms], total, read) == (["R0", "R2", "R4", "R6", "R8"], 20, [5])
    finally:
        service.close()


def test_redis_rooms_stored_before_the_status_sets_are_filed_once(redis_url):
    import redis

    from dicelab.rooms.redis_store import RedisStore

    service = RoomService(redis_url, clock=lambda: 1000.0)
    _, token = service.create("Old1", "bones", {}, "Ann")
    service.create("Old2", "bones", {}, "Bob")
    service.start("Old1", token)
    service.close()
    r = redis.Redis.from_url(redis_url)
    r.delete("dicelab:rooms:open", "dicelab:rooms:play", "dicelab:rooms:old",
             "dicelab:rooms:indexed")  # as an earlier dicelab left them
    store = RedisStore(redis_url)
    try:
        assert [x.name for x in store.page(True, 10)[0]] == ["Old1"]
        assert [x.name for x in store.page(False, 10)[0]] == ["Old2"]
    finally:
        store.close()


def test_a_seat_is_at_the_table_only_with_its_person_there():
    from dicelab.rooms.model import RoomSeat

    assert RoomSeat("Ann", holder="h").at_table
    assert not RoomSeat("Ann", holder="h", away_since=5.0).at_table       # away
    assert not RoomSeat("Ann", holder="h", strategy="chicken").at_table   # taken over
    assert not RoomSeat("Robo", strategy="chicken").at_table              # a computer
    assert not RoomSeat("Gone").at_table                                  # left, empty


def test_a_service_draws_each_games_seed_from_its_seeds():
    """``seeds``: where a started game and a rematch get their seed (tests and benchmarks
    replay one game); 63 bits, as the secrets module draws them by default."""
    asked = []

    def seeds(bits):
        asked.append(bits)
        return 1000 + len(asked)
    service = RoomService(MemoryStore(), seeds=seeds)
    room, ann = service.create("Seeded", "under40", {"target": 40}, "Ann")
    bob = service.join("Seeded", "Bob")
    service.start("Seeded", ann)
    assert service.room("Seeded").seed == 1001 and asked == [63]
    for _ in range(500):  # Under40 to 40: the first round decides it
        g = service.state("Seeded")
        if g.is_over:
            break
        service.act("Seeded", ann if g.current_player == 0 else bob, "roll")
    service.rematch("Seeded", bob)
    assert service.room("Seeded").seed == 1002 and asked == [63, 63]
