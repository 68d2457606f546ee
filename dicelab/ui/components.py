"""The table's components. Each is a ``pn.viewable.Viewer`` over a game (or its Play) and can be
shown on its own: ``DiceTray(game)``, ``OddsPanel(game)``, ``Scoreboard(game)``...
"""
from __future__ import annotations

import html
from pathlib import Path

import panel as pn
import param
from panel.custom import JSComponent

from ..rules.yahtzee import BOXES, LABELS, UPPER
from . import words
from .notebook import HTML, NotebookShow
from .play import Play

HERE = Path(__file__).parent
esc = html.escape


def memo(play: Play, key: str, fn):
    """Compute ``fn()`` once per change of the table (several views share the odds)."""
    cache = play.__dict__.setdefault("_memo", {})
    hit = cache.get(key)
    if hit is not None and hit[0] == play.tick:
        return hit[1]
    value = fn()
    cache[key] = (play.tick, value)
    return value


def current_odds(play: Play):
    return memo(play, "odds", lambda: play.ui.odds(play))


class _Base(NotebookShow, pn.viewable.Viewer):
    play = param.ClassSelector(class_=Play)

    def __init__(self, game=None, **params):
        if game is not None:
            params["play"] = Play.of(game)
        super().__init__(**params)

    @property
    def game(self):
        return self.play.game

    def _notebook_text(self) -> str:
        return f"dicelab {type(self).__name__} of {self.game!r}"


# ----- dice --------------------------------------------------------------------------------
class TrayView(JSComponent):
    """Renders the tray description built by DiceTray (one message per change)."""

    view = param.Dict(default={})

    _esm = (HERE / "tray.js").read_text()
    _stylesheets = [(HERE / "tray.css").read_text()]

    def __init__(self, on_toggle=None, **params):
        super().__init__(**params)
        self._on_toggle = on_toggle

    def _handle_msg(self, msg):
        if self._on_toggle and isinstance(msg, dict) and "toggle" in msg:
            self._on_toggle(int(msg["toggle"]))


def tray_description(play: Play) -> dict:
    """What the dice tray shows now, as plain data for TrayView."""
    g = play.game
    st = g.state
    fresh = set(play.fresh)
    view = {"mode": g.variant, "roll_id": play.roll_id, "tick": play.tick,
            "anim_ms": play.prefs.anim_ms, "sound": play.prefs.sound,
            "rolled_n": play.rolled_n,
            "announce": " ".join(e.text for e in play.last_events) or play.message}
    last = next((e for e in reversed(g.history) if e.data.get("dice") is not None), None)
    roller = g.seats[last.seat].name if last is not None and last.seat is not None else ""
    rolled, kept = play.ui.tray(play, view, roller, last, fresh)
    view["rolled"], view["kept"] = rolled, kept
    return view


class DiceTray(_Base):
    """Large SVG dice with pips; click (or 1-5) to hold / set aside."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._view = TrayView(on_toggle=self.play.toggle, view=tray_description(self.play),
                              sizing_mode="stretch_width")
        # roll_id: the new dice at once; tick: after every other view (precedence), so the
        # tray's data-tick says the whole table is up to date
        self.play.param.watch(self._update, ["roll_id", "tick"], precedence=10)
        self.play.prefs.param.watch(self._update, ["sound", "anim_ms"])

    def _update(self, *_):
        self._view.view = tray_description(self.play)

    def __panel__(self):
        return self._view


# ----- banner, hint, controls ----------------------------------------------------------------
class TurnBanner(_Base):
    """Whose turn it is, readable from across a classroom."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[BANNER_CSS], margin=(0, 0, 4, 0))
        self.play.param.watch(lambda *_: setattr(self._pane, "object", self._html()), "tick")

    def _html(self) -> str:
        head, detail, kind = words.banner(self.play)
        icon = {"you": "▶", "cpu": "⚙", "over": "★"}[kind]
        if kind == "cpu" and not self.play.is_computer(self.game.state.current):
            icon = "♟"  # another person's turn (a network game)
        return (f'<div class="banner {kind}" role="heading" aria-level="2">'
                f'<span class="who"><span aria-hidden="true">{icon}</span> {esc(head)}</span>'
                f'<span class="detail">{esc(detail)}</span></div>')

    def __panel__(self):
        return self._pane


