"""The whole app: start screen, table, settings drawer, keys. One instance per browser session
(``create_app`` is what gets served: a function, never a shared object)."""
from __future__ import annotations

import logging
import os
import unicodedata

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

from ..errors import RuleError
from ..games import Seat, new_game
from ..players import make_player, player_names
from ..rooms.pacer import default_strategy
from ..settings import SETTINGS
from .notebook import NotebookShow
from .play import Play, Prefs
from .records import KEYS, TITLES, RecordStore
from .rules_text import RULES, SUMMARY
from .session import keep_flushing
from .settings_form import SettingsForm
from .table import Table, rules_title
from .variants import UIS
from .words import alert_html, apply_preset, settings_lines

VARIANTS = tuple(UIS)


# ----- computer players whose strategy can change mid-game -------------------------------------
def _no_wait(player):
    """A page never waits for a table build (the `winning` computer plays `optimal` until its
    table, built in another process, is there)."""
    if isinstance(player, param.Parameterized) and "wait" in player.param:
        player.wait = False
    return player


class SwitchPlayer(param.Parameterized):
    """Adapter: a computer seat whose strategy may be swapped during a game; its knobs are the
    current player's params (``knobs``)."""

    strategy = param.Selector(default=None, objects=[], doc="Computer strategy.")

    def __init__(self, variant: str, strategy: str, **params):
        super().__init__(**params)
        self._variant = variant
        self.param.strategy.objects = player_names(variant)
        self.player = _no_wait(make_player(variant, strategy))
        self.strategy = strategy

    @param.depends("strategy", watch=True)
    def _swap(self):
        self.player = _no_wait(make_player(self._variant, self.strategy))

    @property
    def spec(self) -> str:
        return getattr(self.player, "spec", self.strategy)

    @property
    def knobs(self):
        p = self.player
        return p if isinstance(p, param.Parameterized) else None

    def act(self, view):
        return self.player.act(view)


# ----- keys and theme (one hidden component per page) --------------------------------------
class KeyBridge(JSComponent):
    """Sends ".", "0", "1".."5", Enter to Python (never while typing in a field) and the
    browser's light/dark preference."""

    _esm = """
export function render({ model, el }) {
  const typing = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], ' +
    '[role="textbox"], [role="combobox"], [role="listbox"], [role="slider"], [role="spinbutton"]';
  const keys = new Set([".", ",", "0", "1", "2", "3", "4", "5", "Enter"]);
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || !keys.has(e.key)) return;
    const t = e.composedPath()[0];
    if (t && t.closest && t.closest(typing)) return;
    if (e.key === "Enter" && t && t.closest && t.closest("button, a, [role=button]")) return;
    e.preventDefault();
    model.send_msg({key: e.key});
  };
  document.addEventListener("keydown", onKey);
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  const theme = () => { model.prefers_dark = mq.matches; };
  mq.addEventListener("change", theme);
  theme();
  model.on("remove", () => {
    document.removeEventListener("keydown", onKey);
    mq.removeEventListener("change", theme);
  });
  el.style.display = "none";
}
"""

    prefers_dark = param.Boolean(default=None, allow_None=True)

    def __init__(self, on_key=None, on_dark=None, **params):
        super().__init__(**params)
        self._on_key, self._on_dark = on_key, on_dark

    @param.depends("prefers_dark", watch=True)
    def _dark_changed(self):
        if self._on_dark and self.prefers_dark is not None:
            self._on_dark(bool(self.prefers_dark))

    def _handle_msg(self, msg):
        if isinstance(msg, dict) and "key" in msg and self._on_key:
            self._on_key(str(msg["key"]))


# ----- start screen ------------------------------------------------------------------------
class SeatSpec(param.Parameterized):
    player_name = param.String(default="You", label="Name")
    kind = param.String(default="person", doc="'person' or a computer strategy name.")


