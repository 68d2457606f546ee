"""``dicelab odds bones|thousand|under40``: exact odds tables for a person, or JSON.

bones|thousand [--dice N] [--turn-total T] [--banked B] [--min-on-board M] [--preset P]
               [--strategy NAME] [--json]
    One-roll tables for 1..5 dice, the expected points of a fresh turn under optimal play, a
    strategy's, and the values of a turn state when --turn-total or --dice is given (dice left
    default 5: with a turn total > 0 that is hot dice).
    Bones: --banked 0 means not yet on the board (min on board applies); > 0 means on the board.
    Thousand: --banked 0 means not yet opened; > 0 opened, with the pit of that total, and
    --banked equal to the barrel means on the barrel (first attempt).
under40 [--score S] [--leader L] [--json]
    The roll distribution, bust and exactly-40 chances from S, the chance to get above L, and
    the two-player round: my round score S against the other's standing score L (no --leader:
    the other has not stopped yet), my optimal decision and chance to win the round.
"""
from __future__ import annotations

import json
from fractions import Fraction

from ..errors import RuleError
from ..rules import fivedice as turn
from . import fivedice as fd
from . import under40 as u40


def odds_command(args) -> int:
    if getattr(args, "win", False):
        return _win(args)
    for name in ("opponent", "target", "barrel", "pits", "barrel_fall", "bolt_penalty"):
        if getattr(args, name, None) is not None:
            raise RuleError(f"--{name.replace('_', '-')} goes with --win")
    for name in ("bolts", "opponent_bolts", "barrel_turns", "opponent_barrel_turns", "build"):
        if getattr(args, name, 0):
            raise RuleError(f"--{name.replace('_', '-')} goes with --win")
    if args.variant == "under40":
        return _under40(args)
    return _fivedice(args)


# ----- chance to win ---------------------------------------------------------------------------
def _win(args) -> int:
    """``--win``: the exact chance that the player on turn wins a two-seat game."""
    from ..settings import BonesSettings
    from . import win

    if args.variant == "thousand":
        return _win_thousand(args)
    if args.variant != "bones":
        raise RuleError(f"--win: the exact win tables are for Bones and Thousand, not "
                        f"{args.variant} (README, 'Chance to win')")
    _win_common(args)
    from .cli_options import thousand_settings

    if thousand_settings(args) or args.bolts or args.opponent_bolts or args.barrel_turns \
            or args.opponent_barrel_turns:
        raise RuleError("--barrel, --pits, --barrel-fall, --bolt-penalty, --bolts and the "
                        "barrel turns are Thousand's")
    kw = {k: v for k, v in (("min_on_board", args.min_on_board), ("target", args.target))
          if v is not None}
    settings = BonesSettings(preset=args.preset, **kw)
    table = win.table(settings, progress=not args.json)
    r = table.readout(args.banked, args.opponent, args.turn_total, args.dice or 5)
    out = {"variant": "bones", "target": settings.target, "min_on_board": settings.min_on_board,
           "banked": args.banked, "opponent": args.opponent, "turn_total": args.turn_total,
           "dice": args.dice or 5, **r.to_dict()}
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"Bones, two players, target {settings.target:,}, min on board "
          f"{settings.min_on_board}: chance to win (exact, best play for it)")
    print(f"  you {args.banked:,} banked, the other {args.opponent:,}; turn total "
          f"{args.turn_total}, {out['dice']} {'die' if out['dice'] == 1 else 'dice'} to roll")
    if r.final_turn:
        print(f"  final turn: this turn must reach {r.must_reach:,} to pass the other")
    _print_win(r)
    return 0


def _win_common(args) -> None:
    if args.opponent is None:
        raise RuleError("--win needs --opponent (the other player's banked total)")
    if args.strategy is not None or args.score or args.leader is not None:
        raise RuleError("--win takes --banked, --opponent, --turn-total, --dice, --target and "
                        "the variant's settings")


def _print_win(r) -> None:
    stand = "not allowed" if r.stand_win_chance is None else _pct(r.stand_win_chance).strip()
    print(f"  chance to win {_pct(r.win_chance).strip()}: stand {stand}, roll "
          f"{_pct(r.roll_win_chance).strip()}  ->  {r.decision}")


