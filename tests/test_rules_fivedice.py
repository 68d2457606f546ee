"""The five-dice turn rules module (dicelab.rules.fivedice), the one home of what a stand needs
and what a stand or a bust does (RULES.md "Bones", "Thousand").

The module is checked three ways: against exact cases quoted from RULES.md, against the game
models on states drawn from many played games (with a plain reading of RULES.md as a third
opinion), and its array form against its scalar form element by element (the lab's use).
"""
from __future__ import annotations

import numpy as np
import pytest

from dicelab.actions import Stand
from dicelab.errors import RuleError
from dicelab.games import new_game
from dicelab.players import make_player
from dicelab.rules import fivedice as turn
from dicelab.settings import BonesSettings, ThousandSettings

T = ThousandSettings().turn_rules()  # RULES.md defaults: opening 50, pits 200-300 and 600-700,
# barrel 880 with 3 attempts and a fall of 100, target 1000, 3 bolts cost 100
S = turn.Standing


# ----- a plain reading of RULES.md, written separately from the module ------------------------
def reference_need(r, total, on_board, on_barrel):
    if r.variant == "bones":
        return 0 if on_board else r.min_on_board       # "minimum to get on the board"
    need = 0 if on_board else r.opening                # "Opening"
    if on_barrel:
        return max(need, r.target - total)             # "stand only with a turn total that
    for low, high in r.pits:                           #  reaches target"
        if low <= total < high:                        # "Pits ... only if t + turn >= high"
            return max(need, high - total)
    return need


def reference_after(r, p, banked):
    """(standing after the turn, won); banked 0 is a bust."""
    total, on_board, on_barrel, tries, bolts = p
    if r.variant == "bones":
        return (S(total + banked, True), False) if banked else (p, False)
    if banked:
        new = total + banked
        if on_barrel or (not r.barrel and new >= r.target):
            return S(new, True, on_barrel, tries, 0), True
        if r.barrel and new >= r.barrel:
            return S(r.barrel, True, True, 0, 0), False
        return S(new, True, False, tries, 0), False
    if on_barrel:  # "a failed barrel turn counts as an attempt, not as a bolt"
        if tries + 1 >= r.barrel_attempts:
            return S(total - r.barrel_fall, on_board, False, 0, bolts), False
        return S(total, on_board, True, tries + 1, bolts), False
    if bolts + 1 >= r.bolts_per_penalty:
        return S(total - r.bolt_penalty, on_board, False, tries, 0), False
    return S(total, on_board, False, tries, bolts + 1), False


# ----- exact cases from RULES.md --------------------------------------------------------------
def test_stand_needs_from_the_rules_text():
    assert turn.stand_need(T, 0, on_board=False) == 50              # opening 50
    assert turn.stand_need(T, 0, on_board=True) == 0
    assert turn.stand_need(T, 280, True) == 20                      # pit 200-300: reach 300
    assert turn.stand_need(T, 200, True) == 100
    assert turn.stand_need(T, 300, True) == 0                       # 300 is out of the pit
    assert turn.stand_need(T, 650, True) == 50
    assert turn.stand_need(T, 880, True, on_barrel=True) == 120     # barrel: reach 1000
    assert turn.pit(T, 280) == (200, 300) and turn.pit(T, 199) is None
    assert turn.stand_goal(T, 280, True) == ("pit", 20)
    assert turn.stand_goal(T, 0, False) == ("open", 50)
    assert turn.stand_goal(T, 880, True, True) == ("barrel", 120)
    # ties keep the first rule: unopened in a pit needing 50 (the opening) says "open"
    tied = ThousandSettings(pits=[(0, 50)], opening=50).turn_rules()
    assert turn.stand_goal(tied, 0, False) == ("open", 50)
    assert turn.stand_goal(ThousandSettings(opening=0).turn_rules(), 0, False) == ("stand", 0)
    b = BonesSettings().turn_rules()
    assert turn.stand_need(b, 0, on_board=False) == 600 and turn.stand_need(b, 0, True) == 0
    assert turn.stand_goal(b, 0, False) == ("board", 600)


def test_overlapping_pits_use_the_first_listed():
    # Settings refuse overlapping pits; a rules description built directly still has one answer
    with pytest.raises(RuleError):
        ThousandSettings(pits=[(100, 150), (120, 400)])
    r = turn.FiveDiceRules("thousand", pits=((100, 150), (120, 400)))
    assert turn.pit(r, 130) == (100, 150) and turn.stand_need(r, 130) == 20
    assert turn.stand_need(r, np.array([130, 160])).tolist() == [20, 240]


