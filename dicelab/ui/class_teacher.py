"""Teach a class (issue 36): the form that makes one, and the teacher's page.

The teacher's page shows the join code, the join address and its QR code (large, for the
projector), the students, every table live, each student's numbers (the coach's), the class's
costliest decisions one at a time, and the buttons that start, pause, resume and end the class.
The rules are ``dicelab.rooms.ClassService``'s; this page only shows and calls it.
"""
from __future__ import annotations

import io

import panel as pn
import param

from ..errors import RuleError
from ..i18n import N_, _, tr
from ..players import player_names
from ..rooms.classes import REPORT_COLUMNS, default_class_service
from ..rooms.pacer import default_strategy
from ..settings import SETTINGS
from .names import strategy_label
from .session import every, handoff
from .variant_cards import VARIANTS, variant_title
from .words import alert_pane, apply_preset, show_alert

esc = pn.util.escape


def join_address(code: str) -> str:
    """The address students open: this request's own host (the one the teacher reached,
    e.g. the classroom's --origin), the app's path, ``?class=CODE``."""
    try:
        request = pn.state.curdoc.session_context.request
        host = request.headers.get("Host") or request.host
        scheme = "https" if request.protocol == "https" else "http"
        path = request.path or "/dicelab_app"
    except AttributeError:  # not served (a notebook): the usual local address
        host, scheme, path = "localhost:5006", "http", "/dicelab_app"
    path = path.split("?")[0]
    if path.endswith("/ws"):
        path = path[:-3]
    return f"{scheme}://{host}{path}?class={code}"  # i18n: not shown (an address)


def qr_png(text: str) -> bytes:
    """A QR code of ``text`` as a PNG (error correction M: a projector's glare is forgiven)."""
    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="png", scale=10, border=4)
    return buf.getvalue()


class TeachForm(pn.viewable.Viewer):
    """Name the class, choose the game, its rules and the seating; make it."""

    class_name = param.String(default="", label=N_("Name of the class"))
    variant = param.Selector(default="bones", objects=list(VARIANTS))
    seating = param.Selector(default="tables", objects=["tables", "computers"])
    table_size = param.Integer(default=2, bounds=(2, 8))
    strategy = param.String(default="")
    message = param.String(default="")

    def __init__(self, on_made, **params):
        super().__init__(**params)
        self._on_made = on_made
        self.settings = {v: SETTINGS[v]() for v in VARIANTS}
        for s in self.settings.values():
            if "preset" in s.param:
                s.param.watch(apply_preset, "preset")
        self._msg = alert_pane()
        self._rules = pn.Column(sizing_mode="stretch_width")
        self._strategy = pn.widgets.Select(name=_("Computer plays"), width=200)
        self._draw_variant()

    @param.depends("variant", watch=True)
    def _draw_variant(self):
        from .settings_form import SettingsForm

        self._rules.objects = [SettingsForm(self.settings[self.variant])]
        self._strategy.options = {str(strategy_label(n)): n for n in player_names(self.variant)}
        self._strategy.value = default_strategy(self.variant)

    @param.depends("message", watch=True)
    def _show_msg(self):
        show_alert(self._msg, self.message)

    def make(self):
        from .lobby import client_address

        try:
            klass, token = default_class_service().create(
                self.class_name, self.variant, self.settings[self.variant].to_dict(),
                seating=self.seating, table_size=self.table_size,
                strategy=self._strategy.value, client=client_address())
        except RuleError as exc:
            self.message = str(exc)
            return None
        self.message = ""
        self._on_made(klass.code, token)
        return klass

    def __panel__(self):
        name = pn.widgets.TextInput.from_param(self.param.class_name, width=260, max_length=40,
                                               name=tr(self.param.class_name.label))
        game = pn.widgets.Select.from_param(self.param.variant, name=_("Game"), width=200,
                                            options={variant_title(v): v for v in VARIANTS})
        seating = pn.widgets.RadioBoxGroup.from_param(
            self.param.seating, options={_("Tables of students"): "tables",
                                         _("Each student against computers"): "computers"})
        size = pn.widgets.IntInput.from_param(self.param.table_size, width=140,
                                              name=_("Students at a table"))
        make = pn.widgets.Button(name=_("Make the class"), button_type="primary",
                                 on_click=lambda e: self.make())
        return pn.Column(
            pn.pane.HTML("<h2>" + _("Teach a class") + "</h2><p>" + _(
                "Students join with a code and a name, wait until you start, then play at "
                "their tables; you follow every table and see what each student's decisions "
                "cost.") + "</p>", sizing_mode="stretch_width"),
            pn.Row(name, game), seating, pn.Row(size, self._strategy),
            pn.Card(self._rules, title=_("Rules settings"), collapsed=True,
                    sizing_mode="stretch_width"),
            make, self._msg, sizing_mode="stretch_width")


