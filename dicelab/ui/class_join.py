"""A student's way into a class (issue 36): the code and a name, the class's waiting lobby,
then their table (the room screen, with their class token as the seat's token).

The browser keeps its class tokens with the seats' (``SeatKeeper``, key ``class:CODE``;
the teacher's ``teach:CODE``), so a reload comes back to the same seat.
"""
from __future__ import annotations

import panel as pn
import param

from ..errors import RuleError
from ..i18n import N_, _, tr
from ..rooms.classes import default_class_service
from .seat_keeper import SeatKeeper
from .session import every, handoff
from .words import alert_pane, show_alert

esc = pn.util.escape


def student_key(code: str) -> str:
    return f"class:{code}"


def teacher_key(code: str) -> str:
    return f"teach:{code}"


class JoinClass(pn.viewable.Viewer):
    """The join form, then the waiting lobby; ``on_seated(table, token)`` once seated."""

    code = param.String(default="", label=N_("Class code"))
    player = param.String(default="", label=N_("Your name"))
    message = param.String(default="")

    def __init__(self, keeper: SeatKeeper, on_seated, code: str = "", **params):
        super().__init__(**params)
        self.classes = default_class_service()
        self.keeper, self._on_seated = keeper, on_seated
        self.code = (code or "").upper()[:40]
        self.player = keeper.player or ""
        self.token: str | None = None
        self.seated = False
        self._msg = alert_pane()
        self._body = pn.Column(sizing_mode="stretch_width")
        self._unsubscribe = lambda: None
        self._stop = lambda: None
        self._look = handoff(self.look)
        self._draw_form()
        if self.code:
            self._resume()

    def close(self) -> None:
        self._unsubscribe()
        self._stop()

    @param.depends("message", watch=True)
    def _show_msg(self):
        show_alert(self._msg, self.message)

    def _resume(self):
        """A reload: this browser's token for the class, if it has one."""
        from ..rooms.class_model import class_code

        try:
            code = class_code(self.code)
        except RuleError:
            return
        token = self.keeper.token(student_key(code))
        if token is not None:
            try:
                self.classes.student(code, token)
            except RuleError:
                return
            self._joined(code, token)

    def join(self):
        from ..rooms.class_model import class_code
        from .lobby import client_address

        try:
            code = class_code(self.code)
            token = self.classes.join(code, self.player, client=client_address())
        except RuleError as exc:
            self.message = str(exc)
            return
        self.message = ""
        self.keeper.keep(student_key(code), token)
        self.keeper.remember(self.player)
        self._joined(code, token)

    def _joined(self, code: str, token: str):
        self.code, self.token = code, token
        self.joined = code  # (the field may change; the class joined does not)
        self._unsubscribe = self.classes.subscribe(code, lambda kind: self._look())
        self._stop = every(self.look)  # the net under the news
        self.look()

    def look(self):
        """Seated: to the table; else the class's waiting lobby."""
        if self.token is None or self.seated:
            return
        try:
            me = self.classes.student(self.joined, self.token)
            shown = self.classes.lookup(self.joined)
        except RuleError as exc:
            self.message = str(exc)
            return
        if me["table"] is not None:
            self.seated = True  # once: news and the timer may both get here
            self.close()
            self._on_seated(me["table"], self.token)
            return
        names = ", ".join(esc(n) for n in shown["students"])
        self._body.objects = [pn.pane.HTML(
            "<h2>" + esc(me["class"]) + "</h2><p data-testid='class-waiting'>" + esc(_(
                "You are in, {name}. Wait for your teacher to start the class.",
                name=me["name"])) + "</p><p>" + esc(_("Students ({n}):",
                                                     n=len(shown["students"])))
            + f" {names}</p>", sizing_mode="stretch_width")]

    def _draw_form(self):
        code = pn.widgets.TextInput.from_param(self.param.code, width=160, max_length=40,
                                               name=tr(self.param.code.label),
                                               placeholder="ACDEFH")  # i18n: not shown
        name = pn.widgets.TextInput.from_param(self.param.player, width=240, max_length=40,
                                               name=tr(self.param.player.label))
        go = pn.widgets.Button(name=_("Join the class"), button_type="primary",
                               on_click=lambda e: self.join())
        self._body.objects = [
            pn.pane.HTML("<h2>" + _("Join a class") + "</h2><p>" + _(
                "Type the code your teacher shows and your name.") + "</p>"),
            pn.Row(code, name, go)]

    def __panel__(self):
        return pn.Column(self._body, self._msg, sizing_mode="stretch_width")
