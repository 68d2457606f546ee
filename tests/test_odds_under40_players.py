"""Under40 rounds of 3 to 8 players (dicelab.odds.under40.readout, issue 13 point 4): positions
worked out by hand from RULES.md "Under40", an independent exact evaluation of the same play on
the game's own state (seats, statuses, scores), deviations that do not pay, and Monte Carlo of
the same policy (numpy dice and the real game model) within the 95% interval."""
from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

import dicelab
from dicelab.errors import RuleError
from dicelab.odds import under40 as u40
from dicelab.rules.under40 import roll_points

F = Fraction
P = u40.roll_distribution()
Z95 = 1.959964


def within_95(wins, n, p):
    """A frequency inside the 95% interval around the exact chance."""
    return abs(wins / n - p) <= Z95 * math.sqrt(p * (1 - p) / n)


# ----- two players: the general tables agree with the exact Fraction solve -------------------
def test_two_player_table_matches_the_exact_solve():
    tab = u40._table(2)
    for (m, o), (roll, stop) in u40._round().items():
        if m > o:  # may stop: a D position
            row = tab.index[(1 << u40._bit(m)) | ((1 << u40._bit(o)) if o else 0)]
            assert tab.D[row][0] == pytest.approx(float(max(roll, stop)), abs=1e-12)
            assert bool(tab.stop[row]) == (stop >= roll)
            assert sum(tab.D[row]) == pytest.approx(1, abs=1e-12)
    assert tab.A[0] == pytest.approx(float(u40.round_win_chance(0, 0)), abs=1e-12)
    # and readout() with one other player is the Fraction solve itself, unchanged
    for m, o in ((0, 0), (12, 20), (30, 24), (38, 36)):
        r, q = u40.readout(m, (o,)), u40.round_readout(m, o)
        assert (r.roll_win, r.stop_win, r.decision, r.win) == \
            (q.roll_win, q.stop_win, q.decision, q.win)
        assert r.chances == (q.win, 1 - q.win)


# ----- positions by hand (RULES.md "Under40") ------------------------------------------------
@cache
def hit_40(s, lead):
    """Chance that a player at s who must roll until above ``lead`` (>= 38) lands on exactly
    40: every roll that passes 40 busts, and 38 is not above 38."""
    if s > lead:
        return F(s == 40)
    return sum((p * hit_40(s + x, lead) for x, p in P.items() if s + x <= 40), F(0))


def test_stop_at_38_against_34_and_36_by_hand():
    # Three in the round; me at 38, then (seat order) 34 and 36, both stopped. Rolling wins only
    # with a 2 (exactly 40 wins at once; anything more busts me out). Stopping: 34 must roll until
    # above 38, i.e. exactly 40 (a 6; a 2 then 36's chances; a 4 then a 2); if it busts, 36 must
    # hit 40 (a 4, or a 2 and a 2); if both bust, I am the last left and win.
    q36 = P[4] + P[2] * P[2]
    q34 = P[6] + P[2] * q36 + P[4] * P[2]
    assert (hit_40(36, 38), hit_40(34, 38)) == (q36, q34)
    r = u40.readout(38, (34, 36))
    assert r.may_stop and r.roll_win == pytest.approx(float(P[2]), abs=1e-12)
    assert r.stop_win == pytest.approx(float((1 - q34) * (1 - q36)), abs=1e-12)
    assert r.decision == "stop"
    assert r.chances == pytest.approx([float((1 - q34) * (1 - q36)), float(q34),
                                       float((1 - q34) * q36)], abs=1e-12)


