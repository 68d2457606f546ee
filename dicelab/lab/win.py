"""Vectorised two-seat Bones games with score-aware policies (the check of dicelab.odds.win).

Dice come from the lab's roll tables (one draw in [0, 6**5) per game and step, scored by the
rules module), so these games share no code with the win solver's roll kernel. A policy is
``stands(b, o, c, n) -> bool`` over arrays in units of 50: my banked b, the other's o, my running
total c = b + turn total, dice n for the next roll, asked only where the rules allow a stand in
a regular turn. In a final turn (the other has reached the target) every policy here plays the
seed's "one turn to try to exceed": it rolls until its total is above the leader's and stands
then (docs/explanation/rules.md "Bones"), which is also what maximises the chance to win there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..rules import fivedice as turn
from .rolls import roll_tables

UNIT = 50
StandFn = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Duels:
    """Outcome of a batch: the winner's seat per game (seat 0 moved first from the start
    state), the final totals (points), the turns played and the number of steps (rolls)."""

    winners: np.ndarray
    rolls: int
    totals: np.ndarray | None = None
    turns: np.ndarray | None = None


def play(policies: tuple[StandFn, StandFn], n_games: int, *, target: int, min_on_board: int,
         preset: str = "hypercard", start: tuple[int, int, int, int] = (0, 0, 0, 5),
         final: bool = False, rng=None, seed=None) -> Duels:
    """Play ``n_games`` from one state: seat 0 is on turn with ``start`` = (banked, other's
    banked, turn total, dice left) in points; ``final``: the other (seat 1) has reached the
    target and this is seat 0's final turn. Returns each game's winner."""
    rng = rng if rng is not None else np.random.default_rng(seed)
    pts_table, cnt_table = roll_tables("bones", preset)
    r = turn.FiveDiceRules.of("bones", {"preset": preset, "min_on_board": min_on_board})
    T = target // UNIT
    # the on-board need in units, off and on the board (a Bones total above 0 is on the
    # board: every stand banks at least one unit)
    need_off, need_on = (-(-turn.stand_need(r, 0, b) // UNIT) for b in (False, True))
    b0, o0, t0, n0 = start
    tot = np.zeros((n_games, 2), dtype=np.int64)
    tot[:, 0], tot[:, 1] = b0 // UNIT, o0 // UNIT
    cur = np.zeros(n_games, dtype=np.int64)
    t = np.full(n_games, t0 // UNIT, dtype=np.int64)
    n = np.full(n_games, n0, dtype=np.int64)
    reacher = np.full(n_games, 1 if final else -1)       # who reached the target first
    winners = np.full(n_games, -1)
    turns = np.zeros(n_games, dtype=np.int64)
    g = np.arange(n_games)
    rolls = 0
    # a mid-turn start first decides whether to stand (as after a roll)
    pending = np.full(n_games, t0 > 0)
    while g.size:
        rolls += 1
        c_, t_, n_ = cur[g], t[g], n[g]
        me = tot[g, c_]
        other = tot[g, 1 - c_]
        fin = reacher[g] >= 0
        # decide (after the roll that brought us here, or at a mid-turn start)
        decide = pending[g]
        may = decide & (t_ >= np.where(me > 0, need_on, need_off))
        stand = np.zeros(g.size, dtype=bool)
        # final turn: stand exactly when ahead
        stand |= may & fin & turn.passes_leader(me, t_, other)
        reg = may & ~fin
        for seat in (0, 1):
            sel = np.flatnonzero(reg & (c_ == seat))
            if sel.size:
                stand[sel] = policies[seat](me[sel], other[sel], me[sel] + t_[sel], n_[sel])
        # stands end the turn
        s = np.flatnonzero(stand)
        if s.size:
            gs = g[s]
            tot[gs, c_[s]] += t_[s]
            ended_final = fin[s]
            over = gs[ended_final]
            # after the final turn: highest total wins, a tie goes to who reached it first
            if over.size:
                winners[over] = turn.bones_winner(tot[over], _reached(reacher[over]))
            reg_s = gs[~ended_final]
            # (nobody has reached the target in these games' regular turns)
            hit = turn.starts_final_turns(tot[reg_s, c_[s][~ended_final]], T, None)
            reacher[reg_s[hit]] = c_[s][~ended_final][hit]
            cur[reg_s] = 1 - cur[reg_s]
            t[reg_s], n[reg_s] = 0, 5
            pending[reg_s] = False
            turns[gs] += 1
        # everyone else rolls
        gr = g[~stand]
        pts, cnt = _roll(rng, n[gr], pts_table, cnt_table)
        bust = cnt == 0
        gb = gr[bust]
        # a bust in a final turn ends the game (the leader's, as the totals stand); else the
        # turn passes
        fb = reacher[gb] >= 0
        over = gb[fb]
        if over.size:
            winners[over] = turn.bones_winner(tot[over], _reached(reacher[over]))
        rb = gb[~fb]
        turns[gb] += 1
        cur[rb] = 1 - cur[rb]
        t[rb], n[rb] = 0, 5
        pending[rb] = False
        go = gr[~bust]
        _advance(t, n, go, pts[~bust] // UNIT, cnt[~bust])
        pending[go] = True
        g = g[winners[g] < 0]
    return Duels(winners, rolls, tot * UNIT, turns)


def _reached(reacher: np.ndarray) -> np.ndarray:
    """(games, 2) order in which the two seats reached their totals, from who reached the
    target first (in a two-seat final turn the other one reached theirs later)."""
    return np.stack([reacher != 0, reacher != 1], axis=1).astype(np.int64)


def _roll(rng, n_dice: np.ndarray, pts_table, cnt_table):
    """One roll of n dice per game from the lab's roll tables: (points, counting dice)."""
    k = n_dice * 6 ** 5 + rng.integers(0, 6 ** 5, size=n_dice.size)
    return pts_table[k], cnt_table[k]


