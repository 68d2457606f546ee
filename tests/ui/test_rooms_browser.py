"""Network games in real browsers (issue 6): several browser sessions play rooms on a real
``panel serve``.

Each person is a Playwright browser context (its own localStorage, so its own seat tokens). A
``Referee`` reads the room from the store the server writes (a RoomService of the test's own on
the same SQLite file or Redis server): it says whose turn it is, waits for the log to grow, and
at the end replays the log on a fresh game to check that nothing was lost or played twice and
that every browser showed what was played.
"""
from __future__ import annotations

import collections
import os
import re
import signal
import subprocess
import threading
import time
import warnings
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from dicelab.errors import RuleError
from dicelab.games import Seat, new_game
from dicelab.rooms import RoomService
from dicelab.ui.lobby import replica

from .conftest import ARTIFACTS, Server
from .driver import DEEP, ROLL, STAND, RoomApp
from .make_screenshots import OUT as SHOTS
from .make_screenshots import shrink
from .test_browser import five_dice_decider, yahtzee_turn


pytestmark = [pytest.mark.browser]
# what issue 6 is checked by runs in every `make test` (about 5 min on 2 cores); the rest
# with DICELAB_SLOW=1
SLOW = pytest.mark.slow

PACE = "0.05"  # seconds per computer action on the server
HOSTILE = "<img src=x onerror=alert(1)>"
HOSTILE_2 = "Bob</b><script>alert(2)</script>"
bones_decider = five_dice_decider(150)
TARGET_STEPS, TARGET = 2, 1500  # Bones to 1,500 (the slider's minimum, 500, can end in a roll)


def norm(text: str) -> str:
    return " ".join(text.split())


# ----- servers ------------------------------------------------------------------------------------
def serve(records: Path, rooms: str, port: int | None = None, env: dict | None = None,
          args: tuple = ()) -> Server:
    """``panel serve`` of the app on the rooms store ``rooms`` (on ``port``: after a kill the same
    address again, so the browsers keep their localStorage, hence their seats), with more
    environment variables ``env`` and command-line ``args``."""
    srv = Server(records)
    if port is not None:
        srv.port = port
    with pytest.MonkeyPatch.context() as mp:
        for k, v in {"DICELAB_ROOMS": rooms, "DICELAB_ROOM_PACE": PACE, **(env or {})}.items():
            mp.setenv(k, v)
        if args:  # Server.start has no room for more arguments: add them to its command
            popen = subprocess.Popen
            mp.setattr(subprocess, "Popen", lambda cmd, *a, **k: popen([*cmd, *args], *a, **k))
        srv.start()
    # read the server's stderr all along: a full pipe would block it; the tail helps a failure
    srv.stderr = collections.deque(maxlen=300)
    proc = srv.proc

    def drain():
        for line in proc.stderr:
            srv.stderr.append(line.decode("utf-8", "replace"))
    threading.Thread(target=drain, daemon=True).start()
    return srv


def kill9(srv: Server) -> None:
    """kill -9 the served app: no shutdown, no session ends, nothing flushed."""
    os.kill(srv.proc.pid, signal.SIGKILL)
    srv.proc.wait(10)
    srv.proc = None
    save_log(srv)


@pytest.fixture(scope="module")
def sqlite_rooms(tmp_path_factory):
    return "sqlite://" + str(tmp_path_factory.mktemp("rooms") / "rooms.db")


@pytest.fixture(scope="module")
def room_server(browser, sqlite_rooms, tmp_path_factory):
    """One served app on a SQLite rooms store for the tests that need no restart."""
    srv = serve(tmp_path_factory.mktemp("records") / "records.sqlite3", sqlite_rooms)
    yield srv
    stop(srv)


def stop(srv: Server) -> None:
    """Stop a served app; its stderr goes to test-artifacts/rooms-server-<port>.log."""
    if srv.proc is not None:
        srv.stop()
    save_log(srv)


