"""Luck and skill, exact (issue 35): each roll's luck, the decomposition of a game's value
change into the rolls' luck and the decisions' changes, and a roll's luck against an
independent solver written here.

The decomposition (``coach.luck``): per segment of one unit, from one seat's side,
value(end) - value(start) = sum of luck + sum of decisions' changes, to 1e-9. A segment is one
turn (expected points of the turn in Bones and Thousand; the chance to win the round in Under40;
a final turn's chance to win without the table), one seat's whole game (Yahtzee's expected final
score) or the whole game seen by each seat (a two-seat game judged by the chance to win: the
other's luck and errors count against you). Quick: 3 games per case; DICELAB_SLOW=1: 200.
"""
from __future__ import annotations

import itertools
import os
from functools import lru_cache

import numpy as np
import pytest

import dicelab
from dicelab import coach
from dicelab.games import Seat
from dicelab.players import make_player

SLOW = bool(os.environ.get("DICELAB_SLOW"))
# case -> (variant, computers, settings); "thousand" uses the README table's small settings
CASES = {
    "bones_small": ("bones", ["chicken", "gambler"], {"target": 1000, "min_on_board": 300}),
    "bones_default": ("bones", ["chicken", "gambler"], {}),
    "thousand_small": ("thousand", ["threshold", "aggressive"],
                       {"target": 150, "barrel": 100, "pits": [(25, 50)], "barrel_fall": 50,
                        "bolt_penalty": 50}),
    "under40_2": ("under40", ["cautious", "threshold"], {}),
    "under40_4": ("under40", ["cautious", "threshold", "cautious", "threshold"], {}),
    "yahtzee_1": ("yahtzee", ["greedy"], {}),
    "yahtzee_2": ("yahtzee", ["greedy", "skill"], {}),
}
GAMES = 200 if SLOW else 3


def play(case: str, seed: int):
    variant, specs, settings = CASES[case]
    seats = [Seat(f"{s} {i + 1}", make_player(variant, s), strategy=s)
             for i, s in enumerate(specs)]
    g = dicelab.new_game(variant, seats, seed=seed, **settings)
    while not g.is_over and g.version < 4000:
        g.apply(g.computer_action())
    return g


@pytest.fixture(scope="module", autouse=True)
def _win_cache(tmp_path_factory):
    from dicelab.odds import win

    saved = win.cache_dir
    win.cache_dir = lambda: tmp_path_factory.getbasetemp() / "win-cache"
    yield
    win.cache_dir = saved


def check_decomposition(g, r) -> None:
    """Every segment adds up; a step that throws no dice has no luck; the ends are the
    game's: a duel ends at 1 or 0, a Yahtzee seat at its score, a turn at its points."""
    assert r.steps, "no step valued"
    for seg in r.segments():
        assert abs(seg.residue) < 1e-9, seg
        if seg.segment[0] == "duel" and g.is_over:
            assert seg.end == (1.0 if g.state.winner == seg.seat else 0.0)
        if seg.segment[0] == "seat" and g.is_over:
            assert seg.end == g.total(seg.seat)
    for st in r.steps:
        if not st.rolled:
            assert abs(st.luck) < 1e-9, st
        assert st.change <= 1e-12, st  # a decision never gains on the best play
    # the seats' totals are the steps' sums; the decisions' changes are the review's losses
    for s in r.seats.values():
        mine = [st for st in r.steps if st.seat == s.seat]
        for u in {st.unit_key for st in mine}:
            assert s.luck[u] == pytest.approx(sum(st.luck for st in mine
                                                  if st.unit_key == u), abs=1e-12)
    for e in r.entries:
        st = next((x for x in r.steps if x.index == e.index), None)
        if st is not None and st.unit_key == e.unit_key:
            assert st.change == pytest.approx(-e.lost, abs=1e-12)


@pytest.mark.parametrize("case", list(CASES))
def test_value_change_is_luck_plus_decisions(case):
    for seed in range(1, GAMES + 1):
        g = play(case, seed)
        r = coach.review(g)
        check_decomposition(g, r)


