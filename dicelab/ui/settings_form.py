"""The rules settings of a variant as a form: a field per setting, Thousand's pits as ranges with
their own fields. The Settings model is the only judge: a value it refuses is shown with the
reason next to its field, and the settings keep their last good value (so does a game started
from them)."""
from __future__ import annotations

import re

import panel as pn
import param

from ..errors import RuleError
from .. import i18n
from ..i18n import N_, _
from ..settings import Settings
from .look import Toggle, button, styled
from .names import shown
from .phrases import cap, preset_name
from .words import alert_pane, show_alert

MAX_PITS = 6
# the settings' labels (param makes them from the names: "min_on_board" -> "Min on board"),
# marked here so that every screen showing a label can translate it (tr)
SETTING_LABELS = (N_("Preset"), N_("Choose keepers"), N_("Min on board"), N_("Target"),
                  N_("Opening"), N_("Pits"), N_("Barrel"), N_("Barrel attempts"),
                  N_("Barrel fall"), N_("Bolts per penalty"), N_("Bolt penalty"),
                  N_("Rerolls"), N_("Upper bonus"), N_("Upper bonus threshold"), N_("Joker"),
                  N_("Filled box wastes round"), N_("Yahtzee bonus"))


def number_format():
    """A number field's display in the page's language (10,000 / 10 000 / 10 000)."""
    from bokeh.models import CustomJSTickFormatter

    lang = i18n.language()
    if lang == i18n.DEFAULT:
        return None  # Panel's own: 10,000
    return CustomJSTickFormatter(code=f"return Number(tick).toLocaleString({lang!r});")


def label_of(settings: Settings, name: str) -> str:
    """A setting's label in the page's language."""
    return shown(settings.param[name].label)


def _plain(exc: RuleError, settings: Settings) -> str:
    """A refusal in the field's words: the setting named by its label ("Target must be at
    least 500, not 300."), param's own wording ("Integer parameter 'BonesSettings.target'
    ...") too."""
    said = exc.args[0] if exc.args else None
    if isinstance(said, i18n.Msg) and said.params.get("setting") in settings.param:
        said = i18n.Msg(said.message, {**said.params, "setting": label_of(
            settings, said.params["setting"])}, said.plural, said.n)
    message = str(said) if isinstance(said, i18n.Msg) else str(exc)

    def label(m):
        name = m.group(1)
        return label_of(settings, name).lower() if name in settings.param else name
    message = re.sub(r"^\w+ setting: ", "", message)
    message = re.sub(r"\w+ parameter '\w+\.(\w+)'", label, message)
    for name in settings.names():  # "min_on_board" -> "Min on board"
        message = re.sub(rf"\b{name}\b", label_of(settings, name).lower(), message)
    return message[:1].upper() + message[1:]


HELP_CSS = ".dl-help { color: var(--dl-error, #c62828); font: .8rem system-ui, sans-serif; }"


def mark_error(widget, error: bool) -> None:
    """A red border on a field whose value is refused (its class, sent only when it changes)."""
    classes = [c for c in widget.css_classes if c != "dl-error"] + ["dl-error"] * error
    if classes != widget.css_classes:
        widget.css_classes = classes


