"""Yahtzee's score card, the main control of its table: click an open box to score it."""
from __future__ import annotations

from pathlib import Path

import param
from panel.custom import JSComponent

from ..i18n import _
from ..rules.yahtzee import BOXES, LABELS, UPPER
from .names import seat_name, shown
from .keys import seen_in
from .notebook import FixedDesign
from .play import Play
from .view import TableView, follows

HERE = Path(__file__).parent


class CardView(FixedDesign, JSComponent):
    """The Yahtzee score card: open boxes of the player on turn are buttons."""

    card = param.Dict(default={})

    _esm = (HERE / "card.js").read_text()
    _stylesheets = [(HERE / "card.css").read_text()]

    def __init__(self, on_score=None, **params):
        super().__init__(**params)
        self._on_score = on_score

    def _handle_msg(self, msg):
        if self._on_score and isinstance(msg, dict) and msg.get("box") in BOXES:
            self._on_score(msg["box"], seen_in(msg))


def card_description(play: Play) -> dict:
    g = play.game
    st = g.state
    seat = st.current
    person = play.person_on_turn
    options = g.options_now() if not g.is_over else {}
    cols = []
    for i in range(g.n_seats):
        card = g.card(i)
        cols.append({"name": seat_name(g.seats[i].name), "turn": i == seat and not g.is_over,
                     "cells": [card[b] for b in BOXES], "upper": g.upper_total(i),
                     "upper_bonus": g.upper_bonus(i), "yb": g.yahtzee_bonus(i),
                     "total": g.totals()[i]})
    rows = [{"box": b, "label": shown(LABELS[b]), "upper": b in UPPER} for b in BOXES]
    threshold, bonus = g.config.upper_bonus_threshold, g.config.upper_bonus
    words = {"card": _("Yahtzee score card"), "box": _("Box"),
             "upper_bonus": _("Upper bonus ({threshold}+ → {bonus})", threshold=threshold,
                              bonus=bonus),
             "yahtzee_bonus": _("Yahtzee bonus"), "total": _("Total"),
             # "Score {box} for {points}", filled in by the browser for each open box
             "score": _("Score {box} for {points}")}
    return {"rows": rows, "cols": cols, "turn": seat, "options": options,
            "clickable": person and bool(st.rolls), "tick": play.tick, "mark": play.mark(),
            "threshold": threshold, "bonus": bonus, "words": words}


class ScoreCard(TableView):
    """Yahtzee's score card as the main control: click an open box to score it."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._view = CardView(on_score=self.play.score, card=card_description(self.play),
                              sizing_mode="stretch_width")

    @follows("shown", "seats")
    def _redraw(self):
        self._view.card = card_description(self.play)

    def __panel__(self):
        return self._view
