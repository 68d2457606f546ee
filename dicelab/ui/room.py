"""One room as one browser sees it: the waiting list until the start, then the table.

The rules of rooms are ``dicelab.rooms.RoomService``'s; this screen only shows the room and calls
it. Changes come from other threads (the pacer, Redis), so they are handed to this session's
document as next-tick callbacks.
"""
from __future__ import annotations

import panel as pn
import param

from ..errors import RuleError
from ..i18n import _
from ..players import player_names
from ..rooms.backend import default_backend as backend  # this process's service and pacer
from ..rooms.model import new_token, same_token
from ..rooms.pacer import default_strategy
from .join_link import JoinLink, join_base, join_words
from .look import button, styled
from .names import strategy_label
from .play import Prefs
from .room_play import RoomPlay
from .seat_keeper import SeatKeeper
from .session import every, handoff
from .table import Table
from .variants import ui_for
from .words import alert_pane, room_title, show_alert

esc = pn.util.escape


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
        self._msg = alert_pane()
        self._buttons = pn.FlexBox(gap="8px", flex_wrap="wrap")
        self._body = pn.Column(sizing_mode="stretch_width")
        self._rematch = button(_("Play again (same seats)"), "contained",
                               lambda e: self.rematch(), size="large", visible=False)
        self._strategy = styled(pn.widgets.Select, label=_("Computer plays"),
                                options=self._strategies(),
                                value=default_strategy(self.room.variant), width=200)
        self._closed = False
        self._refresh = handoff(self.refresh)
        self._unsubscribe = self.service.subscribe(self.room_name, self._refresh)
        self._seen = None  # (room record's rev, actions) when last drawn
        self._bar_shape = self._waiting_rev = None  # what the bar and waiting list show
        self._stop_catch_up = every(self._catch_up)
        self.pacer.watch(self.room_name)
        keeper.show_room(self.room_name)
        self.refresh()

    def _strategies(self) -> dict[str, str]:
        return {strategy_label(n): n for n in player_names(self.room.variant)}

    def relabel(self) -> None:
        """Every word again in the page's language; the room and its game stay as they are."""
        self._rematch.label = _("Play again (same seats)")
        self._strategy.param.update(label=_("Computer plays"), options=self._strategies())
        self._bar_shape = self._waiting_rev = None
        if self.play is not None:
            self.play.relabel()
            shown = self._body.objects[0] if self._body.objects else None
            if isinstance(shown, Table):
                shown.retire()
            self._body.objects = [Table(play=self.play)]
        if self.message:
            show_alert(self._msg, self.message)
        self.refresh()

    @property
    def seat(self) -> int | None:
        return self.room.seat_of(self.token) if self.token else None

    @property
    def is_creator(self) -> bool:
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
            self.service.reread(self.room_name)  # what was read for the pages missed news too
            self.refresh()

    # ----- drawing ---------------------------------------------------------------------------
    def refresh(self):
        if self._closed:
            return
        try:  # (the room's other pages read it after the same news: one read for all)
            self.room = self.service.room(self.room_name, cached=True)
        except RuleError:
            self.close()
            self._bar.object = ""
            room = "<b>" + esc(self.room_name) + "</b>"
            self._body.objects = [pn.pane.HTML("<p role='alert'>" + _(
                "{room} was closed by its creator.", room=room) + "</p>")]
            self._buttons.objects = [button(_("Back to the lobby"), "contained",
                                            lambda e: self.exit())]
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
        name = "<b>" + esc(room.seats[seat].name) + "</b>" if seat is not None else ""
        who = _("you play {name}", name=name) if seat is not None else _("you are watching")
        game = _("Network game {room}", room="<b>" + esc(room.name) + "</b>")
        bar = (f"<div style='font:1.05rem system-ui,sans-serif'>{game} · "
               f"{esc(ui_for(room).title)} · {who}</div>")
        shape = (bar, seat is not None, self.is_creator and not room.started)
        if shape == self._bar_shape:
            return  # every action refreshes the room: new buttons would go to every page
        self._bar_shape = shape
        self._bar.object = bar
        buttons = []
        if seat is not None:
            label = (_("Close this game") if self.is_creator and not room.started
                     else _("Leave game"))
            buttons.append(button(label, "outlined", lambda e: self.leave(), red=True,
                                  size="small"))
        buttons.append(button(_("Back to the lobby"), "outlined", lambda e: self.exit(),
                              size="small"))
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
                tags.append(_("creator"))
            if s.is_computer:
                tags.append(_("computer: {strategy}", strategy=strategy_label(s.strategy)))
            if i == self.seat:
                tags.append(_("you"))
            if s.away_since is not None:
                tags.append(_("away"))
            shown_tags = _("({tags})", tags=", ".join(tags)) if tags else ""
            rows.append(f"<li>{esc(s.name)}{' ' + esc(shown_tags) if tags else ''}</li>")
        waiting = _("{room}: waiting for the start", room=esc(room.name))
        count = _("Seats ({n} of {most})", n=len(room.seats), most=8)
        info = pn.pane.HTML(
            f"<h2 style='margin:6px 0'>{waiting}</h2>"
            f"<p>{esc(room_title(room))}</p>"
            f"<h3 style='margin:8px 0 2px'>{count}</h3>"
            f"<ol data-testid='seats'>{''.join(rows)}</ol>"
            "<p><small>" + _("Others join from the lobby, or with this link:") + "</small></p>",
            sizing_mode="stretch_width")
        items = [info, JoinLink(room=room.name, words=join_words(), base=join_base(),
                          sizing_mode="stretch_width")]
        if self.is_creator:
            removes = [button(_("Remove {name}", name=s.name), "text",
                              lambda e, i=i: self.remove_seat(i), red=True, size="small")
                       for i, s in enumerate(room.seats) if s.is_computer]
            items += [
                pn.FlexBox(self._strategy,
                           button(_("Add computer"), "outlined", lambda e: self.add_computer(),
                                  disabled=room.is_full),
                           *removes, align_items="center", gap="8px", flex_wrap="wrap"),
                button(_("Start game"), "contained", lambda e: self.start(), size="large"),
            ]
        else:
            items.append(pn.pane.HTML("<p>" + _("The creator starts the game when everyone is "
                                                "seated.") + "</p>"))
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
        show_alert(self._msg, self.message)

    def __panel__(self):
        return pn.Column(pn.FlexBox(self._bar, self._buttons, align_items="center", gap="8px",
                                    flex_wrap="wrap", sizing_mode="stretch_width"),
                         self._msg, self._rematch, self._body, sizing_mode="stretch_width")
