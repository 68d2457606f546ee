"""What the table says in words: the whose-turn banner, alerts, the rules in force.

The numbers come from the game model (``need_to_stand``, ``must_beat``, ``rolls_left``...) and
dicelab.odds; each variant's own sentences (its hint, its banner details) are its
``VariantUI``'s, the shared phrases ``ui.phrases``' (re-exported here).
"""
from __future__ import annotations

from html import escape
from types import SimpleNamespace

import panel as pn

from ..i18n import _, number
from .phrases import (cap, game_over, names_and, num, pct, points_vs_win, preset_name, says_you,
                      seat_label, shown, shown_name, win_pair, you)
from .variants import ui_for
from .variants.yahtzee import race_points_vs_win, yahtzee_choice, yahtzee_note

__all__ = ["alert_pane", "apply_preset", "banner", "cap", "game_over", "hint", "num", "pct",
           "points_vs_win", "room_title", "seat_label", "settings_lines", "settings_title",
           "show_alert", "shown_name", "win_pair", "yahtzee_choice", "yahtzee_note",
           "race_points_vs_win", "you"]


_NAME = "\x00"  # stands for the names while a headline is put in capitals


def _shout(head: str, names: str) -> str:
    """A headline in capitals with the names as typed (issue 18: never altered)."""
    # English's possessive stays with the name ("Zoé's TURN", not "Zoé'S")
    return head.upper().replace(_NAME + "'S", _NAME + "'s").replace(_NAME, names)


def banner(play) -> tuple[str, str, str]:
    """(headline, details, kind) — kind: "you", "cpu" or "over"."""
    g = play.game
    st = g.state
    if g.is_over:
        win = g.winners
        if not win:
            return _("Game over").upper(), "", "over"
        totals = g.totals()
        points = totals[win[0]]
        if len(win) > 1:
            names = names_and([shown_name(play, i) for i in win])
            return (_shout(_("{names} tie", names=_NAME), names),
                    _("with {points} each", points=points), "over")
        name = shown_name(play, win[0])
        head = _("You win") if says_you(name) else _("{name} wins", name=_NAME)
        return _shout(head, name), _("with {points}", points=points), "over"
    seat = st.current
    name = shown_name(play, seat)
    # "Computer 2's turn (computer)" says it twice
    computer = play.is_computer(seat) and not name.lower().startswith(
        (_("Computer").lower(), "computer"))
    if says_you(name):
        head = _("Your turn (computer)") if computer else _("Your turn")
    else:
        head = (_("{name}'s turn (computer)", name=_NAME) if computer
                else _("{name}'s turn", name=_NAME))
    kind = "you" if play.is_mine(seat) else "cpu"
    return _shout(head, name), " · ".join(ui_for(g).banner_parts(play)), kind


def hint(play, odds) -> str:
    """What the rules require now and what the odds say (the variant's sentences)."""
    return ui_for(play.game).hint(play, odds)


def alert_pane(**params) -> pn.pane.Alert:
    """Panel's alert for a refusal or an error, hidden while there is none (``show_alert``)."""
    return pn.pane.Alert("", alert_type="danger", visible=False, margin=(4, 5), **params)


def show_alert(pane: pn.pane.Alert, message: str) -> None:
    """Say ``message`` in the alert (escaped: names come from other people), or hide it."""
    text = f"<span role='alert'>⚠ {escape(message)}</span>" if message else ""
    pane.param.update(object=text, visible=bool(message))


def apply_preset(event) -> None:
    """Watcher on a Settings' ``preset``: load the preset's values."""
    values = event.obj.PRESETS.get(event.new, {})
    if values:
        event.obj.param.update(**values)


def settings_lines(settings) -> list[str]:
    """Each rules setting as a person reads it: "Choose keepers: no", "Pits: 200-300, 600-700"."""
    out = []
    for name in settings.names():
        v = getattr(settings, name)
        if isinstance(v, bool):
            text = _("yes") if v else _("no")
        elif name == "pits":
            text = ", ".join(f"{number(lo)}-{number(hi)}" for lo, hi in v) or _("none")
        elif isinstance(v, int):
            text = number(v)
        elif name == "preset":
            text = preset_name(v)
        else:
            text = shown(str(v))
        out.append(_("{setting}: {value}", setting=shown(settings.param[name].label),
                     value=text))
    return out


def room_title(room) -> str:
    """A room's rules in a few words, as the table's caption says them."""
    return settings_title(room.variant, SimpleNamespace(**room.settings))


def settings_title(v: str, c) -> str:
    """The rules in force in a few words (``c``: the settings, as attributes)."""
    return ui_for(v).settings_title(c)
