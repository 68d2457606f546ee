"""The settings drawer: the rules in force, the computers' strategies and their knobs, sound,
animation, pace, coach, records."""
from __future__ import annotations

import weakref

import panel as pn
import param

from ..i18n import N_, _, tr
from .look import WIDGET_CSS, button, from_param, toggle_for
from .names import seat_name, shown, strategy_label
from .play import Play, Prefs
from .records import KEYS, RESETS, TITLES, RecordStore
from .settings_form import number_format
from .switch_player import SwitchPlayer
from .table import rules_title
from .variant_cards import variant_title
from .words import settings_lines


# the computers' knobs whose labels param made from their names, marked for tr()
KNOB_LABELS = (N_("Hot dice habit"), N_("Wait"), N_("Seed"))


class SettingsDrawer(pn.viewable.Viewer):
    """Rules in force, computer strategies and their sliders, sound, animation, pace, records."""

    play = param.ClassSelector(class_=Play, allow_None=True)

    def __init__(self, prefs: Prefs, records: RecordStore, **params):
        super().__init__(**params)
        self.prefs, self.records = prefs, records
        self._game_box = pn.Column(sizing_mode="stretch_width")
        self._records_box = pn.Column(sizing_mode="stretch_width")
        self._prefs_box = pn.Column(sizing_mode="stretch_width")
        self._prefs: dict = {}
        self.top: list = []  # what the app puts first (the language menu)
        self._made: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._variant = "bones"
        records.param.watch(lambda *__: self._draw_records(), "changed")
        self.relabel()

    def relabel(self):
        """Every word again in the page's language."""
        self._draw_game()
        self._draw_records()
        self._draw_prefs()

    @param.depends("play", watch=True)
    def _new_play(self):
        if self.play is not None:
            self._variant = self.play.variant
        self._draw_game()
        self._draw_records()

    def _draw_game(self):
        p = self.play
        if p is None:
            self._game_box.objects = [pn.pane.HTML(
                "<p>" + _("Rules settings are chosen on the start screen before a game.")
                + "</p>")]
            return
        g = p.game
        rules = "".join(f"<li>{pn.util.escape(line)}</li>" for line in settings_lines(g.settings))
        this_game, change = _("This game"), _("Rules change with New game.")
        items = [pn.pane.HTML(f"<h3 style='margin:4px 0'>{this_game}</h3>"
                              f"<p>{rules_title(g)}</p>"
                              f"<ul data-testid='rules-in-force' style='margin:0;padding-left:"
                              f"1.2em'>{rules}</ul>"
                              f"<p><small>{change}</small></p>",
                              sizing_mode="stretch_width")]
        for i, seat in enumerate(g.seats):
            sw = seat.player
            if not isinstance(sw, SwitchPlayer):
                continue
            made = self._made.get(sw)
            if made is None:  # once per seat: a widget made from a param stays linked to it
                made = self._made[sw] = (
                    from_param(pn.widgets.Select, sw.param.strategy, description=None,
                               sizing_mode="stretch_width"),
                    pn.panel(pn.bind(self._knobs, sw.param.strategy, sw=sw)))
            sel, knobs = made
            sel.param.update(label=_("{name}: strategy", name=seat_name(seat.name)),
                             options={strategy_label(n): n for n in sw.param.strategy.objects})
            if knobs.object is not None:  # the knobs' labels in the page's language
                knobs.param.trigger("object")
            items += [sel, knobs]
        self._game_box.objects = items

    @staticmethod
    def _knobs(strategy, sw):
        k = sw.knobs
        if k is None:
            return pn.pane.HTML("<small>" + _("no settings for this strategy") + "</small>")
        names = [n for n in k.param if n != "name"]
        # the knobs' labels and tips in the page's language (their own words are English);
        # Panel's sliders take no tooltip: the tips are written under them
        widgets = {n: {"name": shown(k.param[n].label), "stylesheets": [WIDGET_CSS]}
                   for n in names}
        tips = "".join(f"<li>{pn.util.escape(shown(k.param[n].label))}: "
                       f"{pn.util.escape(shown(k.param[n].doc))}</li>"
                       for n in names if k.param[n].doc)
        return pn.Column(pn.Param(k, parameters=names, widgets=widgets, show_name=False,
                                  sizing_mode="stretch_width"),
                         *([pn.pane.HTML(f"<ul style='margin:0;padding-left:1.2em;opacity:.8;"
                                         f"font-size:.85em'>{tips}</ul>",
                                         sizing_mode="stretch_width")] if tips else []),
                         sizing_mode="stretch_width")

    def _draw_records(self):
        v = self._variant
        r = self.records.get(v)
        title = _("Records — {game}", game=variant_title(v))
        rows = [pn.pane.HTML(f"<h3 style='margin:4px 0'>{pn.util.escape(title)}</h3>")]
        for key in KEYS:
            rec = r[key]
            if key == "wins":
                text = _("people {people} : {computers} computers", people=rec["value"] or 0,
                         computers=rec["value2"] or 0)
            else:
                text = "—" if rec["value"] is None else _(
                    "{points} ({name})", points=rec["value"], name=seat_name(rec["who"] or ""))
            rows.append(pn.pane.HTML(f"<div data-testid='record-{key}'><b>{tr(TITLES[key])}</b>"
                                     f": {pn.util.escape(text)}</div>",
                                     sizing_mode="stretch_width", margin=(6, 5, 0, 5)))
            rows.append(button(tr(RESETS[key]), "outlined",
                               lambda e, k=key: self.records.reset(self._variant, k),
                               red=True, size="small"))
        rows.append(pn.pane.HTML("<small>" + _("Kept by this dicelab server for everyone who "
                                               "plays on it.") + "</small>",
                                 sizing_mode="stretch_width"))
        self._records_box.objects = rows

    def _draw_prefs(self):
        p = self.prefs.param
        words = {"sound": (_("Sound"), tr(p.sound.doc)), "coach": (_("Coach"), tr(p.coach.doc)),
                 "anim_ms": (tr(p.anim_ms.label), tr(p.anim_ms.doc)),
                 "pace": (tr(p.pace.label), "")}
        if not self._prefs:  # made once: a widget made from a param stays linked to it
            self._prefs = {
                "sound": toggle_for(self.prefs, "sound"),
                "coach": toggle_for(self.prefs, "coach"),
                "anim_ms": from_param(pn.widgets.IntSlider, p.anim_ms,
                                      sizing_mode="stretch_width"),
                "pace": from_param(pn.widgets.FloatSlider, p.pace, sizing_mode="stretch_width")}
        tips = {}
        for name, (label, tip) in words.items():
            self._prefs[name].label = label
            # Panel's switches and sliders take no tooltip: the tip is written under them
            tips[name] = [pn.pane.HTML(f"<small style='opacity:.8'>{pn.util.escape(tip)}</small>",
                                       margin=(0, 10, 6, 10), sizing_mode="stretch_width")
                          ] if tip else []
        for name in ("anim_ms", "pace"):  # 0.05 / 0,05
            w = self._prefs[name]
            w.format = number_format() or w.param.format.default
        self._prefs_box.objects = [pn.pane.HTML("<h3 style='margin:4px 0'>" + _("Play")
                                                + "</h3>"),
                                   *(o for n, w in self._prefs.items()
                                     for o in (w, *tips[n]))]

    def __panel__(self):
        return pn.Column(*self.top, self._game_box, self._prefs_box, self._records_box,
                         sizing_mode="stretch_width", styles={"padding": "8px"})
