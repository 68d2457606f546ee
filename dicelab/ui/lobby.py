"""Network games in the served app (seed 003): the lobby, a room's waiting list and its table.

The rules of rooms are ``dicelab.rooms.RoomService``'s; this module only shows rooms and calls
it. Each browser keeps its seat tokens in its own storage (``SeatKeeper``), so a reload gets the
seat back; the token, never the name, is what lets a browser act. Every browser in a room plays
on its own copy of the game (``RoomPlay``), brought up to the store's log whenever the service
reports a change: changes come from other threads (the pacer, Redis), so they are handed to
this session's document as next-tick callbacks.
"""
from __future__ import annotations

import threading
from types import SimpleNamespace

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

from ..errors import RuleError
from ..games import Seat, new_game
from ..players import player_names
from ..rooms import Room, RoomService
from ..rooms.model import new_token
from ..rooms.backend import default_backend as backend  # this process's service and pacer
from ..rooms.pacer import default_strategy
from ..settings import SETTINGS
from .play import Play, Prefs
from .session import every, handoff, one_message
from .table import Table
from .variants import UIS
from .words import alert_html, apply_preset, settings_title

esc = pn.util.escape
VARIANT_TITLES = {v: ui.title for v, ui in UIS.items()}


def room_title(room: Room) -> str:
    """The room's rules in a few words, as the table's caption says them."""
    return settings_title(room.variant, SimpleNamespace(**room.settings))


# ----- seat tokens in the browser ------------------------------------------------------------
class SeatKeeper(JSComponent):
    """Keeps this browser's seat tokens (room key -> token) in localStorage, and the open
    room in the address bar (``?room=``) so a reload comes back to it."""

    tokens = param.Dict(default=None, allow_None=True, doc="The browser's tokens, once read.")
    player = param.String(default="", doc="The name this browser last played under.")

    _esm = """
export function render({ model, el }) {
  const KEY = "dicelab.seats";
  const read = () => {
    try { const t = JSON.parse(localStorage.getItem(KEY) || "{}"); return t && typeof t === "object" ? t : {}; }
    catch (e) { return {}; }
  };
  try { model.player = (localStorage.getItem("dicelab.name") || "").slice(0, 40); } catch (e) {}
  model.tokens = read();
  model.on("msg:custom", (msg) => {
    if (typeof msg.name === "string") {
      try { localStorage.setItem("dicelab.name", msg.name); } catch (e) {}
      return;
    }
    const t = read();
    if (msg.set) t[msg.set] = msg.token;
    if (msg.drop) delete t[msg.drop];
    try { localStorage.setItem(KEY, JSON.stringify(t)); } catch (e) {}
    if ("room" in msg) {
      const u = new URL(window.location.href);
      if (msg.room) u.searchParams.set("room", msg.room); else u.searchParams.delete("room");
      window.history.replaceState(null, "", u);
    }
  });
  el.style.display = "none";
}
"""

    def token(self, key: str) -> str | None:
        t = (self.tokens or {}).get(key)
        return t if isinstance(t, str) and 0 < len(t) <= 200 else None

    def keep(self, key: str, token: str) -> None:
        self.tokens = {**(self.tokens or {}), key: token}
        self._send_msg({"set": key, "token": token})

    def drop(self, key: str) -> None:
        self.tokens = {k: v for k, v in (self.tokens or {}).items() if k != key}
        self._send_msg({"drop": key})

    def remember(self, player: str) -> None:
        """Fill in this name next time."""
        self.player = player
        self._send_msg({"name": player})

    def show_room(self, name: str | None) -> None:
        self._send_msg({"room": name or ""})


