"""The analysis board in the app (issue 35), without a browser: Analyse opens the board on the
game at the table (its computers wait, the page's keys do not reach the game), Back returns to
the game where it was; a review row's click and a click in the win chart open the board at
that action; without a game, Analyse offers Open a game and Set up a position."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from dicelab.games import new_game
from dicelab.players import make_player
from dicelab.ui import language as lang_mod
from dicelab.ui.analysis import AnalysisBoard
from dicelab.ui.analysis_app import OpenScreen
from dicelab.ui.app import DicelabApp
from dicelab.ui.coach_view import CoachView
from dicelab.ui.table import Table
from dicelab.ui.win_chart import WinChart


@pytest.fixture
def app(tmp_path):
    a = DicelabApp(records_path=tmp_path / "records.sqlite3")
    yield a
    if a.play is not None:
        a.play.close()
    lang_mod.reset_unserved()


def _game():
    g = new_game("bones", ["You", ("Bob", make_player("bones", "chicken"))], seed=3,
                 target=2000)
    for _ in range(6):
        if g.current_player == 0:
            g.apply("roll")
        else:
            g.apply(g.computer_action())
    return g


def test_analyse_the_game_at_the_table_and_come_back(app):
    g = _game()
    play = app.start_game(g)
    before = g.snapshot()
    board = app.show_board()
    assert isinstance(app._screen, AnalysisBoard) and board.step == len(g.actions)
    assert not play.computers  # the computers wait while their game is analysed
    app.on_key(".")            # the page's keys do not play the game
    board.key("Home")
    assert board.step == 0 and g.snapshot() == before
    board.leave()
    assert isinstance(app._screen, Table) and app.play is play and g.snapshot() == before


def test_a_review_row_and_the_chart_open_the_board_there(app):
    g = _game()
    play = app.start_game(g)
    coach = CoachView(play=play)
    coach._indices = [0, 4]  # (the review's rows: actions 0 and 4)
    coach._row_clicked(SimpleNamespace(row=1))
    assert isinstance(app._screen, AnalysisBoard) and app._screen.step == 4
    board = app._screen
    chart = WinChart(play=board.play)
    chart._tapped(SimpleNamespace(x=2.2))
    assert board.step == 2 and board.game.state == g.replay(2).state
    chart._tapped(SimpleNamespace(x=99))
    assert board.step == len(g.actions)


def test_without_a_game_analyse_offers_open_and_set_up(app):
    opener = app.show_board()
    assert isinstance(app._screen, OpenScreen)
    assert not opener.open_text('{"dicelab": 1}')  # not a game: said beside the file input
    assert "saved" in opener._why.object
    board = app._screen.form.show()
    assert board is not None and board.game.state.turn_total == 250
    assert opener.open_text(_game().to_json()) and isinstance(app._screen, AnalysisBoard)
