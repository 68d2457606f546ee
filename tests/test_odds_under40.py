"""Exact odds of Under40 (dicelab.odds.under40): hand-derived fractions, policy evaluation,
and simulation with the rules (and the game model)."""
from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from dicelab.cli import main
from dicelab.errors import RuleError
from dicelab.odds import under40 as u40
from dicelab.rules.under40 import roll_points

F = Fraction
Z = 4.5  # Monte Carlo tolerance in standard errors


def close(freq, p, n):
    return abs(freq - p) <= Z * math.sqrt(p * (1 - p) / n) + 1e-12


def test_roll_distribution():
    d = u40.roll_distribution()
    assert sum(d.values()) == 1 and all(x % 2 == 0 for x in d)
    # (1,1) 2, (1,2) 2, (1,3) 3 - 1 = 2: five of the 36 rolls
    assert d[2] == F(5, 36) and d[72] == F(1, 36) and d[12] == F(6, 36)
    for a in range(1, 7):
        for b in range(1, 7):
            assert roll_points(a, b) in d


def test_bust_and_exact_40_by_hand():
    # from 0 only (5,5) = 50 and (6,6) = 72 pass 40
    assert u40.bust_chance(0) == F(2, 36)
    # from 38 only a 2 does not bust
    assert u40.bust_chance(38) == F(31, 36) and u40.exact_40_chance(38) == F(5, 36)
    assert u40.exact_40_chance(8) == F(1, 36)    # 32: (4,4)
    assert u40.exact_40_chance(10) == F(2, 36)   # 30: (5,6), (6,5)
    assert u40.exact_40_chance(0) == 0


def test_above_chance_by_hand():
    assert u40.above_chance(36, 36) == F(5 + 4, 36)           # a 2 or a 4
    # from 34: a 4 (38) or a 6 (40) is above; a 2 lands on 36, then a 2 or a 4
    assert u40.above_chance(34, 36) == F(4 + 4, 36) + F(5, 36) * F(9, 36)
    assert u40.above_chance(20, 10) == 1


def test_round_by_hand():
    # at 38 against 36: rolling wins only with a 2; stopping leaves the other at 36 needing
    # exactly 40: a 4 at once, or a 2 then a 2
    r = u40.round_readout(38, 36)
    assert r.roll_win == F(5, 36)
    assert r.stop_win == 1 - (F(4, 36) + F(5, 36) * F(5, 36))
    assert r.decision == "stop" and r.win == r.stop_win
    r = u40.round_readout(20, 24)
    assert not r.may_stop and r.stop_win is None and r.decision == "roll"
    assert u40.round_win_chance(20, 24, my_turn=False) == 1 - u40.round_readout(24, 20).win


# ----- optimality: no other policy does better against the optimal opponent ------------------
def evaluate(me, opp):
    """Exact chance that the player on turn at (0, 0) wins when they play ``me`` and the other
    plays ``opp``; a policy maps (m, o) with m > o to True (stop) or False (roll)."""
    dist = [(x, float(p)) for x, p in u40.roll_distribution().items()]

    @cache
    def v(m, o, mine):  # chance that "me" wins, with the player on turn at m against o
        pol = me if mine else opp
        if m > o and pol(m, o):
            return v(o, m, not mine)
        win = 0.0
        for x, p in dist:
            if m + x == 40:
                win += p * (1.0 if mine else 0.0)
            elif m + x > 40:
                win += p * (0.0 if mine else 1.0)
            else:
                win += p * v(m + x, o, mine)
        return win
    return v(0, 0, True)


def optimal(m, o):
    return u40.round_decision(m, o) == "stop"


def test_the_optimal_policy_is_a_best_response():
    value = float(u40.round_win_chance(0, 0))
    assert evaluate(optimal, optimal) == pytest.approx(value, abs=1e-12)
    others = [lambda m, o: True, lambda m, o: m >= 38] + \
             [lambda m, o, k=k: m >= k for k in range(4, 38, 6)]
    for pol in others:
        assert evaluate(pol, optimal) <= value + 1e-12  # as the starter
        assert 1 - evaluate(optimal, pol) <= 1 - value + 1e-12  # as the follower


# ----- simulation with the rules ---------------------------------------------------------------
POINTS = np.array([[roll_points(a, b) for b in range(1, 7)] for a in range(1, 7)])