class JoinLink(JSComponent):
    """The room's address as a whole link (this page's origin + ?room=...), with a copy button:
    only the browser knows the address it was reached at."""

    room = param.String(default="")

    _esm = """
export function render({ model, el }) {
  const url = () => {
    const u = new URL(window.location.href);
    u.search = "";
    u.hash = "";
    u.searchParams.set("room", model.room);
    return u.toString();
  };
  const wrap = document.createElement("div");
  wrap.className = "join";
  const label = document.createElement("label");
  label.textContent = "Link to join: ";
  const input = document.createElement("input");
  input.readOnly = true;
  input.setAttribute("aria-label", "Link to join this game");
  input.setAttribute("data-testid", "join-link");
  const button = document.createElement("button");
  button.textContent = "Copy link";
  const said = document.createElement("span");
  said.setAttribute("role", "status");
  const show = () => { input.value = url(); };
  button.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); said.textContent = " copied"; }
    catch (e) {  // not a secure context (a classroom's http address): the old way
      said.textContent = document.execCommand("copy") ? " copied" : " select it and copy";
    }
  });
  label.appendChild(input);
  wrap.append(label, button, said);
  el.appendChild(wrap);
  show();
  model.on("room", show);
}
"""
    _stylesheets = ["""
.join { font: .95rem system-ui, sans-serif; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.join input { font: .95rem ui-monospace, monospace; width: min(34em, 80vw); padding: 4px 6px; }
.join button { font: 600 .95rem system-ui, sans-serif; padding: 5px 12px; cursor: pointer; }
"""]


# ----- one browser's copy of a room's game ---------------------------------------------------
def replica(room: Room):
    """A room's game as its log replays it (names only: the computers play on the server)."""
    return new_game(room.variant, [Seat(s.name) for s in room.seats], room.settings, room.seed)


class RoomPlay(Play):
    """A table's controller for a network game: the person acts for their own seat only,
    through the service; everything else arrives from the room's log."""

    def __init__(self, service: RoomService, room: Room, token: str | None,
                 prefs: Prefs | None = None):
        self.service = service
        self.room = room
        self.token = token
        self.seat = room.seat_of(token) if token else None
        self.log_start = room.log_start  # which of the room's games this is (rematches)
        self._sync_lock = threading.RLock()
        self._seats_shown = self._seat_shape()
        super().__init__(replica(room), prefs=prefs, computers=False)
        self.sync(room, animate=False)

    # reading: seats are the room's
    def is_computer(self, seat: int) -> bool:
        return self.room.seats[seat].is_computer

    def is_mine(self, seat: int) -> bool:
        return seat == self.seat and not self.room.seats[seat].is_computer

    def seat_tag(self, seat: int) -> str:
        s = self.room.seats[seat]
        if s.is_computer:
            tag = f"computer: {s.strategy}"
            return tag + (", until they return" if s.holder else "")
        if s.is_empty:
            return "empty seat"
        tag = "you" if seat == self.seat else "person"
        return tag + (", away" if s.away_since is not None else "")

    def _wait_text(self) -> str:
        if self.seat is None and not self.game.is_over:
            return "You are watching this game."
        return super()._wait_text()

    # acting: through the service, which stores the action before anyone is shown it
    def _apply(self, action) -> bool:
        self.settle()
        try:  # the number it should get: a retried or doubled click is not played twice
            self.service.act(self.room.name, self.token, action, expect=len(self.game.actions))
        except RuleError as exc:
            return self._refuse(str(exc))
        self.sync()
        return True

    def _seat_shape(self) -> list:
        """What the scoreboard shows of the seats (a change means a redraw)."""
        return [(s.strategy, s.holder is None, s.away_since is None) for s in self.room.seats]

    def sync(self, room: Room | None = None, animate: bool = True) -> int:
        """Catch up with the room's log; returns how many actions were new."""
        with self._sync_lock:  # outside a served session, news may come from other threads
            if room is not None:
                if room.log_start != self.log_start:
                    return 0  # a rematch began: the screen makes a new table for it
                self.room = room
                self.seat = room.seat_of(self.token) if self.token else None
            g = self.game
            new = self.service.log(self.room.name, start=len(g.actions),
                                   log_start=self.log_start)
            if not new:
                seats = self._seat_shape()
                if seats != self._seats_shown:
                    self._bump()  # a seat was taken over, left or came back
                self._seats_shown = seats
                return 0
            self.settle()
            with self.quiet():  # shown together below
                for action in new:
                    g.apply(action)
            self._seats_shown = self._seat_shape()
            with one_message():  # news from elsewhere: dice and table together
                self.catch_up(animate=animate, at_once=True)
            return len(new)


# ----- the lobby ---------------------------------------------------------------------------
LOBBY_CSS = """
.room-row { font: 1rem/1.4 system-ui, sans-serif; }
.room-row b { font-size: 1.05rem; }
.room-row .seats { opacity: .85; }
"""


