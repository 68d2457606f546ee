"""Set up a position (issue 35, point 6): a game built at a stated position has exactly the odds
``dicelab odds`` prints for that position, and an impossible position is refused with the
field at fault."""
from __future__ import annotations

import json

import pytest

from dicelab.cli import main
from dicelab.errors import RuleError
from dicelab.games import setup
from dicelab.odds import fivedice as fd
from dicelab.odds import under40 as u40
from dicelab.odds import win, win_game


def _cli(capsys, *argv) -> dict:
    assert main(["odds", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_bones_position_odds_equal_the_cli(capsys):
    # kept 1 5 (150) before the roll 1 3 4 (100): two dice left
    g = setup.position("bones", ["Ann", "Bob"], totals=[2000, 3500], kept=[1, 5],
                       kept_points=150, roll=[1, 3, 4])
    st = g.state
    assert (st.turn_total, st.dice_left, st.kept, st.phase) == (250, 2, (1, 5, 1), "decide")
    assert g.current_player == 0 and g.totals() == (2000, 3500) and not g.actions
    ro = fd.readout_for(g.config, st)
    out = _cli(capsys, "bones", "--banked", "2000", "--turn-total", "250", "--dice", "2")
    assert ro.to_dict() == out["turn_state"]
    assert out["turn_state"]["stand_value"] == 250.0 and out["turn_state"]["decision"] == "stand"


def test_bones_hot_dice_and_not_on_board(capsys):
    g = setup.position("bones", ["Ann", "Bob"], totals=[0, 0], current=1, kept=[5, 5, 1, 1],
                       kept_points=300, roll=[1])
    st = g.state
    assert (st.turn_total, st.dice_left, st.hot_dice, st.current) == (400, 5, True, 1)
    out = _cli(capsys, "bones", "--banked", "0", "--turn-total", "400", "--dice", "5")
    assert fd.readout_for(g.config, st).to_dict() == out["turn_state"]
    assert out["turn_state"]["need"] == 600 and out["turn_state"]["may_stand"] is False


def test_thousand_position_in_a_pit(capsys):
    g = setup.position("thousand", ["Ann", "Bob"], totals=[200, 0], roll=[1, 2, 3, 4, 6])
    st = g.state
    assert (st.turn_total, st.dice_left) == (10, 4)
    out = _cli(capsys, "thousand", "--banked", "200", "--turn-total", "10", "--dice", "4")
    assert fd.readout_for(g.config, st).to_dict() == out["turn_state"]
    assert out["turn_state"]["need"] == 100  # the pit 200-300 must be climbed out of


def test_bones_win_chance_equals_the_cli(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    rules = {"target": 1000, "min_on_board": 300}
    g = setup.position("bones", ["Ann", "Bob"], {**rules}, totals=[600, 950], kept=[5],
                       kept_points=350, roll=[1, 3, 4, 6])
    assert (g.state.turn_total, g.state.dice_left) == (450, 3)
    t = win.table("bones", progress=False, cache=tmp_path, **rules)
    r = win_game.readout(g, table=t)
    out = _cli(capsys, "bones", "--win", "--banked", "600", "--opponent", "950",
               "--turn-total", "450", "--dice", "3", "--target", "1000",
               "--min-on-board", "300")
    assert r.win_chance == out["win_chance"] and r.decision == out["decision"]
    assert r.stand_win_chance == out["stand_win_chance"]


def test_under40_position_round_odds(capsys):
    g = setup.position("under40", ["Ann", "Bob"], totals=[80, 0], round_scores=[26, 18],
                       current=1, starter=0, dice=[3, 6])
    assert g.must_beat() == 26 and g.state.phase == "decide" and g.round_others() == (26,)
    ro = u40.readout(18, g.round_others())
    out = _cli(capsys, "under40", "--score", "18", "--leader", "26")
    assert float(ro.roll_win) == out["round"]["roll_win_chance"]
    assert ro.decision == out["round"]["decision"] and out["round"]["may_stop"] is False


def test_ui_odds_of_a_set_up_position(capsys):
    from dicelab.ui.odds_view import fivedice_odds
    from dicelab.ui.play import Play

    g = setup.position("bones", ["Ann", "Bob", "Cy"], totals=[0, 1500, 700], current=2,
                       kept=[1], kept_points=100, roll=[5, 5, 2, 3])
    odds = fivedice_odds(Play(g, computers=False))
    out = _cli(capsys, "bones", "--banked", "700", "--turn-total", "200", "--dice", "2")
    assert odds.readout.to_dict() == out["turn_state"]


def test_yahtzee_position():
    g = setup.position("yahtzee", ["Ann", "Bob"],
                       cards=[{"aces": 3, "chance": 20}, {"sixes": 18}], current=1,
                       dice=[6, 6, 6, 2, 3], rolls=2)
    assert g.totals() == (23, 18) and g.rerolls_left == 1 and g.current_player == 1
    assert g.options_now()["three_of_a_kind"] == 23 and "sixes" not in g.options_now()


@pytest.mark.parametrize("variant, fields, field", [
    ("bones", dict(totals=[2010, 0]), "totals"),
    ("bones", dict(totals=[-50, 0]), "totals"),
    ("bones", dict(totals=[0]), "totals"),
    ("bones", dict(totals=[0, 0], current=2), "current"),
    ("bones", dict(totals=[0, 0], roll=[2, 3, 4, 6, 6]), "roll"),
    ("bones", dict(totals=[0, 0], kept=[2], kept_points=50, roll=[1, 1, 1, 1]), "kept"),
    ("bones", dict(totals=[0, 0], kept=[1], kept_points=100, roll=[1, 1]), "roll"),
    ("bones", dict(totals=[0, 0], kept=[1]), "kept_points"),
    ("bones", dict(totals=[0, 0], kept=[1], kept_points=100), "roll"),
    ("bones", dict(totals=[50, 0], on_board=[False, False]), "on_board"),
    ("bones", dict(totals=[10000, 0], current=1), "final_from"),
    ("bones", dict(totals=[10000, 0], current=0, final_from=0), "current"),
    ("bones", dict(totals=[0, 0], bolts=[1, 0]), "bolts"),
    ("thousand", dict(totals=[1005, 0]), "totals"),
    ("thousand", dict(totals=[500, 0], on_barrel=[True, False]), "on_barrel"),
    ("thousand", dict(totals=[0, 0], bolts=[3, 0]), "bolts"),
    ("under40", dict(totals=[0, 0], round_scores=[0, 5], current=1, starter=0),
     "round_scores"),
    ("under40", dict(totals=[0, 0], round_scores=[0, 40]), "round_scores"),
    ("under40", dict(totals=[1000, 0], round_scores=[0, 0]), "totals"),
    ("yahtzee", dict(cards=[{"aces": 7}, {}]), "cards"),
    ("yahtzee", dict(cards=[{"aces": 3}, {"twos": 4, "threes": 3, "sixes": 6}]), "cards"),
    ("yahtzee", dict(cards=[{"aces": 3}, {}], yahtzee_bonuses=[1, 0], current=1),
     "yahtzee_bonuses"),
    ("under40", dict(totals=[0, 0], round_scores=[0, 7]), "round_scores"),
    ("yahtzee", dict(cards=[{}, {}], dice=[1, 2, 3]), "dice"),
    ("yahtzee", dict(cards=[{}, {}], dice=[1, 2, 3, 4, 5], rolls=4), "rolls"),
])
def test_impossible_positions_are_refused(variant, fields, field):
    with pytest.raises(setup.PositionError) as info:
        setup.position(variant, ["Ann", "Bob"], **fields)
    assert info.value.field == field and isinstance(info.value, RuleError)
    assert str(info.value).startswith(field + ":")


def test_a_set_up_game_is_not_saved_as_a_whole_game():
    g = setup.position("bones", ["Ann", "Bob"], totals=[0, 0])
    with pytest.raises(RuleError):
        g.to_json()
    with pytest.raises(setup.PositionError):
        setup.position("chess", ["Ann"])
