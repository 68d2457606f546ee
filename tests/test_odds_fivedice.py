"""Exact odds of Bones and Thousand (dicelab.odds.fivedice): hand-derived fractions, a plain
Python re-solve of the turn tables, and Monte Carlo through the real game models."""
from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from dicelab import Roll, Stand
from dicelab.cli import main
from dicelab.errors import RuleError
from dicelab.games import BonesGame, ThousandGame
from dicelab.odds import fivedice as fd
from dicelab.rules import bones as bones_rules
from dicelab.rules import thousand as thousand_rules
from dicelab.settings import BonesSettings, ThousandSettings

from .conftest import set_state

Z = 4.5  # Monte Carlo tolerance in standard errors (fixed seeds: deterministic anyway)
F = Fraction


def close(mean, exact, sd, n):
    return abs(mean - exact) <= Z * sd / math.sqrt(n) + 1e-12


# ----- one roll: exact ----------------------------------------------------------------------
# Bust with 5 dice, by hand: no 1 or 5 (4**5 = 1024 rolls of 2, 3, 4, 6) and no face three times.
# Counts with every face <= 2 over 4 faces: pattern 2+2+1 -> 4 * 3 choices * 5!/(2!2!1!) = 360,
# pattern 2+1+1+1 -> 4 choices * 5!/2! = 240; 600 rolls of 7776 bust = 25/324.
# A straight needs a 1 and four of a kind needs a triple, so Thousand busts on the same rolls.
COUNTING = {1: F(1, 3), 2: F(5, 9), 3: F(13, 18), 4: F(91, 108), 5: 1 - F(600, 7776)}


@pytest.mark.parametrize("rules", ["bones", BonesSettings(preset="french"), "thousand"])
def test_counting_and_bust_chances_are_exact(rules):
    for n, p in COUNTING.items():
        assert fd.counting_chance(rules, n, exact=True) == p
        assert fd.bust_chance(rules, n, exact=True) == 1 - p
        assert fd.counting_chance(rules, n) == pytest.approx(float(p), abs=1e-15)
    assert fd.bust_chance(rules, 5, exact=True) == F(25, 324)


def test_one_and_two_dice_distributions():
    assert fd.roll_distribution("bones", 1) == {(0, 0): F(2, 3), (50, 1): F(1, 6),
                                                (100, 1): F(1, 6)}
    assert fd.roll_distribution("bones", 2) == {
        (0, 0): F(16, 36), (50, 1): F(8, 36), (100, 1): F(8, 36),
        (100, 2): F(1, 36), (150, 2): F(2, 36), (200, 2): F(1, 36)}
    assert fd.roll_distribution("thousand", 1) == {(0, 0): F(2, 3), (5, 1): F(1, 6),
                                                   (10, 1): F(1, 6)}
    for rules in ("bones", "thousand"):
        for n in range(1, 6):
            assert sum(fd.roll_distribution(rules, n).values()) == 1


def test_expected_roll_points_exact():
    assert fd.expected_roll_points("bones", 1, exact=True) == 25
    assert fd.expected_roll_points("bones", 2, exact=True) == 50  # no triple with 2 dice
    # 3 dice: 3 * 25 from singles, plus what each triple adds over its singles, / 216:
    # 1s 1000 - 300, 5s 500 - 150, 2s 3s 4s 6s 200 + 300 + 400 + 600
    assert fd.expected_roll_points("bones", 3, exact=True) == 75 + F(700 + 350 + 1500, 216)
    assert fd.expected_roll_points("thousand", 1, exact=True) == F(5, 2)


def test_five_dice_specials():
    d = fd.roll_distribution("bones", 5)
    assert d[10_000, 5] == F(6, 7776)  # BONES
    hyper = fd.roll_distribution("bones", 2)
    assert hyper == fd.roll_distribution(BonesSettings(preset="french"), 2)
    # four 2s and a 3: hypercard counts three dice, french four
    assert bones_rules.score((2, 2, 2, 2, 3)).counting == 3
    assert fd.roll_distribution("thousand", 5)[250, 5] >= F(120, 7776)  # the straight


