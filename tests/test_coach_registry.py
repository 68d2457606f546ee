"""The coach finds each variant's value sources by registry (issue 34): the framework, the
decision model and the renderers never branch on a variant's name."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dicelab
from dicelab import coach
from dicelab.coach import values
from dicelab.errors import RuleError
from dicelab.games.base import GAMES

PACKAGE = Path(coach.__file__).parent


def variant_tests(path: Path) -> list[int]:
    """Lines comparing something named ``variant`` (a name or an attribute) with a string."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(isinstance(s, ast.Name) and s.id == "variant"
                    or isinstance(s, ast.Attribute) and s.attr == "variant" for s in sides)
        strings = any(isinstance(c, ast.Constant) and isinstance(c.value, str)
                      for s in sides for c in ast.walk(s))
        if named and strings:
            found.append(node.lineno)
    return found


def test_no_variant_branches_in_the_coach():
    bad = {p.name: lines for p in sorted(PACKAGE.glob("*.py")) if (lines := variant_tests(p))}
    assert bad == {}


def test_the_scan_finds_a_branch(tmp_path):
    src = tmp_path / "m.py"
    src.write_text('if game.variant == "thousand":\n    pass\nok = variant in ("a", "b")\n')
    assert variant_tests(src) == [1, 3]


def test_every_game_has_its_coach():
    assert set(coach.VARIANTS) == set(GAMES)
    for name, v in coach.VARIANTS.items():
        assert coach.SOURCES[name] == list(v.sources)
        g = dicelab.new_game(name, ["Ann", "Bob"], seed=1)
        assert [type(s) for s in coach.sources_for(g)] == list(v.sources)


def test_turns_are_numbered_as_the_table_numbers_them():
    g = dicelab.new_game("under40", ["Ann", "Bob"], seed=1)
    assert coach.VARIANTS["under40"].turn(g) == g.state.round
    g = dicelab.new_game("bones", ["Ann", "Bob"], seed=1)
    assert coach.VARIANTS["bones"].turn(g) == g.state.turn + 1


def test_an_unknown_variant_is_a_clear_error():
    with pytest.raises(RuleError, match="the coach knows bones, thousand, under40 and yahtzee"):
        values.variant_of("pig")
