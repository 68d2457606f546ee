"""Views follow their game however it changes (issue 12): an action applied from Python
(``g.apply`` in a notebook cell), a computer's strategy swapped, the computers played with
``g.play_computers()``; two views of one game stay in step; and what a game, a roll and a lab
run show inline in a notebook. No browser and no kernel: the views' Bokeh models are built as
a page would build them, and their content is read back."""
from __future__ import annotations

import json

import asyncio
import concurrent.futures
import html

import panel as pn
import pytest
from bokeh.document import Document

import dicelab
from dicelab.players import make_player
from dicelab.ui import (DiceTray, HintLine, History, OddsPanel, Play, Scoreboard, TurnBanner)
from dicelab.ui.app import SwitchPlayer
from dicelab.ui.notebook import NOTE


def model(viewer):
    return pn.panel(viewer).get_root(Document())


def tray_model_view(viewer, root):
    """The dice tray's data as the page has it (the JSComponent model's ``view``)."""
    return json.loads(viewer._view._models[root.ref["id"]][0].data.view)


def counter(obj, name):
    """How many times ``obj.name`` was set (each is one redraw of that view)."""
    seen = []
    obj.param.watch(lambda e: seen.append(e.new), name, onlychanged=False)
    return seen


def test_views_follow_apply_from_python():
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1)
    tray, odds, board, hint = DiceTray(g), OddsPanel(g), Scoreboard(g), HintLine(g)
    root = model(tray)
    assert tray_model_view(tray, root)["rolled"] == []
    odds_before, hint_before = odds._text.object, hint._pane.object
    draws = {"tray": counter(tray._view, "view"), "odds": counter(odds._text, "object"),
             "hint": counter(hint._pane, "object"), "board": counter(board._pane, "object")}
    g.apply("roll")  # not through the Play: as a notebook cell does
    shown = tray_model_view(tray, root)
    # RULES.md Bones: counting dice move to the keep area, the others stay: all five shown
    assert sorted(d["v"] for d in shown["rolled"] + shown["kept"]) == sorted(g.state.dice)
    assert shown["roll_id"] == 1 and shown["tick"] == Play.of(g).tick
    assert odds._text.object != odds_before and hint._pane.object != hint_before
    # one redraw of each view per action; the scoreboard says the same after a roll (no
    # points banked): its text is not set again
    assert {k: len(v) for k, v in draws.items()} == {"tray": 1, "odds": 1, "hint": 1,
                                                     "board": 0}


def test_tray_shows_the_dice_rolled_from_python():
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1)
    tray = DiceTray(g)
    g.apply("roll")
    view = tray._view.shown
    assert sorted(d["v"] for d in view["rolled"] + view["kept"]) == sorted(g.state.dice)
    assert view["rolled_label"].endswith("rolled") or "last roll" in view["rolled_label"]


def test_scoreboard_banner_history_follow_a_turn_played_from_python():
    g = dicelab.new_game("under40", ["Ann", "Bob"], seed=3)
    board, banner, history = Scoreboard(g), TurnBanner(g), History(g)
    first = g.current_player
    assert g.names[first].upper() in banner._pane.object.upper()
    g.apply("roll")
    if not g.is_over and g.current_player == first:
        g.apply("stand")
    now = g.names[g.current_player]
    assert g.current_player != first
    assert now.upper() in banner._pane.object.upper()
    assert f"▶</span> {now}" in board._pane.object
    assert html.escape(str(g.history[-1].text)) in history._pane.object


def test_two_views_of_one_game_stay_in_step():
    g = dicelab.new_game("yahtzee", ["Ann"], seed=2)
    a, b = DiceTray(g), DiceTray(g)
    ra, rb = model(a), model(b)
    for action in ("roll", "reroll 1 2", "score chance"):
        g.apply(action)
        assert tray_model_view(a, ra) == tray_model_view(b, rb)
    assert a.play is b.play


def test_a_refused_action_redraws_nothing():
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1)
    board = Scoreboard(g)
    draws = counter(board._pane, "object")
    with pytest.raises(dicelab.RuleError):
        g.apply("stand")  # nothing rolled yet: RULES.md, a turn starts with a roll
    assert draws == []