class RoomList(JSComponent):
    """A list of rooms drawn in the browser from plain rows (one model for the whole list: a
    row of Panel widgets costs ~80 ms to build and send, so a lobby of many rooms was slow).
    The browser redraws only rows whose content changed; a click sends ``{act, name}``."""

    rows = param.List(default=[], doc="[{key, name, html, buttons: [{label, act, primary}]}]")

    _stylesheets = [LOBBY_CSS + """
.room-card { background: var(--mui-palette-background-paper, #fff); border-radius: 4px;
  background-image: linear-gradient(rgba(255,255,255,.05), rgba(255,255,255,.05));
  box-shadow: 0 1px 3px rgba(0,0,0,.2); padding: 8px 12px; margin: 0 0 8px 0; }
.room-buttons { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.room-buttons button { font: 500 0.8125rem/1.75 system-ui, sans-serif; letter-spacing: .02857em;
  text-transform: uppercase; border-radius: 4px; padding: 4px 10px; cursor: pointer;
  border: 1px solid #1976d2; }
.room-buttons button.primary { background: #1976d2; color: #fff;
  box-shadow: 0 3px 1px -2px rgba(0,0,0,.2), 0 2px 2px 0 rgba(0,0,0,.14); }
.room-buttons button.outlined { background: transparent; color: #1976d2;
  border-color: rgba(25,118,210,.5); }
"""]

    _esm = """
export function render({ model, el }) {
  const list = document.createElement("div");
  el.appendChild(list);
  let made = new Map();  // key -> {sig, node}: rows drawn already
  const draw = () => {
    const next = new Map();
    const nodes = [];
    for (const r of model.rows) {
      const sig = JSON.stringify(r);
      let m = made.get(r.key);
      if (!m || m.sig !== sig) {
        const card = document.createElement("div");
        card.className = "room-card";
        const text = document.createElement("div");
        text.innerHTML = r.html;  // escaped on the server
        card.appendChild(text);
        const bar = document.createElement("div");
        bar.className = "room-buttons";
        for (const b of r.buttons) {
          const btn = document.createElement("button");
          btn.type = "button";
          btn.textContent = b.label;
          btn.className = b.primary ? "primary" : "outlined";
          btn.addEventListener("click", () => model.send_msg({ act: b.act, name: r.name }));
          bar.appendChild(btn);
        }
        card.appendChild(bar);
        m = { sig, node: card };
      }
      next.set(r.key, m);
      nodes.push(m.node);
    }
    made = next;
    list.replaceChildren(...nodes);
  };
  draw();
  model.on("rows", draw);
}
"""

    def __init__(self, on_act=None, **params):
        super().__init__(**params)
        self._on_act = on_act

    def _handle_msg(self, msg) -> None:
        if (isinstance(msg, dict) and msg.get("act") in ("join", "watch", "back")
                and isinstance(msg.get("name"), str) and self._on_act is not None):
            self._on_act(msg["act"], msg["name"][:200])


