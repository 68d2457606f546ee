"""Network games in the served app (seed 003): the lobby, where games are created, joined,
watched and returned to. A room's own screen is ``ui.room``; its game at this browser
``ui.room_play``; the browser's seat tokens ``ui.seat_keeper`` (all re-exported here).
"""
from __future__ import annotations

import panel as pn
import param

from ..errors import RuleError
from ..i18n import N_, _, n_, tr
from ..rooms import Room
from ..rooms.backend import default_backend as backend  # this process's service and pacer
from ..settings import SETTINGS
from .join_link import JoinLink
from .look import ACCORDION_CSS, button, card, from_param
from .names import seat_name
from .play import Prefs
from .room import RoomScreen
from .room_list import RoomList
from .room_play import RoomPlay, replica
from .seat_keeper import SeatKeeper
from .session import every, handoff
from .variant_cards import VARIANTS, variant_title
from .words import alert_pane, apply_preset, room_title, show_alert

__all__ = ["JoinLink", "Lobby", "Prefs", "RoomList", "RoomPlay", "RoomScreen", "SeatKeeper",
           "backend", "replica", "room_title"]

esc = pn.util.escape


class Lobby(pn.viewable.Viewer):
    """Create a named game, see open games and games in play, join, watch or return."""

    player = param.String(default="", label=N_("Your name"))
    game_name = param.String(default="", label=N_("Name of a new game"))
    variant = param.Selector(default="bones", objects=list(VARIANTS))
    message = param.String(default="")

    def __init__(self, keeper: SeatKeeper, on_open, **params):
        super().__init__(**params)
        self.keeper = keeper
        self._on_open = on_open
        self.settings = {v: SETTINGS[v]() for v in VARIANTS}
        for s in self.settings.values():
            if "preset" in s.param:
                s.param.watch(apply_preset, "preset")
        self._msg = alert_pane()
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
            self.message = _("Network games are not available: {error}", error=str(exc))
        self._refresh = handoff(self.refresh)
        keeper.param.watch(lambda *__: self._refresh(), "tokens")
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

    def _remembered(self, *__):
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
        show_alert(self._msg, self.message)

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
            self.message = _("Type your name first (as the others will see it).")
            return False
        return True

    def create(self):
        """Create the named game with this lobby's variant and rules; open it."""
        if not self._named():
            return

        def go():
            room, token = self.service.create(self.game_name, self.variant,
                                              self.settings[self.variant].to_dict(),
                                              self.player, client=client_address())
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
            self.message = _("Could not read the games: {error}", error=str(exc))
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
        # (Babel does not look inside f-strings: the messages stay outside them)
        self._list.objects = [
            pn.pane.HTML("<h3 style='margin:10px 0 4px'>" + _("Open games") + "</h3>"),
            *shown("open", "<p>" + _("No open games yet: create one above.") + "</p>"),
            pn.pane.HTML("<h3 style='margin:14px 0 4px'>" + _("Games in play") + "</h3>"),
            *shown("play", "<p>" + _("None right now.") + "</p>"),
        ]

    PAGE = 12  # rows per list shown at first ("Show more" adds a page): each row's widgets
    # cost ~80 ms to send to a browser, so a page of 2 x 12 appears in about a second

    def _more_button(self, hidden: int):
        def more(event):
            self._limit += self.PAGE
            self.refresh()
        return button(_("Show more ({n} not shown)", n=hidden), "text", more, size="small")

    def _row(self, room: Room, seat: int | None) -> dict:
        seats = ", ".join(esc(_("{name} (computer)", name=s.name) if s.is_computer
                              else seat_name(s.name)) for s in room.seats)
        state = _("finished") if room.finished else _("in play") if room.started else _("open")
        count = n_("{n} seat", "{n} seats", len(room.seats))
        html = (f"<div class='room-row'><b>{esc(room.name)}</b> · "
                f"{esc(room_title(room))} · {state}<br>"
                f"<span class='seats'>{esc(count)}: {seats}</span></div>")
        buttons = []
        if seat is not None:
            buttons.append({"label": _("Return to {room}", room=room.name), "act": "back",
                            "primary": True})
        elif not room.started and not room.is_full:
            buttons.append({"label": _("Join {room}", room=room.name), "act": "join",
                            "primary": True})
        buttons.append({"label": _("Watch {room}", room=room.name), "act": "watch",
                        "primary": False})
        return {"key": room.key, "name": room.name, "html": html, "buttons": buttons}

    def relabel(self) -> None:
        """Every word again in the page's language (the lists and the settings form)."""
        self._shown, self._rows = None, {}
        self._draw_settings()
        self.refresh()
        if self.message:
            show_alert(self._msg, self.message)

    def _act(self, act: str, name: str) -> None:
        """A click on a row's button (from the browser)."""
        {"join": self.join, "watch": self.watch, "back": self.back}[act](name)

    def __panel__(self):
        name = from_param(pn.widgets.TextInput, self.param.player, width=220, max_length=40,
                          label=tr(self.param.player.label),
                          placeholder=_("as others will see it"))
        game = from_param(pn.widgets.TextInput, self.param.game_name, width=260, max_length=40,
                          label=tr(self.param.game_name.label),
                          placeholder=_("letters, digits, spaces, - and _"))
        variant = from_param(pn.widgets.Select, self.param.variant, label=_("Game"),
                             options={variant_title(v): v for v in VARIANTS}, width=200)
        create = button(_("Create game"), "contained", lambda e: self.create())
        rules = pn.Accordion((_("Rules settings for the new game"), self._settings_box),
                             active=[], sizing_mode="stretch_width", stylesheets=[ACCORDION_CSS])
        intro = _("Play one game from several computers: create a game and share its name, or "
                  "join one below. The creator's rules apply to everyone; nobody can join once "
                  "it has started; anyone may watch.")
        return pn.Column(
            pn.pane.HTML("<h2 style='margin:4px 0 4px'>" + _("Network games") + "</h2>"
                         f"<p style='margin:0 0 8px'>{intro}</p>",
                         sizing_mode="stretch_width"),
            name,
            card(pn.pane.HTML("<h3 style='margin:0 0 4px'>" + _("Create a game") + "</h3>"),
                 pn.FlexBox(game, variant, create, align_items="center", gap="8px",
                            flex_wrap="wrap"),
                 rules, sizing_mode="stretch_width"),
            self._msg, self._list, sizing_mode="stretch_width")


def client_address() -> str | None:
    """The browser's address as the server sees it (for the limit of rooms per address)."""
    try:
        return pn.state.curdoc.session_context.request.remote_ip or None
    except AttributeError:
        return None