BANNER_CSS = """
.banner { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 18px; padding: 10px 18px;
  border-radius: 12px; border: 3px solid; }
.banner .who { font: 800 clamp(1.3rem, 3.2vw, 2rem)/1.15 system-ui, sans-serif; letter-spacing: .02em; }
.banner .detail { font: 600 1.05rem system-ui, sans-serif; }
.banner.you { background: #0d47a1; border-color: #0d47a1; color: #fff; }
.banner.cpu { background: transparent; border-color: #6d6d6d; border-style: dashed; }
.banner.over { background: #ffe082; border-color: #ff8f00; color: #1a1a1a; }
"""

HINT_CSS = """
.hint { font: 1.05rem/1.45 system-ui, sans-serif; margin: 0; padding: 8px 12px; border-left: 5px solid #1565c0;
  background: rgba(21, 101, 192, .08); border-radius: 4px; }
.msg { font: 600 1rem system-ui, sans-serif; color: var(--dl-red, #b71c1c); margin-top: 6px; padding: 6px 12px;
  border: 2px solid var(--dl-red, #b71c1c); border-radius: 6px; background: rgba(183, 28, 28, .06); }
@media (prefers-color-scheme: dark) { .msg { color: var(--dl-red, #ff8a80); border-color: var(--dl-red, #ff8a80); } }
"""


def hint_text(play: Play) -> str:
    return play.ui.hint(play, current_odds(play))


class HintLine(_Base):
    """What the rules require now and what the odds say, in words; and refusals."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[HINT_CSS])
        self.play.param.watch(lambda *_: setattr(self._pane, "object", self._html()), "tick")

    def _html(self) -> str:
        msg = self.play.message
        out = f'<p class="hint" data-testid="hint">{esc(hint_text(self.play))}</p>'
        if msg:
            out += f'<div class="msg" role="alert">⚠ {esc(msg)}</div>'
        return out

    def __panel__(self):
        return self._pane


CONTROLS_CSS = """
.bk-btn { font: 600 1.15rem system-ui, sans-serif; padding: 10px 22px; border-radius: 6px;
  min-width: 160px; min-height: 48px; }
