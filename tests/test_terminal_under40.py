"""Hot-seat Under40 in the terminal (RULES.md "Under40"; seed 001's console game)."""
import io
import re
import sys
from argparse import Namespace

import pytest

from dicelab import cli
from dicelab.errors import RuleError
from dicelab.games import under40 as under40_game
from dicelab.games.under40 import Under40Game
from dicelab.terminal.under40 import play


def run(text, **args):
    out = io.StringIO()
    rc = play(Namespace(**args), stdin=io.StringIO(text), stdout=out)
    return rc, out.getvalue()


def ann_starts_seed():
    return next(s for s in range(100) if Under40Game(["Ann", "Bob"], seed=s).state.starter == 0)


def test_a_whole_scripted_game(rig):
    dice = rig(under40_game)
    dice.add((3, 5), (2, 5), (1, 1), (4, 4),  # round 1: Ann stops at 12, Bob busts with 44
             (4, 4), (2, 2))                  # round 2: Bob hits 40 exactly
    moves = ["hello", "s", "r", "s",          # a warning, a refused stop, roll, stop
             "r", "s", "roll", "stop", "r",   # Bob: 10, may not stop, 12, still may not, 44
             "", "r", "r"]
    rc, out = run("\n".join(moves) + "\n", players="Ann, Bob", seed=ann_starts_seed(), target=80)
    assert rc == 0
    lines = out.splitlines()
    assert "Seating roll-off: Ann" in out and "Ann starts." in lines[1]
    assert "First to 80 at the end of a round wins." in lines[0]
    for expected in [
        "Nobody has stopped yet: Ann may stop after any roll under 40.",
        "Ann (0/40), r to roll > Warning: 'hello' is not a move.",
        "Ann (0/40), r to roll > You may not stop now. Under40: a turn begins with a roll",
        "Ann (0/40), r to roll > Ann rolled 3 5: 12, round score 12.",
        "Ann may stop with 12 or roll on.",
        "Ann (12/40), r roll / s stop > Ann stops at 12.",
        "Ann leads the round with 12: Bob must beat 12 to stop.",
        "Bob (0/40), r to roll > Bob rolled 2 5: 10, round score 10.",
        "Bob must roll on: stopping needs more than 12 (Ann's standing score).",
        "Bob (10/40), r to roll > You may not stop now. Under40: to stop, your round score must "
        "beat the best standing score, 12 (Ann); yours is 10.",
        "Bob (12/40), r to roll > You may not stop now.",
        "Bob (12/40), r to roll > Bob rolled 4 4: 32, round score 44.",
        "Bob busts with 44.",
        "Ann is the last player left and wins the round: +44 (total 44).",
        "Totals: Ann 44, Bob 0 (target 80).",
        "Round 2: Bob starts.",
        "Bob (0/40), r to roll > Warning: no move typed.",
        "Bob (32/40), r roll / s stop > Bob rolled 2 2: 8, round score 40.",
        "Bob hits 40 exactly and wins the round: +80 (total 80).",
        "Bob reaches 80 and wins the game!",
        "Totals: Ann 44, Bob 80 (target 80).",
        "Bob wins the game after 2 rounds.",
    ]:
        assert expected in out, expected
    # the table before a turn: round scores against 40, status and totals
    assert "> Bob       0/40  rolling         0" in out
    assert "  Ann      12/40  stopped         0" in out
    assert out.index("Totals: Ann 44") < out.index("Round 2: Bob starts.")
    assert lines[-1] == "Bob wins the game after 2 rounds."


def test_the_table_shows_busted_players_and_the_pot(rig):
    dice = rig(under40_game)
    dice.add((6, 6), (3, 5))
    rc, out = run("r\nr\n", players="Ann,Bob,Cy", seed=ann_starts_seed(), target=100)
    assert rc == 0  # input ended: exit 0 like the other terminal games (issue 13.9)
    assert "  Ann      72/40  busted          0" in out
    assert "Busted scores so far, for the last player left: 72" in out
    assert "> Bob       0/40  rolling         0" in out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_with_real_dice(seed):
    # "r" then "s": a refused stop is explained and the next "r" rolls, so the game goes on
    rc, out = run("r\ns\n" * 2000, players="Ann,Bob,Cy", seed=seed, target=150)
    assert rc == 0
    lines = out.splitlines()
    found = re.fullmatch(r"(Ann|Bob|Cy) wins the game after (\d+) rounds?\.", lines[-1])
    assert found, lines[-1]
    winner, rounds = found[1], int(found[2])
    totals = dict(re.findall(r"(\w+) ([\d,]+)", lines[-3].split("(target")[0]))
    assert lines[-3].startswith("Totals:") and int(totals[winner].replace(",", "")) >= 150
    assert all(int(t.replace(",", "")) < 150 for n, t in totals.items() if n != winner)
    assert f"Round {rounds}: " in out and f"Round {rounds + 1}: " not in out
    assert run("r\ns\n" * 2000, players="Ann,Bob,Cy", seed=seed, target=150)[1] == out


def test_end_of_input_exits_cleanly():
    rc, out = run("r\n", players="Ann,Bob", seed=4)
    assert rc == 0  # input ended: exit 0 like the other terminal games (issue 13.9)
    lines = out.splitlines()
    assert lines[-2] == "Input ended: game abandoned."
    assert re.fullmatch(r"Totals: Ann \d+, Bob \d+ \(target 1,000\)\.", lines[-1])


def test_quit():
    rc, out = run("q\n", players="Ann,Bob", seed=4)
    assert rc == 0 and "Game abandoned." in out and "Totals: Ann 0, Bob 0" in out


def test_default_players_and_missing_target_attribute():
    out = io.StringIO()
    rc = play(Namespace(players=None, seed=5), stdin=io.StringIO(""), stdout=out)
    assert rc == 0  # input ended: exit 0 like the other terminal games (issue 13.9)
    assert "Player 1" in out.getvalue() and "Player 2" in out.getvalue()
    assert "First to 1,000" in out.getvalue()


@pytest.mark.parametrize("players, words", [
    ("Ann", "2 to 8"), ("Ann,,", "2 to 8"), ("Ann,ann", "named"),
    (",".join(f"P{i}" for i in range(9)), "2 to 8"),
])
def test_bad_player_lists(players, words):
    with pytest.raises(RuleError, match=words):
        run("", players=players, seed=1)


def test_bad_target():
    with pytest.raises(RuleError, match="target"):
        run("", players="Ann,Bob", seed=1, target=45)


def test_through_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\n" * 100))
    rc = cli.main(["play", "under40", "--players", "Ann,Bob", "--seed", "3", "--target", "40"])
    out = capsys.readouterr().out
    assert rc == 0 and "wins the game after 1 round." in out


def test_terminal_under40_exits_0_at_end_of_input():
    out = io.StringIO()
    assert play(Namespace(players="Ann,Bob", seed=4), stdin=io.StringIO("r\n"), stdout=out) == 0
    assert "Input ended" in out.getvalue()