def _advance(t, n, go, pts, cnt) -> None:
    """The games ``go`` scored: add the points, set the counting dice aside (hot dice: 5)."""
    t[go] += pts
    left = n[go] - cnt
    n[go] = np.where(left == 0, 5, left)


def table_policy(table) -> StandFn:
    """The max-win policy of a ``dicelab.odds.win`` table (its stand bits and thresholds)."""
    return table.stands_at


def ev_policy(rules) -> StandFn:
    """``optimal`` (expected points of the turn) in a regular turn; its stand tables."""
    from types import SimpleNamespace

    from ..odds.fivedice import optimal_stand_table

    return lab_policy(SimpleNamespace(stand_table=optimal_stand_table(rules, on_board=True),
                                      fresh_table=optimal_stand_table(rules, on_board=False)))


def lab_policy(pol) -> StandFn:
    """A ``dicelab.lab.fivedice.Policy`` (threshold or stand tables) as a stand function."""
    if pol.stand_table is None:
        return threshold_policy(pol.threshold, pol.hot_dice_habit)
    board, fresh = pol.stand_table, pol.fresh_table

    def stands(b, o, c, n):
        t = c - b
        out = board[np.minimum(t, board.shape[0] - 1), n]
        if fresh is None:
            return out
        return np.where(b > 0, out, fresh[np.minimum(t, fresh.shape[0] - 1), n])
    return stands


def threshold_policy(threshold: int, habit: bool = True) -> StandFn:
    """Seed 000's computers in a regular turn: stand at a turn total >= threshold, with hot
    dice roll again once on the board."""
    def stands(b, o, c, n):
        t = (c - b) * UNIT
        want = t >= threshold
        if habit:
            want &= ~((n == 5) & (b > 0))
        return want
    return stands


# ----- two-seat Thousand ------------------------------------------------------------------------
# ``stands(me, other, t, n) -> bool``: me and other are ``rules.fivedice.Standing`` of arrays
# (points), t the turn total (points), n the dice of the next roll; asked only where the rules
# allow a stand.
ThousandStandFn = Callable[..., np.ndarray]