def test_roll_chances_match_monte_carlo():
    rng = np.random.default_rng(20240601)
    for variant, score in (("bones", bones_rules.score), ("thousand", thousand_rules.score)):
        for n in range(1, 6):
            rolls = rng.integers(1, 7, size=(3000, n))
            scores = [score(tuple(r)) for r in rolls]
            busts = np.array([s.bust for s in scores], dtype=float)
            points = np.array([s.points for s in scores], dtype=float)
            pb = fd.bust_chance(variant, n)
            assert close(busts.mean(), pb, math.sqrt(pb * (1 - pb)), len(busts))
            e = fd.expected_roll_points(variant, n)
            # BONES (10,000) makes the 5-dice sample sd unreliable: use the exact sd
            var = sum(float(p) * (pts - e) ** 2
                      for (pts, _c), p in fd.roll_distribution(variant, n).items())
            assert close(points.mean(), e, math.sqrt(var), len(points))


# ----- keep choices agree with the game ----------------------------------------------------
@pytest.mark.parametrize("preset", ["hypercard", "french"])
def test_keep_options_match_the_games_choices(preset):
    g = BonesGame(["A"], seed=1, preset=preset, choose_keepers=True,
                  min_on_board=600 if preset == "french" else 50)
    rules = fd.as_rules(g.settings)
    for dice, _w, _pts, counting in bones_rules.table(5, preset):
        if not counting:
            assert fd.keep_options(rules, dice) == []
            continue
        state = set_state(g, phase="decide", dice=dice, before_total=0, before_kept=(),
                          dice_left=5 - counting or 5).state
        game_opts = set()
        for action in g.legal_actions():
            if isinstance(action, Roll) and action.keep is not None:
                s = g._with_keep(state, action.keep)
                game_opts.add((tuple(sorted(dice[p] for p in action.keep)), s.turn_total,
                               s.dice_left))
        assert set(fd.keep_options(rules, dice)) == game_opts, dice