class VariantCards(JSComponent):
    """The game chooser: a card per variant with Choose and Rules buttons. One component with
    plain HTML whose colours come from the page's theme variables, so a theme switch redraws
    it at once (sixteen Material UI components re-rendered one by one, half drawn meanwhile)."""

    variant = param.String(default="bones")
    cards = param.List(default=[], doc="[{variant, title, short, summary}]")

    _esm = """
export function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "vcards";
  el.appendChild(root);
  const draw = () => {
    root.replaceChildren();
    for (const c of model.cards) {
      const chosen = c.variant === model.variant;
      const card = document.createElement("div");
      card.className = "vcard" + (chosen ? " chosen" : "");
      const h = document.createElement("h3");
      h.textContent = c.title;
      const p = document.createElement("p");
      p.textContent = c.summary;
      const pick = document.createElement("button");
      pick.className = "pick";
      pick.textContent = chosen ? `✓ ${c.short} chosen` : `Choose ${c.short}`;
      pick.setAttribute("aria-pressed", chosen ? "true" : "false");
      pick.addEventListener("click", () => { model.variant = c.variant; });
      const rules = document.createElement("button");
      rules.className = "rules";
      rules.textContent = `${c.short} rules`;
      rules.addEventListener("click", () => model.send_msg({rules: c.variant}));
      const row = document.createElement("div");
      row.className = "row";
      row.append(pick, rules);
      card.append(h, p, row);
      root.appendChild(card);
    }
  };
  draw();
  model.on(["cards", "variant"], draw);
}
"""
    _stylesheets = ["""
.vcards { display: flex; flex-wrap: wrap; gap: 12px; width: 100%; box-sizing: border-box; }
.vcard { flex: 1 1 240px; min-width: 0; box-sizing: border-box; padding: 12px 14px; border-radius: 12px;
  background: var(--mui-palette-background-paper, #fff); color: var(--mui-palette-text-primary, #1a1a1a);
  border: 3px solid rgba(127,127,127,.3); box-shadow: 0 1px 3px rgba(0,0,0,.25); }
.vcard.chosen { border-color: #1565c0; box-shadow: 0 4px 14px rgba(0,0,0,.3); }
.vcard h3 { margin: 0 0 4px; font: 700 1.25rem system-ui, sans-serif; }
.vcard p { margin: 0 0 10px; font: .98rem/1.4 system-ui, sans-serif; min-height: 4.2em; }
.vcard .row { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
.vcard button { font: 500 .85rem system-ui, sans-serif; border-radius: 4px; padding: 5px 10px; cursor: pointer;
  letter-spacing: .02em; }
.vcard button.pick { border: 1px solid #1565c0; background: transparent; color: var(--dl-link, #1565c0); }
.vcard.chosen button.pick { background: #1565c0; color: #fff; }
.vcard button.rules { border: none; background: transparent; color: var(--dl-link, #1565c0); }
.vcard button:focus-visible { outline: 3px solid #ff8f00; outline-offset: 2px; }
"""]

    def __init__(self, on_rules=None, **params):
        super().__init__(**params)
        self._on_rules = on_rules

    def _handle_msg(self, msg):
        if self._on_rules and isinstance(msg, dict) and msg.get("rules") in VARIANTS:
            self._on_rules(msg["rules"])