@pytest.mark.parametrize("waiting", [1, 2, 3, 6])
def test_first_lap_against_a_38_by_hand(waiting):
    # The starter stopped at 38; every other player, from 0, must roll until above 38: only
    # exactly 40 wins (chance h each, one after another); a bust puts them out; the starter
    # wins if all of them bust.
    h = float(u40.above_chance(0, 38))
    assert h == pytest.approx(float(hit_40(0, 38)), abs=1e-15)
    r = u40.readout(0, (0,) * (waiting - 1) + (38,))
    expect = [h * (1 - h) ** k for k in range(waiting)] + [(1 - h) ** waiting]
    assert not r.may_stop and r.stop_win is None and r.decision == "roll"
    assert r.chances == pytest.approx(expect, abs=1e-12)


def test_must_roll_mid_turn():
    # at 20 behind a standing 24 (3 in the round): the chance of rolling on is the sum over where
    # the forced rolls end (above 24) of the position reached there
    r = u40.readout(20, (10, 24))
    assert not r.may_stop and r.decision == "roll"
    expect = float(P[20])  # 20 + 20 = 40 wins at once; over 40 busts me out (0 for me)
    for x, p in P.items():
        if 20 + x < 40:  # 22 and 24 must roll on; above 24 may stop
            expect += float(p) * u40.readout(20 + x, (10, 24)).win
    assert r.win == pytest.approx(expect, abs=1e-12)


@pytest.mark.parametrize("n", range(2, 9))
def test_round_start_sums_to_one(n):
    r = u40.readout(0, (0,) * (n - 1))
    assert sum(r.chances) == pytest.approx(1, abs=1e-12)
    assert all(0 < c < 1 for c in r.chances)


@pytest.mark.parametrize("score, others", [
    (10, (4, 2)),       # stopped scores must rise in seat order
    (10, (4, 0)),       # a player with no turn yet comes before the stopped ones
    (10, ()),           # alone: the round is over
    (10, (0,) * 8),     # 9 players
    (7, (0, 4)),        # odd score
    (10, (0, 40)),      # 40 has ended the round
])
def test_impossible_positions_are_refused(score, others):
    with pytest.raises(RuleError):
        u40.readout(score, others)


# ----- an independent exact evaluation on the game's own state ------------------------------
def solver_policy(scores, status, cur):
    """The solver's decision, read through the game-shaped state (what the computer does)."""
    n = len(scores)
    others = tuple(scores[(cur + k) % n] for k in range(1, n) if status[(cur + k) % n] != "B")
    return decision(scores[cur], others)


@cache
def decision(m, others):
    return u40.readout(m, others).decision == "stop"


def evaluate(n, policies, scores=None, status=None, cur=0):
    """Each seat's exact chance to win the round, straight from RULES.md: seats play
    ``policies[seat](scores, status, cur) -> stop?`` when they may stop (``policies`` None:
    each chooses what gives them the higher chance, a tie stops); status per seat W (no turn
    yet), R (rolling), S (stopped), B (busted)."""
    dist = [(x, float(p)) for x, p in P.items()]

    def add(out, p, v):
        for i in range(n):
            out[i] += p * v[i]

    @cache
    def turn(scores, status, cur):  # cur has just been handed the turn: it must roll
        return after_roll(scores, status, cur)

    @cache
    def after_roll(scores, status, cur):
        out = [0.0] * n
        for x, p in dist:
            s = scores[cur] + x
            sc = scores[:cur] + (s,) + scores[cur + 1:]
            if s == 40:
                out[cur] += p
            elif s > 40:
                st = status[:cur] + ("B",) + status[cur + 1:]
                left = [i for i in range(n) if st[i] != "B"]
                if len(left) == 1:
                    out[left[0]] += p
                else:
                    add(out, p, turn(sc, st, nxt(st, cur)))
            else:
                add(out, p, decide(sc, status, cur))
        return tuple(out)

    @cache
    def decide(scores, status, cur):
        best = max([scores[i] for i in range(n) if i != cur and status[i] == "S"], default=0)
        if scores[cur] <= best:
            return after_roll(scores, status, cur)
        st = status[:cur] + ("S",) + status[cur + 1:]
        if policies is None:  # solve: the best for the player on turn, a tie stops
            stop, roll = turn(scores, st, nxt(st, cur)), after_roll(scores, status, cur)
            return stop if stop[cur] >= roll[cur] - 1e-12 else roll
        if policies[cur](scores, status, cur):
            return turn(scores, st, nxt(st, cur))
        return after_roll(scores, status, cur)

    def nxt(st, cur):
        i = (cur + 1) % n
        while st[i] == "B":
            i = (i + 1) % n
        return i

    if scores is None:
        return turn((0,) * n, ("R",) + ("W",) * (n - 1), 0)
    return decide(tuple(scores), tuple(status), cur)


