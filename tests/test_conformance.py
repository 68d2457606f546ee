"""One conformance test over every variant (DESIGN.md, OpenSpiel style): at least 1,000 random
legal games each with fixed seeds, checking the invariants of RULES.md on every game:
the game ends, the totals agree with the action log, the winner is right, replay and
save/load give the identical game, and random illegal actions are refused with nothing changed.
"""
from __future__ import annotations

import numpy as np
import pytest

import dicelab
from dicelab.actions import Reroll, Roll, Score, Stand
from dicelab.errors import RuleError
from dicelab.games import GAMES
from dicelab.rules.yahtzee import BOXES

GAMES_PER_VARIANT = 1000
QUICK_GAMES = 100  # the everyday suite's share; the other 900 of each variant are slow
# (first game, end) of each chunk: the quick one, then the slow ones in four
SPANS = [(0, QUICK_GAMES)] + [(a, a + (GAMES_PER_VARIANT - QUICK_GAMES) // 4)
                              for a in range(QUICK_GAMES, GAMES_PER_VARIANT,
                                             (GAMES_PER_VARIANT - QUICK_GAMES) // 4)]
CHUNKS = [pytest.param(span, id=f"{span[0]}-{span[1]}",
                       marks=[pytest.mark.slow] if span[0] else []) for span in SPANS]
MAX_ACTIONS = 20_000


def random_settings(variant: str, rng: np.random.Generator) -> dict:
    """Random settings of RULES.md, often small targets so a thousand games stay quick."""
    pick = lambda xs: xs[int(rng.integers(len(xs)))]  # noqa: E731
    if variant == "bones":
        preset = pick(["hypercard", "french"])
        return {"preset": preset, "choose_keepers": bool(rng.integers(2)),
                "min_on_board": 600 if preset == "french" else int(rng.integers(1, 15)) * 50,
                "target": pick([1000, 1000, 2000, 3000, 10_000])}
    if variant == "thousand":
        if rng.integers(2):
            return {}
        return {"opening": pick([0, 50, 100]),
                "pits": pick([[], [(100, 150)], [(50, 100), (200, 250)]]),
                "barrel": pick([0, 250]), "target": 300, "barrel_attempts": pick([1, 3]),
                "bolts_per_penalty": pick([2, 3]), "bolt_penalty": pick([0, 50, 100])}
    if variant == "under40":
        return {"target": pick([100, 200, 400])}
    if variant == "yahtzee":
        return {"preset": pick(["official", "seed", "upper_bonus_only", "no_bonus"]),
                "filled_box_wastes_round": bool(rng.integers(2))}
    raise AssertionError(variant)


def random_action(rng: np.random.Generator):
    """Any action at all, legal or not."""
    kind = int(rng.integers(5))
    positions = tuple(int(p) for p in np.flatnonzero(rng.integers(2, size=5)))
    if kind == 0:
        return Roll()
    if kind == 1:
        return Roll(keep=positions) if positions else Stand()
    if kind == 2:
        return Stand()
    if kind == 3:
        return Reroll(positions) if positions else Roll()
    return Score(BOXES[int(rng.integers(len(BOXES)))])


def audit_totals(game):
    """The totals agree with what the log says happened to each seat."""
    totals = [0] * game.n_seats
    for e in game.history:
        if e.seat is not None and "total" in e.data:
            totals[e.seat] = e.data["total"]
    assert tuple(totals) == tuple(game.totals()), (totals, game.totals())


def check_winner(game, variant):
    t = game.totals()
    w = game.winners
    assert game.is_over and w
    if variant == "bones":
        # highest total; a tie goes to the player who reached it first
        best = max(t)
        tied = [i for i in range(game.n_seats) if t[i] == best]
        assert w == (min(tied, key=lambda i: game.state.reached_at[i]),)
        assert t[w[0]] >= game.config.target or any(x >= game.config.target for x in t)
    elif variant == "thousand":
        assert len(w) == 1 and t[w[0]] >= game.config.target
        assert sum(1 for x in t if x >= game.config.target) == 1
    elif variant == "under40":
        assert len(w) == 1 and t[w[0]] >= game.config.target
        assert sum(1 for x in t if x >= game.config.target) == 1
    else:
        assert set(w) == {i for i in range(game.n_seats) if t[i] == max(t)}


@pytest.mark.parametrize("span", CHUNKS)
@pytest.mark.parametrize("variant", sorted(GAMES))
def test_random_games(variant, span):
    for k in range(*span):
        rng = np.random.default_rng([7, k, len(variant)])
        n = int(rng.integers(GAMES[variant].min_seats, 9))
        game = dicelab.new_game(variant, [f"P{i}" for i in range(n)], seed=k,
                                **random_settings(variant, rng))
        for step in range(MAX_ACTIONS):
            if game.is_over:
                break
            legal = game.legal_actions()
            assert legal, "a game that is not over always has a legal action"
            if step % 7 == 0:  # probe: random actions outside the legal set change nothing
                probe = random_action(rng)
                if probe not in legal:
                    before = game.snapshot()
                    with pytest.raises(RuleError):
                        game.apply(probe)
                    assert game.snapshot() == before
            game.apply(legal[int(rng.integers(len(legal)))])
        assert game.is_over, f"{variant} game {k} did not end in {MAX_ACTIONS} actions"
        assert game.legal_actions() == []
        with pytest.raises(RuleError):
            game.apply(Roll())
        audit_totals(game)
        check_winner(game, variant)
        again = dicelab.load_game(game.to_json())
        assert again.state == game.state
        assert [e.text for e in again.history] == [e.text for e in game.history]
