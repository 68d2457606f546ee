"""The settings drawer: the rules in force, the computers' strategies and their knobs, sound,
animation, pace, coach, records."""
from __future__ import annotations

import panel as pn
import panel_material_ui as pmui
import param

from .play import Play, Prefs
from .records import KEYS, TITLES, RecordStore
from .switch_player import SwitchPlayer
from .table import rules_title
from .words import settings_lines


class SettingsDrawer(pn.viewable.Viewer):
    """Rules in force, computer strategies and their sliders, sound, animation, pace, records."""

    play = param.ClassSelector(class_=Play, allow_None=True)

    def __init__(self, prefs: Prefs, records: RecordStore, **params):
        super().__init__(**params)
        self.prefs, self.records = prefs, records
        self._game_box = pn.Column(sizing_mode="stretch_width")
        self._records_box = pn.Column(sizing_mode="stretch_width")
        self._variant = "bones"
        records.param.watch(lambda *_: self._draw_records(), "changed")
        self._draw_game()
        self._draw_records()

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
                "<p>Rules settings are chosen on the start screen before a game.</p>")]
            return
        g = p.game
        rules = "".join(f"<li>{pn.util.escape(line)}</li>" for line in settings_lines(g.settings))
        items = [pn.pane.HTML(f"<h3 style='margin:4px 0'>This game</h3><p>{rules_title(g)}</p>"
                              f"<ul data-testid='rules-in-force' style='margin:0;padding-left:"
                              f"1.2em'>{rules}</ul>"
                              "<p><small>Rules change with New game.</small></p>",
                              sizing_mode="stretch_width")]
        for i, seat in enumerate(g.seats):
            sw = seat.player
            if not isinstance(sw, SwitchPlayer):
                continue
            sel = pmui.Select.from_param(sw.param.strategy, label=f"{seat.name}: strategy",
                                         sizing_mode="stretch_width")
            knobs = pn.panel(pn.bind(self._knobs, sw.param.strategy, sw=sw))
            items += [sel, knobs]
        self._game_box.objects = items

    @staticmethod
    def _knobs(strategy, sw):
        k = sw.knobs
        if k is None:
            return pn.pane.HTML("<small>no settings for this strategy</small>")
        names = [n for n in k.param if n != "name"]
        return pn.Param(k, parameters=names, show_name=False, sizing_mode="stretch_width")

    def _draw_records(self):
        v = self._variant
        r = self.records.get(v)
        rows = [pn.pane.HTML(f"<h3 style='margin:4px 0'>Records — {v}</h3>")]
        for key in KEYS:
            rec = r[key]
            if key == "wins":
                text = f"people {rec['value'] or 0} : {rec['value2'] or 0} computers"
            else:
                text = "—" if rec["value"] is None else f"{rec['value']:,} ({rec['who']})"
            rows.append(pn.pane.HTML(f"<div data-testid='record-{key}'><b>{TITLES[key]}</b>: "
                                     f"{pn.util.escape(text)}</div>",
                                     sizing_mode="stretch_width", margin=(6, 5, 0, 5)))
            rows.append(pmui.Button(label=f"Reset {TITLES[key].lower()}", variant="outlined",
                                    size="small", color="error",
                                    on_click=lambda e, k=key: self.records.reset(self._variant,
                                                                                 k)))
        rows.append(pn.pane.HTML("<small>Kept by this dicelab server for everyone who plays on "
                                 "it.</small>", sizing_mode="stretch_width"))
        self._records_box.objects = rows

    def __panel__(self):
        prefs = pn.Column(
            pn.pane.HTML("<h3 style='margin:4px 0'>Play</h3>"),
            pmui.Switch.from_param(self.prefs.param.sound, label="Sound"),
            pmui.Switch.from_param(self.prefs.param.coach, label="Coach"),
            pmui.IntSlider.from_param(self.prefs.param.anim_ms, sizing_mode="stretch_width"),
            pmui.FloatSlider.from_param(self.prefs.param.pace, sizing_mode="stretch_width"),
            sizing_mode="stretch_width")
        return pn.Column(self._game_box, prefs, self._records_box, sizing_mode="stretch_width",
                         styles={"padding": "8px"})
