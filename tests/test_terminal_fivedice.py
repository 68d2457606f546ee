"""`dicelab play bones|thousand`: hot-seat terminal play (issue 2, RULES.md)."""
import io
from types import SimpleNamespace

from dicelab.terminal.fivedice import play


def args(variant, **kw):
    base = dict(variant=variant, players="Ann,Bob", seed=3, preset=None, target=None,
                min_on_board=None, choose_keepers=False)
    base.update(kw)
    return SimpleNamespace(**base)


def run(a, keys):
    out = io.StringIO()
    code = play(a, stdin=io.StringIO(keys), stdout=out)
    return code, out.getvalue()


def test_bones_game_to_the_end_with_bad_input():
    # stand whenever allowed: with min 50 and a low target the game ends quickly
    keys = "x\n" + "s\nr\n" * 400
    code, out = run(args("bones", min_on_board=50, target=1000), keys)
    assert code == 0
    assert "Please type r to roll or s to stand" in out
    assert "Seating roll-off" in out and "Bones · hypercard rules · on the board at 50" in out
    assert "wins with" in out
    assert "✓" in out and "turn total" in out


def test_bones_refused_stand_explains_the_minimum():
    code, out = run(args("bones"), "r\ns\nq\n")
    assert "Not allowed: Bones: to get on the board a turn needs 600" in out
    assert "To stand you need 600 this turn" in out
    assert "Game left unfinished" in out


def test_thousand_status_and_hints():
    keys = "r\n" * 60 + "s\n" * 5
    code, out = run(args("thousand", players="Ann,Bob,Cy"), keys)
    assert code == 0
    assert "Thousand · opening 50 · pits 200-300, 600-700 · barrel 880 · target 1000" in out
    assert "not opened" in out
    assert "bolts ⚡" in out  # rolling on forever busts sooner or later
    assert "a first stand needs 50" in out


def test_eof_ends_cleanly():
    code, out = run(args("thousand"), "")
    assert code == 0 and "Game left unfinished" in out


def test_computer_seat_plays_itself():
    code, out = run(args("bones", players="Ann,Robo=random", min_on_board=50, target=1000),
                    "s\nr\n" * 400)
    assert "Robo (computer)" in out and "wins with" in out


def test_the_prompt_offers_only_legal_actions():
    """Issue 40: "[s]tand" is offered only where standing is allowed (Bones at 600 to get on
    the board: a first roll of a few hundred may only roll again)."""
    code, out = run(args("bones"), "r\ns\nq\n")
    lines = out.splitlines()
    need = [i for i, line in enumerate(lines) if "To stand you need 600 this turn" in line]
    assert need, out
    after = "\n".join(lines[need[0] + 1:need[0] + 2])
    assert "[r]oll again? >" in after and "[s]tand" not in after, after
    code, out = run(args("bones", min_on_board=50), "r\n" * 3 + "q\n")
    allowed = [line for line in out.splitlines() if "You may stand" in line]
    assert allowed and "[r]oll again or [s]tand? >" in out
