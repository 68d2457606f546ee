"""Thousand's race (RULES.md "Thousand": from the barrel a stand that reaches `target` wins the
game at once, and there is no final round): when an opponent on the barrel will probably win on
their next turn, a small stand leaves them the game, so every computer rolls on until its stand
puts it on the barrel (players.fivedice.race_action)."""
from __future__ import annotations

import pytest

from dicelab.actions import Roll, Stand
from dicelab.games import new_game
from dicelab.odds.fivedice import reach_chance
from dicelab.players import make_player
from dicelab.players.fivedice import RACE_LIKELY, opponent_finish_chance
from dicelab.settings import ThousandSettings

from .conftest import set_state

COMPUTERS = ["chicken", "aggressive", "gambler", "threshold:40", "optimal"]


def test_finish_chances_from_the_barrel():
    """The exact chance to reach the target from the barrel in one turn (hot dice compulsory):
    8.4% from the default barrel 880 (needs 120), so the race rule stays out of default games;
    78.1% from a barrel at 980 (needs 20)."""
    assert reach_chance(ThousandSettings(), 120, on_barrel=True, banked=880) == \
        pytest.approx(0.08448259583120311, abs=1e-12)
    assert reach_chance(ThousandSettings(barrel=980), 20, on_barrel=True, banked=980) == \
        pytest.approx(0.7808085156316412, abs=1e-12)


def _decide(spec, barrel, totals, turn_total, dice_left=3, race=True):
    player = make_player("thousand", spec)
    player.race_sense = race
    g = new_game("thousand", seats=[("Me", player), ("Them", make_player("thousand", "chicken"))],
                 seed=1, barrel=barrel)
    set_state(g, current=0, totals=totals, on_board=(True, True), on_barrel=(False, True),
              phase="decide", turn_total=turn_total, dice_left=dice_left, dice=(1, 5, 2, 3, 4))
    return g, g.computer_action()


@pytest.mark.parametrize("spec", COMPUTERS)
def test_no_small_stand_while_the_opponent_probably_finishes(spec):
    g, action = _decide(spec, 980, (900, 980), 50)
    assert opponent_finish_chance(g.view()) >= RACE_LIKELY
    assert isinstance(action, Roll)        # 950 would leave the opponent a 78% win
    _g, action = _decide(spec, 980, (900, 980), 80)
    assert isinstance(action, Stand)       # 980: on the barrel, a chance of my own


def test_the_rule_only_where_it_applies():
    # chicken (25) stands on 50 without the race rule, and with the default barrel (8.4%)
    assert isinstance(_decide("chicken", 980, (900, 980), 50, race=False)[1], Stand)
    g, action = _decide("chicken", 880, (700, 880), 50)
    assert opponent_finish_chance(g.view()) < RACE_LIKELY and isinstance(action, Stand)


@pytest.mark.parametrize("spec", ["chicken", "optimal"])
def test_whole_games_never_stand_short_while_the_opponent_probably_finishes(spec):
    races = 0
    for seed in range(6):
        g = new_game("thousand", seats=[("A", make_player("thousand", spec)),
                                        ("B", make_player("thousand", "aggressive"))],
                     seed=seed, barrel=980)
        for _ in range(20_000):
            if g.is_over:
                break
            st, action = g.state, g.computer_action()
            if (st.phase == "decide" and st.current == 0 and not st.on_barrel[0]
                    and opponent_finish_chance(g.view()) >= RACE_LIKELY):
                races += 1
                if isinstance(action, Stand):
                    assert st.totals[0] + st.turn_total >= 980, (spec, st)
            g.apply(action)
    assert races > 0      # the race came up in these games