class StartScreen(pn.viewable.Viewer):
    """Variant, preset and settings (from the settings params), seats, seed; New game."""

    variant = param.Selector(default="bones", objects=list(VARIANTS))
    seed = param.Integer(default=None, allow_None=True, bounds=(0, None),
                         doc="Optional: the same seed replays the same dice.")
    message = param.String(default="")

    def __init__(self, on_start=None, **params):
        super().__init__(**params)
        self._on_start = on_start
        self.settings = {v: SETTINGS[v]() for v in VARIANTS}
        for s in self.settings.values():
            if "preset" in s.param:
                s.param.watch(apply_preset, "preset")
        self.forms: dict[str, SettingsForm] = {}
        self.seats = [SeatSpec(player_name="You"),
                      SeatSpec(player_name="Computer", kind=default_strategy("bones"))]
        self._cards = VariantCards(
            cards=[{"variant": v, "title": SUMMARY[v][0], "short": SUMMARY[v][0].split(" (")[0],
                    "summary": SUMMARY[v][1]} for v in VARIANTS],
            variant=self.variant, on_rules=self.show_rules, sizing_mode="stretch_width")
        self._cards.param.watch(lambda e: self.choose(e.new) if e.new != self.variant else None,
                                "variant")
        self._settings_box = pn.Column(sizing_mode="stretch_width")
        self._seats_box = pn.Column(sizing_mode="stretch_width")
        self._msg = pn.pane.HTML("", sizing_mode="stretch_width")
        self._rules = None  # created on first use: a closed dialog never reports idle
        self._rules_slot = pn.Column(sizing_mode="stretch_width", margin=0)
        self._go = pmui.Button(label="Start new game", variant="contained", color="primary",
                               size="large", on_click=lambda e: self.start(),
                               sx={"fontSize": "1.2rem", "minWidth": "220px"})
        self._add = pmui.Button(label="+ Add a seat", variant="outlined",
                                on_click=lambda e: self.add_seat())
        self._seed_w = pmui.TextInput(label="Seed (optional)", placeholder="random",
                                      width=220, max_length=19)
        self._seed_w.param.watch(self._seed_typed, "value")
        self._draw_cards()
        self._draw_settings()
        self._draw_seats()

    # ----- variant cards ---------------------------------------------------------------------
    def _draw_cards(self):
        self._cards.variant = self.variant

    def choose(self, variant: str):
        if variant not in VARIANTS:
            raise RuleError(f"unknown variant {variant!r}")
        self.variant = variant
        names = player_names(variant)
        for s in self.seats:
            if s.kind != "person" and s.kind not in names:
                s.kind = default_strategy(variant)
        self._draw_cards()
        self._draw_settings()
        self._draw_seats()

    def rules_dialog(self, variant: str):
        if self._rules is None:
            self._rules = pmui.Dialog(pmui.Typography("", sizing_mode="stretch_width"),
                                      title="Rules", open=False, close_on_click=True,
                                      width_option="md")
            self._rules_slot.objects = [self._rules]
        self._rules.title = f"{SUMMARY[variant][0]} — rules"
        self._rules.objects[0].object = RULES[variant]
        return self._rules

    def show_rules(self, variant: str):
        self.rules_dialog(variant).open = True

    # ----- settings --------------------------------------------------------------------------
    def _draw_settings(self):
        form = self.forms.get(self.variant)
        if form is None:
            form = self.forms[self.variant] = SettingsForm(self.settings[self.variant])
        self._settings_box.objects = [
            pn.pane.HTML(f"<h3 style='margin:6px 0'>Rules settings — {SUMMARY[self.variant][0]}"
                         "</h3>"), form]

    # ----- seats -----------------------------------------------------------------------------
    def _kind_options(self) -> dict[str, str]:
        opts = {"Person": "person"}
        for n in player_names(self.variant):
            opts[f"Computer: {n}"] = n
        return opts

    def add_seat(self):
        if len(self.seats) >= 8:
            self.message = "At most 8 seats."
            return
        self.seats.append(SeatSpec(player_name=f"Computer {len(self.seats)}",
                                   kind=default_strategy(self.variant)))
        self._draw_seats()

    def remove_seat(self, i: int):
        if len(self.seats) <= 1:
            self.message = "At least one seat."
            return
        del self.seats[i]
        self._draw_seats()

    def _draw_seats(self):
        rows = []
        opts = self._kind_options()
        for i, s in enumerate(self.seats):
            name = pmui.TextInput.from_param(s.param.player_name, label=f"Seat {i + 1} name",
                                             width=200, max_length=40)
            kind = pmui.Select(label="Plays as", options=opts, value=s.kind, width=220)
            kind.param.watch(lambda e, s=s: setattr(s, "kind", e.new), "value")
            rm = pmui.Button(label=f"Remove seat {i + 1}", variant="text", color="error",
                             on_click=lambda e, i=i: self.remove_seat(i),
                             disabled=len(self.seats) <= 1)
            rows.append(pmui.FlexBox(name, kind, rm, flex_wrap="wrap", align_items="center",
                                   sizing_mode="stretch_width"))
        self._add.disabled = len(self.seats) >= 8
        self._seats_box.objects = [pn.pane.HTML("<h3 style='margin:6px 0'>Seats (1-8)</h3>"),
                                   *rows, self._add]

    def _seed_typed(self, event):
        text = (event.new or "").strip()
        if not text:
            self.seed = None
        elif text.isdigit():
            self.seed = int(text)
        else:
            self.message = "A seed is a whole number (or leave it blank for random dice)."

    # ----- start -----------------------------------------------------------------------------
    def build_game(self):
        v = self.variant
        seats = []
        for s in self.seats:
            if s.kind == "person":
                seats.append(Seat(s.player_name))
            else:
                seats.append(Seat(s.player_name, player=SwitchPlayer(v, s.kind),
                                  strategy=s.kind))
        return new_game(v, seats, settings=self.settings[v].to_dict(), seed=self.seed)

    def start(self):
        form = self.forms.get(self.variant)
        if form is not None and form.problem:
            self.message = f"Fix the rules settings marked in red first: {form.problem}"
            return None
        try:
            game = self.build_game()
        except (RuleError, ValueError) as exc:
            self.message = str(exc)
            return None
        self.message = ""
        if self._on_start:
            self._on_start(game)
        return game

    @param.depends("message", watch=True)
    def _show_msg(self):
        self._msg.object = alert_html(self.message)

    def __panel__(self):
        return pn.Column(
            pn.pane.HTML("<h2 style='margin:4px 0 8px'>Choose a game</h2>"),
            self._cards,
            pmui.FlexBox(pn.Column(self._settings_box, styles={"flex": "1 1 320px",
                                                             "min-width": "0"}),
                       pn.Column(self._seats_box, self._seed_w,
                                 styles={"flex": "1 1 360px", "min-width": "0"}),
                       gap="24px", flex_wrap="wrap", sizing_mode="stretch_width"),
            self._msg, self._go, sizing_mode="stretch_width")