@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow)])  # 4: 1-2 min
def test_independent_evaluation_of_the_solver_play(n):
    got = evaluate(n, [solver_policy] * n)
    assert got == pytest.approx(u40.readout(0, (0,) * (n - 1)).chances, abs=1e-12)


def test_independent_plain_solve_with_three():
    # a plain solve on the game's own state (no position sets, no tables) finds the same
    # chances: the solve, not only its evaluation
    assert evaluate(3, None) == pytest.approx(u40.readout(0, (0, 0)).chances, abs=1e-12)
    got = evaluate(3, None, (20, 24, 0), ("S", "R", "W"), cur=1)
    assert [got[1], got[2], got[0]] == pytest.approx(u40.readout(24, (0, 20)).chances,
                                                     abs=1e-12)


def test_independent_evaluation_mid_round():
    # 4 seats: seat 2 busted; seat 3 stopped at 14, seat 0 at 20; seat 1 on turn at 24
    scores, status = (20, 24, 44, 14), ("S", "R", "B", "S")
    got = evaluate(4, [solver_policy] * 4, scores, status, cur=1)
    r = u40.readout(24, (14, 20))
    assert r.may_stop
    assert [got[1], got[3], got[0]] == pytest.approx(r.chances, abs=1e-12) and got[2] == 0


def threshold(k):
    return lambda scores, status, cur: scores[cur] >= k


# about a minute a seat: the first seat in the everyday suite, the others slow
@pytest.mark.parametrize("seat", [0, pytest.param(1, marks=pytest.mark.slow),
                                  pytest.param(2, marks=pytest.mark.slow)])
def test_no_threshold_deviation_pays_with_three(seat):
    # subgame-perfect play: a seat that plays anything else while the others play the solve
    # does no better (checked for stop-as-soon-as-allowed and stop-from-k thresholds)
    best = u40.readout(0, (0, 0)).chances[seat]
    for k in (2, 12, 22, 32):
        pols = [solver_policy] * 3
        pols[seat] = threshold(k)
        assert evaluate(3, pols)[seat] <= best + 1e-12, k


def test_the_solve_is_not_stop_as_soon_as_you_lead():
    # with three, the old computer's rule (stop as soon as allowed) is not what the solve plays:
    # somewhere in the round it rolls on while allowed to stop
    rolls_on = [(m, lo, hi) for hi in range(2, 38, 2) for lo in range(0, hi, 2)
                for m in range(hi + 2, 40, 2)
                if u40.readout(m, (lo, hi)).decision == "roll"]
    assert rolls_on


# ----- Monte Carlo of the same play -----------------------------------------------------------
POINTS = np.array([[roll_points(a, b) for b in range(1, 7)] for a in range(1, 7)])


def play_round(n, dice):
    """One round from its start with seat 0 starting, every seat playing the solve, the rolls'
    points taken from ``dice``; returns the winner's seat."""
    scores, alive, cur = [0] * n, [True] * n, 0
    while True:
        scores[cur] += next(dice)  # a turn begins with a roll
        if scores[cur] == 40:
            return cur
        if scores[cur] > 40:
            alive[cur] = False
            if sum(alive) == 1:
                return alive.index(True)
        else:
            others = tuple(scores[(cur + k) % n] for k in range(1, n) if alive[(cur + k) % n])
            if scores[cur] <= max(others) or not decision(scores[cur], others):
                continue
        cur = (cur + 1) % n
        while not alive[cur]:
            cur = (cur + 1) % n