def test_stand_and_bust_from_the_rules_text():
    # a stand reaching the barrel sets the total to exactly 880 and starts the attempts
    assert turn.stand(T, S(700), 200) == (S(880, True, True, 0, 0), False)
    assert turn.stand(T, S(700, True, False, 0, 2), 100) == (S(800, True, False, 0, 0), False)
    # from the barrel a stand (only allowed reaching 1000) wins with barrel + turn total
    assert turn.stand(T, S(880, True, True, 1), 150) == (S(1030, True, True, 1, 0), True)
    # three failed barrel turns: fall off, -100; a failed barrel turn is not a bolt
    p = S(880, True, True, 0, 1)
    p = turn.bust(T, p)
    assert p == S(880, True, True, 1, 1)
    p = turn.bust(T, p)
    assert p == S(880, True, True, 2, 1) and turn.attempts_left(T, p) == 1
    assert turn.bust(T, p) == S(780, True, False, 0, 1)
    # every third bolt in a row costs 100 and starts the count again; totals may go negative
    p = S(40)
    for bolts in (1, 2):
        p = turn.bust(T, p)
        assert p == S(40, True, False, 0, bolts)
    assert turn.bust(T, p) == S(-60, True, False, 0, 0)
    half = ThousandSettings(bolt_penalty=50, bolts_per_penalty=2).turn_rules()
    assert turn.bust(half, S(0, False, False, 0, 1)) == S(-50, False, False, 0, 0)
    # no barrel: reaching the target wins at once
    nob = ThousandSettings(barrel=0).turn_rules()
    assert turn.stand(nob, S(950), 60) == (S(1010), True)
    assert turn.gain_cap(T, 700) == 180 and turn.gain_cap(T, 880, True) is None
    assert turn.gain_cap(nob, 700) is None
    b = BonesSettings().turn_rules()
    assert turn.stand(b, S(0, False), 650) == (S(650, True), False)
    assert turn.bust(b, S(650, True)) == S(650, True)


def test_rules_description_from_settings():
    r = ThousandSettings(pits=[[100, 150]], barrel=0).turn_rules()
    assert r.pits == ((100, 150),) and r.barrel == 0 and r.unit == 5
    assert hash(r) == hash(ThousandSettings(pits=[(100, 150)], barrel=0).turn_rules())
    b = BonesSettings(preset="french", choose_keepers=True).turn_rules()
    assert (b.variant, b.preset, b.choose_keepers, b.min_on_board) == ("bones", "french", True,
                                                                       600)
    assert b.kernel_key == ("bones", "french", True)


# ----- the games agree, on states drawn from many played games --------------------------------
BONES_SETTINGS = [{"preset": "hypercard"}, {"preset": "french"},
                  {"preset": "hypercard", "min_on_board": 50, "target": 3000},
                  {"preset": "hypercard", "choose_keepers": True, "min_on_board": 300,
                   "target": 3000}]
THOUSAND_SETTINGS = [{}, {"pits": [], "barrel": 0, "target": 500},
                     {"opening": 0, "pits": [(50, 100), (200, 250)], "barrel": 250, "target": 300,
                      "barrel_attempts": 1, "bolts_per_penalty": 2, "bolt_penalty": 50},
                     {"opening": 100, "pits": [(100, 150), (200, 350)], "barrel": 400,
                      "target": 500, "barrel_attempts": 2, "bolt_penalty": 0},
                     {"pits": [(0, 60)], "bolts_per_penalty": 1, "bolt_penalty": 50, "barrel": 250,
                      "target": 300, "barrel_fall": 200}]
SEATS = ["gambler", "chicken", "aggressive", "threshold:150:nohabit"]


def standing(game, state, seat):
    if game.variant == "bones":
        return S(state.totals[seat], state.on_board[seat])
    return S(state.totals[seat], state.on_board[seat], state.on_barrel[seat],
             state.barrel_turns[seat], state.bolts[seat])


def played_states(variant, settings, games):
    """Walk whole computer games; check each step against the module and the plain reading;
    return the standings met between turns and what happened to them."""
    seen = []
    for seed in range(games):
        specs = SEATS[seed % 4:] + SEATS[:seed % 4]
        seats = [(f"P{i}", make_player(variant, spec))
                 for i, spec in enumerate(specs[:2 + seed % 2])]
        if seed % 5 == 0:
            seats[0] = ("Optimal", make_player(variant, "optimal"))
        g = new_game(variant, seats, seed=seed, **settings)
        r = g.turn_rules
        while not g.is_over and len(g.actions) < 3000:
            st = g.state
            seat = st.current
            before = standing(g, st, seat)
            turn.check_standing(r, before)  # a standing the rules can reach
            need = turn.stand_need(r, before.total, before.on_board, before.on_barrel)
            assert g.need_to_stand()[0] == need == reference_need(r, before.total,
                                                                  before.on_board,
                                                                  before.on_barrel)
            action = g.computer_action()
            turn_total = st.turn_total
            g.apply(action)
            if g.state.turn == st.turn:  # the turn goes on
                continue
            banked = turn_total if isinstance(action, Stand) else 0
            after = standing(g, g.state, seat)
            expect, won = reference_after(r, before, banked)
            assert after == expect, (seed, before, banked)
            if banked:
                assert turn.stand(r, before, banked) == (after, won)
                assert (g.state.winner == seat) == won or variant == "bones"
            else:
                assert turn.bust(r, before) == after
            seen.append((before, banked, after, won))
    return seen