# ----- settings drawer ---------------------------------------------------------------------
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


# ----- the app -----------------------------------------------------------------------------
# The template's loader covers the page until Bokeh reports it ready: changes made before that
# can be lost, so it stays (closed drawers and dialogs, which never report, are made lazily).
PAGE_CSS = """
html, body { overflow-x: hidden; }
"""


# Colours that follow the page's theme switch (not only the browser's preference): custom
# properties inherit into every component's shadow root; components fall back to the media query.
# A phone (below MUI's "sm", 600 px): the header keeps one row of the toolbar's height (the
# page reserves exactly that much above the table), so the title goes and the buttons shrink.
PAGE_THEME_CSS = """
.mui-light { --dl-red: #b71c1c; --dl-green: #2e7d32; --dl-link: #1565c0; }
.mui-dark { --dl-red: #ff8a80; --dl-green: #81c784; --dl-link: #90caf9; }
@media (max-width: 599.95px) {
  .header .title { display: none; }
  .header .MuiToolbar-root { padding-left: 8px; padding-right: 4px; }
}
"""


def _header_button(label: str, on_click) -> pmui.Button:
    return pmui.Button(label=label, variant="outlined", color="light", size="small",
                       on_click=on_click, margin=0,
                       sx={"minWidth": 0, "whiteSpace": "nowrap",
                           "fontSize": {"xs": "0.72rem", "sm": "0.8125rem"},
                           "px": {"xs": "6px", "sm": "10px"}})


def preload():
    """Hidden instances of the custom components shown later, so that their model definitions
    travel with the first page: Panel sends a new component type's definition only once per
    process, and a client that first meets the type in an update cannot decode it."""
    from .components import CardView, TrayView
    from .lobby import JoinLink

    return pn.Column(TrayView(), CardView(), JoinLink(), VariantCards(), pmui.Switch(), pmui.FloatSlider(),
                     pmui.IntSlider(), pmui.Typography(""), pmui.Select(),
                     pn.widgets.Tabulator(), pn.widgets.FileDownload(), visible=False)


def _arg(name: str):
    """A URL query value as text; a value that is not UTF-8 (``?room=%FF``) or too long is
    ignored with a log line: the page opens as if it were not there."""
    args = getattr(pn.state, "session_args", None) or {}
    v = args.get(name)
    if not v:
        return None
    try:
        text = v[0].decode()
    except UnicodeDecodeError:
        logging.getLogger("dicelab").warning("ignored URL value %s=%r: not UTF-8", name, v[0][:40])
        return None
    if len(text) > 200 or any(unicodedata.category(c)[0] == "C" for c in text):
        logging.getLogger("dicelab").warning("ignored URL value %s=%r", name, text[:40])
        return None
    return text


