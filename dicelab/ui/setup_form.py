"""Set up a position (issue 35, point 6): a form for any variant's position, shown with the
same table and odds as in play (on a one-position analysis board). The rules' checks are
``games.setup``'s: an impossible position is refused with the reason beside its field."""
from __future__ import annotations

import panel as pn

from ..errors import RuleError
from ..games.setup import SETUPS, PositionError, position
from ..i18n import N_, _, tr
from ..names import variant_name
from .analysis import BOARD_CSS, AnalysisBoard
from .names import said
from .play import Prefs

# the fields of each variant's builder: (name, label, placeholder); values are typed as text
FIVE = [("totals", N_("Every seat's total"), "2000 3500"),
        ("current", N_("Seat on turn (0 = first)"), "0"),
        ("kept", N_("Dice set aside before the last roll"), "1 5"),
        ("kept_points", N_("Their points (turn total before the roll)"), "150"),
        ("roll", N_("The last roll (empty: the roll is due)"), "1 3 4")]
FIELDS = {
    "bones": FIVE,
    "thousand": [(n, lab, {"totals": "200 0", "kept": "", "kept_points": "0",
                           "roll": "1 2 3 4 6"}.get(n, ex)) for n, lab, ex in FIVE]
    + [("bolts", N_("Every seat's bolts in a row"), "0 0")],
    "under40": [("totals", N_("Every seat's total"), "80 0"),
                ("round_scores", N_("Every seat's round score"), "26 18"),
                ("current", N_("Seat on turn (0 = first)"), "1"),
                ("starter", N_("Seat that started the round"), "0")],
    "yahtzee": [("cards", N_("Cards: box=points, seats apart with ;"),
                 "aces=3 chance=20; sixes=18"),  # i18n: not shown (box keys)
                ("current", N_("Seat on turn (0 = first)"), "1"),
                ("dice", N_("Dice on the table (empty: before the roll)"), "6 6 6 2 3"),
                ("rolls", N_("Rolls thrown this turn"), "2")],
}
SINGLE = {"current", "kept_points", "starter", "rolls"}


def parse(name: str, text: str):
    """A field's text as the builder takes it (ValueError: not numbers)."""
    text = text.strip()
    if name == "cards":
        cards = []
        for part in text.split(";"):
            card = {}
            for item in part.replace(",", " ").split():
                box, _sep, value = item.partition("=")
                card[box.strip()] = int(value)
            cards.append(card)
        return cards
    if not text:
        return None if name in ("roll", "starter", "rolls", "bolts") else ()
    values = [int(v) for v in text.replace(",", " ").split()]
    if name in SINGLE:
        if len(values) != 1:
            raise ValueError(text)
        return values[0]
    return values


class SetupForm(pn.viewable.Viewer):
    """Variant, seats and the position's fields; "Show" builds it (or says why not)."""

    def __init__(self, prefs: Prefs | None = None, **params):
        super().__init__(**params)
        self.prefs = prefs or Prefs()
        self.board: AnalysisBoard | None = None
        self._head = pn.pane.HTML("")
        self._variant = pn.widgets.Select(name="", options=list(SETUPS), value="bones",
                                          width=220)
        self._seats = pn.widgets.IntInput(name="", value=2, start=1, end=8, width=120)
        self._inputs: dict[str, pn.widgets.TextInput] = {}
        self._why: dict[str, pn.pane.HTML] = {}
        self._fields = pn.Column(sizing_mode="stretch_width")
        self._show_btn = pn.widgets.Button(name="", button_type="primary",
                                           css_classes=["dl-setup-show"])
        self._show_btn.on_click(lambda e: self.show())
        self._general = pn.pane.HTML("", stylesheets=[BOARD_CSS])
        self._out = pn.Column(sizing_mode="stretch_width")
        self._variant.param.watch(lambda e: self._make_fields(), "value")
        self._make_fields()
        self.relabel()

    def _make_fields(self):
        self._inputs, self._why, rows = {}, {}, []
        for name, label, example in FIELDS[self._variant.value]:
            box = pn.widgets.TextInput(name=tr(label), value=example, width=300,
                                       css_classes=["dl-setup-" + name])
            why = pn.pane.HTML("", stylesheets=[BOARD_CSS], margin=(18, 8, 0, 8))
            self._inputs[name], self._why[name] = box, why
            rows.append(pn.Row(box, why))
        self._fields.objects = rows

    def relabel(self) -> None:
        self._head.object = ("<h2 style='margin:4px 0'>" + _("Set up a position") + "</h2><p>"
                             + _("State a position of any game (numbers apart with spaces) "
                                 "and see its odds as in play.") + "</p>")
        self._variant.param.update(name=_("Game"), options={
            str(variant_name(v)): v for v in SETUPS})
        self._seats.name = _("Players")
        for name, label, _example in FIELDS[self._variant.value]:
            self._inputs[name].name = tr(label)
        self._show_btn.name = _("Show this position")

    def values(self) -> dict:
        """The fields given (the form's text parsed); ValueError names the field."""
        out = {}
        for name, box in self._inputs.items():
            try:
                v = parse(name, box.value or "")
            except ValueError:
                raise PositionError(name, _("{field}: whole numbers, apart with spaces",
                                            field=tr(dict((n, lab) for n, lab, _e in
                                                          FIELDS[self._variant.value])[name])))
            if v is not None and v != ():
                out[name] = v
        return out

    def show(self) -> AnalysisBoard | None:
        """Build the position and show it (or the reason beside the field at fault)."""
        for why in self._why.values():
            why.object = ""
        self._general.object = ""
        n = int(self._seats.value or 2)
        seats = [_("Player {n}", n=i + 1) for i in range(n)]
        try:
            game = position(self._variant.value, seats, **self.values())
        except PositionError as exc:
            self.refuse(exc.field, said(exc))
            return None
        except (RuleError, TypeError) as exc:
            self.refuse(None, said(exc) if isinstance(exc, RuleError) else str(exc))
            return None
        self.board = AnalysisBoard(game, prefs=self.prefs)
        self._out.objects = [self.board]
        return self.board

    def refuse(self, field, why) -> None:
        where = self._why.get(field, self._general)
        where.object = ("<span class='dl-refusal' role='alert' data-testid='setup-refusal'>"
                        + pn.util.escape(str(why)) + "</span>")
        self._out.objects = []

    def __panel__(self):
        return pn.Column(self._head, pn.Row(self._variant, self._seats), self._fields,
                         self._show_btn, self._general, self._out,
                         sizing_mode="stretch_width")