# ----- the turn solver against a plain-Python re-solve -------------------------------------
def plain_roll_values(rules, sit, top):
    """R[n][t] for t < top by the textbook recursion with dicts; above ``top``: stand (gain t
    or the barrel clamp), and Thousand's compulsory hot roll by its linear closed form."""
    u = rules.unit
    table = (lambda n: bones_rules.table(n, rules.preset)) if rules.variant == "bones" \
        else thousand_rules.table
    rows = {}
    for n in range(1, 6):
        ways = {}  # outcomes with the same choices together
        for dice, w, pts, c in table(n):
            if c == 0:
                continue
            opts = ((pts // u, n - c or 5),)
            if rules.choose_keepers:
                opts = tuple(sorted({(p // u, left) for _k, p, left in
                                     fd.keep_options(rules, dice)} | set(opts)))
            ways[opts] = ways.get(opts, 0) + w
        rows[n] = [(F(w, 6 ** n), list(opts)) for opts, w in ways.items()]
    bust = {n: 1 - sum(p for p, _ in rows[n]) for n in rows}

    def gain(t):
        return t * u if sit.clamp is None else min(t * u, sit.clamp)
    # hot roll with every later non-hot state standing: f(t) = P_nh*t + E_nh + sum_hot p f(t+x)
    # (Thousand only: one option per outcome)
    p_nh = sum(float(p) for p, o in rows[5] if o[0][1] != 5)
    p_hot = sum(float(p) for p, o in rows[5] if o[0][1] == 5)
    e_nh = sum(float(p) * o[0][0] * u for p, o in rows[5] if o[0][1] != 5)
    e_hot = sum(float(p) * o[0][0] * u for p, o in rows[5] if o[0][1] == 5)
    qb = float(bust[5]) * sit.bust_value

    def hot_tail(t):
        if sit.clamp is not None:
            return (p_nh * sit.clamp + qb) / (1 - p_hot)
        a = p_nh / (1 - p_hot)
        return a * t * u + (e_nh + a * e_hot + qb) / (1 - p_hot)

    D = {}

    def value(t, n):
        if t >= top:
            return hot_tail(t) if n == 5 and sit.hot_compulsory else gain(t)
        return D[t, n]
    R = {}
    for t in range(top - 1, -1, -1):
        for n in range(1, 6):
            r = float(bust[n]) * sit.bust_value
            for p, opts in rows[n]:
                r += float(p) * max(value(t + x, m) for x, m in opts)
            R[t, n] = r
            may = t > 0 and t >= sit.need and not (n == 5 and sit.hot_compulsory)
            D[t, n] = max(r, gain(t)) if may else r
    return R


@pytest.mark.parametrize("rules, state", [
    ("bones", {}),
    (BonesSettings(preset="french", choose_keepers=True), {"on_board": False}),
    ("thousand", {"banked": 225, "bolts": 2}),
    ("thousand", {"banked": 880, "on_barrel": True, "barrel_turns": 2}),
])
def test_solver_matches_plain_recursion_with_a_higher_cap(rules, state):
    """A higher grid top than the cap would show any state above the cap where rolling beats
    standing; the values must not move."""
    r = fd.as_rules(rules)
    sit = fd._situation(r, **state)
    sol = fd._solve_optimal(sit)
    top = sol.top + 60
    ref = plain_roll_values(r, sit, top)
    for t in range(0, top, 3):
        for n in range(1, 6):
            got = fd.solution_roll_value(sol, n, t)
            assert got == pytest.approx(ref[t, n], rel=1e-9, abs=1e-9), (t, n)


def plain_threshold_ev(threshold, habit, on_board):
    """The threshold computer's fresh-turn EV in Bones by plain recursion over its policy."""
    u = 50
    need = 0 if on_board else 600 // u
    rows = {n: [(F(w, 6 ** n), pts // u, n - c or 5)
                for _d, w, pts, c in bones_rules.table(n) if c] for n in range(1, 6)}
    p_nh = sum(float(p) for p, _x, m in rows[5] if m != 5)
    p_hot = sum(float(p) for p, _x, m in rows[5] if m == 5)
    e_nh = sum(float(p) * x * u for p, x, m in rows[5] if m != 5)
    e_hot = sum(float(p) * x * u for p, x, m in rows[5] if m == 5)
    roll_hot = habit and on_board
    top = max(threshold // u, need) + 50
    memo = {}

    def value(t, n):
        if t >= threshold // u and t >= need and not (n == 5 and roll_hot):
            return t * u  # stands
        if t >= top:  # hot dice above the threshold with the habit: roll on forever
            a = p_nh / (1 - p_hot)
            return a * t * u + (e_nh + a * e_hot) / (1 - p_hot)
        if (t, n) not in memo:
            memo[t, n] = sum(float(p) * value(t + x, m) for p, x, m in rows[n])
        return memo[t, n]
    return sum(float(p) * value(x, m) for p, x, m in rows[5])


def test_threshold_solver_matches_plain_policy_evaluation():
    for threshold, habit, on_board in ((300, True, True), (300, False, True), (650, True, False)):
        got = fd.threshold_turn_ev("bones", threshold, habit, on_board=on_board)
        assert got == pytest.approx(plain_threshold_ev(threshold, habit, on_board), rel=1e-9)


# ----- small turn values by hand ------------------------------------------------------------
def test_one_die_from_a_high_total_by_hand():
    # a counting single die makes hot dice; from 2900 up standing with 5 dice is best
    # (stand_from), so rolling 1 die from t is (t + 100)/6 + (t + 50)/6
    assert fd.stand_from("bones")[5] == [(2900, None)]
    for t in (2900, 5000, 100_000):  # 100,000 is above the tabled grid: the closed form
        r = fd.turn_readout("bones", t, 1)
        assert r.roll_value == pytest.approx((2 * t + 150) / 6, rel=1e-12)
        assert r.stand_value == t and r.decision == "stand"


def test_reach_150_with_two_dice_by_hand():
    # (1,1) 200 and (1,5) 150: reached with hot dice; (5,5) 100 hot, then any counting die of 5;
    # (1,x) 100 then one die must count; (5,x) 50, then a 1 (150) or a 5 (100, hot, then 5 dice)
    c5 = COUNTING[5]
    p = F(1, 36) + F(2, 36) + F(1, 36) * c5 + F(8, 36) * F(1, 3) \
        + F(8, 36) * (F(1, 6) + F(1, 6) * c5)
    assert fd.reach_chance("bones", 150, 0, 2) == pytest.approx(float(p), rel=1e-12)


def test_thousand_hot_dice_must_be_rolled():
    r = fd.turn_readout("thousand", 100, 5, banked=100)
    assert r.hot_dice and not r.may_stand and r.stand_value is None and r.decision == "roll"
    b = fd.turn_readout("bones", 100, 5)
    assert b.hot_dice and b.may_stand
    # reached with hot dice: one more roll must count before standing
    # (a roll that leaves dice, or hot dice again and so on: P(leaves dice) / (1 - P(hot)))
    hot = sum(p for (_pts, c), p in fd.roll_distribution("thousand", 5).items() if c == 5)
    assert fd.reach_chance("thousand", 75, 100, 5, banked=225) == pytest.approx(
        float((COUNTING[5] - hot) / (1 - hot)), rel=1e-12)
    assert fd.reach_chance("bones", 600, 600, 5, on_board=False) == 1.0


def test_barrel_clamp_and_gains():
    r = fd.turn_readout("thousand", 100, 2, banked=850)
    assert r.stand_value == 30  # 850 + 100 stops at the barrel, 880
    assert r.decision == "stand"
    top = fd.turn_readout("thousand", 120, 3, banked=880, on_barrel=True)
    assert top.stand_value == 120 and top.need == 120 and top.reach_chance == 1.0
    low = fd.turn_readout("thousand", 50, 3, banked=880, on_barrel=True)
    assert not low.may_stand and 0 < low.reach_chance < 1


def test_optimal_beats_every_threshold():
    for rules in ("bones", BonesSettings(preset="french"), BonesSettings(choose_keepers=True)):
        for on_board in (True, False):
            best = fd.optimal_turn_ev(rules, on_board=on_board)
            for t in range(50, 2001, 150):
                for habit in (True, False):
                    assert fd.threshold_turn_ev(rules, t, habit, on_board=on_board) \
                        <= best + 1e-9
    best = fd.optimal_turn_ev("thousand")
    assert all(fd.threshold_turn_ev("thousand", t) <= best + 1e-9 for t in range(5, 501, 15))


def test_named_strategies():
    from dicelab.players.fivedice import STRATEGIES

    assert fd.STRATEGIES == STRATEGIES  # the computers the games seat
    assert fd.parse_strategy("chicken") == (100, True)
    assert fd.parse_strategy("chicken", "thousand") == (25, True)
    assert fd.parse_strategy("threshold:450:nohabit") == (450, False)
    assert fd.strategy_turn_ev("bones", "gambler") == fd.threshold_turn_ev("bones", 300, True)
    # a fresh player stands only from 600, where every named computer stands anyway
    evs = {fd.strategy_turn_ev("bones", s, on_board=False) for s in fd.STRATEGIES["bones"]}
    assert len({round(e, 9) for e in evs}) == 1


def test_optimal_stand_table():
    table = fd.optimal_stand_table("bones")
    flags = fd.stand_from("bones")
    for n, ranges in flags.items():
        lo = ranges[0][0] // 50
        assert not table[:lo, n].any() and table[lo:, n].all()
    t = fd.optimal_stand_table("thousand", banked=225)
    assert not t[:, 5].any() and not t[:15, 1:].any()  # hot dice; the pit needs 75


# ----- Monte Carlo through the real game models ---------------------------------------------
def computer(spec, variant="bones"):
    from dicelab.players import make_player

    player = make_player(variant, spec)
    return lambda game: player.act(game.view())


def optimal_player(game):
    s = game.state
    if s.phase != "decide":
        return Roll()
    if game.choose_keepers():
        best = max(fd.keep_values(game.settings, s.dice, s.before_total,
                                  on_board=s.on_board[0]),
                   key=lambda kr: max(kr[1].roll_value, kr[1].stand_value or -1e18))
        # the game's keep is positions in the last roll
        want = list(best[0])
        keep = []
        for i, d in enumerate(s.dice):
            if d in want:
                want.remove(d)
                keep.append(i)
        r = best[1]
        return Stand(keep=tuple(keep)) if r.decision == "stand" else Roll(keep=tuple(keep))
    return Stand() if fd.readout_for(game.settings, s).decision == "stand" else Roll()


def bones_turns(player, turns, seed, on_board=True, **settings):
    """Gains of ``turns`` turns of one Bones player, each from the same situation."""
    g = BonesGame(["A"], seed=seed, target=100_000, **settings)
    gains = []
    for _ in range(turns):
        set_state(g, totals=(0,), on_board=(on_board,))
        turn = g.state.turn
        while g.state.turn == turn:
            g.apply(player(g))
        gains.append(g.state.totals[0])
    return np.array(gains, dtype=float)


@pytest.mark.parametrize("name", ["chicken", "gambler", "threshold:500:nohabit"])
def test_threshold_ev_on_the_board_matches_the_game(name):
    gains = bones_turns(computer(name), 1500, seed=len(name))
    exact = fd.strategy_turn_ev("bones", name)
    assert close(gains.mean(), exact, gains.std(), len(gains)), (gains.mean(), exact)


def test_fresh_player_ev_and_reach_600_match_the_game():
    gains = bones_turns(computer("aggressive"), 1500, seed=7, on_board=False)
    exact = fd.strategy_turn_ev("bones", "aggressive", on_board=False)
    assert close(gains.mean(), exact, gains.std(), len(gains))
    reach = fd.reach_chance("bones", 600, on_board=False)
    hit = (gains > 0).mean()
    assert close(hit, reach, math.sqrt(reach * (1 - reach)), len(gains))
    assert gains[gains > 0].min() >= 600


@pytest.mark.parametrize("settings", [{}, {"choose_keepers": True}])
def test_optimal_policy_ev_matches_the_game(settings):
    turns = 800 if settings else 1200
    gains = bones_turns(optimal_player, turns, seed=11, min_on_board=50, **settings)
    exact = fd.optimal_turn_ev(BonesSettings(**settings))
    assert close(gains.mean(), exact, gains.std(), len(gains)), (gains.mean(), exact)


def test_thousand_turn_ev_is_a_martingale_over_real_games():
    """The EV-optimal player plays whole Thousand games (opening, pits, barrel, bolts, falls):
    each turn's gain minus its predicted expected gain averages to zero."""
    settings = ThousandSettings()
    diffs = []
    seed = 0
    while len(diffs) < 1500:
        seed += 1
        g = ThousandGame(["A"], settings, seed=seed)
        while not g.is_over and len(diffs) < 1500:
            s = g.state
            before = s.totals[0]
            exact = fd.optimal_turn_ev(settings, on_board=s.on_board[0], banked=before,
                                       on_barrel=s.on_barrel[0],
                                       barrel_turns=s.barrel_turns[0], bolts=s.bolts[0])
            turn = s.turn
            while g.state.turn == turn:
                a = Roll() if g.state.phase != "decide" else (
                    Stand() if fd.readout_for(settings, g.state).decision == "stand" else Roll())
                g.apply(a)
            diffs.append(g.state.totals[0] - before - exact)
    d = np.array(diffs)
    assert close(d.mean(), 0.0, d.std(), len(d)), d.mean()


@pytest.mark.parametrize("total, on_barrel, amount", [(225, False, 75), (880, True, 120)])
def test_thousand_reach_chances_match_the_game(total, on_barrel, amount):
    g = ThousandGame(["A"], seed=total)
    hits, n = 0, 1000
    for _ in range(n):
        set_state(g, totals=(total,), on_board=(True,), on_barrel=(on_barrel,),
                  barrel_turns=(0,), bolts=(0,), winner=None, current=0)
        turn = g.state.turn
        while g.state.turn == turn:
            s = g.state
            g.apply(Stand() if s.phase == "decide" and s.turn_total >= amount else Roll())
        hits += g.state.totals[0] >= total + amount
    p = fd.reach_chance("thousand", amount, banked=total, on_barrel=on_barrel)
    assert close(hits / n, p, math.sqrt(p * (1 - p)), n), (hits / n, p)


# ----- input checks and the command line -----------------------------------------------------
@pytest.mark.parametrize("call, words", [
    (lambda: fd.bust_chance("bones", 0), "1 to 5 dice"),
    (lambda: fd.turn_readout("bones", -50, 2), "turn total"),
    (lambda: fd.turn_readout("bones", 75, 2), "multiples of 50"),
    (lambda: fd.turn_readout("bones", 100, 6), "1 to 5 dice"),
    (lambda: fd.strategy_turn_ev("bones", "coward"), "unknown strategy"),
    (lambda: fd.strategy_turn_ev("thousand", "threshold:505"), "5..500"),
    (lambda: fd.threshold_turn_ev("bones", 2050), "50..2000"),
    (lambda: fd.optimal_turn_ev("thousand", banked=900), "barrel"),
    (lambda: fd.optimal_turn_ev("thousand", banked=800, on_barrel=True), "barrel"),
    (lambda: fd.optimal_turn_ev("bones", banked=-50), "negative"),
])
def test_invalid_input_raises_rule_error(call, words):
    with pytest.raises(RuleError, match=words):
        call()


def run_json(capsys, *argv):
    assert main(["odds", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_bones_json(capsys):
    out = run_json(capsys, "bones", "--strategy", "chicken")
    assert out["counting_chance"] == {str(n): float(p) for n, p in COUNTING.items()}
    assert out["bust_chance"] == pytest.approx(25 / 324)
    assert out["optimal_turn_ev"] == pytest.approx(fd.optimal_turn_ev("bones", on_board=False))
    assert out["strategy_turn_ev"] == pytest.approx(
        fd.strategy_turn_ev("bones", "chicken", on_board=False))
    assert "turn_state" not in out
    out = run_json(capsys, "bones", "--banked", "1000", "--dice", "2", "--turn-total", "300",
                   "--min-on-board", "300")
    assert out["optimal_turn_ev"] == pytest.approx(fd.optimal_turn_ev("bones"))
    assert out["bust_chance"] == pytest.approx(4 / 9)
    assert out["turn_state"]["decision"] == "stand"
    assert out["settings"]["min_on_board"] == 300


def test_cli_thousand_json(capsys):
    out = run_json(capsys, "thousand", "--banked", "225", "--turn-total", "50")
    assert out["situation"]["stand_needs"] == 75
    assert out["optimal_turn_ev"] == pytest.approx(fd.optimal_turn_ev("thousand", banked=225))
    assert out["turn_state"]["hot_dice"] and out["turn_state"]["decision"] == "roll"
    out = run_json(capsys, "thousand", "--banked", "880")
    assert out["situation"]["on_barrel"] and out["situation"]["stand_needs"] == 120


def test_cli_tables_for_a_person(capsys):
    assert main(["odds", "bones", "--dice", "3"]) == 0
    text = capsys.readouterr().out
    assert "13/18" in text and "Optimal play stands" in text and "chicken" in text


@pytest.mark.parametrize("argv, words", [
    (["bones", "--dice", "6"], "1 to 5 dice"),
    (["bones", "--turn-total", "-50"], "negative"),
    (["bones", "--banked", "-100"], "negative"),
    (["bones", "--strategy", "coward"], "unknown strategy"),
    (["bones", "--min-on-board", "725"], "min_on_board"),
    (["thousand", "--min-on-board", "300"], "not a setting of Thousand"),
    (["bones", "--leader", "10"], "under40"),
])
def test_cli_invalid_input_exits_2(capsys, argv, words):
    assert main(["odds", *argv]) == 2
    assert words in capsys.readouterr().err