def save_log(srv: Server) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"rooms-server-{srv.port}.log", "a") as f:
        f.write("".join(srv.stderr))


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server of this test's own (AOF, fsync always); skipped if not installed."""
    from tests.test_rooms import RedisServer, need_redis

    need_redis()
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
def people(browser, artifacts, request):
    """``new(server)``: a RoomApp in a fresh browser context, i.e. another person's browser.
    Every page records dialogs (dismissed: a dialog is an injected script) and errors; each
    ends in a screenshot in test-artifacts/ (rooms-<test>-<n>.png), to see a failure."""
    made = []
    lost = RoomApp.lost_clicks

    def new(server, width=1000, height=860):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        page.dialogs, page.errors = [], []
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        app = RoomApp(page, server)
        made.append((ctx, app))
        return app

    yield new
    dialogs = [(a.page.url, a.page.dialogs) for _, a in made if a.page.dialogs]
    test = re.sub(r"\W+", "-", request.node.name).strip("-")
    for i, (ctx, app) in enumerate(made):
        try:
            app.page.screenshot(path=str(artifacts / f"rooms-{test}-{i}.png"), timeout=5000)
        except Exception:  # a page that is gone has nothing to show
            pass
        ctx.close()
    assert not dialogs, f"a page opened a dialog (injected script ran): {dialogs}"
    if RoomApp.lost_clicks > lost:
        warnings.warn(f"the app dropped {RoomApp.lost_clicks - lost} click(s) on a button it had "
                      "just redrawn (clicked again)")


