"""Vectorised simulation of Bones and Thousand turns and games (the strategy lab).

Every turn in a batch advances one roll per step with numpy. A step draws one number u in
[0, 6**5) per turn: its base-6 digits are five dice, and the first n of them are a fair roll of n
dice. A table indexed by (n, u) holds that roll's points and counting dice, so a step is one
random draw and two gathers over the batch.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RuleError
from ..i18n import _
from ..rules import bones as bones_rules
from ..rules import fivedice as turn
from ..rules import thousand as thousand_rules



from .results import MAX_TURNS
from .rolls import roll_tables, score_tables  # noqa: F401  (their home; re-exported)


@dataclass(frozen=True)
class Policy:
    """A vectorised turn policy. Threshold play: stand when allowed and ``turn_total >=
    threshold``; with hot dice and ``hot_dice_habit`` roll all five again once on the board
    (seed 000). Table play (optimal): stand where ``stand_table[turn_total // unit, dice_left]``
    says so (``fresh_table`` for a player not yet on the board); the last row holds above."""

    name: str
    threshold: int = 300
    hot_dice_habit: bool = True
    stand_table: np.ndarray | None = None
    fresh_table: np.ndarray | None = None
    unit: int = 50

    def stands(self, total, left, hot, on_board):
        if self.stand_table is not None:
            rows = np.minimum(total // self.unit, self.stand_table.shape[0] - 1)
            out = self.stand_table[rows, left]
            if self.fresh_table is not None and not on_board.all():
                fresh = np.minimum(total // self.unit, self.fresh_table.shape[0] - 1)
                out = np.where(on_board, out, self.fresh_table[fresh, left])
            return out
        want = total >= self.threshold
        if self.hot_dice_habit:
            want &= ~(hot & on_board)
        return want


def simulate_turns(variant: str, policy: Policy, n_turns: int, seed=None, preset="hypercard",
                   need=0, on_board=True, rng=None, final=None) -> np.ndarray:
    """Turn totals of ``n_turns`` independent turns that ended with a stand, 0 for a bust.
    ``need`` (a number or one per turn): the turn total required to stand (min on board,
    opening, pit exit...); ``on_board`` (likewise) feeds the hot-dice habit. ``final`` (one per
    turn, 0: none): Bones' final turn, the turn total that passes the leader: every computer
    rolls on until it has it and stands then (docs/explanation/rules.md)."""
    rng = rng if rng is not None else np.random.default_rng(seed)
    pts_table, cnt_table = roll_tables(variant, preset)
    compulsory = variant == "thousand"
    result = np.zeros(n_turns, dtype=np.int64)
    idx = np.arange(n_turns)
    total = np.zeros(n_turns, dtype=np.int64)
    left = np.full(n_turns, 5, dtype=np.int64)
    board = np.broadcast_to(np.asarray(on_board, dtype=bool), (n_turns,)).copy()
    need = np.broadcast_to(np.asarray(need, dtype=np.int64), (n_turns,)).copy()
    final = np.zeros(n_turns, dtype=np.int64) if final is None else \
        np.broadcast_to(np.asarray(final, dtype=np.int64), (n_turns,)).copy()
    while idx.size:
        k = left * 6 ** 5 + rng.integers(0, 6 ** 5, size=idx.size)
        cnt = cnt_table[k]
        total += pts_table[k]
        left -= cnt
        hot = left == 0
        left[hot] = 5
        allowed = total >= need
        if compulsory:
            allowed &= ~hot
        alive = cnt > 0
        fin = final > 0
        stand = alive & allowed & np.where(fin, total >= final,
                                           policy.stands(total, left, hot, board))
        result[idx[stand]] = total[stand]
        go_on = alive & ~stand  # a bust leaves its 0 in result
        idx, total, left, board, need, final = (idx[go_on], total[go_on], left[go_on],
                                                board[go_on], need[go_on], final[go_on])
    return result


def plain_turns(variant: str, threshold: int, n_turns: int, seed=None, preset="hypercard",
                habit=True) -> list[int]:
    """The same threshold player on the board, one turn at a time in plain Python (reference)."""
    import random

    score = (lambda d: bones_rules.score(d, preset)) if variant == "bones" else thousand_rules.score
    rnd = random.Random(seed)
    out = []
    for _i in range(n_turns):
        total, left = 0, 5
        while True:
            sc = score([rnd.randint(1, 6) for _i in range(left)])
            if sc.counting == 0:
                out.append(0)
                break
            total += sc.points
            left -= sc.counting
            hot = left == 0
            if hot:
                left = 5
            if hot and (habit or variant == "thousand"):
                continue
            if total >= threshold:
                out.append(total)
                break
    return out


@dataclass
class GamesResult:
    """Outcome of a batch of simulated games."""

    names: list[str]
    winners: np.ndarray      # (games,) seat index
    totals: np.ndarray       # (games, seats) final totals
    turns: np.ndarray        # (games,) turns played
    turn_points: list[np.ndarray]  # per seat: points banked by each of its turns (0 = bust)


def simulate_bones_games(policies: list[Policy], n_games: int, seed=None, min_on_board=600,
                         target=10_000, preset="hypercard") -> GamesResult:
    """Whole Bones games (docs/explanation/rules.md: minimum to get on the board, final turns, ties
    to who got there first) between the seats' policies; the starter is uniform (a fair
    roll-off)."""
    r = turn.FiveDiceRules.of("bones", {"preset": preset, "min_on_board": min_on_board})
    rng = np.random.default_rng(seed)
    seats = len(policies)
    totals = np.zeros((n_games, seats), dtype=np.int64)
    on_board = np.zeros((n_games, seats), dtype=bool)
    reached = np.zeros((n_games, seats), dtype=np.int64)
    current = rng.integers(seats, size=n_games)
    final_from = np.full(n_games, -1)
    turns = np.zeros(n_games, dtype=np.int64)
    winners = np.full(n_games, -1)
    active = np.arange(n_games)
    points = [[] for _i in range(seats)]
    step = 0
    while active.size:
        step += 1
        cur = current[active]
        banked = np.zeros(active.size, dtype=np.int64)
        for s_, pol in enumerate(policies):
            mine = np.flatnonzero(cur == s_)
            if mine.size:
                g = active[mine]
                board = on_board[g, s_]
                # a final turn: pass the leader (a tie goes to who reached it first)
                final = np.where(final_from[g] >= 0, turn.final_turn_need(
                    r, totals[g, s_], turn.leader_total(totals[g], s_)), 0) if seats > 1 else 0
                banked[mine] = simulate_turns("bones", pol, mine.size, preset=preset, rng=rng,
                                              need=turn.stand_need(r, totals[g, s_], board),
                                              on_board=board, final=final)
                points[s_].append(banked[mine])
        rows = active
        stood = banked > 0  # a Bones bust changes nothing
        after, _won = turn.stand(r, turn.Standing(totals[rows, cur], on_board[rows, cur]), banked)
        totals[rows, cur] = after.total
        on_board[rows[stood], cur[stood]] = after.on_board
        reached[rows[stood], cur[stood]] = step
        trigger = turn.starts_final_turns(totals[rows, cur], target, final_from[rows])
        final_from[rows[trigger]] = cur[trigger]
        turns[rows] += 1
        nxt = (cur + 1) % seats
        current[rows] = nxt
        done = turn.final_turns_over(final_from[rows], nxt)
        over = rows[done]
        winners[over] = turn.bones_winner(totals[over], reached[over])
        active = rows[~done]
    return GamesResult([p.name for p in policies], winners, totals, turns,
                       [np.concatenate(p) if p else np.zeros(0, np.int64) for p in points])


def simulate_thousand_games(policies: list[Policy], n_games: int, seed=None,
                            config=None, max_turns: int = MAX_TURNS) -> GamesResult:
    """Whole Thousand games (docs/explanation/rules.md: opening, pits, barrel and its attempts,
    bolts and their penalty; a win from the barrel ends the game at once) between threshold
    policies; a game still going after ``max_turns`` turns ends unfinished (winner -1)."""
    from ..settings import ThousandSettings

    c = config or ThousandSettings()
    r = c.turn_rules()
    rng = np.random.default_rng(seed)
    seats = len(policies)
    shape = (n_games, seats)
    # each player's standing (rules.fivedice.Standing), one array per field
    fields = {"total": np.zeros(shape, dtype=np.int64), "on_board": np.zeros(shape, dtype=bool),
              "on_barrel": np.zeros(shape, dtype=bool),
              "barrel_turns": np.zeros(shape, dtype=np.int64),
              "bolts": np.zeros(shape, dtype=np.int64)}
    current = rng.integers(seats, size=n_games)
    turns = np.zeros(n_games, dtype=np.int64)
    winners = np.full(n_games, -1)
    points = [[] for _i in range(seats)]
    active = np.arange(n_games)
    while active.size:
        cur = current[active]
        before = turn.Standing(**{k: v[active, cur] for k, v in fields.items()})
        need = turn.stand_need(r, before.total, before.on_board, before.on_barrel)
        banked = np.zeros(active.size, dtype=np.int64)
        for s_, pol in enumerate(policies):
            mine = np.flatnonzero(cur == s_)
            if mine.size:
                banked[mine] = simulate_turns("thousand", pol, mine.size, rng=rng,
                                              need=need[mine], on_board=before.on_board[mine])
                points[s_].append(banked[mine])
        stood = banked > 0  # a stand banks at least one counting die's points
        after, won = turn.stand(r, before, banked)
        busted = turn.bust(r, before)
        for k, v in fields.items():
            v[active, cur] = np.where(stood, getattr(after, k), getattr(busted, k))
        wins = stood & won
        winners[active[wins]] = cur[wins]
        turns[active] += 1
        current[active] = (cur + 1) % seats
        active = active[(winners[active] < 0) & (turns[active] < max_turns)]
    totals = fields["total"]
    return GamesResult([p.name for p in policies], winners, totals, turns,
                       [np.concatenate(p) if p else np.zeros(0, np.int64) for p in points])


def policy_for(variant: str, spec: str, config) -> Policy:
    """The vectorised twin of a registered computer player."""
    from ..players import make_player
    from ..players.fivedice import ThresholdPlayer

    player = make_player(variant, spec)
    if isinstance(player, ThresholdPlayer):
        return Policy(spec, player.threshold, player.hot_dice_habit)
    if hasattr(player, "stand_tables"):
        on_board, fresh = player.stand_tables(config)
        return Policy(spec, stand_table=on_board, fresh_table=fresh,
                      unit=turn.UNIT[variant])
    raise RuleError(_("{player} has no vectorised form for the {variant} lab",
                      player=repr(spec), variant=variant))


def run(variant, players, games, turns, seed, progress, settings):
    from .results import LabResult, mean_ci, progress_bar, wilson
    from ..settings import SETTINGS

    cfg = SETTINGS[variant](**settings)
    rng = np.random.default_rng(seed)
    keepers = getattr(cfg, "choose_keepers", False)  # the vectorised turns keep every counting die
    if turns is not None:
        if keepers:
            raise RuleError(_("the turn lab keeps every counting die: simulate whole games "
                              "(--games) to play with choose_keepers"))
        rows, samples = [], {}
        for spec in progress_bar(players, progress, desc="players", unit="player"):
            pol = policy_for(variant, spec, cfg)
            chunks, left = [], turns
            while left:
                k = min(left, 2_000_000)
                chunks.append(simulate_turns(variant, pol, k, rng=rng,
                                             preset=getattr(cfg, "preset", "hypercard")))
                left -= k
            x = np.concatenate(chunks)
            m, lo, hi = mean_ci(x)
            rows.append({"player": spec, "turns": turns, "mean_turn_score": m,
                         "mean_turn_score_ci": [lo, hi], "bust_rate": float(np.mean(x == 0))})
            samples[spec] = x
        return LabResult(variant, "turns", turns, seed, rows, samples)
    pols = None
    unfinished = 0  # games stopped at MAX_TURNS (Thousand's totals can fall for ever)
    duel = len(players) == 2 and "winning" in players
    if duel and not keepers:
        # score-aware play: two-seat games from dicelab.lab.win, vectorised
        duel_games = _duel_games if variant == "bones" else _thousand_duel_games
        try:
            wins, totals, lengths = duel_games(cfg, players, games, rng, progress)
        except RuleError:
            duel = False
        else:
            per_turn = [float("nan")] * 2
            pols = ()
    if duel and keepers:
        from ..odds import win

        win.table(cfg, progress=progress)   # built once here, with its progress bar
    if pols is None and not keepers and (variant == "bones" or "optimal" not in players):
        # (Thousand's optimal policy depends on the score: it plays through the models)
        try:
            pols = [policy_for(variant, p, cfg) for p in players]
        except RuleError:
            pols = None
    if pols == ():
        pass   # played above
    elif pols is not None:
        if variant == "bones":
            res = simulate_bones_games(pols, games, seed=rng, min_on_board=cfg.min_on_board,
                                       target=cfg.target, preset=cfg.preset)
        else:
            res = simulate_thousand_games(pols, games, seed=rng, config=cfg)
        unfinished = int(np.sum(res.winners < 0))
        wins = np.bincount(res.winners[res.winners >= 0],
                           minlength=len(players)).astype(float)
        per_turn = [float(np.mean(tp)) if len(tp) else float("nan") for tp in res.turn_points]
        lengths = res.turns
        totals = res.totals
    else:  # through the game models
        from .models import play_games

        wins, totals, lengths = play_games(variant, players, games, seed, settings, progress)
        unfinished = games - int(round(wins.sum()))
        per_turn = [float("nan")] * len(players)  # no per-turn record from whole games
    rows = []
    for i, spec in enumerate(players):
        k = wins[i]
        lo, hi = wilson(int(round(k)), games)
        rows.append({"player": spec, "seat": i + 1, "wins": float(k), "win_rate": float(k / games),
                     "win_rate_ci": [lo, hi], "points_per_turn": per_turn[i],
                     "mean_final_total": float(np.mean(totals[:, i]))})
    return LabResult(variant, "games", games, seed, rows, {}, lengths, unfinished=unfinished)


def _duel_games(cfg, players: list[str], n_games: int, rng, progress: bool = False):
    """``dicelab simulate`` for two seats of Bones with score-aware players (``winning``):
    (wins per seat, totals (games, 2), turns per game); each seat moves first in half."""
    from ..odds import win
    from .win import lab_policy, play, table_policy

    pols = []
    for spec in players:
        if spec == "winning":
            pols.append(table_policy(win.table(cfg, progress=progress)))
        else:
            pols.append(lab_policy(policy_for("bones", spec, cfg)))
    half = n_games // 2
    kw = dict(target=cfg.target, min_on_board=cfg.min_on_board, preset=cfg.preset, rng=rng)
    a = play((pols[0], pols[1]), half, **kw)
    b = play((pols[1], pols[0]), n_games - half, **kw)
    winners = np.concatenate([a.winners, 1 - b.winners])
    totals = np.concatenate([a.totals, b.totals[:, ::-1]])
    return np.bincount(winners, minlength=2).astype(float), totals, np.concatenate([a.turns,
                                                                                   b.turns])


def thousand_duel_policy(cfg, spec: str, progress: bool = False):
    """The vectorised two-seat Thousand policy (``dicelab.lab.win``) of a registered computer:
    ``winning`` (the exact table), ``optimal``, or a threshold computer (with the race rule)."""
    from ..players import make_player
    from ..players.fivedice import ThresholdPlayer
    from .win import (thousand_optimal_policy, thousand_table_policy,
                      threshold_policy_thousand)

    if spec == "winning":
        from ..odds import win_thousand

        return thousand_table_policy(win_thousand.table(cfg, progress=progress))
    if spec == "optimal":
        return thousand_optimal_policy(cfg)
    player = make_player("thousand", spec)
    if isinstance(player, ThresholdPlayer):
        return threshold_policy_thousand(player.threshold, cfg.turn_rules())
    raise RuleError(_("{player} has no vectorised form for two-seat Thousand",
                      player=repr(spec)))


def _thousand_duel_games(cfg, players: list[str], n_games: int, rng, progress: bool = False):
    """``dicelab simulate`` for two seats of Thousand with ``winning``: (wins per seat, totals
    (games, 2), turns per game); each seat moves first in half the games."""
    from .win import play_thousand

    pols = [thousand_duel_policy(cfg, spec, progress) for spec in players]
    half = n_games // 2
    r = cfg.turn_rules()
    a = play_thousand((pols[0], pols[1]), half, r, rng=rng)
    b = play_thousand((pols[1], pols[0]), n_games - half, r, rng=rng)
    winners = np.concatenate([a.winners, 1 - b.winners])
    totals = np.concatenate([a.totals, b.totals[:, ::-1]])
    return np.bincount(winners, minlength=2).astype(float), totals, np.concatenate([a.turns,
                                                                                   b.turns])
