"""Exact chance to win two-seat Bones (dicelab.odds.win) against an independent value iteration
and against play-outs; the max-win computer against the points-optimal one.

RULES.md "Bones": min on board; target -> every other player gets one final turn; highest total
wins, a tie goes to the player who reached it first. Small targets keep the tables to seconds;
the default table (10,000) is behind DICELAB_SLOW=1 (the benchmark times it).
"""
from __future__ import annotations


import numpy as np
import pytest

from dicelab.errors import RuleError
from dicelab.lab import wilson
from dicelab.lab import win as duels
from dicelab.lab.fivedice import roll_tables
from dicelab.odds import win

slow = pytest.mark.slow


@pytest.fixture(scope="module", params=[(500, 50), (1000, 300)], ids=["t500m50", "t1000m300"])
def small(request, tmp_path_factory):
    target, mob = request.param
    return win.table("bones", progress=False, cache=tmp_path_factory.mktemp("win"),
                     target=target, min_on_board=mob)


# ----- an independent solver: plain global value iteration on the rules as written ------------
def _brute(target: int, mob: int, extra: int = 300, tol: float = 1e-12) -> np.ndarray:
    pts, cnt = roll_tables("bones")
    u = 50
    T, need0 = target // u, mob // u
    outcomes = {}
    for n in range(1, 6):
        ways: dict[tuple[int, int], int] = {}
        for k in range(n * 6 ** 5, (n + 1) * 6 ** 5):
            key = (int(pts[k]) // u, int(cnt[k]))
            ways[key] = ways.get(key, 0) + 1
        outcomes[n] = [(w / 6 ** 5, p, (n - c) or 5, c == 0) for (p, c), w in ways.items()]
    D = 2 * T + extra + 220
    reach = np.ones((D + 201, 6))          # index d + 200, d <= 0: standing reaches
    for d in range(1, D + 1):
        for n in range(1, 6):
            reach[d + 200, n] = sum(p * reach[d - pt + 200, nx]
                                    for p, pt, nx, bust in outcomes[n] if not bust)
    C = T + extra
    b = np.repeat(np.arange(T), T)
    o = np.tile(np.arange(T), T)

    def final(c):   # the other's final turn must end above c
        d = np.maximum(c - o + 1, np.where(o > 0, 1, need0))
        return 1 - reach[np.minimum(d, D) + 200, 5]

    W = np.full((T, T), 0.5)
    while True:
        y = 1 - W[o, b]
        V = np.zeros((len(b), C + 201, 6))
        for c in range(C + 200, C - 1, -1):
            V[:, c, 1:] = final(c)[:, None]
        start = np.zeros(len(b))
        for c in range(C - 1, -1, -1):
            sv = np.where(c < T, 1 - W[o, min(c, T - 1)], final(c))
            may = c - b >= np.where(b > 0, 1, need0)
            for n in range(1, 6):
                roll = sum(p * (y if bust else V[:, c + pt, nx])
                           for p, pt, nx, bust in outcomes[n])
                V[:, c, n] = np.where(may & (sv > roll), sv, roll)
                if n == 5:
                    start = np.where(b == c, roll, start)
        new = start.reshape(T, T)
        if np.abs(new - W).max() < tol:
            return new
        W = new


@pytest.mark.parametrize("target,mob", [(500, 300)])
def test_table_matches_plain_value_iteration(target, mob):
    """Every start-of-turn chance agrees with a plain global value iteration (no layers, no
    Newton steps, no threshold grid; its own roll counts from the lab's dice tables)."""
    t = win.table("bones", progress=False, cache=False, target=target, min_on_board=mob)
    ref = _brute(target, mob)
    assert np.abs(t.W - ref).max() < 1e-9


# ----- play-outs of the same policy --------------------------------------------------------------
def _playouts(t, start, final=False, n=20_000, seed=1):
    pol = duels.table_policy(t)
    res = duels.play((pol, pol), n, target=t.rules.target, min_on_board=t.rules.min_on_board,
                     start=start, final=final, seed=seed)
    return int((res.winners == 0).sum()), n


STATES = [((0, 0, 0, 5), False), ((0, 350, 0, 5), False), ((300, 0, 0, 5), False),
          ((0, 0, 150, 3), False), ((200, 400, 100, 2), False), ((450, 300, 0, 5), False),
          ((300, 450, 150, 5), False), ((450, 400, 200, 1), False), ((400, 450, 300, 4), False),
          ((100, 550, 0, 5), True), ((300, 500, 150, 2), True), ((0, 600, 300, 3), True)]


@pytest.mark.parametrize("start,final", STATES)
def test_win_chance_matches_playouts(small, start, final):
    b, o, tt, n = start
    if small.rules.target != 500:
        b, o, tt = 2 * b, 2 * o, 2 * tt
        if final:
            o = max(o, small.rules.target)
    if not final and o >= small.rules.target:
        pytest.skip("not a regular turn at this target")
    if b + 0 < 50 and tt and tt < small.rules.min_on_board:
        tt = small.rules.min_on_board - 50 if small.rules.min_on_board > 50 else tt
    r = small.readout(b, o, tt, n)
    assert r.final_turn == final
    k, m = _playouts(small, (b, o, tt, n), final)
    # a dozen states per table: each interval at 1 - 0.05/12, so all twelve hold jointly
    # with 95% when the table is right
    lo, hi = _interval(k, m, z=2.87)
    assert lo <= r.win_chance <= hi, (start, r, k / m)


def _interval(k: int, n: int, z: float) -> tuple[float, float]:
    p = k / n
    half = z * np.sqrt(p * (1 - p) / n)
    return p - half, p + half


def test_start_chance_matches_vectorised_self_play(small):
    k, m = _playouts(small, (0, 0, 0, 5), n=100_000, seed=8)
    lo, hi = wilson(k, m)
    assert lo <= small.start_chance() <= hi


def test_final_turn_is_reaching_above_the_leader(small):
    T = small.rules.target
    r = small.readout(100, T, 0, 5)
    assert r.final_turn and r.must_reach == T - 100 + 50
    assert r.stand_win_chance is None
    ahead = small.readout(100, T, T, 2)     # 100 + T > T: stand and win
    assert ahead.decision == "stand" and ahead.stand_win_chance == 1.0
    behind = small.readout(100, T, T - 200, 2)   # standing would lose the game
    assert behind.decision == "roll" and behind.stand_win_chance == 0.0
    assert behind.win_chance == behind.roll_win_chance > 0


def test_points_and_win_part():
    """Where the most points this turn and the best chance to win part (target 1,000, min on
    board 300): at 600 against 950 with 400 in hand, the stand banks 400 but reaches the target
    by only 50, so the other's final turn needs a mere 100: to win, roll on. At 900 against
    300 with 100 in hand, a stand reaches the target with a 700 lead: to win, stand, though
    rolling is worth more points."""
    from dicelab.odds import fivedice as fd

    t = win.table("bones", progress=False, cache=False, target=1000, min_on_board=300)
    rules = fd.FiveDiceRules("bones", min_on_board=300)
    w = t.readout(600, 950, 400, 2)
    assert fd.turn_readout(rules, 400, 2).decision == "stand"
    assert w.decision == "roll" and w.roll_win_chance > w.stand_win_chance + 0.2
    w = t.readout(900, 300, 100, 1)
    assert fd.turn_readout(rules, 100, 1).decision == "roll"
    assert w.decision == "stand" and w.stand_win_chance > w.roll_win_chance + 0.03


def test_bad_states_raise(small):
    with pytest.raises(RuleError):
        small.readout(25, 0)
    with pytest.raises(RuleError):
        small.readout(small.rules.target, 0)
    with pytest.raises(RuleError):
        small.readout(0, 0, 0, 3)
    with pytest.raises(RuleError):
        win.win_rules("thousand")   # Bones' rules; Thousand has its own table
    with pytest.raises(RuleError):
        win.win_rules("bones", target=400, min_on_board=600)


def test_disk_cache_round_trip(tmp_path):
    a = win.table("bones", progress=False, cache=tmp_path, target=500, min_on_board=50)
    win._MEMORY.clear()
    b = win.table("bones", progress=False, cache=tmp_path, target=500, min_on_board=50)
    assert a is not b and np.array_equal(a.W, b.W)
    (f,) = tmp_path.glob("win-*.npz")
    f.write_bytes(b"damaged")
    win._MEMORY.clear()
    c = win.table("bones", progress=False, cache=tmp_path, target=500, min_on_board=50)
    assert np.array_equal(a.W, c.W)


# ----- head to head ------------------------------------------------------------------------------
@pytest.mark.parametrize("mob", [50, 600])
def test_winning_beats_optimal(mob, tmp_path):
    t = win.table("bones", progress=False, cache=tmp_path, target=1000, min_on_board=mob)
    from dicelab.odds import fivedice as fd

    ev = duels.ev_policy(fd.FiveDiceRules("bones", min_on_board=mob))
    wn = duels.table_policy(t)
    n = 100_000
    # each policy moves first in half of the games
    a = duels.play((wn, ev), n, target=1000, min_on_board=mob, seed=3)
    b = duels.play((ev, wn), n, target=1000, min_on_board=mob, seed=4)
    k = int((a.winners == 0).sum() + (b.winners == 1).sum())
    lo, hi = wilson(k, 2 * n)
    assert lo > 0.5, (k / (2 * n), lo, hi)


@slow
def test_default_table():
    t = win.table("bones", progress=False)
    assert 0.5 < t.start_chance() < 0.6
    assert t.W.min() >= t.w_floor


# ----- command line ------------------------------------------------------------------------------
def test_cli_win_json(capsys, tmp_path, monkeypatch):
    import json

    from dicelab.cli import main

    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    argv = ["odds", "bones", "--win", "--banked", "600", "--opponent", "950", "--turn-total",
            "400", "--dice", "2", "--target", "1000", "--min-on-board", "300", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    t = win.table("bones", progress=False, cache=tmp_path, target=1000, min_on_board=300)
    r = t.readout(600, 950, 400, 2)
    assert out["win_chance"] == r.win_chance and out["decision"] == "roll"
    assert out["stand_win_chance"] == r.stand_win_chance < out["roll_win_chance"]
    # a turn's start: standing is not allowed -> null
    assert main(argv[:7] + ["--target", "1000", "--min-on-board", "300", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["stand_win_chance"] is None and out["win_chance"] == t.W[12, 19]
    assert main(argv[:-1]) == 0
    assert "-> " in capsys.readouterr().out.replace("->  ", "-> ")


@pytest.mark.parametrize("argv", [["odds", "under40", "--win", "--opponent", "0"],
                                  ["odds", "bones", "--win"],
                                  ["odds", "bones", "--opponent", "50"],
                                  ["odds", "bones", "--win", "--opponent", "75"]])
def test_cli_win_refuses(argv, capsys, tmp_path, monkeypatch):
    from dicelab.cli import main

    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    assert main(argv + ["--target", "1000"]) != 0
    assert "dicelab:" in capsys.readouterr().err


# ----- estimates by play-outs ---------------------------------------------------------------------
def test_playout_estimate_agrees_with_the_table(tmp_path, monkeypatch):
    """Two `winning` seats: the play-out estimate of the first player's chance holds the exact
    table value in its interval; three seats give chances summing to one."""
    from dicelab.games import new_game
    from dicelab.players import make_player

    monkeypatch.setattr(win, "cache_dir", lambda: tmp_path)
    g = new_game("bones", seats=[("A", make_player("bones", "winning")),
                                 ("B", make_player("bones", "winning"))],
                 seed=5, target=500, min_on_board=50)
    t = win.table(g.config, progress=False)
    st = g.state
    exact = t.start_chance(st.totals[st.current], st.totals[1 - st.current])
    e = duels.estimate(g, n=600, seed=2)
    lo, hi = e.intervals[st.current]
    assert lo <= exact <= hi and e.playouts == 600
    e2 = duels.estimate(g, n=100, seed=3, wins=np.array(e.chances) * 600, done=600)
    assert e2.playouts == 700
    g3 = new_game("bones", seats=["me", ("C", make_player("bones", "chicken")),
                                  ("G", make_player("bones", "gambler"))],
                  seed=1, target=1000, min_on_board=50)
    e3 = duels.estimate(g3, n=60, seed=4)
    assert abs(sum(e3.chances) - 1) < 1e-12 and e3.to_dict()["estimate"] is True
    assert g3.version == 0 and len(g3.history) == 1   # the game itself is untouched


def test_stand_bits_agree_with_the_values(small):
    """The policy bits kept by the build (and the thresholds past the target) make the same
    decision as comparing the two chances of every readout, in every state of the table."""
    T, u = small.T, small.rules.unit
    checked = 0
    for b in range(T):
        for o in range(0, T, 3):
            st = small.stands(b, o)
            need = max(1, small.rules.min_on_board // u) if b == 0 else 1
            for t in range(need, st.shape[0], 2):
                for n in range(1, 6):
                    r = small.readout(b * u, o * u, t * u, n)
                    assert (r.decision == "stand") == st[t, n], (b, o, t, n, r)
                    checked += 1
            c = b + np.arange(need, st.shape[0])
            got = small.stands_at(np.full(len(c), b), np.full(len(c), o), c, np.full(len(c), 2))
            assert np.array_equal(got, st[need:, 2])
    assert checked > 1000


def _build_turn(t, b, o):
    """Roll values of the pair's turn by the build's solver (many pairs' machinery, one pair)."""
    y = np.array([1.0 - t.W[o, b]])
    out = t._solver.run(np.array([b]), np.array([o]), y, keep=True)
    return out[5][0, :t.T - b]


@pytest.mark.parametrize("choose", [False, True], ids=["auto", "choose_keepers"])
def test_lookup_pass_equals_the_build_solver(choose, tmp_path):
    """A first mid-turn lookup solves its turn in one pass (win.TurnPass; with choose_keepers
    a loop over the keeps): the roll values equal the build's solver's, which the plain value
    iteration above checks, for every pair of a small table, the final region's too."""
    t = win.table("bones", progress=False, cache=tmp_path, target=500, min_on_board=150,
                  choose_keepers=choose)
    assert (t._pass is None) == choose
    worst = 0.0
    for b in range(t.T):
        for o in range(t.T):
            R, Rf = t._solve_turn(b, o)
            worst = max(worst, float(np.abs(R[:, 1:] - _build_turn(t, b, o)[:, 1:]).max()))
            assert np.array_equal(Rf, t.final.roll_table(1.0 - t.W[o, b]), equal_nan=True)
    assert worst < 1e-12