class DicelabApp(NotebookShow, pn.viewable.Viewer):
    """Start screen <-> table in a pmui Page with a settings drawer."""

    def __init__(self, records_path=None, prefs: Prefs | None = None, **params):
        super().__init__(**params)
        self.prefs = prefs or Prefs()
        self._session_prefs()
        self.records = RecordStore(records_path)
        self.play: Play | None = None
        self.start_screen = StartScreen(on_start=self._start_when_loaded)
        if self.records.problem:  # a damaged records file was set aside: say so on the page
            self.start_screen.message = self.records.problem
        self.drawer = SettingsDrawer(self.prefs, self.records)
        # min-height: the page's scrolling area is a flex column that would otherwise squeeze
        # a screen taller than the window (its blocks then overlap instead of scrolling)
        self._main = pn.Column(self.start_screen, sizing_mode="stretch_width",
                               styles={"padding": "4px 10px 16px", "box-sizing": "border-box",
                                       "min-height": "max-content"})
        self.keys = KeyBridge(on_key=self.on_key, on_dark=self._on_dark)
        self._new = _header_button("New game", lambda e: self.show_start())
        self._rules_btn = _header_button("Rules", lambda e: self.start_screen.show_rules(
            self.play.variant if self.play else self.start_screen.variant))
        self._settings_btn = _header_button("⚙ Settings", lambda e: self.toggle_settings())
        self._net_btn = _header_button("Network games", lambda e: self.show_lobby())
        self._preload = preload()
        from .lobby import SeatKeeper

        self.keeper = SeatKeeper()
        self.lobby = None  # made on first use: a single-screen game never opens the rooms store
        self.room_screen = None
        self._wanted_room = _arg("room")
        if self._wanted_room:
            self._main.objects = [pn.pane.HTML(f"<p>Opening {pn.util.escape(self._wanted_room)}"
                                               "…</p>")]
            self.keeper.param.watch(self._tokens_arrived, "tokens")
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            pn.state.on_session_destroyed(self._session_gone)
            keep_flushing()  # a page must never stay a message behind (see session.py)
        self.page = pmui.Page(
            title="dicelab", header=[pn.Row(self._new, self._net_btn, self._rules_btn,
                                          self._settings_btn, margin=0,
                                          styles={"margin-left": "auto", "gap": "6px"})],
            main=[self._main, self.keys, self.keeper, self.start_screen._rules_slot,
                  self._preload],
            contextbar=[], contextbar_width=340, sidebar=[],
            theme_toggle=True, raw_css=[PAGE_CSS], stylesheets=[PAGE_THEME_CSS])
        self.page.param.watch(self._dark_theme, "dark_theme")
        _unlink_busy(self.page)

    def _session_prefs(self):
        for name, attr, conv in (("pace", "pace", float), ("anim", "anim_ms", int)):
            v = _arg(name)
            if v is not None:
                try:
                    setattr(self.prefs, attr, conv(v))
                except (ValueError, TypeError):
                    pass
        snd = _arg("sound") or os.environ.get("DICELAB_SOUND")
        if snd is not None:
            self.prefs.sound = snd.lower() not in ("0", "off", "false", "no")

    def _dark_theme(self, event):
        self.prefs.dark = bool(event.new)

    def _on_dark(self, dark: bool):
        def apply():
            if self.page.dark_theme != dark:
                self.page.dark_theme = dark
        # changes made before the browser reports the page ready can be lost
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            pn.state.onload(apply)
        else:
            apply()

    def _notebook_text(self) -> str:
        return "dicelab app" + (f" playing {self.play.game!r}" if self.play else "")

    def toggle_settings(self):
        if not self.page.contextbar:  # filled on first use: a closed drawer never reports idle
            self.page.contextbar = [self.drawer]
        self.page.contextbar_open = not self.page.contextbar_open

    def _start_when_loaded(self, game):
        self._when_loaded(lambda: self.start_game(game))

    @staticmethod
    def _when_loaded(fn):
        # Bokeh can drop the patch of a page swap made before the browser reported the page
        # ready; pn.state.onload runs at once when it has.
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None \
                and not pn.state.loaded:
            pn.state.onload(fn)
        else:
            fn()

    def start_game(self, game):
        self._leave_screens()
        self.play = Play(game, prefs=self.prefs, records=self.records)
        self.drawer.play = self.play
        self._main.objects = [Table(play=self.play)]
        return self.play

    def show_start(self):
        self._leave_screens()
        self.drawer.play = None
        self._main.objects = [self.start_screen]

    def _leave_screens(self):
        """Stop what the screen being replaced was doing (pacing, following a room)."""
        if self.play is not None:
            self.play.close()
            self.play = None
        if self.room_screen is not None:
            self.room_screen.exit_quietly()
            self.room_screen = None
        if self.lobby is not None:
            self.lobby.activate(False)

    # ----- network games ---------------------------------------------------------------------
    def show_lobby(self):
        from .lobby import Lobby

        self._leave_screens()
        self.drawer.play = None
        if self.lobby is None:
            self.lobby = Lobby(self.keeper, on_open=self.open_room)
        self.lobby.activate(True)
        self.keeper.show_room(None)
        self._main.objects = [self.lobby]
        return self.lobby

    def open_room(self, name: str, token: str | None):
        """Show a room: with ``token`` as its seated player, else as a spectator."""
        from .lobby import RoomScreen

        self._leave_screens()
        try:
            screen = RoomScreen(name, token, self.keeper, self.prefs, on_exit=self.show_lobby)
        except RuleError as exc:
            lobby = self.show_lobby()
            lobby.message = str(exc)
            return None
        except Exception as exc:  # the rooms store is unreachable: say so
            lobby = self.show_lobby()
            lobby.message = f"Network games are not available: {exc}"
            return None
        self.room_screen = screen
        self._main.objects = [screen]
        return screen

    def _tokens_arrived(self, event):
        name, self._wanted_room = self._wanted_room, None
        if name and event.new is not None:
            from ..rooms.model import room_key, room_name

            try:
                key = room_key(room_name(name))
            except RuleError:
                key = None
            token = self.keeper.token(key) if key else None
            self._when_loaded(lambda: self.open_room(name, token))

    def _session_gone(self, session_context):
        if self.room_screen is not None:
            self.room_screen.away()
        if self.lobby is not None:
            self.lobby.activate(False)
        if self.play is not None:
            self.play.close()

    @property
    def active_play(self):
        if self.room_screen is not None:
            return self.room_screen.play
        return self.play

    def on_key(self, key: str):
        play = self.active_play
        if play is not None:
            play.key(key)

    def __panel__(self):
        return self.page