.bk-btn-primary { background: #1565c0; border-color: #0d47a1; color: #fff; }
.bk-btn-success { background: #2e7d32; border-color: #1b5e20; color: #fff; }
.bk-btn:disabled, .bk-btn[disabled] { opacity: .45; }
"""


class Controls(_Base):
    """Roll / Roll again / Stand, enabled only when legal.

    Bokeh's own buttons, not Material UI's: their ``disabled`` changes in the same update as the
    banner, while a React button re-rendered 0.1-0.4 s later (about a second on a phone), so
    "YOUR TURN" showed above a Roll button that still looked and acted disabled."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._roll = pn.widgets.Button(label="Roll", color="primary",
                                       stylesheets=[CONTROLS_CSS], margin=(4, 12, 4, 0))
        self._roll.on_click(lambda e: self.play.roll())
        self._stand = pn.widgets.Button(label="Stand (0)", color="success",
                                        stylesheets=[CONTROLS_CSS], margin=(4, 12, 4, 0),
                                        visible=self.play.ui.has_stand)
        self._stand.on_click(lambda e: self.play.stand())
        self._refresh()
        self.play.param.watch(self._refresh, "tick")

    def _refresh(self, *_):
        p = self.play
        label, stand = p.ui.roll_label(p), p.ui.stand_label
        self._roll.param.update(label=label, disabled=not p.can_roll)
        self._stand.param.update(label=stand, disabled=not p.can_stand)

    def __panel__(self):
        return pn.FlexBox(self._roll, self._stand, flex_wrap="wrap", sizing_mode="stretch_width")


# ----- scoreboard ----------------------------------------------------------------------------
BOARD_CSS = """
table.board { border-collapse: collapse; width: 100%; font: 1rem system-ui, sans-serif; }
.board th, .board td { padding: 5px 6px; text-align: left; border-bottom: 1px solid rgba(127,127,127,.35); }
.board td.num, .board th.num { text-align: right; font-variant-numeric: tabular-nums; }
.board tr.turn { font-weight: 700; background: rgba(21, 101, 192, .14); }
.board tr.turn td:first-child { box-shadow: inset 5px 0 0 #1565c0; }
.board .tag { font-size: .85rem; opacity: .85; }
.board .status span { margin-right: 6px; white-space: nowrap; }
.bar { position: relative; height: 18px; border: 1px solid rgba(127,127,127,.7); border-radius: 4px; min-width: 90px;
  background: linear-gradient(90deg, rgba(127,127,127,.12) 0 100%); overflow: hidden; }
.bar .fill { position: absolute; left: 0; top: 0; bottom: 0; background: #1e88e5; }
.bar .fill.bust { background: repeating-linear-gradient(45deg, #c62828 0 6px, #e57373 6px 12px); }
.bar .fill.win { background: #2e7d32; }
.bar .beat { position: absolute; top: -2px; bottom: -2px; width: 2px; background: #ff8f00; }
.records { font: .9rem system-ui, sans-serif; opacity: .9; margin-top: 6px; }
.final { font-weight: 700; }
"""


def _seat_cell(play: Play, i: int) -> str:
    s = play.game.seats[i]
    mark = '<span aria-label="on turn">▶</span> ' if i == play.game.current_player and \
        not play.game.is_over else ""
    return f'<td>{mark}{esc(s.name)} <span class="tag">({esc(play.seat_tag(i))})</span></td>'


def scoreboard_html(play: Play, records=None) -> str:
    g = play.game
    st = g.state
    ui = play.ui
    totals = g.totals()
    win = set(g.winners)
    rows = []
    for i in range(g.n_seats):
        cls = "turn" if i == st.current and not g.is_over else ""
        rows.append(f"<tr class='{cls}'>{_seat_cell(play, i)}<td class='num'>"
                    f"{totals[i]:,}</td>{ui.board_cell(play, i, i in win)}</tr>")
    note = ui.board_note(play)
    target = f"<div class='records'>{note}</div>" if note else ""
    rec = ""
    if records is not None:
        rec = (f"<div class='records' data-testid='records'>Records: "
               f"{esc(records.line(g.variant))}</div>")
    return (f"<table class='board' aria-label='Scoreboard'><thead>{ui.board_head()}</thead>"
            "<tbody>" + "".join(rows) + f"</tbody></table>{target}{rec}")


class Scoreboard(_Base):
    """Totals, on the board / status column, round scores; records."""

    records = param.Parameter(default=None)

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        if self.records is None:
            self.records = getattr(self.play, "records", None)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[BOARD_CSS])
        self.play.param.watch(self._update, "tick")
        if self.records is not None:
            self.records.param.watch(self._update, "changed")

    def _html(self):
        return scoreboard_html(self.play, self.records)

    def _update(self, *_):
        self._pane.object = self._html()

    def __panel__(self):
        return self._pane


# ----- Yahtzee score card --------------------------------------------------------------------
class CardView(JSComponent):
    """The Yahtzee score card: open boxes of the player on turn are buttons."""

    card = param.Dict(default={})

    _esm = (HERE / "card.js").read_text()
    _stylesheets = [(HERE / "card.css").read_text()]

    def __init__(self, on_score=None, **params):
        super().__init__(**params)
        self._on_score = on_score

    def _handle_msg(self, msg):
        if self._on_score and isinstance(msg, dict) and msg.get("box") in BOXES:
            self._on_score(msg["box"])


