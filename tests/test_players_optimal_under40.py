"""Optimal five-dice players and the Under40 computers (issue 4)."""
import pytest

import dicelab
from dicelab import Roll, Stand
from dicelab.errors import RuleError
from dicelab.games import Seat, fivedice, under40
from dicelab.lab.models import play_games
from dicelab.players import make_player, player_names

from .conftest import set_state


def test_registry():
    assert {"cautious", "threshold", "optimal"} <= set(player_names("under40"))
    assert "optimal" in player_names("bones") and "optimal" in player_names("thousand")
    with pytest.raises(RuleError):
        make_player("under40", "threshold:41")
    assert make_player("under40", "threshold:30").threshold == 30


def test_optimal_bones_stands_where_the_odds_say(rig):
    g = dicelab.new_game("bones", [Seat("Opt", make_player("bones", "optimal")), "Ann"], seed=1,
                         min_on_board=50)
    set_state(g, current=0, on_board=(True, False))
    rig(fivedice).add((1, 5, 2, 3, 4), (1, 5, 2))   # 150 with 3 dice left: roll on
    g.apply(Roll())
    assert g.computer_action() == Roll()
    g.apply(Roll())                                  # 300 with 1 die left: stand
    assert g.state.turn_total == 300 and g.computer_action() == Stand()


def test_optimal_honours_the_minimum(rig):
    g = dicelab.new_game("bones", [Seat("Opt", make_player("bones", "optimal")), "Ann"], seed=1)
    set_state(g, current=0)
    rig(fivedice).add((1, 5, 2, 3, 4), (1, 5, 2), (1,))
    for _ in range(3):
        g.apply(g.computer_action())
    assert g.state.turn_total == 400 and g.computer_action() == Roll()   # below 600


def test_cautious_stops_as_soon_as_it_leads(rig):
    g = dicelab.new_game("under40", [Seat("C", make_player("under40", "cautious")), "Ann"], seed=1)
    set_state(g, current=0, starter=0)
    rig(under40).add((2, 3))
    g.apply(g.computer_action())
    assert g.computer_action() == Stand()


def test_under40_threshold(rig):
    g = dicelab.new_game("under40", [Seat("T", make_player("under40", "threshold:20")), "Ann"],
                         seed=1)
    set_state(g, current=0, starter=0)
    rig(under40).add((2, 3), (3, 3))
    g.apply(g.computer_action())
    assert g.state.round_scores[0] == 6 and g.computer_action() == Roll()
    g.apply(g.computer_action())
    assert g.state.round_scores[0] == 24 and g.computer_action() == Stand()


@pytest.mark.parametrize("variant, players", [
    ("under40", ["cautious", "threshold:24", "optimal", "random"]),
    ("bones", ["optimal", "chicken", "random"]),
    ("thousand", ["optimal", "gambler"]),
])
def test_players_finish_games(variant, players):
    settings = {"target": 300} if variant == "under40" else {"target": 2000} \
        if variant == "bones" else {}
    wins, totals, _ = play_games(variant, players, 15, seed=2, settings=settings)
    assert wins.sum() == pytest.approx(15)


def test_under40_optimal_two_player_round_is_stop_when_leading():
    """The exact solve says: in a two-player round, once you lead, stop (so optimal and
    cautious make the same choices there)."""
    from dicelab.odds.under40 import stop_choices

    masks = [(1 << (m - 1)) | ((1 << (o - 1)) if o else 0) for m in range(1, 20) for o in range(m)]
    assert stop_choices(2, masks).all()  # what the vectorised lab plays (m, o in steps of 2)


def test_under40_optimal_beats_a_threshold_player():
    from dicelab.lab import simulate

    r = simulate("under40", ["optimal", "threshold:24"], games=8000, seed=6, target=200)
    assert r.rows[0]["win_rate_ci"][0] > 0.5


def test_vectorised_under40_agrees_with_the_models():
    from dicelab.lab import simulate, wilson

    wins, _, _ = play_games("under40", ["threshold:30", "cautious", "cautious"], 200, seed=8,
                            settings={"target": 200})
    vec = simulate("under40", ["threshold:30", "cautious", "cautious"], games=10_000, seed=9,
                   target=200)
    for i, row in enumerate(vec.rows):
        lo, hi = wilson(int(round(wins[i])), 200)
        assert lo - 0.03 <= row["win_rate"] <= hi + 0.03