def rolls(seed, n):
    rng = np.random.default_rng(seed)
    return iter(POINTS[rng.integers(0, 6, n), rng.integers(0, 6, n)].tolist())


def test_next_roll_chances_match_simulation():
    n = 20_000
    for s in (0, 12, 24, 30, 38):
        x = np.fromiter(rolls(s, n), dtype=int, count=n) + s
        assert close((x > 40).mean(), float(u40.bust_chance(s)), n)
        assert close((x == 40).mean(), float(u40.exact_40_chance(s)), n)


def test_above_chance_matches_simulation():
    for score, leader in ((12, 20), (0, 30), (30, 36)):
        it, hits, n = rolls(score + leader, 400_000), 0, 10_000
        for _ in range(n):
            s = score
            while s <= leader:
                s += next(it)
            hits += s <= 40
        assert close(hits / n, float(u40.above_chance(score, leader)), n)


def play_round(it, policies, start=(0, 0)):
    """Play a two-player round from (score of the player on turn, the other's); return 0 if
    the player on turn at the start wins."""
    scores, cur = list(start), 0
    while True:
        m, o = scores[cur], scores[1 - cur]
        if m > o and policies[cur](m, o):
            cur = 1 - cur
            continue
        m += next(it)
        if m == 40:
            return cur
        if m > 40:
            return 1 - cur
        scores[cur] = m


@pytest.mark.parametrize("start", [(0, 0), (20, 24), (30, 12)])
def test_round_win_chance_matches_simulation(start):
    stops = {(m, o): optimal(m, o) for m in u40.SCORES for o in u40.SCORES if m > o}
    pol = stops.__getitem__
    it, n = rolls(sum(start), 400_000), 15_000
    wins = sum(play_round(it, (lambda m, o: pol((m, o)),) * 2, start) == 0 for _ in range(n))
    assert close(wins / n, float(u40.round_win_chance(*start)), n)


def test_round_against_the_real_game_model():
    games = pytest.importorskip("dicelab.games.under40")
    from dicelab import Roll, Stand

    g = games.Under40Game(["A", "B"], seed=5, target=100_000)
    starts = wins = 0
    while starts < 800:
        st = g.state
        starter, rnd = st.starter, st.round
        while g.state.round == rnd:
            st = g.state
            me = st.current
            stop = st.phase == "decide" and g.may_stop and \
                u40.round_decision(st.round_scores[me], st.round_scores[1 - me]) == "stop"
            g.apply(Stand() if stop else Roll())
        starts += 1
        wins += g.state.round_winner == starter
    assert close(wins / starts, float(u40.round_win_chance(0, 0)), starts)


# ----- input checks and the command line -----------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: u40.bust_chance(3), lambda: u40.bust_chance(40), lambda: u40.bust_chance(-2),
    lambda: u40.above_chance(10, 41), lambda: u40.round_readout(10, 7),
    lambda: u40.round_readout(True, 0),
])
def test_invalid_scores(call):
    with pytest.raises(RuleError, match="even number"):
        call()


def test_cli_json(capsys):
    assert main(["odds", "under40", "--score", "12", "--leader", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bust_chance"] == pytest.approx(5 / 36)
    assert out["above_leader_chance"] == pytest.approx(float(u40.above_chance(12, 20)))
    assert out["round"]["decision"] == "roll" and out["round"]["stop_win_chance"] is None
    assert sum(r["probability"] for r in out["roll_distribution"]) == pytest.approx(1)
    assert main(["odds", "under40", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["round"]["win_chance"] == pytest.approx(float(u40.round_win_chance(0, 0)))
    assert "above_leader_chance" not in out


def test_cli_text(capsys):
    assert main(["odds", "under40", "--score", "30", "--leader", "24"]) == 0
    text = capsys.readouterr().out
    assert "best: stop" in text and "1/2" in text


@pytest.mark.parametrize("argv, words", [
    (["--score", "7"], "even number"),
    (["--score", "-2"], "even number"),
    (["--leader", "40"], "even number"),
    (["--dice", "2"], "--dice"),
    (["--strategy", "chicken"], "--strategy"),
])
def test_cli_invalid_input_exits_2(capsys, argv, words):
    assert main(["odds", "under40", *argv]) == 2
    assert words in capsys.readouterr().err