# ----- the referee: the room as the store holds it ------------------------------------------------
class Referee:
    """Follows room ``name`` in the store, and drives the seated browsers (``players``: seat
    name -> RoomApp) through it, one action at a time."""

    def __init__(self, rooms: str, name: str, players: dict[str, RoomApp]):
        self.rooms = rooms
        self.svc = RoomService(rooms)
        self.name = name
        self.players = players
        self.acted: collections.Counter = collections.Counter()  # person -> actions played

    def reconnect(self):
        """A new service on the store (after the store's own process was restarted)."""
        try:
            self.svc.close()
        except Exception:  # the old connection died with the store
            pass
        self.svc = RoomService(self.rooms)

    def game(self):
        return self.svc.state(self.name)

    def count(self) -> int:
        return len(self.svc.log(self.name))

    def wait_count(self, n: int, timeout: float = 20.0) -> int:
        """Until the store holds at least ``n`` actions (the server commits before showing)."""
        end = time.monotonic() + timeout
        while (c := self.count()) < n:
            if time.monotonic() > end:
                raise AssertionError(f"{self.name}: the log stayed at {c} actions, waited for {n}")
            time.sleep(0.02)
        return c

    def on_turn(self) -> tuple[str, RoomApp | None, int]:
        g = self.game()
        name = g.names[g.current_player]
        return name, self.players.get(name), len(g.actions)

    def step(self, decide, how: str = "click") -> bool:
        """One action by whoever is on turn: a person's browser (``decide(app, snap)`` says
        what, pressed by ``how``: click or key) or the server's computer. False: game over."""
        g = self.game()
        if g.is_over:
            return False
        name, app, n = g.names[g.current_player], self.players.get(g.names[g.current_player]), \
            len(g.actions)
        if app is None:  # a computer (played by the server's pacer)
            self.wait_count(n + 1)
            return True
        self.wait_shown(app, name)
        snap = app.snap()
        action = decide(app, snap)
        if action == "box":  # Yahtzee: the first open box on the score card
            app.page.locator("button.box").first.click()
        elif how == "key" or action not in ("roll", "stand"):
            app.page.keyboard.press({"roll": ".", "stand": "0"}.get(action, action))
        else:
            button = app.button(ROLL if action == "roll" else STAND)
            try:
                button.click(timeout=10_000)
            except Exception:
                raise AssertionError(
                    f"{name}'s browser shows {name}'s turn ({app.room_snap()['history'][:1]}), "
                    f"as the store does, yet its {action} button stays disabled: "
                    f"{app.snap()['buttons']}") from None
        got = self.wait_count(n + 1)
        after = replica(self.svc.room(self.name))  # the game just after this one action
        for a in self.svc.log(self.name)[:n + 1]:
            after.apply(a)
        # more actions are the next players' (a fast computer may already have played)
        assert got == n + 1 or after.names[after.current_player] != name, \
            f"{name}'s one {action} put {got - n} actions in the log"
        self.acted[name] += 1
        app.wait_tick(snap["tick"])
        return True

    def wait_shown(self, app: RoomApp, name: str, timeout: float = 20.0) -> None:
        """Until ``app`` (``name``'s browser) shows the game as the store holds it, with
        ``name`` on turn (the last event on top of its history, its banner saying so)."""
        g = self.game()
        last = norm(str(g.history[-1].text))
        try:
            app.wait_room("(s, w) => s.history.length > 0 && s.history[0].replace(/\\s+/g, ' ')"
                          ".endsWith(w)", last, timeout=timeout)
            kind = app.wait_person_or_over(timeout=timeout)
        except Exception:
            kind = None
        if kind != "you":
            shown = app.room_snap()
            raise AssertionError(
                f"{name}'s browser does not show the game the store holds ({len(g.actions)} "
                f"actions, {name} on turn) after {timeout} s:\n shows  {shown['history'][:2]}"
                f"\n stored {[e.text for e in g.history[::-1][:2]]}\n banner {shown['banner']}")

    def play(self, decide, how="click", actions: int | None = None, until=None) -> None:
        """Play ``actions`` actions (None: to the end), or until ``until(game)`` holds."""
        for _ in range(actions if actions is not None else 1000):
            if until is not None and until(self.game()):
                return
            if not self.step(decide, how):
                return
        if actions is None:
            raise AssertionError(f"{self.name} did not end in 1000 actions")

    def person_on_turn(self, timeout: float = 20.0) -> tuple[str, RoomApp]:
        """Until a person is on turn (the computers play meanwhile): their name and browser."""
        end = time.monotonic() + timeout
        while True:
            g = self.game()
            assert not g.is_over, f"{self.name} is over, no one is on turn: {g.history[-1].text}"
            name = g.names[g.current_player]
            app = self.players.get(name)
            if app is not None:
                self.wait_shown(app, name)
                return name, app
            assert time.monotonic() < end, f"{self.name}: no person on turn in {timeout} s"
            time.sleep(0.02)

    # ----- what everyone must agree on ------------------------------------------------------------
    def replay(self):
        """The room's game rebuilt from its record and log alone, and who played each action."""
        room = self.svc.room(self.name)
        game = new_game(room.variant, [Seat(s.name) for s in room.seats], room.settings,
                        room.seed)
        by_seat: collections.Counter = collections.Counter()
        for action in self.svc.log(self.name):
            by_seat[game.names[game.current_player]] += 1
            game.apply(action)
        return game, by_seat

    def expected_view(self, game) -> dict:
        """What every browser must show of ``game``: scoreboard rows and recent history."""
        return {"rows": [[n, t] for n, t in zip(game.names, game.totals())],
                "history": [norm(str(e.text)) for e in game.history[::-1][:60]]}

    def wait_same_view(self, apps, game=None, timeout: float = 15.0) -> dict:
        """Every browser in ``apps`` shows the store's game (scoreboard and history)."""
        game = game or self.replay()[0]
        want = self.expected_view(game)
        views = {}
        for app in apps:
            try:
                app.wait_room(
                    "(s, w) => s.history.length === w.history.length && s.history.every("
                    "(h, i) => h.replace(/\\s+/g, ' ').endsWith(w.history[i])) && s.rows.length "
                    "=== w.rows.length && s.rows.every((r, i) => r.name === w.rows[i][0] && "
                    "r.total === w.rows[i][1])", want, timeout=timeout)
            except Exception:
                snap = app.room_snap()
                raise AssertionError(
                    f"{app.page.url} does not show the stored game:\n rows {snap['rows']}\n"
                    f" want {want['rows']}\n history {snap['history'][:4]}\n"
                    f" want {want['history'][:4]}") from None
            views[app.page.url] = app.room_snap()
        return views

    def check_log(self, apps) -> None:
        """The room's log replays to the server's game, each person's share of it is what
        their browser played (nothing lost, nothing doubled), and every browser shows it
        (call when nothing moves: a person on turn, or the end)."""
        g = self.game()
        log = self.svc.log(self.name)
        replayed, by_seat = self.replay()
        assert len(replayed.actions) == len(log) == len(g.actions)
        assert replayed.totals() == g.totals() and replayed.is_over == g.is_over
        for person, n in self.acted.items():
            assert by_seat[person] == n, (f"{person} played {n} actions in the browser, the log "
                                          f"holds {by_seat[person]}: {dict(by_seat)}")
        self.wait_same_view(apps, replayed)

    def check_end(self, apps) -> None:
        """The game is over in the store and in every browser; ``check_log``."""
        g = self.game()
        assert g.is_over, f"{self.name} is not over: {g}"
        for app in apps:
            try:
                app.page.locator(".banner.over").first.wait_for()
            except Exception:
                shown = app.room_snap()
                raise AssertionError(
                    f"{app.room_snap()['bar']}: the browser does not show the end of the game "
                    f"the store holds ({len(g.actions)} actions):\n shows  {shown['history'][:2]}"
                    f"\n stored {[e.text for e in g.history[::-1][:2]]}") from None
        self.check_log(apps)


