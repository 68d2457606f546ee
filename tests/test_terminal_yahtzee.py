"""The console Yahtzee of seed 004 (RULES.md "Yahtzee": "The terminal game follows seed 004 to
the letter"): y/n to re-roll, die positions 1..5, the box typed by name, a warning and the prompt
again on invalid input, a filled box wastes the round, and the whole card at the end.

The pseudo-terminal tests drive ``dicelab play yahtzee`` as a user would, and follow every step
on a model game with the same seed to check the dice drawn and the final card.
"""
import io
import os
import re
import sys
from argparse import Namespace
from pathlib import Path

import pexpect
import pytest

from dicelab import cli
from dicelab.errors import RuleError
from dicelab.games import yahtzee as ymod
from dicelab.games.yahtzee import YahtzeeGame
from dicelab.rules.yahtzee import BOXES, LABELS
from dicelab.settings import YahtzeeSettings
from dicelab.terminal.yahtzee import dice_art, parse_positions, play

ROOT = Path(__file__).resolve().parents[1]
REROLL_PROMPT = r"Re-roll some dice\? \(y/n\) \[(\d) re-rolls? left\]: "
POSITIONS_PROMPT = r"Which dice to re-roll\? Positions 1 to 5 \(e\.g\. 1 3 5\): "
BOX_PROMPT = r"Score in which box\? Type its name as shown \(e\.g\. Full House\): "


def read_dice(text: str) -> tuple[int, ...]:
    """The dice of the last drawing in ``text``, counted from their pips."""
    lines = text.replace("\r", "").split("\n")
    tops = [i for i, line in enumerate(lines) if line.strip().startswith("+-------+")]
    top = tops[-2]  # the last drawing's top edge (its bottom edge is the last one)
    rows = lines[top + 1:top + 4]
    return tuple(sum(row[9 * k + k + 1:9 * k + k + 8].count("o") for row in rows)
                 for k in range(5))


def final_card(text: str) -> dict[str, int]:
    """Label -> points of the card printed at the end."""
    tail = text.replace("\r", "").split("Final card for")[1]
    return {m.group(1).strip(): int(m.group(2))
            for m in re.finditer(r"^  (\S[A-Za-z ]+?)\s+(-?\d+)$", tail, re.MULTILINE)}


def seed_model(seed):
    return YahtzeeGame(["Player"], YahtzeeSettings("seed", filled_box_wastes_round=True), seed)


# ----- a real pseudo-terminal --------------------------------------------------------------