def test_units_and_segments_per_variant():
    """Which unit values which stretch: two-seat Bones with its table: the chance to win for
    the whole game; without the table (the default target, not built here): points per turn,
    then the final turn by the chance to win (exact without the table)."""
    r = coach.review(play("bones_small", 1))
    assert {st.segment[0] for st in r.steps} == {"duel"}
    assert r.luck_units == ["chance to win the game"]
    start = r.steps[0]
    from dicelab.odds import win
    t = win.table(win.win_rules(dicelab.new_game("bones", ["a", "b"], target=1000,
                                                 min_on_board=300).config), progress=False)
    assert start.before == pytest.approx(t.start_chance(0, 0), abs=1e-12)
    r = coach.review(play("bones_default", 2))
    kinds = {(st.segment[0], st.unit_key) for st in r.steps}
    assert ("turn", "expected points of the turn") in kinds
    assert ("turn", "chance to win the game") in kinds  # the final turn
    final = [st for st in r.steps if st.unit_key == "chance to win the game"]
    assert len({st.segment for st in final}) == 1 and final[-1].after in (0.0, 1.0)
    # a Bones turn in points starts at the turn's expected points and ends at what it banked
    from dicelab.odds.fivedice import optimal_turn_ev
    first = r.steps[0]
    g = dicelab.new_game("bones", ["a", "b"])
    assert first.before == pytest.approx(optimal_turn_ev(g.config, on_board=False), abs=1e-9)
    r = coach.review(play("yahtzee_1", 1))
    from dicelab.odds.yahtzee import solve
    g = play("yahtzee_1", 1)
    assert r.steps[0].before == pytest.approx(solve(g.settings, progress=False).expected_score,
                                              abs=1e-9)
    assert r.segments()[0].end == g.total(0)


def test_outputs_show_the_luck():
    g = play("bones_small", 3)
    r = coach.review(g)
    s = r.seats[g.names[0]]
    o = r.seats[g.names[1]]
    u = "chance to win the game"
    # the duel from each side: my dice against theirs, my errors, theirs
    assert s.luck_against[u] == pytest.approx(s.luck[u] - o.luck[u])
    assert (1.0 if g.state.winner == 0 else 0.0) - r.steps[0].before * (
        1 if r.steps[0].seat == 0 else -1) - (0 if r.steps[0].seat == 0 else 1) == \
        pytest.approx(s.luck_against[u] + s.skill[u] - o.skill[u], abs=1e-9)
    text = r.text()
    assert "dice worth" in text and "against the other's" in text
    assert ("won:" in text) and ("lost:" in text)
    csv_text = r.to_csv()
    assert csv_text.splitlines()[0].endswith("luck_before,luck,luck_unit")
    d = r.to_dict()
    assert len(d["steps"]) == len(r.steps) and "luck" in d["decisions"][0]
    assert d["seats"][g.names[0]]["luck"][0]["luck_against"] == pytest.approx(s.luck_against[u])
    assert "luck" in r._repr_html_()
    table = r.steps_table()
    assert list(table["luck"]) == [st.luck for st in r.steps]
    by_turn = r.luck_by_turn()
    assert by_turn["luck"].sum() == pytest.approx(sum(st.luck for st in r.steps))


def test_no_luck_review_is_the_old_review():
    g = play("under40_2", 1)
    plain, full = coach.review(g, luck=False), coach.review(g)
    assert plain.steps == [] and "luck" not in plain.to_csv().splitlines()[0]
    assert [e.lost for e in plain] == [e.lost for e in full]


# ----- an independent solver: two-seat Bones, target 500, 50 to get on the board -------------
TARGET, MIN_ON = 500, 50


