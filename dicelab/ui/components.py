"""The table's components. Each is a ``pn.viewable.Viewer`` over a game (or its Play) and can be
shown on its own: ``DiceTray(game)``, ``OddsPanel(game)``, ``Scoreboard(game)``...
"""
from __future__ import annotations

import html
from pathlib import Path

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent

from ..rules.yahtzee import BOXES, LABELS, UPPER
from . import words
from .notebook import HTML, NotebookShow
from .odds_view import fivedice_odds, under40_odds, yahtzee_odds
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
    v = play.variant
    if v in ("bones", "thousand"):
        return memo(play, "odds", lambda: fivedice_odds(play))
    if v == "under40":
        return memo(play, "odds", lambda: under40_odds(play.game))
    return memo(play, "odds", lambda: yahtzee_odds(play))


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


def _die(v: int, pos: int, tag: str = "", mark: str = "", label: str = "", fresh=False,
         click=False, sel=False) -> dict:
    return {"v": int(v), "pos": pos, "tag": tag, "mark": mark, "label": label or f"{v}",
            "fresh": fresh, "click": click, "sel": sel}


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
    rolled, kept = [], []
    if play.five_dice:
        view["show_keep"] = True
        view["keep_label"] = "keep ✓"
        mine = st.phase == "decide" or st.hot_dice
        if play.choosing:
            keep = set(play.keep_positions())
            view["rolled_label"] = (f"{roller} rolled — click counting dice to set aside (1-5)"
                                    if play.person_on_turn else f"{roller} rolled")
            for i, d in enumerate(st.dice):
                if st.counting[i]:
                    sel = i in keep
                    rolled.append(_die(d, i, "choose count" if sel else "choose", "✓ set aside"
                                       if sel else "counts", f"die {i + 1}: {d}, counting, "
                                       + ("set aside" if sel else "not set aside"),
                                       i in fresh, click=play.person_on_turn, sel=sel))
                else:
                    rolled.append(_die(d, i, "", "", f"die {i + 1}: {d}, does not count",
                                       i in fresh))
            kept = [_die(d, 100 + j, "count", "✓", f"{d}, kept earlier")
                    for j, d in enumerate(st.before_kept)]
        elif mine and st.dice:
            # last roll: non-counting dice stay to be rolled again, counting ones move to keep
            view["rolled_label"] = (f"{roller} rolled" if not st.hot_dice
                                    else "hot dice: all five roll again")
            n_new = sum(st.counting)
            for i, d in enumerate(st.dice):
                if not st.counting[i]:
                    rolled.append(_die(d, i, "", "", f"{d}, does not count", i in fresh))
            old = len(st.kept) - n_new
            for j, d in enumerate(st.kept):
                new = j >= old
                kept.append(_die(d, 100 + j, "count", "✓" if new else "✓",
                                 f"{d}, counting, kept" + (" this roll" if new else ""),
                                 fresh=new and bool(fresh)))
        elif st.dice:
            bust = last is not None and last.kind == "bust"
            view["rolled_label"] = (words.cap(f"{words.possessive(roller)} last roll")
                                    + (" — bust" if bust else ""))
            for i, d in enumerate(st.dice):
                c = st.counting[i] if i < len(st.counting) else False
                rolled.append(_die(d, i, "bust" if bust else "old", "✗" if bust else
                                   ("✓" if c else ""),
                                   f"{d}" + (", no counting die" if bust else ""),
                                   fresh=i in fresh and bust))
            if bust:
                view["badge"], view["badge_kind"] = "BUST", "bust"
        else:
            view["rolled_label"] = "dice"
        if st.hot_dice:
            view["badge"], view["badge_kind"] = "HOT DICE", "hot"
    elif g.variant == "under40":
        view["show_keep"] = False
        if st.dice:
            pts = st.roll_points
            view["rolled_label"] = f"{roller} rolled: {pts} points"
            bust = last is not None and any(e.kind == "bust" for e in play.last_events)
            exact = any(e.kind == "round_won" and e.data.get("how") == "exact"
                        for e in play.last_events)
            for i, d in enumerate(st.dice):
                rolled.append(_die(d, i, "bust" if bust else "", "", f"{d}", i in fresh))
            if bust:
                view["badge"], view["badge_kind"] = "BUST", "bust"
            elif exact:
                view["badge"], view["badge_kind"] = "EXACTLY 40!", "good"
            elif pts:
                view["badge"], view["badge_kind"] = f"+{pts}", "good"
        else:
            view["rolled_label"] = "dice"
    else:  # yahtzee
        view["show_keep"] = False
        held = set(play.held)
        can_hold = play.person_on_turn and bool(st.rolls) and g.rerolls_left > 0
        if st.dice:
            view["rolled_label"] = ("click dice or press 1-5 to hold" if can_hold
                                    else words.cap(f"{words.possessive(roller)} dice"))
            for i, d in enumerate(st.dice):
                h = i in held
                rolled.append(_die(d, i, "held" if h else "", f"HELD {i + 1}" if h else
                                   f"{i + 1}", f"die {i + 1}: {d}" + (", held" if h else ""),
                                   i in fresh, click=can_hold, sel=h))
        else:
            view["rolled_label"] = "dice"
            if last is not None and last.seat is not None:
                view["rolled_label"] = words.cap(f"{words.possessive(roller)} last dice")
                for i, d in enumerate(last.data["dice"]):
                    rolled.append(_die(d, i, "old", "", f"{d}"))
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
.msg { font: 600 1rem system-ui, sans-serif; color: #b71c1c; margin-top: 6px; padding: 6px 12px;
  border: 2px solid #b71c1c; border-radius: 6px; background: rgba(183, 28, 28, .06); }
@media (prefers-color-scheme: dark) { .msg { color: #ff8a80; border-color: #ff8a80; } }
"""


def hint_text(play: Play) -> str:
    odds = current_odds(play)
    if play.five_dice:
        return words.fivedice_hint(play, odds)
    if play.variant == "under40":
        return words.under40_hint(play, odds)
    return words.yahtzee_hint(play, odds)


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


class Controls(_Base):
    """Roll / Roll again / Stand, enabled only when legal."""

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._roll = pmui.Button(label="Roll", variant="contained", color="primary",
                                 size="large", on_click=lambda e: self.play.roll(),
                                 sx={"fontSize": "1.15rem", "minWidth": "190px"})
        self._stand = pmui.Button(label="Stand (0)", variant="contained", color="secondary",
                                  size="large", on_click=lambda e: self.play.stand(),
                                  sx={"fontSize": "1.15rem", "minWidth": "160px"},
                                  visible=self.play.variant != "yahtzee")
        self._refresh()
        self.play.param.watch(self._refresh, "tick")

    def _refresh(self, *_):
        p = self.play
        g = p.game
        st = g.state
        if p.variant == "yahtzee":
            if not st.rolls:
                label = "Roll (Enter)"
            else:
                label = f"Roll again (Enter) · {g.rerolls_left} left"
        elif p.variant == "under40":
            label = "Roll (.)"
        else:
            label = "Roll again (.)" if st.phase == "decide" or st.hot_dice else "Roll (.)"
        stand = "Stop (0)" if p.variant == "under40" else "Stand (0)"
        self._roll.param.update(label=label, disabled=not p.can_roll)
        self._stand.param.update(label=stand, disabled=not p.can_stand)

    def __panel__(self):
        return pmui.FlexBox(self._roll, self._stand, gap="12px", flex_wrap="wrap",
                          sizing_mode="stretch_width")


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
    rows = []
    v = g.variant
    totals = g.totals()
    win = set(g.winners)
    if v in ("bones", "thousand"):
        head = "<tr><th>Player</th><th class='num'>Total</th><th>Status</th></tr>"
        for i in range(g.n_seats):
            cls = "turn" if i == st.current and not g.is_over else ""
            if v == "bones":
                status = "on board ✓" if st.on_board[i] else "not on board —"
                if st.final_from == i:
                    status += " · reached target"
            else:
                s = g.status(i)
                bits = ["opened ✓" if s["opened"] else "not opened —"]
                if s["on_barrel"]:
                    bits.append(f"🛢 barrel {s['barrel_attempts_left']}/"
                                f"{g.config.barrel_attempts} left")
                elif s["pit"]:
                    bits.append(f"⛏ pit {s['pit'][0]}-{s['pit'][1]}")
                if s["bolts"]:
                    bits.append("⚡" * s["bolts"] + f" {s['bolts']} bolt"
                                + ("s" if s["bolts"] > 1 else ""))
                status = "".join(f"<span>{esc(b)}</span>" for b in bits)
            if i in win:
                status += " <b>★ winner</b>"
            rows.append(f"<tr class='{cls}'>{_seat_cell(play, i)}<td class='num'>"
                        f"{totals[i]:,}</td><td class='status'>{status}</td></tr>")
    elif v == "under40":
        head = ("<tr><th>Player</th><th class='num'>Total</th><th>Round score (of 40)</th>"
                "</tr>")
        leader = g.leader()
        beat = g.must_beat()
        for i in range(g.n_seats):
            cls = "turn" if i == st.current and not g.is_over else ""
            rs = st.round_scores[i]
            status = st.status[i]
            fill = "bust" if status == "busted" else ("win" if rs == 40 else "")
            width = min(rs, 40) / 40 * 100
            label = {"waiting": "waiting", "rolling": "rolling", "stopped": "stopped",
                     "busted": "BUST (over 40)"}[status]
            if i == leader:
                label += " · ★ leader"
            bar = (f"<div class='bar' role='img' aria-label='{rs} of 40, {label}'>"
                   f"<div class='fill {fill}' style='width:{width:.0f}%'></div>"
                   + (f"<div class='beat' style='left:{beat / 40 * 100:.0f}%'></div>"
                      if beat and i == st.current else "") + "</div>")
            extra = " <b>★ winner</b>" if i in win else ""
            rows.append(f"<tr class='{cls}'>{_seat_cell(play, i)}<td class='num'>"
                        f"{totals[i]:,}</td><td><b>{rs}</b> {esc(label)}{extra}{bar}</td></tr>")
    else:
        head = "<tr><th>Player</th><th class='num'>Total</th><th>Boxes filled</th></tr>"
        for i in range(g.n_seats):
            cls = "turn" if i == st.current and not g.is_over else ""
            filled = 13 - len(g.open_boxes(i))
            extra = " <b>★ winner</b>" if i in win else ""
            rows.append(f"<tr class='{cls}'>{_seat_cell(play, i)}<td class='num'>"
                        f"{totals[i]:,}</td><td>{filled}/13{extra}</td></tr>")
    target = ""
    if v in ("bones", "thousand", "under40"):
        target = f"<div class='records'>Target {g.config.target:,}"
        if v == "bones" and st.final_from is not None:
            target += " · <span class='final'>final turns</span>"
        target += "</div>"
    rec = ""
    if records is not None:
        rec = f"<div class='records' data-testid='records'>Records: {esc(records.line(v))}</div>"
    return (f"<table class='board' aria-label='Scoreboard'><thead>{head}</thead><tbody>"
            + "".join(rows) + f"</tbody></table>{target}{rec}")


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
ol.history { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow-y: auto; font: .95rem/1.4 system-ui, sans-serif; }
ol.history li { padding: 3px 6px; border-bottom: 1px solid rgba(127,127,127,.25); overflow-wrap: anywhere; }
ol.history li.bust, ol.history li.bolt, ol.history li.fall, ol.history li.penalty { color: #c62828; }
ol.history li.stand, ol.history li.stop, ol.history li.score, ol.history li.round_won, ol.history li.win { font-weight: 600; }
@media (prefers-color-scheme: dark) { ol.history li.bust, ol.history li.bolt, ol.history li.fall, ol.history li.penalty { color: #ff8a80; } }
"""


class History(_Base):
    """The turn history, newest first."""

    limit = param.Integer(default=60)

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[HISTORY_CSS])
        self.play.param.watch(lambda *_: setattr(self._pane, "object", self._html()), "tick")

    def _html(self):
        items = self.game.history[-self.limit:][::-1]
        icons = {"bust": "✗ ", "bolt": "⚡ ", "stand": "✓ ", "stop": "✓ ", "win": "★ ",
                 "round_won": "★ ", "score": "✎ ", "barrel": "🛢 ", "fall": "↓ "}
        lis = "".join(f"<li class='{esc(e.kind)}'>{icons.get(e.kind, '')}{esc(e.text)}</li>"
                      for e in items)
        return f"<ol class='history' aria-label='Turn history'>{lis}</ol>"

    def __panel__(self):
        return self._pane