# ----- setting up a room --------------------------------------------------------------------------
def bones_room(host: RoomApp, name: str, guests: list[tuple[RoomApp, str]], creator: str,
               computers: int = 0, target_steps: int = TARGET_STEPS,
               others: tuple[RoomApp, ...] = ()) -> None:
    """``host`` creates a short Bones room (target 1,500, or 500 more per ``target_steps``; on
    board at 50), seats ``computers``, the guests join; then the host starts it. The app is
    opened in ``others`` too, meanwhile."""
    open_all([host] + [app for app, _ in guests] + list(others))
    host.lobby(creator)
    host.short_rules(Target=target_steps, Min_on_board=0)
    host.create(name)
    for _ in range(computers):
        host.add_computer()
    for app, person in guests:
        app.lobby(person).join(name)
    host.wait_room("(s, n) => s.seats && s.seats.length === n", 1 + computers + len(guests))
    host.start_room()
    for app, _ in guests:
        app.page.locator(".banner").first.wait_for()


def open_all(apps: list[RoomApp], room: str | None = None) -> None:
    """Open the app in every browser at once (the page loads overlap)."""
    for app in apps:
        app.open_room_url(room, wait=False)
    for app in apps:
        app.open_room_url(room, go=False)


def screenshot_pair(left: RoomApp, right: RoomApp, path: Path) -> None:
    from PIL import Image

    a, b = path.with_suffix(".a.png"), path.with_suffix(".b.png")
    left.page.screenshot(path=str(a))
    right.page.screenshot(path=str(b))
    ia, ib = Image.open(a), Image.open(b)
    out = Image.new("RGB", (ia.width + ib.width + 12, max(ia.height, ib.height)), "#607d8b")
    out.paste(ia, (0, 0))
    out.paste(ib, (ia.width + 12, 0))
    out.save(path)
    a.unlink()
    b.unlink()
    shrink(path)


# ----- 1. whole games -----------------------------------------------------------------------------
def test_bones_two_people_and_a_computer_play_to_the_end(people, room_server, sqlite_rooms):
    ann, bob = people(room_server), people(room_server)
    name = "Friday bones"
    open_all([ann, bob])
    ann.lobby("Ann")
    ann.short_rules(Target=TARGET_STEPS, Min_on_board=0)
    ann.create(name)
    ann.add_computer()
    bob.lobby("Bob")
    row = bob.page.get_by_text(re.compile(f"^{name} · Bones")).first
    row.wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    bob.page.screenshot(path=str(SHOTS / "rooms-lobby.png"))
    shrink(SHOTS / "rooms-lobby.png")
    bob.join(name)
    seats = ann.wait_room("(s) => s.seats && s.seats.length === 3")["seats"]
    assert seats == ["Ann (creator, you)", "Computer 1 (computer: chicken)", "Bob"], seats
    assert bob.room_snap()["bar"] == f"Network game {name} · Bones · you play Bob"
    assert bob.page.get_by_role("button", name="Start game").count() == 0  # the creator's only
    ann.page.screenshot(path=str(SHOTS / "rooms-waiting.png"))
    shrink(SHOTS / "rooms-waiting.png")
    ann.start_room()
    bob.page.locator(".banner").first.wait_for()

    ref = Referee(sqlite_rooms, name, {"Ann": ann, "Bob": bob})
    room = ref.svc.room(name)
    assert room.settings["target"] == TARGET and room.settings["min_on_board"] == 50, \
        room.settings
    ref.play(bones_decider, "click", actions=4)
    if not ref.game().is_over:  # both tables, the one on turn on the left
        _, app = ref.person_on_turn()
        ref.wait_same_view([ann, bob])
        screenshot_pair(app, bob if app is ann else ann, SHOTS / "rooms-table.png")
    ref.play(bones_decider, "key")
    ref.check_end([ann, bob])
    assert ref.acted["Ann"] and ref.acted["Bob"]
    assert [(r["name"], r["total"]) for r in ann.room_snap()["rows"]] == \
        [(r["name"], r["total"]) for r in bob.room_snap()["rows"]]
    assert not ann.page.errors and not bob.page.errors


