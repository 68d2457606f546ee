"""Each view follows the parameters it shows (issue 14), not one shared counter: a change
redraws only the views that show it, each once. No browser: the views' content is watched."""
from __future__ import annotations

import dicelab
from dicelab.ui import controls as controls_mod
from dicelab.ui.notebook import HTML
from dicelab.ui import (Controls, DiceTray, HintLine, History, OddsPanel, Play, Scoreboard,
                        TurnBanner)


def drawn(obj, name):
    """Every setting of ``obj.name`` (a redraw of that view), equal values included."""
    seen = []
    obj.param.watch(lambda e: seen.append(e.new), name, onlychanged=False)
    return seen


def shown(pane):
    """Every redraw of an HTML pane (``show``: an equal text is counted, though not sent)."""
    seen = []
    real = pane.show

    def spy(text):
        seen.append(text)
        real(text)
    pane.show = spy
    return seen


def checked(monkeypatch, button):
    """Every time the controls bring ``button`` up to date (they set only what changed)."""
    seen = []
    real = controls_mod.set_changed

    def spy(widget, **values):
        if widget is button:
            seen.append(values)
        real(widget, **values)
    monkeypatch.setattr(controls_mod, "set_changed", spy)
    return seen


def table(game, monkeypatch):
    tray, banner, board, history = DiceTray(game), TurnBanner(game), Scoreboard(game), \
        History(game)
    hint, controls, odds = HintLine(game), Controls(game), OddsPanel(game)
    return {"tray": drawn(tray._view, "view"), "banner": shown(banner._pane),
            "board": shown(board._pane), "history": shown(history._pane),
            "hint": shown(hint._pane), "controls": checked(monkeypatch, controls._roll),
            "odds": shown(odds._text)}


def counts(draws) -> dict:
    out = {k: len(v) for k, v in draws.items()}
    for v in draws.values():
        v.clear()
    return out


def two_counting_dice(seed):
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=seed, choose_keepers=True)
    g.apply("roll")
    return g.state.phase == "decide" and sum(g.state.counting) >= 2


def test_a_change_redraws_only_the_views_that_show_it(monkeypatch):
    # RULES.md Bones, choose_keepers: the person picks which counting dice to set aside
    seed = next(s for s in range(200) if two_counting_dice(s))
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=seed, choose_keepers=True)
    play = Play.of(g)
    draws = table(g, monkeypatch)
    everything = {k: 1 for k in draws}
    assert play.roll()
    assert counts(draws) == everything  # a new state: every view, once
    assert play.toggle(g.state.counting.index(True))
    # set-aside dice: the dice, what rolling is worth, the buttons; not whose turn, totals,
    # history
    assert counts(draws) == {**everything, "banner": 0, "board": 0, "history": 0}
    assert not play.toggle(9)  # no such die: refused
    # a refusal: the message in the hint and the tray's announcement only
    assert counts(draws) == {**everything, "banner": 0, "board": 0, "history": 0,
                             "controls": 0, "odds": 0}
    before = play.tick
    play.prefs.anim_ms = 0
    assert counts(draws) == {k: int(k == "tray") for k in draws} and play.tick == before


def test_a_table_made_again_retires_the_views_of_the_old_one():
    # a new language makes the table again: the old table's views must stop redrawing
    from dicelab.ui.table import Table
    from dicelab.ui.view import followers

    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=3)
    play = Play.of(g)
    alone = len(followers(play))
    old = Table(play=play)
    old.__panel__()
    views = [redraw.__self__ for _shows, redraw in followers(play)[alone:]]
    assert len(views) >= 7  # banner, controls, hint, history, scoreboard, odds, coach...
    panes = {v: shown(v._pane) for v in views if isinstance(getattr(v, "_pane", None), HTML)}
    assert len(panes) >= 4
    play.changed("shown")
    assert all(len(seen) == 1 for seen in panes.values())  # each once
    old.retire()
    assert len(followers(play)) == alone
    new = Table(play=play)
    new.__panel__()
    assert play.roll()
    assert all(len(seen) == 1 for seen in panes.values())  # the old ones: not again
    assert len(followers(play)) == alone + len(views)