def test_scoreboard_follows_a_swapped_strategy():
    sw = SwitchPlayer("bones", "chicken")
    g = dicelab.new_game("bones", ["Ann", dicelab.Seat("Cpu", player=sw, strategy="chicken")],
                         seed=1)
    board = Scoreboard(g)
    assert "computer: chicken" in board._pane.object
    sw.strategy = "gambler"
    assert "computer: gambler" in board._pane.object


def test_views_follow_prefs_changes():
    g = dicelab.new_game("bones", ["Ann"], seed=1)
    tray = DiceTray(g)
    Play.of(g).prefs.anim_ms = 0
    assert tray._view.shown["anim_ms"] == 0


def fresh_thread(fn):
    """Run ``fn`` in a thread of its own: Playwright's sync API (another test in this worker)
    leaves the main thread looking as if an event loop ran in it."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result()


def test_play_computers_is_paced_inside_an_event_loop():
    """In a notebook cell (an event loop runs) ``g.play_computers()`` returns at once and
    plays one action per pace in the background; each action reaches the views."""
    def game(seed):
        return dicelab.new_game("bones", [("Cpu1", make_player("bones", "chicken")),
                                          ("Cpu2", make_player("bones", "chicken")), "Ann"],
                                seed=seed)
    g = game(next(s for s in range(100) if game(s).current_player != 2))  # a computer starts
    tray = DiceTray(g)
    play = Play.of(g)
    play.computers = False  # the Play's own pacing off: only play_computers acts here
    play.prefs.pace = 0.05
    assert g.pace == 0.05  # the views' pace, for play_computers from a cell
    rolls_seen = counter(play, "roll_id")

    async def cell():
        task = g.play_computers()
        assert isinstance(task, asyncio.Task) and g.version == 0  # nothing played yet
        return await task

    events = fresh_thread(lambda: asyncio.run(cell()))
    assert g.version > 0 and (g.is_over or not g.seats[g.current_player].is_computer)
    assert len(rolls_seen) == sum(1 for e in events if e.data.get("dice") is not None)
    assert tray._view.shown["roll_id"] == play.roll_id


def test_play_computers_without_event_loop_plays_at_once():
    g = dicelab.new_game("bones", [("Cpu", make_player("bones", "chicken")), "Ann"], seed=4)
    g.pace = 0.5
    events = fresh_thread(g.play_computers)
    assert isinstance(events, list)
    assert g.is_over or not g.seats[g.current_player].is_computer


def test_game_repr_html_shows_the_table():
    g = dicelab.new_game("bones", ["Ann", "Bob <b>"], seed=1)
    html = g._repr_html_()
    assert "Ann" in html and "Bob &lt;b&gt;" in html and "to play" in html
    assert "no dice on the table" in html
    g.apply("roll")
    html = g._repr_html_()
    for d in g.state.dice:
        assert "title='die" in html and "⚀⚁⚂⚃⚄⚅"[d - 1] in html
    assert "<script" not in html  # shows without any front end


def test_roll_score_repr_html():
    html = dicelab.score("bones", [1, 1, 1, 5, 2])._repr_html_()
    assert "1,050 points, 4 dice count" in html and "✓ ✓ ✓ ✓ ✗" in html
    assert "bust" in dicelab.score("bones", [2, 3, 4, 6, 6])._repr_html_()


def test_lab_result_repr_html():
    from dicelab.lab import simulate

    res = simulate("under40", ["threshold:30", "threshold:34"], games=20, seed=1)
    assert "<pre>" in res._repr_html_() and "threshold" in res._repr_html_()


def test_without_a_kernel_a_view_says_so_in_words():
    g = dicelab.new_game("bones", ["Ann"], seed=1)
    data, _ = DiceTray(g)._repr_mimebundle_()
    assert NOTE in data["text/plain"] and "DiceTray" in data["text/plain"]
    assert NOTE in html.unescape(data["text/html"])


def test_notebook_option_cdn(monkeypatch):
    from dicelab.ui.notebook import use_cdn

    monkeypatch.delenv("DICELAB_CDN", raising=False)
    assert use_cdn() is False and use_cdn(True) is True
    monkeypatch.setenv("DICELAB_CDN", "1")
    assert use_cdn() is True and use_cdn(False) is False