@SLOW
def test_yahtzee_two_people_play_several_turns(people, room_server, sqlite_rooms):
    ann, bob = people(room_server), people(room_server)
    name = "Yahtzee night"
    open_all([ann, bob])
    ann.lobby("Ann")
    ann.choose_variant("Yahtzee")
    ann.create(name)
    bob.lobby("Bob").join(name)
    ann.wait_room("(s) => s.seats && s.seats.length === 2")
    ann.start_room()
    bob.page.locator(".banner").first.wait_for()
    ref = Referee(sqlite_rooms, name, {"Ann": ann, "Bob": bob})
    assert ref.game().variant == "yahtzee"

    def decide(app, snap):
        m = re.search(r"round (\d+) of 13", snap["banner"], re.I)
        return yahtzee_turn(app, snap, bool(m and int(m.group(1)) % 2))
    ref.play(decide, "key", until=lambda g: g.state.turn >= 10)  # five turns each
    ref.person_on_turn()
    ref.check_log([ann, bob])
    cards = [a.page.locator("table.card").first.inner_text() for a in (ann, bob)]
    assert cards[0] == cards[1] and "Total" in cards[0], cards
    filled = [r["tag"] for r in ann.room_snap()["rows"]]
    assert ref.acted["Ann"] >= 10 and ref.acted["Bob"] >= 10, (ref.acted, filled)
    assert not ann.page.errors and not bob.page.errors


# ----- 2. joining a started game; spectators ------------------------------------------------------
def test_a_started_game_refuses_joins_and_is_watched(people, room_server, sqlite_rooms):
    ann, carl, dora = people(room_server), people(room_server), people(room_server)
    name = "No latecomers"
    bones_room(ann, name, [], "Ann", computers=1, others=(carl, dora))
    ref = Referee(sqlite_rooms, name, {"Ann": ann})

    # the lobby offers to watch the started game, not to join it
    carl.lobby("Carl")
    carl.page.get_by_role("button", name=f"Watch {name}", exact=True).wait_for()
    assert carl.page.get_by_role("button", name=f"Join {name}").count() == 0
    assert "in play" in carl.page.get_by_text(re.compile(f"^{name} · Bones")).first.inner_text()
    # nor does the service (what a hand-made request would reach)
    with pytest.raises(RuleError, match="has started"):
        ref.svc.join(name, "Carl")
    # the address of the room only lets Carl watch
    carl.open_room_url(name)
    snap = carl.wait_room("(s) => s.rows.length === 2")
    assert snap["bar"] == f"Network game {name} · Bones · you are watching", snap["bar"]
    assert [r["name"] for r in snap["rows"]] == ["Ann", "Computer 1"]
    assert not carl.snap()["buttons"].get("Roll"), carl.snap()
    assert carl.tokens() == {}
    # a spectator's keys do nothing but say why
    ref.person_on_turn()  # (Ann's turn: the log moves only when she acts)
    n = ref.count()
    for key in (".", "0"):
        carl.page.keyboard.press(key)
        carl.wait_said("You are watching this game.")
    assert ref.count() == n, "a spectator's key reached the log"
    # Dora watches from the lobby
    dora.lobby("Dora").watch(name)
    # while Ann plays, the spectators see each of her rolls (and the computer's last)
    for _ in range(8):
        if ref.game().is_over:
            break
        _, app = ref.person_on_turn()
        want = app.room_snap()
        for w in (carl, dora):
            w.wait_room("(s, w) => JSON.stringify(s.dice) === JSON.stringify(w.dice) && "
                        "s.history[0] === w.history[0]", want)
        ref.play(bones_decider, "click", actions=1)
    ref.play(bones_decider, "key")
    ref.check_end([ann, carl, dora])


