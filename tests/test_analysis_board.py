"""The analysis board's model (issue 35, point 5): every position of a game kept and shown
read-only, the game opened from untouched, a game carried in a URL checked like any input."""
from __future__ import annotations

import base64
import zlib

import pytest

from dicelab.errors import RuleError
from dicelab.games import new_game, setup
from dicelab.games.board import positions
from dicelab.players import make_player
from dicelab.ui.analysis import MAX_URL_GAME, AnalysisBoard, decode_game, encode_game


@pytest.fixture(scope="module")
def finished():
    g = new_game("bones", [("Ann", make_player("bones", "optimal")),
                           ("Bob", make_player("bones", "chicken"))], seed=3, target=2000)
    g.play_computers()
    assert g.is_over
    return g


def test_every_position_as_it_was(finished):
    board = positions(finished)
    assert board.steps == len(finished.actions) + 1 and board.step == board.steps - 1
    replay = finished.replay(0)
    for i, action in enumerate(finished.actions):
        assert board.goto(i) == i
        assert board.state == replay.state and board.actions == replay.actions
        assert len(board.history) == len(replay.history)
        replay.apply(action)
    assert board.goto(10**6) == board.steps - 1 and board.state == finished.state
    assert board.goto(-5) == 0


def test_nothing_can_be_played_on_the_board(finished):
    before = finished.snapshot()
    board = positions(finished, at=3)
    with pytest.raises(RuleError, match="analysis board"):
        board.apply("roll")
    assert board.step == 3 and finished.snapshot() == before
    assert board.computer_action() is None


def test_a_running_game_and_a_saved_one():
    g = new_game("yahtzee", ["Ann", "Bob"], seed=5)
    for a in ("roll", "score chance"):
        g.apply(a)
    board = positions(g.to_json())
    assert board.steps == 3 and board.state == g.state and not board.is_over
    board.goto(1)
    assert board.dice == board.states[1].dice and board.rolls_left == 2


def test_a_set_up_position_opens_as_one_position():
    g = setup.position("bones", ["Ann", "Bob"], totals=[2000, 0], kept=[1], kept_points=100,
                       roll=[5, 2, 3, 4])
    board = positions(g)
    assert board.steps == 1 and board.state == g.state


def test_stepping_with_keys(finished):
    board = AnalysisBoard(finished)
    last = board.game.steps - 1
    assert board.step == last
    assert board.key("ArrowLeft") == last - 1 and board.key("ArrowRight") == last
    assert board.key("ArrowRight") == last  # the end stays the end
    assert board.key("Home") == 0 and board.key("ArrowLeft") == 0
    assert board.key("End") == last
    assert board.play.game.state == finished.state
    assert not board.play.person_on_turn and not board.play.can_roll


def test_a_game_in_a_url(finished):
    value = encode_game(finished)
    assert len(value) < len(finished.to_json()) and "=" not in value
    assert decode_game(value) == finished.to_json(separators=(",", ":"))
    with pytest.raises(RuleError, match="at most"):
        decode_game("A" * (MAX_URL_GAME + 1))
    with pytest.raises(RuleError, match="does not carry"):
        decode_game("not*base64!")
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * 21_000_000, 9)).decode()
    assert len(bomb) < MAX_URL_GAME
    with pytest.raises(RuleError, match="at most"):
        decode_game(bomb)
    with pytest.raises(RuleError):  # text, but not a game: load_game says why
        positions(decode_game(encode_game('{"dicelab": 1}')))