class SettingsForm(pn.viewable.Viewer):
    """Fields for one Settings object; ``problem`` is the first refusal still shown ("" when the
    form holds only accepted values)."""

    problem = param.String(default="")

    def __init__(self, settings: Settings, **params):
        super().__init__(**params)
        self.settings = settings
        self._errors: dict[str, str] = {}
        self._fields: dict[str, pn.viewable.Viewable] = {}
        self._helps: dict[str, pn.pane.HTML] = {}
        self._pit_rows: list[tuple] = []
        self._syncing = False
        self._pits_box = pn.Column(sizing_mode="stretch_width", margin=0)
        self._pits_msg = alert_pane()
        self._add_pit = button(_("+ Add a pit"), "outlined", lambda e: self.add_pit(),
                               size="small")
        items = []
        for name in settings.names():
            if name == "pits":
                items.append(self._pits_panel())
                continue
            w = self._widget(name)
            self._fields[name] = w
            w.param.watch(lambda e, n=name: self._typed(n, e.new), "value")
            # the field's refusal, right under it (what Material's helper text was)
            self._helps[name] = help_ = pn.pane.HTML("", visible=False, margin=(0, 10, 4, 10),
                                                     sizing_mode="stretch_width",
                                                     stylesheets=[HELP_CSS])
            items += [w, help_]
        self._layout = pn.Column(*items, sizing_mode="stretch_width", margin=0)
        settings.param.watch(self._follow, settings.names())

    # ----- widgets ---------------------------------------------------------------------------
    def _widget(self, name: str):
        par = self.settings.param[name]
        value = getattr(self.settings, name)
        doc = shown(par.doc) if par.doc else ""
        label = label_of(self.settings, name)
        if isinstance(par, param.Boolean):
            return Toggle(label=label, value=value, switch=False)
        if isinstance(par, param.Selector):
            options = {cap(preset_name(o)) if name == "preset" else str(o): o
                       for o in par.objects}
            return styled(pn.widgets.Select, label=label, options=options, value=value,
                          description=doc or None, sizing_mode="stretch_width", max_width=360)
        # no start/end: whatever is typed reaches the model, which says what is wrong with it
        return styled(pn.widgets.IntInput, label=label, value=value, step=par.step or 1,
                      description=doc or None, format=number_format(),
                      sizing_mode="stretch_width", max_width=360)

    def _pits_panel(self):
        doc = shown(self.settings.param["pits"].doc)
        self._draw_pits()
        return pn.Column(
            pn.pane.HTML(f"<div style='font:600 .95rem system-ui,sans-serif;margin-top:6px'>"
                         f"{pn.util.escape(label_of(self.settings, 'pits'))}"
                         f"</div><small>{pn.util.escape(doc)}</small>", margin=(5, 5, 0, 5),
                         sizing_mode="stretch_width"),
            self._pits_box, self._pits_msg, self._add_pit, sizing_mode="stretch_width",
            margin=0)

    def _draw_pits(self):
        rows, objs = [], []
        for i, (low, high) in enumerate(self.settings.pits):
            lo = styled(pn.widgets.IntInput, label=_("Pit {n} from", n=i + 1), value=int(low),
                        step=5, width=130)
            hi = styled(pn.widgets.IntInput, label=_("Pit {n} to", n=i + 1), value=int(high),
                        step=5, width=130)
            rm = button(_("Remove pit {n}", n=i + 1), "text", lambda e, i=i: self.remove_pit(i),
                        red=True, size="small")
            for w in (lo, hi):
                w.param.watch(lambda e, w=w: self._pit_typed(w), "value")
            rows.append((lo, hi))
            objs.append(pn.FlexBox(lo, hi, rm, align_items="center", flex_wrap="wrap",
                                   sizing_mode="stretch_width", margin=0))
        self._pit_rows = rows
        self._pits_box.objects = objs
        self._add_pit.disabled = len(rows) >= MAX_PITS

    # ----- checking --------------------------------------------------------------------------
    def _accept(self, changes: dict) -> str:
        """Apply ``changes`` if the model takes them with the current settings; else the reason."""
        s = self.settings
        data = {**s.to_dict(), **changes}
        if "preset" in changes and changes["preset"] != getattr(s, "preset", None):
            data.update(s.PRESETS.get(changes["preset"], {}))  # a new preset brings its values
        try:
            good = type(s).from_dict(data)
        except RuleError as exc:
            return _plain(exc, s)
        new = {n: getattr(good, n) for n in s.names() if getattr(good, n) != getattr(s, n)}
        if new:
            s.param.update(**new)
        return ""

    def _shown(self) -> dict:
        out = {n: w.value for n, w in self._fields.items()}
        if self._pit_rows:
            out["pits"] = [(lo.value, hi.value) for lo, hi in self._pit_rows]
        elif "pits" in self.settings.param:
            out["pits"] = []
        return out

    def _typed(self, name: str, value):
        if self._syncing:
            return
        if value is None:
            self._mark(name, _("Type a whole number."))
            return
        # everything shown at once (fields fixed together), else this field alone
        if self._accept(self._shown()) == "":
            for key in list(self._errors):
                self._mark(key, "")
            return
        self._mark(name, self._accept({name: value}))

    def _pit_typed(self, widget):
        if self._syncing:
            return
        pits = [(lo.value, hi.value) for lo, hi in self._pit_rows]
        if any(v is None for pit in pits for v in pit):
            message = _("Type a whole number in every pit field.")
        else:
            message = self._accept({"pits": pits})
        for lo, hi in self._pit_rows:
            for w in (lo, hi):
                mark_error(w, bool(message) and w is widget)
        self._mark("pits", message)

    def add_pit(self):
        pits = list(self.settings.pits)
        if len(pits) >= MAX_PITS:
            return
        low = max((h for __, h in pits), default=0) + 100
        self._mark("pits", self._accept({"pits": pits + [(low, low + 100)]}))

    def remove_pit(self, i: int):
        pits = [p for j, p in enumerate(self.settings.pits) if j != i]
        self._mark("pits", self._accept({"pits": pits}))

    def _mark(self, key: str, message: str):
        if message:
            self._errors[key] = message
        else:
            self._errors.pop(key, None)
        if key == "pits":
            show_alert(self._pits_msg, message)
        elif key in self._fields:
            mark_error(self._fields[key], bool(message))
            help_ = self._helps[key]
            label = pn.util.escape(self._fields[key].label or "")
            help_.param.update(object=(f"<div class='dl-help' data-for='{label}'>"
                                       f"{pn.util.escape(message)}</div>") if message else "",
                               visible=bool(message))
        self.problem = next(iter(self._errors.values()), "")

    # ----- following the model (presets, pits added or removed) ------------------------------
    def _follow(self, *events):
        self._syncing = True
        try:
            for e in events:
                if e.name == "pits":
                    shown = [(lo.value, hi.value) for lo, hi in self._pit_rows]
                    if shown != [tuple(p) for p in e.new]:  # not while typing in a pit field
                        self._draw_pits()
                elif e.name in self._fields and self._fields[e.name].value != e.new:
                    self._fields[e.name].value = e.new
                    self._mark(e.name, "")
        finally:
            self._syncing = False

    def __panel__(self):
        return self._layout