class Lobby(pn.viewable.Viewer):
    """Create a named game, see open games and games in play, join, watch or return."""

    player = param.String(default="", label="Your name")
    game_name = param.String(default="", label="Name of a new game")
    variant = param.Selector(default="bones", objects=list(VARIANT_TITLES))
    message = param.String(default="")

    def __init__(self, keeper: SeatKeeper, on_open, **params):
        super().__init__(**params)
        self.keeper = keeper
        self._on_open = on_open
        self.settings = {v: SETTINGS[v]() for v in VARIANT_TITLES}
        for s in self.settings.values():
            if "preset" in s.param:
                s.param.watch(apply_preset, "preset")
        self._msg = pn.pane.HTML("", sizing_mode="stretch_width")
        self._list = pn.Column(sizing_mode="stretch_width")
        self._settings_box = pn.Column(sizing_mode="stretch_width")
        self._unsubscribe = None
        self._stop_catch_up = lambda: None
        self._shown = None  # what the list shows, to redraw only on a change
        self._rows: dict = {}  # room key -> ((rev, seat), row) drawn last
        self._lists = {part: RoomList(on_act=self._act, sizing_mode="stretch_width")
                       for part in ("open", "play")}
        self._limit = self.PAGE
        try:
            self.service, self.pacer = backend()
        except Exception as exc:  # e.g. Redis not reachable: say so, do not crash the page
            self.service = self.pacer = None
            self.message = f"Network games are not available: {exc}"
        self._refresh = handoff(self.refresh)
        keeper.param.watch(lambda *_: self._refresh(), "tokens")
        keeper.param.watch(self._remembered, "player")
        self._remembered()
        self._draw_settings()
        self.refresh()

    def activate(self, on: bool = True) -> None:
        """Follow the rooms' news while the lobby is on screen."""
        if on and self._unsubscribe is None and self.service is not None:
            self._unsubscribe = self.service.subscribe(None, self._heard)
            self._stop_catch_up = every(self.refresh)  # the net under the news
            self.refresh()
        elif not on and self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
            self._stop_catch_up()

    def _remembered(self, *_):
        if not self.player and self.keeper.player:
            self.player = self.keeper.player

    def _heard(self, event):
        if event.kind != "action":  # seats, starts and closings change the lists
            self._refresh()

    @param.depends("variant", watch=True)
    def _draw_settings(self):
        from .settings_form import SettingsForm

        self._settings_box.objects = [SettingsForm(self.settings[self.variant])]

    @param.depends("message", watch=True)
    def _show_msg(self):
        self._msg.object = alert_html(self.message)

    # ----- actions ---------------------------------------------------------------------------
    def _guard(self, fn):
        if self.service is None:
            return None
        try:
            out = fn()
        except RuleError as exc:
            self.message = str(exc)
            return None
        self.message = ""
        return out

    def _named(self) -> bool:
        if not self.player.strip():
            self.message = "Type your name first (as the others will see it)."
            return False
        return True

    def create(self):
        """Create the named game with this lobby's variant and rules; open it."""
        if not self._named():
            return

        def go():
            room, token = self.service.create(self.game_name, self.variant,
                                              self.settings[self.variant].to_dict(),
                                              self.player, client=_client_address())
            return room, token
        out = self._guard(go)
        if out:
            room, token = out
            self.keeper.keep(room.key, token)
            self.keeper.remember(room.seats[0].name)
            self._on_open(room.name, token)

    def join(self, name: str):
        if not self._named():
            return
        token = self._guard(lambda: self.service.join(name, self.player))
        if token:
            room = self.service.room(name)
            self.keeper.keep(room.key, token)
            self.keeper.remember(room.seats[room.seat_of(token)].name)
            self._on_open(room.name, token)

    def watch(self, name: str):
        self._on_open(name, None)

    def back(self, name: str):
        room = self._guard(lambda: self.service.room(name))
        if room:
            self._on_open(room.name, self.keeper.token(room.key))

    # ----- drawing ---------------------------------------------------------------------------
    def refresh(self):
        if self.service is None:
            self._list.objects = []
            return
        try:
            page = self.service.lobby(self._limit)
        except Exception as exc:
            self.message = f"Could not read the games: {exc}"
            return
        rooms = page["open"][0] + page["play"][0]
        totals = {"open": page["open"][1], "play": page["play"][1]}
        mine = {k for k in (self.keeper.tokens or {})}
        seats = [room.seat_of(self.keeper.token(room.key)) if room.key in mine else None
                 for room in rooms]
        shape = [(room.key, room.rev, seat) for room, seat in zip(rooms, seats)]
        shape.append(tuple(totals.values()))
        if shape == self._shown:
            return  # nothing changed: new buttons would swallow a click on the old ones
        self._shown = shape
        sections: dict[str, list] = {"open": [], "play": []}
        rows = {}
        for room, seat in zip(rooms, seats):  # a page at a time: thousands of rooms stay quick
            part = sections["play" if room.started else "open"]
            old = self._rows.get(room.key)
            # only rows that changed are made again (and drawn again by the browser)
            row = old[1] if old is not None and old[0] == (room.rev, seat) else \
                self._row(room, seat)
            rows[room.key] = ((room.rev, seat), row)
            part.append(row)
        self._rows = rows

        def shown(name, empty):
            self._lists[name].rows = sections[name]
            items = [self._lists[name]] if sections[name] else [pn.pane.HTML(empty)]
            hidden = totals[name] - len(sections[name])
            return items + ([self._more_button(hidden)] if hidden > 0 else [])
        self._list.objects = [
            pn.pane.HTML("<h3 style='margin:10px 0 4px'>Open games</h3>"),
            *shown("open", "<p>No open games yet: create one above.</p>"),
            pn.pane.HTML("<h3 style='margin:14px 0 4px'>Games in play</h3>"),
            *shown("play", "<p>None right now.</p>"),
        ]

    PAGE = 12  # rows per list shown at first ("Show more" adds a page): each row's widgets
    # cost ~80 ms to send to a browser, so a page of 2 x 12 appears in about a second

    def _more_button(self, hidden: int):
        def more(event):
            self._limit += self.PAGE
            self.refresh()
        return pmui.Button(label=f"Show more ({hidden} not shown)", variant="text",
                           size="small", on_click=more)

    def _row(self, room: Room, seat: int | None) -> dict:
        seats = ", ".join(esc(s.name) + (" (computer)" if s.is_computer else "")
                          for s in room.seats)
        state = "finished" if room.finished else "in play" if room.started else "open"
        html = (f"<div class='room-row'><b>{esc(room.name)}</b> · "
                f"{esc(room_title(room))} · {state}<br>"
                f"<span class='seats'>{len(room.seats)} seat{'s' if len(room.seats) != 1 else ''}:"
                f" {seats}</span></div>")
        buttons = []
        if seat is not None:
            buttons.append({"label": f"Return to {room.name}", "act": "back", "primary": True})
        elif not room.started and not room.is_full:
            buttons.append({"label": f"Join {room.name}", "act": "join", "primary": True})
        buttons.append({"label": f"Watch {room.name}", "act": "watch", "primary": False})
        return {"key": room.key, "name": room.name, "html": html, "buttons": buttons}

    def _act(self, act: str, name: str) -> None:
        """A click on a row's button (from the browser)."""
        {"join": self.join, "watch": self.watch, "back": self.back}[act](name)

    def __panel__(self):
        name = pmui.TextInput.from_param(self.param.player, width=220, max_length=40,
                                         placeholder="as others will see it")
        game = pmui.TextInput.from_param(self.param.game_name, width=260, max_length=40,
                                         placeholder="letters, digits, spaces, - and _")
        variant = pmui.Select.from_param(self.param.variant, label="Game",
                                         options={t: v for v, t in VARIANT_TITLES.items()},
                                         width=200)
        create = pmui.Button(label="Create game", variant="contained", color="primary",
                             on_click=lambda e: self.create())
        rules = pmui.Accordion(("Rules settings for the new game", self._settings_box),
                               active=[], sizing_mode="stretch_width")
        return pn.Column(
            pn.pane.HTML("<h2 style='margin:4px 0 4px'>Network games</h2><p style='margin:0 0 "
                         "8px'>Play one game from several computers: create a game and share "
                         "its name, or join one below. The creator's rules apply to everyone; "
                         "nobody can join once it has started; anyone may watch.</p>",
                         sizing_mode="stretch_width"),
            name,
            pmui.Paper(pn.pane.HTML("<h3 style='margin:0 0 4px'>Create a game</h3>"),
                       pmui.FlexBox(game, variant, create, align_items="center", gap="8px",
                                    flex_wrap="wrap"),
                       rules, sizing_mode="stretch_width", sx={"padding": "10px 12px"}),
            self._msg, self._list, sizing_mode="stretch_width")