class TeacherPage(pn.viewable.Viewer):
    """The class's page for its teacher (``token``): everything at once, live."""

    message = param.String(default="")
    sort = param.Selector(default="value_lost", objects=list(REPORT_COLUMNS))

    def __init__(self, code: str, token: str, **params):
        super().__init__(**params)
        self.classes = default_class_service()
        self.code, self.token = code, token
        self.record = self.classes.record(code, token)  # RuleError: not this class's teacher
        self.address = join_address(code)
        self._msg = alert_pane()
        self._head = pn.pane.HTML(sizing_mode="stretch_width")
        self._qr = pn.pane.PNG(qr_png(self.address), width=320, height=320,
                               alt_text=_("QR code of the join address"))
        self._students = pn.pane.HTML(sizing_mode="stretch_width")
        self._tables = pn.pane.HTML(sizing_mode="stretch_width")
        self._numbers = pn.pane.DataFrame(index=False, sizing_mode="stretch_width",
                                          escape=True)
        self._worst = pn.widgets.Select(name=_("Costliest decisions"), width=420)
        self._position = pn.pane.HTML(sizing_mode="stretch_width")
        self._worst.param.watch(lambda e: self._show_position(), "value")
        self._order = pn.widgets.Select(options={_("in join order"): "join",
                                                 _("shuffled"): "shuffle"}, width=160)
        self._buttons = {k: pn.widgets.Button(name=label, button_type=kind, on_click=fn)
                         for k, label, kind, fn in (
                             ("start", _("Start the class"), "primary", lambda e: self.start()),
                             ("pause", _("Pause all tables"), "warning",
                              lambda e: self._do(self.classes.pause)),
                             ("resume", _("Resume"), "success",
                              lambda e: self._do(self.classes.resume)),
                             ("end", _("End the class"), "danger",
                              lambda e: self._do(self.classes.end)))}
        self._coach = pn.widgets.Checkbox(name=_("Coach lines on the students' pages"),
                                          value=self.record.coach_lines)
        self._coach.param.watch(lambda e: self._do(self.classes.set_coach_lines, e.new),
                                "value")
        self._csv = pn.widgets.FileDownload(callback=self._csv_file, filename="class.csv",
                                            label=_("Report as CSV"))
        self._json = pn.widgets.FileDownload(callback=self._json_file, filename="class.json",
                                             label=_("Report as JSON"))
        self._game = pn.widgets.Select(name=_("Game of table"), width=260)
        self._game_file = pn.widgets.FileDownload(callback=self._game_json,
                                                  filename="game.json",
                                                  label=_("Download the game"))
        self._live = handoff(self.refresh)
        self._unsubscribe = self.classes.subscribe(code, lambda kind: self._live())
        self._stop = every(self.refresh_numbers, 3000)  # the coach's numbers, at most so often
        self.refresh()
        self.refresh_numbers()

    def close(self) -> None:
        self._unsubscribe()
        self._stop()

    @param.depends("message", watch=True)
    def _show_msg(self):
        show_alert(self._msg, self.message)

    def _do(self, fn, *args):
        try:
            fn(self.code, self.token, *args)
        except RuleError as exc:
            self.message = str(exc)
            return
        self.message = ""
        self.refresh()

    def start(self):
        self._do(lambda code, token: self.classes.start(code, token, self._order.value))

    # ----- downloads ---------------------------------------------------------------------------
    def _csv_file(self):
        return io.StringIO(self.classes.report_csv(self.code, self.token))

    def _json_file(self):
        return io.StringIO(self.classes.report_json(self.code, self.token))

    def _game_json(self):
        room = self._game.value
        self._game_file.filename = f"{room or 'game'}.json"
        return io.StringIO(self.classes.game_file(self.code, self.token, room))

    # ----- drawing -----------------------------------------------------------------------------
    def refresh(self):
        try:
            self.record = rec = self.classes.record(self.code, self.token)
            tables = self.classes.tables(self.code, self.token)
        except RuleError as exc:
            self.message = str(exc)
            return
        status = {"lobby": _("waiting for the start"), "playing": _("playing"),
                  "paused": _("paused"), "ended": _("ended")}[rec.status]
        self._head.object = (
            f"<h2 style='margin:4px 0'>{esc(rec.name)} · {esc(variant_title(rec.variant))}"
            f" · <span data-testid='class-status'>{esc(status)}</span></h2>"
            "<p style='margin:4px 0'>" + esc(_("Join at")) + " <b data-testid='join-address'>"
            f"{esc(self.address)}</b> " + esc(_("with the code")) + "</p>"
            "<div data-testid='class-code' style='font:700 64px ui-monospace,monospace;"
            f"letter-spacing:.15em'>{esc(rec.code)}</div>")
        names = ", ".join(esc(s.name) for s in rec.students) or esc(_("nobody yet"))
        self._students.object = ("<p data-testid='class-students'><b>" + esc(
            _("Students ({n}):", n=len(rec.students))) + f"</b> {names}</p>")
        self._buttons["start"].visible = self._order.visible = rec.status == "lobby"
        self._buttons["pause"].visible = rec.status == "playing"
        self._buttons["resume"].visible = rec.status == "paused"
        self._buttons["end"].visible = rec.status != "ended"
        self._tables.object = self._tables_html(tables)
        self._game.options = [t["room"] for t in tables]

    def _tables_html(self, tables) -> str:
        if not tables:
            return ""
        rows = []
        for t in tables:
            seats = " · ".join(
                f"{'▶ ' if name == t['turn'] else ''}{esc(name)} {total}" for name, total in
                zip(t["seats"], t["totals"] or [""] * len(t["seats"])))
            state = (_("won by {names}", names=", ".join(t["winners"])) if t["over"]
                     else _("{name} to play", name=t["turn"] or ""))
            rows.append(f"<tr data-testid='class-table'><td>{esc(t['room'])}</td>"
                        f"<td>{seats}</td><td>{esc(state)}</td><td>{esc(t['last'])}</td>"
                        f"<td data-testid='table-actions'>{t['actions']}</td></tr>")
        head = "".join(f"<th>{esc(h)}</th>" for h in (
            _("Table"), _("Players and totals"), _("Now"), _("Last"), _("Actions")))
        return ("<table class='class-tables' style='border-collapse:collapse;width:100%'>"
                f"<tr>{head}</tr>{''.join(rows)}</table>")

    @param.depends("sort", watch=True)
    def refresh_numbers(self):
        try:
            report = self.classes.report(self.code, self.token)
            worst = self.classes.costliest(self.code, self.token, 10)
        except RuleError as exc:
            self.message = str(exc)
            return
        self._numbers.object = report.sort_values(
            self.sort, ascending=self.sort in ("student", "table"), kind="stable")
        self._worst_list = worst
        options = {_("{student}, table {table}, action {index}: lost {lost}",
                     student=w["student"], table=w["table"], index=w["index"],
                     lost=format(w["lost"], ".3g")): i for i, w in enumerate(worst)}
        if options != self._worst.options:
            self._worst.options = options

    def _show_position(self):
        i = self._worst.value
        if i is None or i >= len(getattr(self, "_worst_list", [])):
            self._position.object = ""
            return
        w = self._worst_list[i]
        rows = "".join(f"<tr><td>{esc(label)}</td><td>{value:.4f}</td></tr>"
                       for label, value in sorted(w["options"], key=lambda o: -o[1]))
        self._position.object = (
            f"<div data-testid='class-position' style='font-size:1.4rem'>"
            f"<p><b>{esc(w['state'])}</b></p><p>"
            + esc(_("{student} chose {choice}; best: {best}", student=w["student"],
                    choice=w["choice"], best=w["best"]))
            + f"</p><table>{rows}</table><p>{esc(w['why'])}</p></div>")

    def __panel__(self):
        sort = pn.widgets.Select.from_param(self.param.sort, name=_("Sort by"), width=160)
        return pn.Column(
            pn.Row(pn.Column(self._head, self._students, sizing_mode="stretch_width"),
                   self._qr, sizing_mode="stretch_width"),
            pn.Row(self._order, *self._buttons.values(), self._coach), self._msg,
            pn.pane.HTML("<h3>" + _("Tables") + "</h3>"), self._tables,
            pn.pane.HTML("<h3>" + _("Students' decisions") + "</h3>"), sort, self._numbers,
            pn.Row(self._csv, self._json, self._game, self._game_file),
            pn.pane.HTML("<h3>" + _("The class's costliest decisions") + "</h3>"),
            self._worst, self._position, sizing_mode="stretch_width")
