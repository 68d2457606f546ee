"""The strategy lab (issue 4): reproducible, and agreeing with the real game models."""
import json
import math
import subprocess
import sys

import numpy as np
import pytest

from dicelab.errors import RuleError
from dicelab.lab import simulate, wilson
from dicelab.lab.fivedice import Policy, plain_turns, roll_tables, simulate_turns
from dicelab.lab.models import play_games
from dicelab.rules import bones, thousand


def test_roll_tables_match_the_rules():
    for variant, score in (("bones", bones.score), ("thousand", thousand.score)):
        pts, cnt = roll_tables(variant)
        rng = np.random.default_rng(0)
        for u in rng.integers(0, 6 ** 5, size=300):
            faces = [(int(u) // 6 ** i) % 6 + 1 for i in range(5)]
            for n in range(1, 6):
                sc = score(faces[:n])
                assert (pts[n * 7776 + u], cnt[n * 7776 + u]) == (sc.points, sc.counting)


def test_same_seed_same_result():
    a = simulate("bones", "chicken,gambler", turns=10_000, seed=5).to_dict()
    b = simulate("bones", "chicken,gambler", turns=10_000, seed=5).to_dict()
    assert a == b
    c = simulate("bones", "chicken,gambler", games=200, seed=5).to_dict()
    assert c == simulate("bones", "chicken,gambler", games=200, seed=5).to_dict()


@pytest.mark.parametrize("threshold", [100, 300, 1000])
def test_vectorised_turns_agree_with_plain_python(threshold):
    v = simulate_turns("bones", Policy("t", threshold), 400_000, seed=1)
    p = np.array(plain_turns("bones", threshold, 20_000, seed=2))
    se = math.sqrt(v.var() / v.size + p.var() / p.size)
    assert abs(v.mean() - p.mean()) < 4 * se


def test_vectorised_games_agree_with_the_game_models():
    players = ["chicken", "gambler"]
    n_model = 300
    wins, _, _ = play_games("bones", players, n_model, seed=3, settings={"target": 3000})
    vec = simulate("bones", players, games=20_000, seed=4, target=3000)
    for i, row in enumerate(vec.rows):
        lo, hi = wilson(int(wins[i]), n_model)
        # the model's interval (wide) must contain the vectorised estimate (narrow), with slack
        assert lo - 0.03 <= row["win_rate"] <= hi + 0.03


# 200 games through the game models take minutes: 60 in the everyday suite (a wider interval)
@pytest.mark.parametrize("n", [60, pytest.param(200, marks=pytest.mark.slow)])
def test_vectorised_thousand_games_agree_with_the_game_models(n):
    players = ["threshold:30", "aggressive"]
    wins, _, _ = play_games("thousand", players, n, seed=3)
    vec = simulate("thousand", players, games=10_000, seed=4)
    for i, row in enumerate(vec.rows):
        lo, hi = wilson(int(wins[i]), n)
        assert lo - 0.03 <= row["win_rate"] <= hi + 0.03


def test_choose_keepers_games_play_through_the_models():
    r = simulate("bones", ["optimal", "chicken"], games=4, seed=1, choose_keepers=True,
                 target=2000)
    assert sum(row["wins"] for row in r.rows) == 4
    with pytest.raises(RuleError, match="choose_keepers"):
        simulate("bones", ["optimal"], turns=10, choose_keepers=True)


def test_bad_requests():
    with pytest.raises(RuleError):
        simulate("bones", "chicken", games=10, turns=10)
    with pytest.raises(RuleError):
        simulate("bones", "", games=10)
    with pytest.raises(RuleError):
        simulate("bones", "chicken", games=0)
    with pytest.raises(RuleError):
        simulate("under40", "cautious", turns=10)


def test_cli_json():
    out = subprocess.run([sys.executable, "-m", "dicelab.cli", "simulate", "bones", "--players",
                          "chicken,aggressive", "--turns", "20000", "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert set(data["mean_turn_score"]) == {"chicken", "aggressive"}
    assert 200 < data["mean_turn_score"]["chicken"] < 300


def test_plot_and_table():
    r = simulate("bones", "chicken,gambler", turns=5_000, seed=1)
    assert "mean turn score" in r.table()
    fig = r.plot()
    assert fig.title.text.startswith("bones")
    g = simulate("bones", "chicken,gambler", games=100, seed=1)
    assert "win rate" in g.table() and g.plot() is not None


@pytest.mark.parametrize("variant, players", [
    ("bones", ["chicken", "aggressive", "gambler", "optimal", "threshold:1000:nohabit"]),
    ("thousand", ["chicken", "gambler", "optimal"]),
])
def test_simulated_turn_means_agree_with_exact_odds(variant, players):
    from dicelab.odds.fivedice import optimal_turn_ev, strategy_turn_ev
    from dicelab.settings import SETTINGS

    # Thousand's exact value is for a player at 0 with the barrel; the lab's turns have none
    rules = SETTINGS[variant](barrel=0) if variant == "thousand" else variant
    r = simulate(variant, players, turns=300_000, seed=11)
    for row in r.rows:
        p = row["player"]
        exact = optimal_turn_ev(rules) if p == "optimal" else strategy_turn_ev(rules, p)
        lo, hi = row["mean_turn_score_ci"]
        half = (hi - lo) / 2
        assert abs(row["mean_turn_score"] - exact) < 2 * half, (p, row, exact)


def test_thousand_games_that_never_end_are_stopped_and_reported(monkeypatch):
    """RULES.md Thousand: bolts cost points and "totals may go negative"; two gamblers drift
    below zero for ever (seed 0: no winner in 200,000 actions). The lab stops such a game at
    its turn limit and says so, where it used to hang."""
    from dicelab.lab import models, results

    res = simulate("thousand", "gambler,gambler", games=3, seed=0)
    assert res.unfinished == 2
    assert sum(r["wins"] for r in res.rows) == 1
    assert res.to_dict()["unfinished_games"] == 2
    assert "2 of 3 games were still going after the turn limit" in res.table()
    assert res.game_lengths.max() == results.MAX_TURNS
    # the game models stop at the same limit (a smaller one here, to be quick)
    monkeypatch.setattr(results, "MAX_TURNS", 40)
    wins, totals, turns = models.play_games("thousand", ["gambler", "gambler"], 2, seed=0)
    assert wins.sum() < 2 and turns.max() >= 40


def test_finished_games_report_no_unfinished():
    res = simulate("thousand", "chicken,aggressive", games=20, seed=1)
    assert res.unfinished == 0 and sum(r["wins"] for r in res.rows) == 20
    assert "still going" not in res.table()


def test_a_game_played_through_the_models_counts_its_length():
    # Under40's state counts rounds, not turns: the model runner counts its actions (it gave 0)
    from dicelab.lab.models import play_games

    wins, totals, lengths = play_games("under40", ["cautious", "optimal"], 5, seed=1)
    assert wins.sum() == 5
    assert (lengths > 10).all()