# ----- one room: waiting for the start, then the table ----------------------------------------
class RoomScreen(pn.viewable.Viewer):
    """A room as one browser sees it: as a seated player (``token``) or a spectator."""

    message = param.String(default="")

    def __init__(self, name: str, token: str | None, keeper: SeatKeeper, prefs: Prefs,
                 on_exit, **params):
        super().__init__(**params)
        self.service, self.pacer = backend()
        self.keeper, self.prefs, self._on_exit = keeper, prefs, on_exit
        self.room = self.service.room(name)  # RuleError: no such game
        self.room_name = self.room.name
        self.token = token if token and self.room.seat_of(token) is not None else None
        self.session = new_token()[:16]  # this screen's claim on the seat
        if self.token:  # this browser sits here now (back after a reload, perhaps)
            self.service.reclaim(self.room_name, self.token, session=self.session)
            self.room = self.service.room(name)
        self.play: RoomPlay | None = None
        self._bar = pn.pane.HTML("", sizing_mode="stretch_width")
        self._msg = pn.pane.HTML("", sizing_mode="stretch_width")
        self._buttons = pmui.FlexBox(gap="8px", flex_wrap="wrap")
        self._body = pn.Column(sizing_mode="stretch_width")
        self._rematch = pmui.Button(label="Play again (same seats)", variant="contained",
                                    color="primary", size="large", visible=False,
                                    on_click=lambda e: self.rematch())
        self._strategy = pmui.Select(label="Computer plays", options=player_names(
            self.room.variant), value=default_strategy(self.room.variant), width=200)
        self._closed = False
        self._refresh = handoff(self.refresh)
        self._unsubscribe = self.service.subscribe(self.room_name, self._refresh)
        self._seen = None  # (room record's rev, actions) when last drawn
        self._bar_shape = self._waiting_rev = None  # what the bar and waiting list show
        self._stop_catch_up = every(self._catch_up)
        self.pacer.watch(self.room_name)
        keeper.show_room(self.room_name)
        self.refresh()

    @property
    def seat(self) -> int | None:
        return self.room.seat_of(self.token) if self.token else None

    @property
    def is_creator(self) -> bool:
        from ..rooms.model import same_token

        return bool(self.token) and same_token(self.room.creator, self.token)

    # ----- actions ---------------------------------------------------------------------------
    def _guard(self, fn) -> bool:
        try:
            fn()
        except RuleError as exc:
            self.message = str(exc)
            return False
        self.message = ""
        self.refresh()
        return True

    def add_computer(self, strategy: str | None = None):
        self._guard(lambda: self.service.add_computer(self.room_name, self.token,
                                                      strategy or self._strategy.value))

    def remove_seat(self, seat: int):
        self._guard(lambda: self.service.remove_seat(self.room_name, self.token, seat))

    def start(self):
        self._guard(lambda: self.service.start(self.room_name, self.token))

    def leave(self):
        """Give up the seat (before the start: the seat goes; the creator closes the game)."""
        if self.token:
            try:
                self.service.leave(self.room_name, self.token)
            except RuleError as exc:
                self.message = str(exc)
                return
            self.keeper.drop(self.room.key)
            self.token = None
        self.exit()

    def exit(self):
        """Back to the lobby (the seat is kept, away: return to it from there)."""
        self.away()
        self.keeper.show_room(None)
        self._on_exit()

    def exit_quietly(self):
        """Stop following the room (another screen replaces this one); the seat is away."""
        self.away()

    def away(self):
        """The browser has gone: the seat waits for it (a computer may take over later)."""
        if self._closed:
            return
        self.close()
        if self.token and not self._gone():
            try:
                self.service.away(self.room_name, self.token, session=self.session)
            except RuleError:
                pass

    def _gone(self) -> bool:
        try:
            self.service.room(self.room_name)
            return False
        except RuleError:
            return True

    def close(self):
        if not self._closed:
            self._closed = True
            self._unsubscribe()
            self._stop_catch_up()

    def _catch_up(self):
        """News is pushed to the page; this is the net under it: Redis pub/sub drops what
        is published while a subscriber reconnects, so a page that missed news catches up
        from the store within a couple of seconds."""
        if self._closed:
            return
        shown = self._seen or (None, 0)
        try:
            room = self.service.room(self.room_name)
            behind = room.rev != shown[0] or bool(self.service.log(self.room_name, shown[1]))
        except RuleError:
            behind = True  # closed: refresh says so
        except Exception:  # the store is unreachable for now: try again next time
            return
        if behind:
            self.refresh()

    # ----- drawing ---------------------------------------------------------------------------
    def refresh(self):
        if self._closed:
            return
        try:
            self.room = self.service.room(self.room_name)
        except RuleError:
            self.close()
            self._bar.object = ""
            self._body.objects = [pn.pane.HTML(
                f"<p role='alert'><b>{esc(self.room_name)}</b> was closed by its creator.</p>")]
            self._buttons.objects = [pmui.Button(label="Back to the lobby", variant="contained",
                                                 on_click=lambda e: self.exit())]
            self.keeper.drop(self.room_name.casefold())
            return
        if self.room.started:
            self._draw_table()
        else:
            self._draw_waiting()
        self._draw_bar()
        self._seen = (self.room.rev, len(self.play.game.actions) if self.play else 0)

    def _draw_bar(self):
        room, seat = self.room, self.seat
        who = (f"you play <b>{esc(room.seats[seat].name)}</b>" if seat is not None
               else "you are watching")
        bar = (f"<div style='font:1.05rem system-ui,sans-serif'>Network game "
               f"<b>{esc(room.name)}</b> · {VARIANT_TITLES[room.variant]} · {who}</div>")
        shape = (bar, seat is not None, self.is_creator and not room.started)
        if shape == self._bar_shape:
            return  # every action refreshes the room: new buttons would go to every page
        self._bar_shape = shape
        self._bar.object = bar
        buttons = []
        if seat is not None:
            label = "Close this game" if self.is_creator and not room.started else "Leave game"
            buttons.append(pmui.Button(label=label, variant="outlined", color="error",
                                       size="small", on_click=lambda e: self.leave()))
        buttons.append(pmui.Button(label="Back to the lobby", variant="outlined", size="small",
                                   on_click=lambda e: self.exit()))
        self._buttons.objects = buttons

    def _draw_waiting(self):
        room = self.room
        if self._waiting_rev == (room.rev, self.token):
            return  # nothing changed: new buttons would swallow a click on the old ones
        self._waiting_rev = (room.rev, self.token)
        rows = []
        for i, s in enumerate(room.seats):
            tags = []
            if i == 0:
                tags.append("creator")
            if s.is_computer:
                tags.append(f"computer: {esc(s.strategy)}")
            if i == self.seat:
                tags.append("you")
            if s.away_since is not None:
                tags.append("away")
            rows.append(f"<li>{esc(s.name)}{' (' + ', '.join(tags) + ')' if tags else ''}</li>")
        info = pn.pane.HTML(
            f"<h2 style='margin:6px 0'>{esc(room.name)}: waiting for the start</h2>"
            f"<p>{esc(room_title(room))}</p>"
            f"<h3 style='margin:8px 0 2px'>Seats ({len(room.seats)} of 8)</h3>"
            f"<ol data-testid='seats'>{''.join(rows)}</ol>"
            f"<p><small>Others join from the lobby, or with this link:</small></p>",
            sizing_mode="stretch_width")
        items = [info, JoinLink(room=room.name, sizing_mode="stretch_width")]
        if self.is_creator:
            removes = [pmui.Button(label=f"Remove {s.name}", variant="text", color="error",
                                   size="small", on_click=lambda e, i=i: self.remove_seat(i))
                       for i, s in enumerate(room.seats) if s.is_computer]
            items += [
                pmui.FlexBox(self._strategy,
                             pmui.Button(label="Add computer", variant="outlined",
                                         on_click=lambda e: self.add_computer(),
                                         disabled=room.is_full),
                             *removes, align_items="center", gap="8px", flex_wrap="wrap"),
                pmui.Button(label="Start game", variant="contained", color="primary",
                            size="large", on_click=lambda e: self.start()),
            ]
        else:
            items.append(pn.pane.HTML("<p>The creator starts the game when everyone is "
                                      "seated.</p>"))
        self._body.objects = items

    def _draw_table(self):
        if self.play is None or self.play.log_start != self.room.log_start:  # new or a rematch
            self.play = RoomPlay(self.service, self.room, self.token, prefs=self.prefs)
            self._body.objects = [Table(play=self.play)]
        else:
            self.play.sync(self.room)
        self._draw_rematch()

    def rematch(self):
        """Play again: a new game in this room with the same seats."""
        start = self.play.log_start if self.play is not None else None
        self._guard(lambda: self.service.rematch(self.room_name, self.token, log_start=start))

    def _draw_rematch(self):
        over = self.play.game.is_over and self.seat is not None
        if self._rematch.visible != over:
            self._rematch.visible = over

    @param.depends("message", watch=True)
    def _show_msg(self):
        self._msg.object = alert_html(self.message)

    def __panel__(self):
        return pn.Column(pmui.FlexBox(self._bar, self._buttons, align_items="center", gap="8px",
                                      flex_wrap="wrap", sizing_mode="stretch_width"),
                         self._msg, self._rematch, self._body, sizing_mode="stretch_width")


def _client_address() -> str | None:
    """The browser's address as the server sees it (for the limit of rooms per address)."""
    try:
        return pn.state.curdoc.session_context.request.remote_ip or None
    except AttributeError:
        return None
