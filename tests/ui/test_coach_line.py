"""The coach's line names the decision it judges and goes when the next one comes (issue 40:
"Best play: stopping (85.3%)" sat under the next round's hint; "standing (10)" stayed up for
six later decisions)."""
from __future__ import annotations

import dicelab
from dicelab.games.base import Seat
from dicelab.players import make_player
from dicelab.ui import Play
from dicelab.ui.coach_view import CoachView
from dicelab.ui.play import Prefs


def line(view) -> str:
    return view._line.object


def test_the_line_names_its_decision_and_goes_at_the_next():
    g = dicelab.new_game("bones", ["You", Seat("Cpu", make_player("bones", "chicken"),
                                               strategy="chicken")],
                         seed=2, target=2000, min_on_board=50)
    play = Play(game=g, prefs=Prefs(coach=True))
    view = CoachView(play=play)
    while g.current_player != 0:
        play.step_computer()
    turn = g.state.turn + 1                  # (the table counts turns from 1)
    assert play.roll()                       # the turn's first roll: no choice, no line
    assert line(view) == ""
    assert play.can_stand                    # (this seed: the first roll scores)
    assert play.stand()                      # judged: named with its turn
    assert f"You, turn {turn}: Standing cost" in line(view), line(view)
    while g.current_player != 0:             # the computer's turn: the line stays
        play.step_computer()
        assert f"You, turn {turn}: " in line(view)
    assert play.roll() and g.current_player == 0 and play.can_stand  # (this seed)
    assert line(view) == "", line(view)      # my next decision waits: the old line goes
    assert play.stand()
    assert f"You, turn {g.state.turn}: " in line(view)
