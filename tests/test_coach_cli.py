"""The coach on the command line (issue 17): ``dicelab review GAME.json``, the terminal games'
``h`` and ``--coach``, and ``dicelab simulate --json``'s mean value lost per decision."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pexpect
import pytest

import dicelab
from dicelab.cli import main
from dicelab.games import Seat
from dicelab.players import make_player
from dicelab.terminal import fivedice as t5
from dicelab.terminal import under40 as t40
from dicelab.terminal import yahtzee as tyz

# the points alone, whatever the user's cache holds (test_coach_win.py: the win column)
pytestmark = pytest.mark.usefixtures("no_win_table")
ROOT = Path(__file__).resolve().parents[1]
GAMES = {"bones": (["chicken", "optimal"], {}), "thousand": (["gambler", "optimal"], {}),
         "under40": (["cautious", "threshold:30"], {}),
         "yahtzee": (["greedy"], {"preset": "no_bonus"})}


def saved(tmp_path, variant, seed=2):
    specs, settings = GAMES[variant]
    g = dicelab.new_game(variant, [Seat(f"P{i + 1}", make_player(variant, s), strategy=s)
                                   for i, s in enumerate(specs)], seed=seed, **settings)
    g.play_computers()
    path = tmp_path / f"{variant}.json"
    path.write_text(g.to_json())
    return g, path


@pytest.mark.parametrize("variant", list(GAMES))
def test_review_of_a_saved_game(tmp_path, capsys, variant):
    g, path = saved(tmp_path, variant)
    assert main(["review", str(path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(dicelab.review(g).to_json())
    assert printed["finished"] and printed["decisions"]
    assert main(["review", str(path), "--seat", "P1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Review of a {variant} game")
    assert "P1 (computer):" in text and "P2 (computer)" not in text


def test_bad_files_get_a_clear_error(tmp_path, capsys):
    _, good = saved(tmp_path, "bones")
    cases = {"missing.json": None, "text.json": "hello", "array.json": "[1, 2]",
             "notgame.json": '{"dicelab": 1, "variant": "bones"}',
             "binary.json": b"\x89PNG\x00\xff", "wrongmove.json": None}
    data = json.loads(good.read_text())
    data["actions"].insert(0, {"type": "stand"})  # a stand before the first roll: illegal
    cases["wrongmove.json"] = json.dumps(data)
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            path.write_text(content)
        assert main(["review", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert err.startswith(f"dicelab: {path}") and "usage: dicelab review GAME.json" in err
    assert main(["review", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["review", str(good), "--seat", "Zed"]) == 2
    assert "no seat 'Zed'" in capsys.readouterr().err


def test_a_bad_file_from_the_shell_has_no_traceback(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    run = subprocess.run([sys.executable, "-m", "dicelab.cli", "review", str(path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and "usage: dicelab review" in run.stderr
    assert "not a saved dicelab game" in run.stderr


def test_simulate_json_adds_the_value_lost_per_decision(capsys):
    assert main(["simulate", "bones", "--players", "chicken,optimal", "--games", "30",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    chicken, optimal = out["players"]
    assert optimal["mean_lost_per_decision"] <= 1e-9
    assert chicken["mean_lost_per_decision"] > 10
    assert out["coach"]["games"] == 20 and out["coach"]["unit"] == "expected points of the turn"
    assert out["coach"]["players"][0]["decisions"] > 50


def test_simulate_json_adds_the_win_chance_lost_per_decision(capsys, tmp_path, monkeypatch):
    """Two-seat Bones with its win table (a target of 2,000 builds it on the spot): each
    player's mean win chance lost per decision, the reviews' own numbers averaged; `winning`
    loses none, Chicken some."""
    from dicelab.lab.review import coach_losses
    from dicelab.odds import win

    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path / "win")
    assert main(["simulate", "bones", "--players", "chicken,winning", "--games", "4",
                 "--target", "2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    chicken, winning = out["players"]
    assert winning["mean_win_lost_per_decision"] <= 1e-9
    assert chicken["mean_win_lost_per_decision"] > 1e-3
    c = out["coach"]
    assert c["win_unit"] == "chance to win the game" and c["games"] == 4
    # the same numbers from the reviews of the same games
    want = coach_losses("bones", ["chicken", "winning"], 4, 0, {"target": 2000})
    assert want == c
    for row in c["players"]:
        assert row["win_decisions"] == row["decisions"]  # every decision has a chance
        assert row["mean_win_lost_per_decision"] == pytest.approx(
            row["win_lost"] / row["win_decisions"])
    # and by hand: one game's review, averaged here
    g = dicelab.new_game("bones", [Seat("a", make_player("bones", "chicken"), strategy="chicken"),
                                   Seat("b", make_player("bones", "winning"), strategy="winning")],
                         seed=2, target=2000)
    g.play_computers()
    r = dicelab.review(g)
    mine = [e.extra["win"].lost for e in r if e.player == "a"]
    assert len(mine) == 8 and sum(mine) > 0
    assert r.seats["a"].mean_extra_lost("win") == pytest.approx(sum(mine) / len(mine))
    assert len(mine) == r.seats["a"].decisions


def test_simulate_json_leaves_the_win_chance_out_without_its_table(capsys):
    """No table for these rules (and none is built in tests): no win numbers, a note."""
    assert main(["simulate", "bones", "--players", "chicken,optimal", "--games", "3",
                 "--target", "5000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "mean_win_lost_per_decision" not in out["players"][0]
    assert "win_unit" not in out["coach"]
    assert any("chance to win is left out" in n for n in out["coach"]["notes"])


# ----- the terminal games --------------------------------------------------------------------
def test_bones_terminal_h_and_coach_with_pexpect():
    child = pexpect.spawn(sys.executable, ["-m", "dicelab.cli", "play", "bones", "--players",
                                           "Ann,Cpu=chicken", "--seed", "3", "--min-on-board",
                                           "50", "--target", "1000", "--coach"],
                          cwd=str(ROOT), encoding="utf-8", timeout=60)
    asked = standing = 0
    while True:
        i = child.expect([r"\[r\]oll\? > ", r"\[r\]oll again or \[s\]tand\? > ",
                          r"Review of a bones game", pexpect.EOF])
        if i == 0:
            child.sendline("r")
        elif i == 1:
            if not asked:
                child.sendline("h")
                child.expect(r"Coach: best is (rolling|standing) \(expected points of the "
                             r"turn: ")
                asked += 1
                continue
            child.sendline("s")
            child.expect(r"Coach: (Best play: standing|Standing cost [\d.,]+ points: rolling "
                         r"was worth)")
            standing += 1
        elif i == 2:
            break
        else:
            pytest.fail("the game ended without a review")
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in out
    assert asked == 1 and standing > 2
    assert "Ann: " in out and "Cpu (computer): " in out and "lost in all" in out


def test_under40_terminal_h_and_coach():
    args = SimpleNamespace(players="Ann,Bob", seed=4, target=300, coach=True)
    out = io.StringIO()
    code = t40.play(args, stdin=io.StringIO("r\nh\ns\n" * 400), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "Coach: best is" in text and "chance to win the round" in text
    assert "Coach: Best play: stopping" in text or "Coach: Stopping cost" in text
    assert "Review of a under40 game" in text and "Ann: " in text
    # without --coach: h still helps, no review at the end
    out = io.StringIO()
    t40.play(SimpleNamespace(players="Ann,Bob", seed=4, target=300), stdin=io.StringIO(
        "r\nh\ns\n" * 400), stdout=out)
    assert "Coach: best is" in out.getvalue() and "Review of" not in out.getvalue()


def test_yahtzee_terminal_h_and_coach():
    args = SimpleNamespace(players="Ann", seed=5, rules="no_bonus", coach=True)
    keys = "h\nn\nh\nchance\n" + "".join(f"n\n{b}\n" for b in (
        "aces", "twos", "threes", "fours", "fives", "sixes", "three of a kind",
        "four of a kind", "full house", "small straight", "large straight", "yahtzee"))
    out = io.StringIO()
    assert tyz.play(args, stdin=io.StringIO(keys), stdout=out) == 0
    text = out.getvalue()
    assert text.count("Coach: best is") == 2 and "expected final score" in text
    assert "Review of a yahtzee game" in text and "Ann: 13 decisions" in text


def test_bones_terminal_keeps_help():
    args = SimpleNamespace(variant="bones", players="Ann,Bob", seed=3, preset=None,
                           target=None, min_on_board=None, choose_keepers=False)
    out = io.StringIO()
    t5.play(args, stdin=io.StringIO("h\n?\nq\n"), stdout=out)
    text = out.getvalue()
    assert "Coach: nothing to decide now: the rules leave one move." in text
    assert "h asks the coach" in text