def _unlink_busy(page) -> None:
    """A pmui Page follows ``pn.state.busy``, which is the whole server's: every event of any
    session flipped it, and each flip ran a watcher on every Page in the process (and kept
    pages of closed sessions alive). In a classroom that is O(sessions) work per click, and
    everyone's busy bar flashed at every click of anyone. A plain value and no watcher."""
    from panel.util import edit_readonly

    with edit_readonly(page):
        page.busy = False
    for w in list(pn.state._param__private.watchers.get("busy", {}).get("value", [])):
        if getattr(getattr(w.fn, "__self__", None), "self", None) is page:
            pn.state.param.unwatch(w)


def create_app(records_path=None) -> pmui.Page:
    """A fresh app (call once per session)."""
    return DicelabApp(records_path=records_path).__panel__()


def serve(port: int = 5006, show: bool = False, address: str = "127.0.0.1",
          origins: list[str] | tuple = (), **kwargs):
    """Serve the app at http://localhost:PORT/dicelab_app (each session gets its own game);
    ``origins``: other host:port addresses browsers use (a classroom's)."""
    origins = [f"localhost:{port}", f"127.0.0.1:{port}", *origins]
    return pn.serve({"dicelab_app": create_app}, port=port, address=address, show=show,
                    allow_websocket_origin=origins, title="dicelab", **kwargs)