# ----- 3. nobody acts for another seat or out of turn ---------------------------------------------
def test_out_of_turn_and_for_another_seat_is_refused(people, room_server, sqlite_rooms):
    ann, bob = people(room_server), people(room_server)
    name = "Turns"
    bones_room(ann, name, [(bob, "Bob")], "Ann")
    ref = Referee(sqlite_rooms, name, {"Ann": ann, "Bob": bob})
    for _ in range(2):  # once with each person on turn
        on, app = ref.person_on_turn()
        off = next(n for n in ("Ann", "Bob") if n != on)
        other = ref.players[off]
        app_before, n = app.room_snap(), ref.count()
        other.wait_room("(s, w) => s.history[0] === w", app_before["history"][0])
        buttons = other.snap()["buttons"]
        assert buttons == {"Roll": False, "Stand": False}, buttons
        for key in (".", "0"):
            tick = other.tick()
            other.page.keyboard.press(key)
            other.wait_tick(tick)  # the refusal redraws the table
            other.wait_said(f"Please wait: it is {on}'s turn.")
        # with the other browser's own token, straight to the service: refused too
        token = other.tokens()[name.casefold()]
        with pytest.raises(RuleError, match=f"it is {on}'s turn"):
            ref.svc.act(name, token, "roll")
        with pytest.raises(RuleError, match="holds no seat"):
            ref.svc.act(name, "forged-token", "roll")
        assert ref.count() == n, "a refused action reached the log"
        after = app.room_snap()
        assert (after["dice"], after["history"]) == (app_before["dice"], app_before["history"])
        # the person on turn still plays, and the turn passes
        ref.play(bones_decider, "click", until=lambda g: g.names[g.current_player] != on)


# ----- 4. hostile names ---------------------------------------------------------------------------
NO_INJECTION = DEEP + """
(() => ({img: window.__deep('img[src=x], img[onerror]').length,
         script: window.__deep('script').filter(s => (s.textContent || '').includes('alert('))
           .length,
         b: window.__deep('b').filter(b => /^bad$/.test(b.textContent)).length}))()
"""


def test_hostile_names_are_shown_as_text(people, room_server, sqlite_rooms):
    ann, bob, carl = people(room_server), people(room_server), people(room_server)
    open_all([ann, bob, carl])
    ann.lobby(HOSTILE)
    ann.create("<b>bad</b>", expect_ok=False)
    alert = ann.page.get_by_role("alert").first
    assert "letters, digits, spaces, - and _" in alert.inner_text(), alert.inner_text()
    ann.create("x" * 41, expect_ok=False)
    typed = ann.page.get_by_label("Name of a new game").input_value()
    if len(typed) > 40:  # the field let it through: the server must refuse it
        assert "at most 40 characters" in alert.inner_text(), alert.inner_text()
    else:  # the field holds 40 at most; a request made by hand is refused
        assert typed == "x" * 40
        ann.page.get_by_text("waiting for the start").wait_for()
        ann.page.get_by_role("button", name="Close this game").click()
        ann.page.get_by_role("button", name="Create game").wait_for()
        with pytest.raises(RuleError, match="at most 40 characters"):
            RoomService(sqlite_rooms).create("x" * 41, "bones", {}, "Eve")
    name = "Hostile names"
    ann.create(name)
    bob.lobby(HOSTILE_2)
    bob.create("HOSTILE NAMES", expect_ok=False)
    assert "already exists" in bob.page.get_by_role("alert").first.inner_text()
    bob.join(name)
    carl.lobby("Carl")
    carl.page.get_by_text(f"2 seats: {HOSTILE}, {HOSTILE_2}", exact=True).wait_for()
    seats = ann.wait_room("(s) => s.seats && s.seats.length === 2")["seats"]
    assert seats == [f"{HOSTILE} (creator, you)", HOSTILE_2], seats
    assert ann.room_snap()["bar"].endswith(f"you play {HOSTILE}")
    ann.start_room()
    bob.page.locator(".banner").first.wait_for()
    ref = Referee(sqlite_rooms, name, {HOSTILE: ann, HOSTILE_2: bob})
    ref.play(bones_decider, "key", actions=3)
    carl.open_room_url(name)
    on, _ = ref.person_on_turn()
    views = ref.wait_same_view([ann, bob, carl])
    for view in views.values():
        assert [r["name"] for r in view["rows"]] == [HOSTILE, HOSTILE_2]
        assert on.upper() in view["banner"] or on in view["banner"], view["banner"]
        assert any(HOSTILE in h for h in view["history"]), view["history"][-1]
    assert bob.room_snap()["bar"].endswith(f"you play {HOSTILE_2}")
    # a hostile room address is refused with the rule's words, and shown as text
    dora = people(room_server)
    dora.page.goto(room_server.url + "?room=" + HOSTILE.replace(" ", "%20"))
    dora.wait_ready()
    dora.page.get_by_text("letters, digits, spaces, - and _").first.wait_for()
    for app in (ann, bob, carl, dora):
        found = app.page.evaluate(NO_INJECTION)
        assert found == {"img": 0, "script": 0, "b": 0}, (app.page.url, found)
        assert not app.page.dialogs, app.page.dialogs


