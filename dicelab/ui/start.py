"""The start screen: the game, its rules settings, the seats, the seed; New game."""
from __future__ import annotations

import panel as pn
import param

from ..errors import RuleError
from ..games import Seat, new_game
from ..i18n import N_, _
from ..players import player_names
from ..rooms.pacer import default_strategy
from ..settings import SETTINGS
from ..names import computer_name
from .look import WIDGET_CSS, button, styled
from .names import YOU, is_you, strategy_label
from .rules_text import RULES, SUMMARY
from .page import Dialog
from .settings_form import SettingsForm
from .switch_player import SwitchPlayer
from .variant_cards import VARIANTS, VariantCards
from .words import alert_pane, apply_preset, show_alert


class SeatSpec(param.Parameterized):
    player_name = param.String(default=YOU, label=N_("Name"))
    kind = param.String(default="person",  # i18n: not shown
                        doc="'person' or a computer strategy name.")


class StartScreen(pn.viewable.Viewer):
    """Variant, preset and settings (from the settings params), seats, seed; New game."""

    variant = param.Selector(default="bones", objects=list(VARIANTS))
    seed = param.Integer(default=None, allow_None=True, bounds=(0, None),
                         doc="Optional: the same seed replays the same dice.")  # i18n: not shown
    message = param.String(default="")

    def __init__(self, on_start=None, rules_slot=None, **params):
        super().__init__(**params)
        self._on_start = on_start
        self.settings = {v: SETTINGS[v]() for v in VARIANTS}
        for s in self.settings.values():
            if "preset" in s.param:
                s.param.watch(apply_preset, "preset")
        self.forms: dict[str, SettingsForm] = {}
        self.seats = [SeatSpec(player_name=_("You")),
                      SeatSpec(player_name=_("Computer"), kind=default_strategy("bones"))]
        self._cards = VariantCards(cards=self._card_list(), variant=self.variant,
                                   on_rules=self.show_rules, sizing_mode="stretch_width")
        self._cards.param.watch(lambda e: self.choose(e.new) if e.new != self.variant else None,
                                "variant")
        self._settings_box = pn.Column(sizing_mode="stretch_width")
        self._seats_box = pn.Column(sizing_mode="stretch_width")
        self._msg = alert_pane()
        self._rules = None  # created on first use: a closed dialog never reports idle
        # where the rules dialog goes (the app's page keeps one in place from the start)
        self._rules_slot = (pn.Column(sizing_mode="stretch_width", margin=0)
                            if rules_slot is None else rules_slot)
        self._go = button(_("Start new game"), "contained", lambda e: self.start(),
                          size="large")
        self._add = button(_("+ Add a seat"), "outlined", lambda e: self.add_seat())
        self._seed_w = styled(pn.widgets.TextInput, label=_("Seed (optional)"),
                              placeholder=_("random"), width=220, max_length=19)
        self._seed_w.param.watch(self._seed_typed, "value")
        self._defaults = self._default_names()
        self._draw_cards()
        self._draw_settings()
        self._draw_seats()

    @staticmethod
    def _card_list() -> list[dict]:
        out = []
        for v in VARIANTS:
            title = SUMMARY[v][0]
            short = title.split(" (")[0]
            out.append({"variant": v, "title": title, "short": short,
                        "summary": SUMMARY[v][1],
                        "choose": _("Choose {game}", game=short),
                        "chosen": _("✓ {game} chosen", game=short),
                        "rules": _("{game} rules", game=short)})
        return out

    @staticmethod
    def _default_names() -> dict[str, str]:
        """The seats' default names in the page's language, as the fields show them."""
        return {"you": _("You"), "computer": _("Computer"),
                **{str(i): _("Computer {n}", n=i) for i in range(1, 8)}}

    def relabel(self):
        """Every word again in the page's language; the choices stay as they are (a default
        seat name follows the language, a typed one stays)."""
        old, new = self._defaults, self._default_names()
        for s in self.seats:
            key = next((k for k, v in old.items() if v == s.player_name), None)
            if key is not None:
                s.player_name = new[key]
        self._defaults = new
        self._cards.cards = self._card_list()
        self._go.label = _("Start new game")
        self._add.label = _("+ Add a seat")
        self._seed_w.param.update(label=_("Seed (optional)"), placeholder=_("random"))
        self.forms = {}  # the forms are views of the settings: made again in the new words
        if self._rules is not None:
            self._rules.open = False
            self._rules.relabel()
        self._draw_settings()
        self._draw_seats()

    # ----- variant cards ---------------------------------------------------------------------
    def _draw_cards(self):
        self._cards.variant = self.variant

    def choose(self, variant: str):
        if variant not in VARIANTS:
            raise RuleError(_("Unknown game {variant}.", variant=repr(variant)))
        self.variant = variant
        names = player_names(variant)
        for s in self.seats:
            if s.kind != "person" and s.kind not in names:
                s.kind = default_strategy(variant)
        self._draw_cards()
        self._draw_settings()
        self._draw_seats()

    def rules_dialog(self, variant: str, open: bool = False):
        if self._rules is None:
            # made open when it is to be shown at once: a dialog added to the page and then
            # opened in the same change opened only about half the time
            self._rules = Dialog(text=RULES[variant], open=open,
                                 title=_("{game} — rules", game=SUMMARY[variant][0]))
            self._rules_slot.objects = [self._rules]
            return self._rules
        self._rules.param.update(title=_("{game} — rules", game=SUMMARY[variant][0]),
                                 text=RULES[variant])
        return self._rules

    def show_rules(self, variant: str):
        self.rules_dialog(variant, open=True).open = True

    def close_rules(self):
        if self._rules is not None:
            self._rules.open = False

    # ----- settings --------------------------------------------------------------------------
    def _draw_settings(self):
        form = self.forms.get(self.variant)
        if form is None:
            form = self.forms[self.variant] = SettingsForm(self.settings[self.variant])
        self._settings_box.objects = [
            pn.pane.HTML("<h3 style='margin:6px 0'>" + _("Rules settings — {game}",
                                                          game=SUMMARY[self.variant][0])
                         + "</h3>"), form]

    # ----- seats -----------------------------------------------------------------------------
    def _kind_options(self) -> dict[str, str]:
        opts = {_("Person"): "person"}
        for n in player_names(self.variant):
            opts[_("Computer: {strategy}", strategy=strategy_label(n))] = n
        return opts

    def add_seat(self):
        if len(self.seats) >= 8:
            self.message = _("At most 8 seats.")
            return
        self.seats.append(SeatSpec(player_name=_("Computer {n}", n=len(self.seats)),
                                   kind=default_strategy(self.variant)))
        self._draw_seats()

    def remove_seat(self, i: int):
        if len(self.seats) <= 1:
            self.message = _("At least one seat.")
            return
        del self.seats[i]
        self._draw_seats()

    def _draw_seats(self):
        rows = []
        opts = self._kind_options()
        for i, s in enumerate(self.seats):
            name = pn.widgets.TextInput.from_param(
                s.param.player_name, label=_("Seat {n} name", n=i + 1), width=200,
                max_length=40, stylesheets=[WIDGET_CSS])
            kind = styled(pn.widgets.Select, label=_("Plays as"), options=opts, value=s.kind,
                          width=220)
            kind.param.watch(lambda e, s=s: setattr(s, "kind", e.new), "value")
            rm = button(_("Remove seat {n}", n=i + 1), "text",
                        lambda e, i=i: self.remove_seat(i), red=True,
                        disabled=len(self.seats) <= 1)
            rows.append(pn.FlexBox(name, kind, rm, flex_wrap="wrap", align_items="center",
                                   sizing_mode="stretch_width"))
        self._add.disabled = len(self.seats) >= 8
        self._seats_box.objects = [pn.pane.HTML("<h3 style='margin:6px 0'>"
                                                + _("Seats (1-8)") + "</h3>"),
                                   *rows, self._add]

    def _seed_typed(self, event):
        text = (event.new or "").strip()
        if not text:
            self.seed = None
        elif text.isdigit():
            self.seed = int(text)
        else:
            self.message = _("A seed is a whole number (or leave it blank for random dice).")

    # ----- start -----------------------------------------------------------------------------
    def build_game(self):
        v = self.variant
        seats = []
        stored_names = {shown: (YOU if key == "you" else computer_name(
            None if key == "computer" else int(key)))
            for key, shown in self._default_names().items()}
        for s in self.seats:
            # the default names in any language are stored in English: each reader sees them
            # in their own ("You stand."; records and rooms read by others)
            name = stored_names.get(s.player_name.strip(), s.player_name)
            name = YOU if is_you(name) else name
            if s.kind == "person":
                seats.append(Seat(name))
            else:
                seats.append(Seat(name, player=SwitchPlayer(v, s.kind),
                                  strategy=s.kind))
        return new_game(v, seats, settings=self.settings[v].to_dict(), seed=self.seed)

    def start(self):
        form = self.forms.get(self.variant)
        if form is not None and form.problem:
            self.message = _("Fix the rules settings marked in red first: {problem}",
                             problem=form.problem)
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
        show_alert(self._msg, self.message)

    def __panel__(self):
        return pn.Column(
            pn.pane.HTML("<h2 style='margin:4px 0 8px'>" + _("Choose a game") + "</h2>"),
            self._cards,
            pn.FlexBox(pn.Column(self._settings_box, styles={"flex": "1 1 320px",
                                                             "min-width": "0"}),
                       pn.Column(self._seats_box, self._seed_w,
                                 styles={"flex": "1 1 360px", "min-width": "0"}),
                       gap="24px", flex_wrap="wrap", sizing_mode="stretch_width"),
            self._msg, self._go, sizing_mode="stretch_width")