def simulate(n, rounds, seed):
    """Wins per seat over ``rounds`` rounds (seat 0 starts), numpy dice."""
    rng = np.random.default_rng(seed)
    dice = iter(POINTS[rng.integers(0, 6, 60 * rounds), rng.integers(0, 6, 60 * rounds)]
                .tolist())
    wins = np.zeros(n, dtype=int)
    for _ in range(rounds):
        wins[play_round(n, dice)] += 1
    return wins


@pytest.mark.parametrize("n, seed", [(3, 3), (4, 4)])
def test_round_chances_match_simulation(n, seed):
    rounds = 20_000
    wins = simulate(n, rounds, seed)
    exact = u40.readout(0, (0,) * (n - 1)).chances
    for seat in range(n):
        assert within_95(wins[seat], rounds, exact[seat]), (seat, wins[seat] / rounds,
                                                            exact[seat])


@pytest.mark.parametrize("n, seed", [(3, 31), (4, 41)])
def test_optimal_computers_in_the_game_model(n, seed):
    # the real game (dicelab.games.under40) with n "optimal" computers plays every round as the
    # simulation above does: the same rolls give the same winner, roll for roll (so the
    # simulation's Monte Carlo check covers the game and its computer)
    from dicelab.players import make_player

    players = [make_player("under40", "optimal") for _ in range(n)]
    names = [f"C{i}" for i in range(n)]
    g = dicelab.new_game("under40", names, seed=seed, target=100_000)
    seen = set()
    for _ in range(400):
        rnd, starter, start = g.state.round, g.state.starter, len(g.history)
        while g.state.round == rnd and not g.is_over:
            g.apply(players[g.current_player].act(g.view()))
        rolls = [e.data["points"] for e in g.history[start:] if e.kind == "roll"]
        dice = iter(rolls)
        assert play_round(n, dice) == (g.state.round_winner - starter) % n
        assert next(dice, None) is None  # and it took the same number of rolls
        seen.add(sum(e.kind == "stop" for e in g.history[start:]))
        assert not g.is_over
    assert max(seen) >= 3  # rounds that went round the table were played


def test_bulk_decisions_for_the_lab_match_the_readout():
    rng = np.random.default_rng(5)
    for n in range(2, 6):
        masks, want = [], []
        for _ in range(300):
            k = int(rng.integers(1, n + 1))   # stopped scores and mine (the highest)
            chosen = sorted(rng.choice(np.arange(2, 40, 2), size=k, replace=False).tolist())
            *rest, me = chosen
            others = (0,) * (n - k) + tuple(rest)
            masks.append(sum(1 << (s // 2 - 1) for s in chosen))
            want.append(u40.readout(me, others).decision == "stop")
        assert u40.stop_choices(n, masks).tolist() == want
    with pytest.raises(RuleError):
        u40.stop_choices(3, [0b1111])  # four scores cannot be three players


def test_vectorised_lab_plays_the_solve_with_three():
    # the lab's numpy games (dicelab.lab.under40, called directly: its caller falls back to the
    # game model on a RuleError) against the game model with the same computers: win rates agree
    from dicelab.lab import wilson
    from dicelab.lab.models import play_games
    from dicelab.lab.under40 import simulate_games

    players = ["optimal", "threshold:20", "optimal"]
    wins, _, _ = play_games("under40", players, 300, seed=8, settings={"target": 200})
    winners, _, _ = simulate_games(players, 10_000, seed=9, target=200)
    rates = np.bincount(winners, minlength=3) / 10_000
    for i in range(3):
        lo, hi = wilson(int(round(wins[i])), 300)
        assert lo - 0.02 <= rates[i] <= hi + 0.02