@pytest.mark.parametrize("settings", BONES_SETTINGS)
def test_bones_games_follow_the_rules_module(settings):
    seen = played_states("bones", settings, 25)
    assert sum(not b.on_board for b, *_ in seen) > 20    # the minimum on the board was in play
    check_arrays(BonesSettings(**settings).turn_rules(), seen)


@pytest.mark.parametrize("settings", THOUSAND_SETTINGS)
def test_thousand_games_follow_the_rules_module(settings):
    seen = played_states("thousand", settings, 30)
    r = ThousandSettings(**settings).turn_rules()
    if r.barrel:
        assert any(b.on_barrel for b, *_ in seen)        # the barrel was met
    if r.pits:
        assert any(turn.pit(r, b.total) for b, *_ in seen)
    if r.bolts_per_penalty > 1:
        assert any(b.bolts for b, *_ in seen)
    assert any(a.total < b.total for b, k, a, _ in seen if not k)  # a bust cost points
    check_arrays(r, seen)


def check_arrays(r, seen):
    """The array form equals the scalar form element by element (the lab's batches)."""
    before = S(*(np.array(col) for col in zip(*(b for b, *_ in seen))))
    banked = np.array([k for _b, k, *_ in seen])
    need = turn.stand_need(r, before.total, before.on_board, before.on_barrel)
    assert need.tolist() == [turn.stand_need(r, b.total, b.on_board, b.on_barrel)
                             for b, *_ in seen]
    low, high = turn.pit_bounds(r, before.total)
    assert [(lo, hi) if hi else None for lo, hi in zip(low.tolist(), high.tolist())] \
        == [turn.pit(r, b.total) for b, *_ in seen]
    after, won = turn.stand(r, before, banked)
    busted = turn.bust(r, before)
    stood = banked > 0
    for i, (_b, _k, a, w) in enumerate(seen):
        got = S(*(np.broadcast_to(np.where(stood, x, y), stood.shape)[i].item()
                  for x, y in zip(after, busted)))
        assert got == a, (i, seen[i])
        assert bool(np.broadcast_to(won, stood.shape)[i]) == w or not stood[i]


# ----- Bones between turns: the final turns and the winner --------------------------------------
def test_bones_final_turns_from_the_rules_text():
    """RULES.md "Bones": the first to reach the target starts the final turns; each other
    player gets one turn "to try to exceed"; then the highest total wins and a tie goes to the
    player who reached that total first."""
    B = BonesSettings().turn_rules()
    assert turn.starts_final_turns(10_000, 10_000, None) is True
    assert turn.starts_final_turns(9_950, 10_000, None) is False
    assert not turn.starts_final_turns(10_500, 10_000, 1)      # only the first one starts them
    assert turn.leader_total((9_000, 10_200, 9_950), 0) == 10_200
    assert turn.leader_total((9_000, 10_200, 9_950), 1) == 9_950
    assert turn.passes_leader(9_000, 1_250, 10_200) and not turn.passes_leader(9_000, 1_200, 10_200)
    assert turn.final_turn_need(B, 9_000, 10_200) == 1_250      # a tie is not enough
    assert turn.final_turn_need(B, 10_200, 10_000) == 50        # ahead: any stand (one unit)
    assert turn.final_turns_over(2, 2) and not turn.final_turns_over(2, 0)
    assert turn.bones_winner((10_200, 10_250, 9_000), (5, 9, 3)) == 1
    assert turn.bones_winner((10_250, 10_250, 9_000), (9, 5, 3)) == 1   # reached it first
    assert turn.bones_winner((10_250, 10_250, 9_000), (5, 9, 3)) == 0


def test_bones_final_turns_arrays_match_plain_numbers():
    """The lab's form (one row per game) gives what the game's form gives, game by game."""
    B = BonesSettings().turn_rules()
    rng = np.random.default_rng(3)
    totals = rng.integers(0, 5, size=(400, 3)) * 2_500     # many ties
    reached = rng.integers(0, 40, size=(400, 3))
    seat = rng.integers(0, 3, size=400)
    final_from = rng.integers(-1, 3, size=400)
    lead = turn.leader_total(totals, seat)
    need = turn.final_turn_need(B, totals[np.arange(400), seat], lead)
    win = turn.bones_winner(totals, reached)
    starts = turn.starts_final_turns(totals[:, 0], 5_000, final_from)
    for g in range(400):
        row, s = tuple(int(x) for x in totals[g]), int(seat[g])
        assert lead[g] == turn.leader_total(row, s)
        assert need[g] == turn.final_turn_need(B, row[s], turn.leader_total(row, s))
        assert win[g] == turn.bones_winner(row, tuple(int(x) for x in reached[g]))
        ff = None if final_from[g] < 0 else int(final_from[g])
        assert starts[g] == turn.starts_final_turns(row[0], 5_000, ff)