@lru_cache(maxsize=None)
def outcomes(n: int) -> tuple[list, float]:
    """(points in units, dice left after) -> probability, for a roll of n dice; bust chance."""
    from dicelab.rules.bones import score

    groups: dict = {}
    bust = 0.0
    for dice in itertools.product(range(1, 7), repeat=n):
        p = 6.0 ** -n
        sc = score(dice)
        if sc.bust:
            bust += p
            continue
        assert sc.points % 50 == 0
        left = n - sc.counting or 5
        key = (sc.points // 50, left)
        groups[key] = groups.get(key, 0.0) + p
    return sorted(groups.items()), bust


class Duel:
    """W(b, o): my chance to win at the start of my turn, banked b, the other o (units of 50;
    below the target), by value iteration over whole turns (every pair at once); each turn by
    backward induction over the running total c = b + t. With 50 to get on the board every
    non-bust roll may stand."""

    T = TARGET // 50
    CAP = T + 80  # from 4,000 points over the target on, stand (the other's chance ~ 0)
    REACH = 4 * CAP  # a final turn's distance: the tests' games stay below it (``inside``)

    def __init__(self):
        self.reach = self._reach()
        W = np.full((self.T, self.T), 0.5)
        for _ in range(1000):
            self.R, self.D = self.turns(W)
            new = self.R[:, :, :, 5][np.arange(self.T)[:, None], np.arange(self.T)[None, :],
                                     np.arange(self.T)[:, None]]
            if np.abs(new - W).max() < 1e-14:
                break
            W = new
        self.W = new

    def _reach(self) -> np.ndarray:
        """reach[r, n]: the chance to add at least r more units this turn, rolling n dice."""
        R = np.zeros((self.REACH, 6))
        R[0, :] = 1.0
        for r in range(1, self.REACH):
            for n in range(1, 6):
                R[r, n] = sum(p * (1.0 if pts >= r else R[r - pts, left])
                              for (pts, left), p in outcomes(n)[0])
        return R

    def final(self, b: int, o: int, t: int, n: int) -> float:
        """My final turn (the other has o >= target): I must end above o."""
        return self.reach[max(o - b + 1 - t, 0), n]

    def turns(self, W):
        """R[b, o, c, n] rolling and D[b, o, c, n] deciding at running total c (turn total
        c - b > 0) with n dice to roll next, for every pair at once."""
        T, C = self.T, self.CAP
        b = np.arange(T)[:, None]
        o = np.arange(T)[None, :]
        bust = 1.0 - W.T  # a bust: the other's turn from (o, b)
        R = np.zeros((T, T, C + 1, 6))
        D = np.zeros((T, T, C + 1, 6))
        for c in range(C, -1, -1):
            if c >= T:  # the other's final turn must pass c
                stand = 1.0 - self.reach[np.minimum(c - o + 1, C + 1), 5] + 0 * b
            else:
                stand = 1.0 - W[:, c][None, :] + 0 * b  # (b, o) -> 1 - W(o, c)
            for n in range(1, 6):
                if c == C:
                    R[:, :, c, n] = stand
                else:
                    groups, pb = outcomes(n)
                    R[:, :, c, n] = pb * bust + sum(p * D[:, :, min(c + pts, C), left]
                                                    for (pts, left), p in groups)
                D[:, :, c, n] = np.maximum(R[:, :, c, n], stand)
        return R, D

    def _where(self, game):
        st = game.state
        me = st.current
        return (st.totals[me] // 50, st.totals[1 - me] // 50, st.turn_total // 50,
                st.dice_left, st.final_from is not None)

    def inside(self, game) -> bool:
        b, o, t, n, final = self._where(game)
        return b + t < self.CAP and o - b < self.REACH - 1

    def value(self, game) -> float:
        """The position now for the player on turn (best play from here)."""
        b, o, t, n, final = self._where(game)
        decide = game.state.phase == "decide"
        if final:
            return max(self.final(b, o, t, n), 1.0 if decide and b + t > o else 0.0)
        return (self.D if decide else self.R)[b, o, b + t, n]

    def roll_value(self, game) -> float:
        b, o, t, n, final = self._where(game)
        return self.final(b, o, t, n) if final else self.R[b, o, b + t, n]


def test_roll_luck_matches_an_independent_solver():
    """Every roll of seeded games at target 500: the review's luck (the value after the roll
    minus the exact average before it) is the independent solver's, to 1e-6."""
    from dicelab.actions import Roll

    duel = Duel()
    checked = 0
    for seed in range(1, 7):
        seats = [Seat(f"{s} {i + 1}", make_player("bones", s), strategy=s)
                 for i, s in enumerate(["chicken", "gambler"])]
        g = dicelab.new_game("bones", seats, seed=seed, target=TARGET, min_on_board=MIN_ON)
        while not g.is_over:
            g.apply(g.computer_action())
        r = coach.review(g)
        luck = {st.index: st for st in r.steps}
        fresh = type(g)(g.seats, g.settings, g.seed)
        for i, action in enumerate(g.actions):
            me = fresh.current_player
            q = duel.roll_value(fresh) if isinstance(action, Roll) and duel.inside(fresh) \
                else None
            fresh.apply(action)
            if q is None or not (fresh.is_over or duel.inside(fresh)):
                continue  # a running total past the test solver's cap (4,000 over the target)
            if fresh.is_over:
                after = 1.0 if fresh.state.winner == me else 0.0
            else:
                v = duel.value(fresh)
                after = v if fresh.current_player == me else 1.0 - v
            assert luck[i].rolled
            assert luck[i].luck == pytest.approx(after - q, abs=1e-6), (seed, i)
            checked += 1
    assert checked > 30


def test_independent_solver_is_right_about_a_turn():
    """The test's own solver against hand counts: the chance to add at least 50 with one die
    is 1/3 (a 1 or a 5); with five dice, one minus the bust chance; moving first is worth
    something."""
    duel = Duel()
    assert duel.reach[1, 1] == pytest.approx(1 / 3)
    assert duel.reach[1, 5] == pytest.approx(1 - outcomes(5)[1])
    assert 0.5 < duel.W[0, 0] < 1


def test_plot_draws_every_seat_and_marks():
    g = play("bones_small", 1)
    r = coach.review(g)
    fig = r.plot()
    from dicelab.coach import plot
    data = plot.series(r)
    assert set(data) == {0, 1}  # a duel: both seats' chances
    for x0, x1 in zip(data[0]["y"], data[1]["y"]):
        assert x0 + x1 == pytest.approx(1.0)
    assert data[g.state.winner]["y"][-1] == 1.0
    assert fig is not None and len(fig.renderers) >= 2
    assert "<script" in r._repr_html_() and "dicelab-review" in r._repr_html_()
    # one turn's unit: each seat's running account ends at its luck + decisions
    r = coach.review(play("under40_2", 1))
    data = plot.series(r)
    for seat, d in data.items():
        s = next(x for x in r.seats.values() if x.seat == seat)
        u = r.luck_units[0]
        assert d["y"][-1] == pytest.approx(s.luck[u] + s.skill[u], abs=1e-9)


def test_exercises_from_the_costliest_decisions():
    rs = [coach.review(play("bones_default", seed)) for seed in (1, 2)]
    ex = coach.exercises(rs, n=5)
    assert 0 < len(ex) <= 5
    losses = [e.entry.lost for e in ex if e.entry.unit_key == rs[0].unit_key]
    assert losses == sorted(losses, reverse=True)
    first = ex[0]
    best = first.answer(first.best.key)
    assert best.correct and best.cost == 0
    played = first.answer(first.played.key)
    assert not played.correct and played.cost == pytest.approx(first.entry.lost)
    for o in first.options:  # every choice's cost is exact: the best value minus its own
        assert first.cost(o.key) == pytest.approx(first.best.value - o.value)
    with pytest.raises(dicelab.RuleError):
        first.answer(("fly",))
    sc = coach.score([best, played])
    assert (sc.answered, sc.correct) == (2, 1)
    assert sc.cost[first.entry.unit_key] == pytest.approx(first.entry.lost)
    assert first.to_dict()["options"] and "1 of 2" in sc.words
    only = coach.exercises(rs[0], seat=rs[0].names[0], n=50)
    assert all(e.player == rs[0].names[0] for e in only)


def check_mean_luck_about_zero(variant, players, games, **settings):
    from dicelab.lab.review import coach_losses

    out = coach_losses(variant, players, games=games, seed=7, settings=settings)
    seen = 0
    for row in out["players"]:
        for x in row["luck"]:
            lo, hi = x["mean_luck_per_game_ci"]
            assert lo <= 0.0 <= hi, (row["player"], x)
            assert x["rolls"] > 0
            seen += 1
    assert seen >= len(players)
    return out


def test_simulate_json_reports_mean_luck_about_zero(capsys):
    """A roll's luck averages 0 over its outcomes, so each seat's mean luck per game lies
    within its 95% interval of 0 (a luck off its exact average would drift)."""
    check_mean_luck_about_zero("under40", ["cautious", "threshold"], 40)
    from dicelab.cli import main
    import json
    assert main(["simulate", "bones", "--players", "chicken,gambler", "--games", "3",
                 "--target", "1000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all("mean_luck_per_game" in x for row in data["players"] for x in row["luck"])


@pytest.mark.skipif(not SLOW, reason="slow: set DICELAB_SLOW=1")
def test_mean_luck_about_zero_over_20000_games():
    check_mean_luck_about_zero("bones", ["chicken", "gambler"], 20_000, target=1000,
                               min_on_board=300)