def card_description(play: Play) -> dict:
    g = play.game
    st = g.state
    seat = st.current
    person = play.person_on_turn
    options = g.options_now() if not g.is_over else {}
    cols = []
    for i in range(g.n_seats):
        card = g.card(i)
        cols.append({"name": g.seats[i].name, "turn": i == seat and not g.is_over,
                     "cells": [card[b] for b in BOXES], "upper": g.upper_total(i),
                     "upper_bonus": g.upper_bonus(i), "yb": g.yahtzee_bonus(i),
                     "total": g.totals()[i]})
    rows = [{"box": b, "label": LABELS[b], "upper": b in UPPER} for b in BOXES]
    return {"rows": rows, "cols": cols, "turn": seat, "options": options,
            "clickable": person and bool(st.rolls), "tick": play.tick,
            "threshold": g.config.upper_bonus_threshold, "bonus": g.config.upper_bonus}


class ScoreCard(_Base):
    """Yahtzee's score card as the main control: click an open box to score it."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._view = CardView(on_score=self.play.score, card=card_description(self.play),
                              sizing_mode="stretch_width")
        self.play.param.watch(lambda *_: setattr(self._view, "card",
                                                 card_description(self.play)), "tick")

    def __panel__(self):
        return self._view


# ----- history -------------------------------------------------------------------------------
HISTORY_CSS = """
ol.history, ol.earlier { list-style: none; margin: 0; padding: 0; font: .95rem/1.4 system-ui, sans-serif; }
details.more summary { cursor: pointer; padding: 4px 6px; font: 600 .9rem system-ui, sans-serif; }
ol.history li, ol.earlier li { padding: 3px 6px; border-bottom: 1px solid rgba(127,127,127,.25); overflow-wrap: anywhere; }
ol.history li.bust, ol.history li.bolt, ol.history li.fall, ol.history li.penalty,
ol.earlier li.bust, ol.earlier li.bolt, ol.earlier li.fall, ol.earlier li.penalty { color: var(--dl-red, #c62828); }
ol.history li.stand, ol.history li.stop, ol.history li.score, ol.history li.round_won, ol.history li.win { font-weight: 600; }
@media (prefers-color-scheme: dark) { ol.history li.bust, ol.history li.bolt, ol.history li.fall, ol.history li.penalty,
  ol.earlier li.bust, ol.earlier li.bolt, ol.earlier li.fall, ol.earlier li.penalty { color: var(--dl-red, #ff8a80); } }
"""


class History(_Base):
    """The turn history, newest first: the latest ``shown`` events in full (a box that scrolls
    cuts its last line), the older ones folded under "Earlier"."""

    limit = param.Integer(default=60)
    shown = param.Integer(default=8)

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[HISTORY_CSS])
        self.play.param.watch(lambda *_: setattr(self._pane, "object", self._html()), "tick")

    def _html(self):
        items = self.game.history[-self.limit:][::-1]
        icons = {"bust": "✗ ", "bolt": "⚡ ", "stand": "✓ ", "stop": "✓ ", "win": "★ ",
                 "round_won": "★ ", "score": "✎ ", "barrel": "🛢 ", "fall": "↓ "}
        lis = [f"<li class='{esc(e.kind)}'>{icons.get(e.kind, '')}{esc(e.text)}</li>"
               for e in items]
        out = f"<ol class='history' aria-label='Turn history'>{''.join(lis[:self.shown])}</ol>"
        if len(lis) > self.shown:
            out += (f"<details class='more'><summary>Earlier ({len(lis) - self.shown})</summary>"
                    f"<ol class='earlier'>{''.join(lis[self.shown:])}</ol></details>")
        return out

    def __panel__(self):
        return self._pane