def play_thousand(policies: tuple[ThousandStandFn, ThousandStandFn], n_games: int, rules,
                  start=None, rng=None, seed=None, max_steps: int = 200_000,
                  first: str | None = None) -> Duels:
    """Play ``n_games`` two-seat Thousand games (docs/explanation/rules.md "Thousand") from one
    state: seat 0 is on turn; ``start`` = (my Standing, the other's Standing, turn total, dice
    left), points, plain numbers (default: the start of a game). Stands and busts go through
    ``rules.fivedice.stand`` / ``bust``; a stand that wins ends the game. ``first``: "stand" or
    "roll" forces seat 0's decision at a mid-turn start (a stand only where allowed)."""
    from ..rules import fivedice as turn

    r = rules if isinstance(rules, turn.FiveDiceRules) else rules.turn_rules() \
        if hasattr(rules, "turn_rules") else turn.FiveDiceRules.of("thousand", vars(rules))
    rng = rng if rng is not None else np.random.default_rng(seed)
    pts_table, cnt_table = roll_tables("thousand")
    if start is None:
        start = (turn.Standing(0, False), turn.Standing(0, False), 0, 5)
    me0, other0, t0, n0 = start
    names = turn.Standing._fields
    st = {f: np.zeros((n_games, 2), dtype=bool if f in ("on_board", "on_barrel") else np.int64)
          for f in names}
    for seat, s in ((0, me0), (1, other0)):
        for f in names:
            st[f][:, seat] = getattr(s, f)
    cur = np.zeros(n_games, dtype=np.int64)
    t = np.full(n_games, t0, dtype=np.int64)
    n = np.full(n_games, n0, dtype=np.int64)
    winners = np.full(n_games, -1)
    turns = np.zeros(n_games, dtype=np.int64)
    g = np.arange(n_games)
    steps = 0
    while g.size:
        steps += 1
        if steps > max_steps:
            raise RuntimeError("Thousand play-outs: games did not end")
        c_ = cur[g]
        me = turn.Standing(*(st[f][g, c_] for f in names))
        other = turn.Standing(*(st[f][g, 1 - c_] for f in names))
        t_, n_ = t[g], n[g]
        need = turn.stand_need(r, me.total, me.on_board, me.on_barrel)
        may = (t_ > 0) & (t_ >= need) & ~((n_ == 5) & (t_ > 0))
        stand = np.zeros(g.size, dtype=bool)
        for seat in (0, 1):
            sel = np.flatnonzero(may & (c_ == seat))
            if sel.size:
                pick = lambda s: turn.Standing(*(np.asarray(x)[sel] for x in s))  # noqa: E731
                stand[sel] = policies[seat](pick(me), pick(other), t_[sel], n_[sel])
        if steps == 1 and first is not None:
            stand = may & (first == "stand")
        s = np.flatnonzero(stand)
        if s.size:
            after, won = turn.stand(r, turn.Standing(*(np.asarray(x)[s] for x in me)), t_[s])
            gs, cs = g[s], c_[s]
            for f in names:
                st[f][gs, cs] = getattr(after, f)
            won = np.broadcast_to(np.asarray(won), gs.shape)
            winners[gs[won]] = cs[won]
        rr = np.flatnonzero(~stand)
        gr = g[rr]
        pts, cnt = _roll(rng, n[gr], pts_table, cnt_table)
        bust = cnt == 0
        b = rr[bust]
        if b.size:
            after = turn.bust(r, turn.Standing(*(np.asarray(x)[b] for x in me)))
            for f in names:
                st[f][g[b], c_[b]] = getattr(after, f)
        ended = np.concatenate([g[s], g[b]])
        turns[ended] += 1
        cur[ended] = 1 - cur[ended]
        t[ended], n[ended] = 0, 5
        _advance(t, n, gr[~bust], pts[~bust], cnt[~bust])
        g = g[winners[g] < 0]
    return Duels(winners, steps, st["total"], turns)


def thousand_estimate(rules, me, other, turn_total: int = 0, dice_left: int = 5,
                      n: int = 20_000, seed=None) -> dict:
    """Chance to win of the player on turn in two-seat Thousand, estimated by ``n`` play-outs
    of ``optimal`` for both (a stand-in for the max-win play where its exact table is not
    built), with 95% Wilson intervals; mid-turn also after a stand and after a roll. Labelled
    as an estimate (``estimate``: True)."""
    from ..rules import fivedice as turn
    from .results import wilson

    r = rules.turn_rules() if hasattr(rules, "turn_rules") else rules
    pol = thousand_optimal_policy(r)
    start = (me, other, turn_total, dice_left)
    need = turn.stand_need(r, me.total, me.on_board, me.on_barrel)
    may = turn_total > 0 and turn_total >= need and not dice_left == 5

    def chance(first, s):
        res = play_thousand((pol, pol), n, r, start=start, seed=s, first=first)
        k = int((res.winners == 0).sum())
        return k / n, wilson(k, n)
    out = {"estimate": True, "playouts": n, "stand_in": "optimal"}
    out["win_chance"], out["win_chance_interval"] = chance(None, seed)
    if turn_total == 0:
        out.update(roll_win_chance=out["win_chance"], stand_win_chance=None, decision="roll")
        return out
    out["roll_win_chance"], out["roll_interval"] = chance("roll", None if seed is None
                                                          else seed + 1)
    out["stand_win_chance"] = out["stand_interval"] = None
    if may:
        out["stand_win_chance"], out["stand_interval"] = chance("stand", None if seed is None
                                                                else seed + 2)
    stand = out["stand_win_chance"] is not None and \
        out["stand_win_chance"] >= out["roll_win_chance"]
    out["decision"] = "stand" if stand else "roll"
    return out