def spawn(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
    return pexpect.spawn(sys.executable, ["-m", "dicelab.cli", "play", "yahtzee", *args],
                         cwd=str(ROOT), env=env, encoding="utf-8", timeout=60,
                         dimensions=(60, 120))


class Driver:
    """Types into the game and applies the same actions to a model game."""

    def __init__(self, child, model):
        self.child, self.model, self.seen = child, model, []

    def expect(self, pattern):
        self.child.expect(pattern)
        self.seen.append(self.child.before + self.child.after)
        return self.child.before

    def send(self, line, action=None):
        self.child.sendline(line)
        if action:
            self.model.apply(action)

    def reroll_prompt(self, left, drawn=True):
        before = self.expect(REROLL_PROMPT)
        assert int(self.child.match.group(1)) == left
        if drawn:  # the drawing shows the model's dice
            assert read_dice(before) == self.model.dice


def test_whole_game_in_a_pty_with_invalid_input_on_the_way():
    seed = 7
    d = Driver(spawn("--rules", "seed", "--seed", str(seed)), seed_model(seed))
    d.expect(r"Yahtzee, seed rules \(3 re-rolls a round, no bonuses, no joker\); seed 7\.")
    # round 1: a bad y/n answer, a bad position, all three re-rolls, an unknown box
    d.model.apply("roll")
    d.reroll_prompt(3)
    d.send("maybe")
    d.expect(r"Warning: 'maybe' is not a valid answer: type y to choose dice to re-roll, "
             r"or n to keep these dice and score them\.")
    d.reroll_prompt(3, drawn=False)  # the same prompt again, under the same drawing
    d.send("y")
    d.expect(POSITIONS_PROMPT)
    d.send("6")
    d.expect(r"Warning: '6' is not a valid choice: type die positions from 1 to 5")
    d.expect(POSITIONS_PROMPT)
    d.send("1,3", "reroll 1 3")
    d.reroll_prompt(2)
    d.send("y")
    d.expect(POSITIONS_PROMPT)
    d.send("135", "reroll 1 3 5")
    d.reroll_prompt(1)
    d.send("Y")
    d.expect(POSITIONS_PROMPT)
    d.send("2 4", "reroll 2 4")
    before = d.expect("No re-rolls left: choose a box to score these dice.")
    assert read_dice(before) == d.model.dice
    d.expect(BOX_PROMPT)
    d.send("Fullest House")
    d.expect(r"Warning: 'Fullest House' is not a box: type one of the names in the list")
    d.expect(BOX_PROMPT)
    d.send("Aces", "score aces")
    d.expect(rf"Player scores {d.model.card()['aces']} in Aces\.")
    # round 2: a filled box wastes the round
    d.model.apply("roll")
    d.reroll_prompt(3)
    d.send("n")
    d.expect(BOX_PROMPT)
    d.send("aces", "score aces")
    d.expect(r"\*\*\* The Aces box is already filled: no score this round, "
             r"the round is wasted\. \*\*\*")
    assert d.model.state.wasted == (1,)
    # the other twelve boxes, typed as shown, in any case
    for i, box in enumerate(BOXES[1:]):
        d.expect(r"=== Round \d+: Player, (\d+) box(es)? to fill ===")
        assert int(d.child.match.group(1)) == 12 - i
        d.model.apply("roll")
        d.reroll_prompt(3)
        d.send("n")
        d.expect(BOX_PROMPT)
        typed = LABELS[box].upper() if i % 2 else LABELS[box]
        d.send(typed, f"score {box}")
    d.expect(r"Final card for Player:")
    d.child.expect(pexpect.EOF)
    out = "".join(d.seen) + d.child.before
    d.child.close()
    assert d.child.exitstatus == 0
    assert "Traceback" not in out
    assert d.model.is_over
    printed = final_card(out)
    assert {b: printed[LABELS[b]] for b in BOXES} == d.model.card(0)
    assert printed["Upper total"] == d.model.upper_total(0)
    assert printed["Upper bonus"] == 0 and printed["Yahtzee bonus"] == 0
    assert printed["Total"] == d.model.total(0) == sum(d.model.card(0).values())
    assert "14 rounds played, 1 wasted on a filled box." in out


def test_end_of_input_in_a_pty_exits_cleanly():
    child = spawn("--seed", "3")
    child.expect(r"official rules \(2 re-rolls a round, upper bonus 35 at 63, Yahtzee bonus "
                 r"100, forced joker\); seed 3\.")
    child.expect(REROLL_PROMPT)
    child.sendeof()
    child.expect(r"Input ended: game abandoned with 0 of 13 boxes filled, total 0\. "
                 r"Replay it with --seed 3\.")
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in out


# ----- play() with in-memory streams -------------------------------------------------------

def run(lines, rules="seed", seed=7, players=None):
    out = io.StringIO()
    code = play(Namespace(rules=rules, seed=seed, players=players),
                stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return code, out.getvalue()


def test_whole_game_in_memory_matches_the_model():
    lines = ["", "y", "0", "1 1", "1 2", "n", "chance"]       # round 1 with bad answers
    lines += ["n", "Chance"]                                 # round 2: wasted
    lines += [x for b in BOXES[:-1] for x in ("n", LABELS[b].lower())]
    code, out = run(lines)
    assert code == 0
    model = seed_model(7)
    for a in ["roll", "reroll 1 2", "score chance", "roll", "score chance"]:
        model.apply(a)
    for b in BOXES[:-1]:
        model.apply("roll")
        model.apply(f"score {b}")
    assert model.is_over
    assert "Warning: '' is not a valid answer" in out
    assert "Warning: '0' is not a valid choice" in out
    assert "Warning: '1 1' is not a valid choice" in out
    assert "The Chance box is already filled" in out
    printed = final_card(out)
    assert {b: printed[LABELS[b]] for b in BOXES} == model.card(0)
    assert printed["Total"] == model.total(0)
    assert out.count("=== Round") == 14


def test_the_card_lists_every_box_with_its_value_and_what_the_dice_would_score(rig):
    rig(ymod).add((3, 3, 4, 3, 4), (1, 4, 6, 2, 3))
    _, out = run(["n", "full house", "n"])
    first, second = out.split("=== Round 2")
    assert "Re-roll some dice? (y/n) [3 re-rolls left]: " in first
    assert re.search(r"^  Full House\s+-\s+25$", first, re.MULTILINE)
    assert re.search(r"^  Threes\s+-\s+9$", first, re.MULTILINE)
    assert "Player scores 25 in Full House." in first
    assert re.search(r"^  Full House\s+25$", second, re.MULTILINE)       # filled: no offer
    assert re.search(r"^  Small Straight\s+-\s+30$", second, re.MULTILINE)
    assert read_dice(second) == (1, 4, 6, 2, 3)
    assert second.rstrip().endswith("total 25. Replay it with --seed 7.")


def test_forced_joker_in_the_terminal(rig):
    rig(ymod).add((3,) * 5, (3,) * 5)
    _, out = run(["n", "yahtzee", "n", "chance", "threes"], rules="official")
    assert "Forced joker rule: this Yahtzee may go only in Threes." in out
    assert ("Warning: Yahtzee forced joker rule: this Yahtzee of 3s may go only in Threes, "
            "not in Chance.") in out
    assert "Player earns a Yahtzee bonus of 100" in out
    assert "total 165." in out  # 50 + 15 + 100


def test_rerolls_run_out(rig):
    _, out = run(["y", "1", "y", "2 3"], rules="official")
    assert "[2 re-rolls left]" in out and "[1 re-roll left]" in out
    assert "No re-rolls left: choose a box to score these dice." in out
    assert out.count("Re-roll some dice?") == 2


def test_end_of_input_at_once():
    code, out = run([])
    assert code == 0 and "Input ended" in out


def test_player_name_and_one_player_only():
    _, out = run([], players="Ann")
    assert "=== Round 1: Ann, 13 boxes to fill ===" in out
    with pytest.raises(RuleError, match="for one player"):
        run([], players="Ann,Bob")
    with pytest.raises(RuleError, match="presets are official, seed"):
        run([], rules="house")


def test_the_cli_reads_the_process_streams(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert cli.main(["play", "yahtzee", "--rules", "seed", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "seed rules" in out and "Input ended" in out


@pytest.mark.parametrize("text, positions", [
    ("1 3 5", (0, 2, 4)), ("1,3,5", (0, 2, 4)), ("135", (0, 2, 4)), (" 5, 1 ", (0, 4)),
    ("2", (1,)), ("54321", (0, 1, 2, 3, 4)),
    ("", None), ("0", None), ("6", None), ("1 1", None), ("a", None), ("1-3", None),
    ("123456", None), ("y", None),
])
def test_positions_as_typed(text, positions):
    assert parse_positions(text) == positions


def test_dice_art_shows_every_face_and_the_positions():
    for dice in [(1, 2, 3, 4, 5), (6, 5, 4, 3, 2), (6, 6, 1, 1, 3)]:
        art = dice_art(dice)
        assert read_dice(art) == dice
        assert art.splitlines()[-1].split() == ["1", "2", "3", "4", "5"]
        assert all(len(line) <= 49 for line in art.splitlines())