def _win_thousand(args) -> int:
    """Thousand: a banked 0 is not opened yet, the barrel's total is on the barrel."""
    from .cli_options import thousand_settings
    from ..rules.fivedice import Standing
    from ..settings import ThousandSettings

    _win_common(args)
    if args.min_on_board is not None or args.preset is not None:
        raise RuleError("--min-on-board and --preset are Bones settings")
    kw = thousand_settings(args)
    if args.target is not None:
        kw["target"] = args.target
    settings = ThousandSettings(**kw)
    barrel = settings.barrel

    def standing(total, bolts, turns):
        on = bool(barrel) and total == barrel
        return Standing(total, total != 0, on, turns, bolts)
    me = standing(args.banked, args.bolts, args.barrel_turns)
    other = standing(args.opponent, args.opponent_bolts, args.opponent_barrel_turns)
    from . import win_thousand

    tr = win_thousand.thousand_win_rules(settings)
    table = win_thousand.table_if_cached(tr)
    if table is None and (args.build or not win_thousand.is_big(tr)):
        table = win_thousand.table(settings, progress=not args.json)
    if table is not None:
        r = table.readout(me, other, args.turn_total, args.dice or 5).to_dict()
    else:
        # the exact table takes many minutes: play-outs of `optimal`, labelled as an estimate
        from ..lab.win import thousand_estimate
        from ..rules import fivedice as turn

        for s in (me, other):
            turn.check_standing(tr.five, s)
        r = thousand_estimate(settings, me, other, args.turn_total, args.dice or 5,
                              seed=0)
    out = {"variant": "thousand", "settings": settings.to_dict(), "banked": args.banked,
           "opponent": args.opponent, "bolts": args.bolts, "opponent_bolts": args.opponent_bolts,
           "barrel_turns": args.barrel_turns,
           "opponent_barrel_turns": args.opponent_barrel_turns,
           "turn_total": args.turn_total, "dice": args.dice or 5, **r}
    if args.json:
        print(json.dumps(out))
        return 0
    how = "exact, best play for it" if table is not None else \
        (f"ESTIMATE from {r['playouts']:,} play-outs of optimal; the exact table takes many "
         "minutes: --build")
    print(f"Thousand, two players, target {settings.target:,}, barrel {barrel}: chance to win "
          f"({how})")
    print(f"  you {args.banked:,} banked, the other {args.opponent:,}; turn total "
          f"{args.turn_total}, {out['dice']} {'die' if out['dice'] == 1 else 'dice'} to roll")
    from types import SimpleNamespace

    _print_win(SimpleNamespace(**r))
    if table is None:
        lo, hi = r["win_chance_interval"]
        print(f"  95% interval of the chance to win: {_pct(lo).strip()} to {_pct(hi).strip()}")
    return 0


def _pct(p: float) -> str:
    return f"{100 * float(p):7.3f}%"


