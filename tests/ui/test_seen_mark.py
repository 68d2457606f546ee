"""Every action a page sends carries the mark (log length) the page showed; one whose mark is not
the game's now is dropped without a word: single games, rooms, keys, buttons, dice, card."""
from __future__ import annotations

import logging

import dicelab
from dicelab.rooms import RoomService
from dicelab.ui.controls import Controls
from dicelab.ui.keys import ActionBridge, KeyBridge
from dicelab.ui.play import Play
from dicelab.ui.room_play import RoomPlay
from dicelab.ui.score_card import ScoreCard
from dicelab.ui.tray import DiceTray


def test_a_page_action_with_an_old_mark_is_dropped_silently(caplog):
    g = dicelab.new_game("yahtzee", ["Ann"], seed=2)
    play = Play(g)
    seen = play.mark()
    assert seen.endswith(".0")
    assert play.roll(seen) and len(g.actions) == 1
    with caplog.at_level(logging.DEBUG, logger="dicelab.ui.play"):
        assert not play.roll(seen)  # the second click of a double click
        assert not play.key("Enter", seen) and not play.toggle(0, seen)
        assert not play.score("chance", seen)
        assert not play.roll("") and not play.roll("forged")
    assert len(g.actions) == 1 and play.message == "" and play.held == ()
    assert "dropped an action" in caplog.text and caplog.records[0].levelno == logging.DEBUG
    assert play.roll(play.mark()) and len(g.actions) == 2  # the page showed the new state
    assert play.roll() and len(g.actions) == 3  # from Python: no mark, never stale


def test_marks_of_two_tables_differ():
    a = Play(dicelab.new_game("bones", ["Ann", "Bob"], seed=1))
    b = Play(dicelab.new_game("bones", ["Ann", "Bob"], seed=1))
    assert a.mark() != b.mark()  # a click on an old table never acts on a new game
    assert not b.roll(a.mark()) and len(b.game.actions) == 0


def test_the_page_messages_carry_the_mark_to_play():
    g = dicelab.new_game("yahtzee", ["Ann"], seed=2)
    play = Play(g)
    controls, tray, card = Controls(play=play), DiceTray(play=play), ScoreCard(play=play)
    assert controls._bridge.shown == f"{play.mark()} 0"
    bridge = controls._bridge
    seen = play.mark()
    bridge._handle_msg({"act": "roll", "seen": seen})
    bridge._handle_msg({"act": "roll", "seen": seen})  # the double click
    assert len(g.actions) == 1
    # after a roll the page has shown it once the dice stopped: the animation's length
    assert bridge.shown == f"{play.mark()} {play.prefs.anim_ms}"
    bridge._handle_msg({"act": "roll"})  # no mark: dropped
    bridge._handle_msg({"act": "roll", "seen": 5})  # not text: dropped
    bridge._handle_msg({"act": "explode", "seen": play.mark()})
    assert len(g.actions) == 1
    tray._view._handle_msg({"toggle": 0, "seen": seen})  # dice of the old roll: dropped
    assert play.held == ()
    tray._view._handle_msg({"toggle": 0, "seen": tray._view.shown["mark"]})
    assert play.held == (0,)
    keys = []
    KeyBridge(on_key=lambda k, s: keys.append((k, s)))._handle_msg({"key": ".", "seen": "x"})
    assert keys == [(".", "x")]
    old = card._view.card["mark"]
    card._view._handle_msg({"box": "chance", "seen": old})
    card._view._handle_msg({"box": "chance", "seen": old})
    assert len(g.actions) == 2 and g.card()["chance"] is not None
    assert isinstance(controls._bridge, ActionBridge)


def test_in_a_room_a_double_click_is_stored_once_and_a_page_behind_is_silent(tmp_path):
    service = RoomService(f"sqlite://{tmp_path / 'rooms.db'}")
    room, ann = service.create("Marks", "yahtzee", {}, "Ann")
    bob = service.join("Marks", "Bob")
    service.start("Marks", ann)
    room = service.room("Marks")
    first = service.state("Marks").current_player  # who starts is drawn
    ann, bob = (ann, bob) if first == 0 else (bob, ann)  # ann: the first on turn
    page = RoomPlay(service, room, ann)
    seen = page.mark()
    assert page.roll(seen) and not page.roll(seen)
    assert len(service.log("Marks")) == 1
    service.act("Marks", ann, "score chance")  # Bob's turn
    service.act("Marks", bob, "roll")
    behind = RoomPlay(service, service.room("Marks"), bob)  # a page of Bob's at 3 actions
    service.act("Marks", bob, "score aces")  # Bob's other tab scored meanwhile
    assert len(behind.game.actions) == 3 and len(service.log("Marks")) == 4
    # the page, behind the room (the news not arrived yet), asks for a roll: dropped without
    # a word, and the page catches up
    assert not behind.roll(behind.mark())
    assert behind.message == "" and len(service.log("Marks")) == 4
    assert len(behind.game.actions) == 4
    service.close()