# ----- 5. a reload gets the seat back -------------------------------------------------------------
def test_reload_gets_the_seat_back(people, room_server, sqlite_rooms):
    ann, bob = people(room_server), people(room_server)
    name = "Reloads"
    bones_room(ann, name, [(bob, "Bob")], "Ann", computers=1)
    ref = Referee(sqlite_rooms, name, {"Ann": ann, "Bob": bob})
    ref.play(bones_decider, "click", until=lambda g: ref.acted["Bob"] >= 2)
    bob.page.reload()
    bob.wait_ready()
    snap = bob.wait_room("(s) => s.bar.length > 0 && s.rows.length === 3")
    assert snap["bar"] == f"Network game {name} · Bones · you play Bob", snap["bar"]
    assert parse_qs(urlparse(bob.page.url).query)["room"] == [name], bob.page.url
    assert [r["tag"] for r in snap["rows"]][2] == "(you)", snap["rows"]
    ref.wait_same_view([ann, bob])
    assert ref.svc.room(name).seats[2].away_since is None
    ref.play(bones_decider, "key")
    ref.check_end([ann, bob])
    assert ref.acted["Bob"] > 2


@SLOW
def test_the_session_a_reload_left_does_not_mark_the_seat_away(people, tmp_path):
    rooms = "sqlite://" + str(tmp_path / "rooms.db")
    # a session without its browser ends 6-7 s later (Bokeh's default: 15-32 s), after the
    # reloaded page is back; a computer takes over a seat away for a second
    srv = serve(tmp_path / "records.sqlite3", rooms, env={"DICELAB_ROOM_GRACE": "1"},
                args=("--unused-session-lifetime", "6000", "--check-unused-sessions", "1000"))
    try:
        ann, bob = people(srv), people(srv)
        name = "Reload and wait"
        bones_room(ann, name, [(bob, "Bob")], "Ann")
        ref = Referee(rooms, name, {"Ann": ann, "Bob": bob})
        ref.play(bones_decider, "click", until=lambda g: g.names[g.current_player] == "Bob")
        bob.page.reload()
        bob.wait_ready()
        assert bob.wait_room("(s) => s.rows.length === 2")["bar"].endswith("you play Bob")
        # the old session ends within 7 s of the reload; Bob's seat must stay his
        end = time.monotonic() + 12
        while time.monotonic() < end:
            seat = ref.svc.room(name).seats[1]
            assert seat.away_since is None and seat.strategy is None, (
                f"Bob is at the table, yet his seat is {seat} and his scoreboard row says "
                f"{bob.room_snap()['rows'][1]['tag']}")
            time.sleep(0.1)
        ref.play(bones_decider, "key", actions=3)
    finally:
        stop(srv)