def _frac(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _nonneg(name: str, v) -> None:
    if v is not None and v < 0:
        raise RuleError(f"--{name} is never negative, got {v}")


# ----- Bones and Thousand ----------------------------------------------------------------------
def _fivedice(args) -> int:
    from ..settings import BonesSettings, ThousandSettings

    variant = args.variant
    if args.score or args.leader is not None:
        raise RuleError("--score and --leader are for under40")
    for name in ("turn_total", "banked", "min_on_board"):
        _nonneg(name.replace("_", "-"), getattr(args, name))
    if args.dice is not None:
        fd._check_n(args.dice)
    banked = args.banked
    if variant == "bones":
        kw = {} if args.min_on_board is None else {"min_on_board": args.min_on_board}
        settings = BonesSettings(preset=args.preset, **kw)
        if banked % 50:
            raise RuleError(f"Bones totals are multiples of 50, got --banked {banked}")
        state = {"on_board": banked > 0}
    else:
        if args.min_on_board is not None:
            raise RuleError("--min-on-board is a Bones setting; Thousand has its opening (50)")
        if args.preset is not None:
            raise RuleError("Thousand has no presets")
        settings = ThousandSettings()
        if settings.barrel and banked > settings.barrel:
            raise RuleError(f"Thousand: a stand reaching the barrel sets the total to exactly "
                            f"{settings.barrel}, so --banked {banked} cannot happen (give "
                            f"{settings.barrel} for a player on the barrel)")
        on_barrel = bool(settings.barrel) and banked == settings.barrel
        state = {"on_board": banked > 0, "banked": banked, "on_barrel": on_barrel}
    rules = fd.as_rules(settings)
    n = args.dice or 5
    strategy = None
    if args.strategy is not None:
        threshold, habit = fd.parse_strategy(args.strategy, variant)
        strategy = {"name": args.strategy, "threshold": threshold, "hot_dice_habit": habit,
                    "turn_ev": fd.threshold_turn_ev(rules, threshold, habit, **state)}
    readout = None
    if args.turn_total or args.dice is not None:
        readout = fd.turn_readout(rules, args.turn_total, n, **state)
    fresh = fd.turn_readout(rules, 0, 5, **state)
    out = {
        "variant": variant,
        "settings": settings.to_dict(),
        "situation": {**state, "banked": banked, "stand_needs": fresh.need},
        "counting_chance": {str(k): fd.counting_chance(rules, k) for k in range(1, 6)},
        "counting_chance_exact": {str(k): _frac(fd.counting_chance(rules, k, exact=True))
                                  for k in range(1, 6)},
        "expected_roll_points": {str(k): fd.expected_roll_points(rules, k) for k in range(1, 6)},
        "dice": n,
        "bust_chance": fd.bust_chance(rules, n),
        "bust_chance_exact": _frac(fd.bust_chance(rules, n, exact=True)),
        "roll_distribution": [
            {"points": pts, "counting": c, "probability": float(p), "exact": _frac(p)}
            for (pts, c), p in fd.roll_distribution(rules, n).items()],
        "optimal_turn_ev": fresh.roll_value,
        "reach_chance": fresh.reach_chance,
        "stand_from": {str(k): v for k, v in fd.stand_from(rules, **state).items()},
    }
    if strategy:
        out["strategy"] = strategy
        out["strategy_turn_ev"] = strategy["turn_ev"]
    if readout:
        out["turn_state"] = readout.to_dict()
    if args.json:
        print(json.dumps(out))
        return 0
    _print_fivedice(out, rules, state, strategy, readout, fresh, args.dice is not None)
    return 0


def _situation_text(rules, state, need: int) -> str:
    if rules.variant == "bones":
        if state["on_board"]:
            return "on the board (any turn total may stand)"
        return f"not on the board yet: a turn needs {rules.min_on_board} to stand"
    b = state["banked"]
    if state["on_barrel"]:
        return (f"on the barrel at {b}: only a turn of {need} or more (to {rules.target}) "
                "may stand")
    words = [f"banked {b}", "opened" if state["on_board"] else
             f"not opened (a first stand needs {rules.opening})"]
    if (pit := turn.pit(rules, b)) is not None:
        words.append(f"in the pit {pit[0]}-{pit[1]}")
    if (cap := turn.gain_cap(rules, b)) is not None:
        words.append(f"the barrel caps a stand's gain at {cap}")
    return ", ".join(words) + (f"; a stand needs {need}" if need else "")


def _print_fivedice(out, rules, state, strategy, readout, fresh, distribution) -> None:
    title = "Bones" if rules.variant == "bones" else "Thousand"
    extra = f" (preset {rules.preset})" if rules.variant == "bones" else ""
    print(f"{title}{extra}: exact odds")
    print(_situation_text(rules, state, fresh.need))
    print()
    print("One roll     counting die (exact)        bust    points on average")
    for k in range(1, 6):
        c = out["counting_chance"][str(k)]
        print(f"  {k} {'die ' if k == 1 else 'dice'}    {out['counting_chance_exact'][str(k)]:>9}"
              f" {_pct(c)}  {_pct(1 - c)}   {out['expected_roll_points'][str(k)]:10.3f}")
    n = out["dice"]
    if distribution:
        print()
        print(f"One roll of {n} {'die' if n == 1 else 'dice'}: points, counting dice, chance")
        for row in out["roll_distribution"]:
            label = "bust" if row["counting"] == 0 else f"{row['points']:>6} {row['counting']}"
            print(f"  {label:>8}   {row['exact']:>10} {_pct(row['probability'])}")
    print()
    print(f"Expected points of a fresh turn, optimal play: {out['optimal_turn_ev']:.3f}")
    if fresh.reach_chance is not None:
        print(f"Chance to reach {fresh.need} this turn (best play for it): "
              f"{_pct(fresh.reach_chance).strip()}")
    if strategy:
        print(f"Strategy {strategy['name']} (stands at {strategy['threshold']}, hot-dice habit "
              f"{'on' if strategy['hot_dice_habit'] else 'off'}): {strategy['turn_ev']:.3f}")
    print("Computer strategies:", ", ".join(
        f"{name} ({t}) {fd.strategy_turn_ev(rules, name, **state):.1f}"
        for name, t in fd.STRATEGIES[rules.variant].items()))
    print()
    print("Optimal play stands with these turn totals (dice left for the next roll):")
    for k, ranges in out["stand_from"].items():
        text = ", ".join(f"{lo}+" if hi is None else f"{lo}-{hi - rules.unit}"
                         for lo, hi in ranges) or "never (hot dice must be rolled)"
        print(f"  {k} {'die ' if k == '1' else 'dice'}: {text}")
    if readout:
        r = readout
        print()
        print(f"Turn total {r.turn_total}, {r.dice_left} {'die' if r.dice_left == 1 else 'dice'}"
              f" to roll{' (hot dice)' if r.hot_dice else ''}:")
        print(f"  bust chance of the next roll {_pct(r.bust_chance).strip()}, it scores "
              f"{r.expected_roll_points:.3f} on average")
        stand = "not allowed" if r.stand_value is None else f"{r.stand_value:.3f}"
        print(f"  stand: {stand}   roll: {r.roll_value:.3f}   ->  {r.decision}")
        if r.reach_chance is not None:
            print(f"  chance to reach {r.reach_amount} this turn: {_pct(r.reach_chance).strip()}")


# ----- Under40 ---------------------------------------------------------------------------------
def _under40(args) -> int:
    given = [f"--{n.replace('_', '-')}" for n in ("dice", "min_on_board", "preset", "strategy")
             if getattr(args, n) is not None]
    given += [f"--{n.replace('_', '-')}" for n in ("turn_total", "banked") if getattr(args, n)]
    if given:
        raise RuleError(f"under40 odds take --score and --leader, not {' '.join(given)}")
    s = u40.check_score(args.score, "--score (my round score)")
    leader = args.leader
    other = 0 if leader is None else u40.check_score(leader, "--leader (the standing score)")
    rd = u40.round_readout(s, other)
    out = {
        "variant": "under40",
        "score": s,
        "leader": leader,
        "roll_distribution": [{"points": x, "probability": float(p), "exact": _frac(p)}
                              for x, p in u40.roll_distribution().items()],
        "bust_chance": float(u40.bust_chance(s)),
        "bust_chance_exact": _frac(u40.bust_chance(s)),
        "exact_40_chance": float(u40.exact_40_chance(s)),
        "exact_40_chance_exact": _frac(u40.exact_40_chance(s)),
        "round": {"other": other, "may_stop": rd.may_stop, "decision": rd.decision,
                  "win_chance": float(rd.win), "roll_win_chance": float(rd.roll_win),
                  "stop_win_chance": None if rd.stop_win is None else float(rd.stop_win)},
    }
    if leader is not None:
        out["above_leader_chance"] = float(u40.above_chance(s, leader))
        out["above_leader_chance_exact"] = _frac(u40.above_chance(s, leader))
    if args.json:
        print(json.dumps(out))
        return 0
    print("Under40: exact odds")
    print()
    print("One roll: points  chance")
    for row in out["roll_distribution"]:
        print(f"  {row['points']:>12}  {row['exact']:>6} {_pct(row['probability'])}")
    print()
    print(f"From a round score of {s}:")
    print(f"  bust (over 40) next roll: {out['bust_chance_exact']:>6} "
          f"{_pct(out['bust_chance'])}")
    print(f"  exactly 40 next roll:     {out['exact_40_chance_exact']:>6} "
          f"{_pct(out['exact_40_chance'])}")
    if leader is not None:
        print(f"  get above {leader} without busting (rolling until then): "
              f"{_pct(out['above_leader_chance']).strip()}")
    print()
    who = f"the other's standing score {leader}" if leader is not None else \
        "the other player, who has not stopped yet"
    print(f"Two-player round, my turn at {s} against {who}:")
    stop = "not allowed" if rd.stop_win is None else _pct(rd.stop_win).strip()
    print(f"  chance to win the round: roll {_pct(rd.roll_win).strip()}, stop {stop}")
    print(f"  best: {rd.decision} (wins the round with {_pct(rd.win).strip()})")
    return 0