def thousand_table_policy(table) -> ThousandStandFn:
    """The max-win policy of a ``dicelab.odds.win_thousand`` table (its stand bits)."""
    u = table.rules.unit

    def stands(me, other, t, n):
        return table.stands_at(table.st.index(me, u), table.st.index(other, u), t // u, n)
    return stands


def thousand_optimal_policy(rules, race: bool = True) -> ThousandStandFn:
    """``optimal`` in Thousand: the expected-points-optimal turn of each standing
    (``odds.fivedice.optimal_stand_table``), with the computers' barrel-race rule
    (``race_policy``) unless ``race`` is off."""
    from ..odds import fivedice as fd
    from ..odds.win_thousand import Statuses, thousand_win_rules

    tr = thousand_win_rules(rules)
    r, u = tr.five, tr.unit
    sts = Statuses(tr)
    tabs = [fd.optimal_stand_table(r, banked=int(sts.total[i]) * u,
                                   on_board=bool(sts.opened[i]),
                                   on_barrel=bool(sts.on_barrel[i]),
                                   barrel_turns=int(sts.turns[i]), bolts=int(sts.bolts[i]))
            for i in range(sts.n)]
    rows = max(len(x) for x in tabs)
    big = np.zeros((sts.n, rows, 6), dtype=bool)
    for i, x in enumerate(tabs):
        big[i, :len(x)] = x
        big[i, len(x):] = x[-1]

    def stands(me, other, t, n):
        return big[sts.index(me, u), np.minimum(t // u, rows - 1), n]
    return race_policy(stands, r) if race else stands


def race_policy(policy: ThousandStandFn, rules, likely: float | None = None) -> ThousandStandFn:
    """``policy`` with the computers' barrel-race rule (players.fivedice.race_action): when
    the other sits on the barrel and finishes from there in one turn with at least ``likely``
    (RACE_LIKELY) chance, and I am not on it, stand only where the stand reaches the barrel."""
    from ..odds import fivedice as fd
    from ..players.fivedice import RACE_LIKELY

    r = rules
    likely = RACE_LIKELY if likely is None else likely
    if not r.barrel or fd.reach_chance(r, r.target - r.barrel, on_barrel=True,
                                       banked=r.barrel) < likely:
        return policy

    def stands(me, other, t, n):
        out = policy(me, other, t, n)
        chase = np.asarray(other.on_barrel) & ~np.asarray(me.on_barrel)
        return np.where(chase, np.asarray(me.total) + t >= r.barrel, out)
    return stands


def threshold_policy_thousand(threshold: int, rules=None) -> ThousandStandFn:
    """Seed 000's threshold computers on Thousand's scale (hot dice are rolled anyway), with
    the race rule when ``rules`` are given."""
    def stands(me, other, t, n):
        return t >= threshold
    return stands if rules is None else race_policy(stands, rules)


# ----- chance to win by play-outs (any variant, any number of seats) ----------------------------
@dataclass(frozen=True)
class Estimate:
    """Each seat's chance to win from a game state, estimated from play-outs (ties shared),
    with 95% Wilson intervals. Labelled as an estimate wherever it is shown."""

    chances: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    playouts: int
    stand_in: str

    def to_dict(self) -> dict:
        return {"chances": list(self.chances), "intervals": [list(i) for i in self.intervals],
                "playouts": self.playouts, "stand_in": self.stand_in, "estimate": True}


def playout_seats(game, stand_in: str = "optimal"):
    """The seats of the play-outs: each computer seat plays itself, each person is played by
    the ``stand_in`` computer."""
    from ..games import Seat
    from ..players import make_player

    seats = []
    for s in game.seats:
        player = s.player if s.player is not None else make_player(game.variant, stand_in)
        if s.player is not None and s.strategy:
            # a fresh computer of the same strategy: play-outs must not draw on the live
            # seat's own generator (a skill slider's coin), or the game would not replay
            try:
                player = make_player(game.variant, getattr(s.player, "spec", s.strategy))
            except Exception:  # a player not in the registry: it plays itself
                pass
        seats.append(Seat(s.name, player))
    return seats


def playout_wins(game, n: int, seed=None, stand_in: str = "optimal",
                 seats=None) -> np.ndarray:
    """Wins per seat (ties shared) of ``n`` play-outs from the game's current state."""
    seats = seats or playout_seats(game, stand_in)
    wins = np.zeros(game.n_seats)
    for child in np.random.SeedSequence(seed).spawn(n):
        g = game.continued(seats, int(child.generate_state(1)[0]))
        g.play_computers(max_actions=1_000_000)
        for i in g.winners:
            wins[i] += 1 / len(g.winners)
    return wins


def estimate(game, n: int = 400, seed=None, stand_in: str = "optimal",
             wins: np.ndarray | None = None, done: int = 0, seats=None) -> Estimate:
    """Estimate each seat's chance to win from here by ``n`` play-outs (``wins`` and ``done``
    carry earlier play-outs on, so a caller can refine an estimate step by step; ``seats``
    the play-outs' seats, default ``playout_seats``)."""
    from .results import wilson

    total = (np.zeros(game.n_seats) if wins is None else wins) + playout_wins(game, n, seed,
                                                                               stand_in, seats)
    m = done + n
    chances = tuple(float(w / m) for w in total)
    intervals = tuple(wilson(int(round(w)), m) for w in total)
    return Estimate(chances, intervals, m, stand_in)