# ----- 6. kill -9 and restart: nothing lost -------------------------------------------------------
# Redis in the browser behind DICELAB_SLOW (70 s): tests/test_rooms_durability.py kills a Redis
# server and its writer in every run, without a browser
@pytest.mark.parametrize("store", ["sqlite", pytest.param("redis", marks=SLOW)])
def test_kill_9_and_restart_loses_nothing(people, browser, store, tmp_path, request):
    if store == "redis":
        redis = request.getfixturevalue("redis_server")
        rooms = redis.url
    else:
        rooms = "sqlite://" + str(tmp_path / "rooms.db")
    records = tmp_path / "records.sqlite3"
    srv = serve(records, rooms)
    try:
        ann, bob = people(srv), people(srv)

        # play on until a person's roll leaves them on turn: then nothing moves until they act
        def kept_rolling(g):
            return len(g.actions) >= 6 and g.state.turn_total > 0 \
                and g.names[g.current_player] in ref.players
        # the room's seed is random and a short game can end first (a BONES is 10,000): a new room
        for attempt in range(5):
            name = f"Crash {store} {attempt}"
            bones_room(ann, name, [(bob, "Bob")], "Ann", computers=1, target_steps=1)
            ref = Referee(rooms, name, {"Ann": ann, "Bob": bob})
            ref.play(bones_decider, "click", until=kept_rolling)
            if not ref.game().is_over:
                break
            ref.svc.close()
        else:
            raise AssertionError("five games ended before a person was left mid-turn")
        ref.person_on_turn()
        n = ref.count()
        ref.wait_same_view([ann, bob])
        shown = {p: ref.players[p].room_snap() for p in ("Ann", "Bob")}
        kill9(srv)
        if store == "redis":  # and the store's own process, for good measure
            redis.kill()
            redis.start()
        srv = serve(records, rooms, port=srv.port)
        ref.reconnect()
        assert ref.count() == n, f"the store holds {ref.count()} actions, {n} were shown"
        open_all([ann, bob], name)  # the same browsers: their seat tokens are kept
        for person in ("Ann", "Bob"):
            snap = ref.players[person].wait_room("(s) => s.rows.length === 3")
            assert snap["bar"].endswith(f"you play {person}"), snap["bar"]
            for key in ("dice", "history", "rows"):
                assert snap[key] == shown[person][key], (person, key, snap[key],
                                                         shown[person][key])
        assert ref.count() == n
        ref.play(bones_decider, "key")
        ref.check_end([ann, bob])
    finally:
        stop(srv)


# ----- 7. two server processes share a room through Redis -----------------------------------------
# behind DICELAB_SLOW (60 s): tests/test_rooms_durability.py's two processes share a room through
# Redis in every run, without a browser
@SLOW
def test_two_servers_share_a_room_through_redis(people, redis_server, tmp_path):
    rooms = redis_server.url
    one = serve(tmp_path / "records1.sqlite3", rooms)
    two = serve(tmp_path / "records2.sqlite3", rooms)
    try:
        ann, bob, carl = people(one), people(two), people(two)
        name = "Across processes"
        bones_room(ann, name, [(bob, "Bob")], "Ann", computers=1)
        carl.open_room_url(name)  # a spectator on the second process
        ref = Referee(rooms, name, {"Ann": ann, "Bob": bob})
        while not ref.game().is_over:
            if ref.on_turn()[1] is not None:  # a person on turn: nothing moves meanwhile
                ref.wait_same_view([ann, bob, carl])
            ref.step(bones_decider, "click")
        ref.check_end([ann, bob, carl])
    finally:
        stop(one)
        stop(two)


# ----- the link to join is one other machines can open (issue 40) ---------------------------------
def test_the_link_to_join_opens_from_another_address(people, tmp_path):
    """The creator's page is on 127.0.0.1, which no student's machine reaches; the server
    listens on every network, so the link uses this machine's network address, and a second
    browser opens the room from there."""
    from dicelab.ui.join_link import network_address

    ip = network_address()
    if ip is None:
        pytest.skip("this machine has no network address but its loopback")
    srv = Server(tmp_path / "records.sqlite3")  # (for its free port)
    srv = serve(tmp_path / "records.sqlite3", "sqlite://" + str(tmp_path / "rooms.db"),
                port=srv.port, args=("--address", "0.0.0.0",
                                     f"--allow-websocket-origin={ip}:{srv.port}"))
    try:
        ann = people(srv)
        ann.open_room_url()
        ann.lobby("Ann")
        ann.create("Link test")
        link = ann.page.get_by_label("Link to join this game")
        expect_prefix = f"http://{ip}:{srv.port}/dicelab_app?"
        ann.page.wait_for_function("([el, p]) => el.value.startsWith(p)",
                                   arg=[link.element_handle(), expect_prefix])
        url = link.input_value()
        assert parse_qs(urlparse(url).query) == {"room": ["Link test"]}, url
        bob = people(srv)
        bob.page.goto(url)
        bob.wait_ready()
        bob.page.get_by_text("Link test: waiting for the start").wait_for()
        assert urlparse(bob.page.url).hostname == ip
        assert not ann.page.errors and not bob.page.errors
    finally:
        stop(srv)
