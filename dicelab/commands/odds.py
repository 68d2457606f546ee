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

from .. import i18n
from ..errors import RuleError
from ..i18n import N_, _, n_
from ..rules import fivedice as turn
from ..i18n import fixed
from ..odds import fivedice as fd
from ..odds import under40 as u40
from .rules_options import given, rules_settings


def odds_command(args) -> int:
    if getattr(args, "win", False):
        return _win(args)
    if getattr(args, "opponent", None) is not None:
        raise RuleError(_("{option} goes with --win", option="--opponent"))
    for name in ("bolts", "opponent_bolts", "barrel_turns", "opponent_barrel_turns", "build"):
        if getattr(args, name, 0):
            raise RuleError(_("{option} goes with --win", option="--" + name.replace("_", "-")))
    if args.variant == "under40":
        return _under40(args)
    return _fivedice(args)


# ----- chance to win ---------------------------------------------------------------------------
def _win(args) -> int:
    """``--win``: the exact chance that the player on turn wins a two-seat game."""
    from ..settings import BonesSettings
    from ..odds import win

    if args.variant == "thousand":
        return _win_thousand(args)
    if args.variant != "bones":
        raise RuleError(_("--win: the exact win tables are for Bones and Thousand, not "
                          "{variant} (README, 'Chance to win')", variant=args.variant))
    _win_common(args)
    if args.bolts or args.opponent_bolts or args.barrel_turns or args.opponent_barrel_turns:
        raise RuleError(_("--barrel, --pits, --barrel-fall, --bolt-penalty, --bolts and the "
                          "barrel turns are Thousand's"))
    settings = BonesSettings(**_settings("bones", args))
    table = win.table(settings, progress=not args.json)
    r = table.readout(args.banked, args.opponent, args.turn_total, args.dice or 5)
    out = {"variant": "bones", "target": settings.target, "min_on_board": settings.min_on_board,
           "banked": args.banked, "opponent": args.opponent, "turn_total": args.turn_total,
           "dice": args.dice or 5, **r.to_dict()}
    if args.json:
        print(json.dumps(out))
        return 0
    print(_("Bones, two players, target {target}, min on board {min}: chance to win (exact, "
            "best play for it)", target=settings.target, min=settings.min_on_board))
    print("  " + _you_line(args, out["dice"]))
    if r.final_turn:
        print("  " + _("final turn: this turn must reach {points} to pass the other",
                       points=r.must_reach))
    _print_win(r)
    return 0


def _win_common(args) -> None:
    if args.opponent is None:
        raise RuleError(_("--win needs --opponent (the other player's banked total)"))
    if args.strategy is not None or args.score or args.leader is not None:
        raise RuleError(_("--win takes --banked, --opponent, --turn-total, --dice, --target and "
                          "the variant's settings"))


def _you_line(args, dice: int) -> str:
    return n_("you {banked} banked, the other {opponent}; turn total {total}, {n} die to roll",
              "you {banked} banked, the other {opponent}; turn total {total}, {n} dice to roll",
              dice, banked=args.banked, opponent=args.opponent, total=args.turn_total)


# the decisions of the readouts (keys in JSON), as a person reads them
DECISIONS = {"roll": N_("roll"), "stand": N_("stand"), "stop": N_("stop")}


def _decision(key: str) -> str:
    return i18n.tr(DECISIONS.get(key, key))


def _print_win(r) -> None:
    stand = _("not allowed") if r.stand_win_chance is None else _pct(r.stand_win_chance)
    print("  " + _("chance to win {chance}: stand {stand}, roll {roll}  ->  {decision}",
                   chance=_pct(r.win_chance), stand=stand, roll=_pct(r.roll_win_chance),
                   decision=_decision(r.decision)))


def _win_thousand(args) -> int:
    """Thousand: a banked 0 is not opened yet, the barrel's total is on the barrel."""
    from ..rules.fivedice import Standing
    from ..settings import ThousandSettings

    _win_common(args)
    settings = ThousandSettings(**_settings("thousand", args))
    barrel = settings.barrel

    def standing(total, bolts, turns):
        on = bool(barrel) and total == barrel
        return Standing(total, total != 0, on, turns, bolts)
    me = standing(args.banked, args.bolts, args.barrel_turns)
    other = standing(args.opponent, args.opponent_bolts, args.opponent_barrel_turns)
    from ..odds import win_thousand

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
    if table is not None:
        print(_("Thousand, two players, target {target}, barrel {barrel}: chance to win "
                "(exact, best play for it)", target=settings.target, barrel=barrel))
    else:
        print(_("Thousand, two players, target {target}, barrel {barrel}: chance to win "
                "(ESTIMATE from {playouts} play-outs of optimal; the exact table takes many "
                "minutes: --build)", target=settings.target, barrel=barrel,
                playouts=r["playouts"]))
    print("  " + _you_line(args, out["dice"]))
    from types import SimpleNamespace

    _print_win(SimpleNamespace(**r))
    if table is None:
        lo, hi = r["win_chance_interval"]
        print("  " + _("95% interval of the chance to win: {low} to {high}", low=_pct(lo),
                       high=_pct(hi)))
    return 0


def _pct(p: float, width: int = 0) -> str:
    """A chance with 3 decimals (" 41.667%"), right-aligned to ``width``."""
    return i18n.percent(float(p), 3).rjust(width)


def _frac(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _settings(variant: str, args) -> dict:
    return rules_settings(variant, args)


def _given_rules(args) -> list:
    return list(given(args))


def _nonneg(name: str, v) -> None:
    if v is not None and v < 0:
        raise RuleError(_("--{name} is never negative, got {value}", name=name, value=str(v)))


# ----- Bones and Thousand ----------------------------------------------------------------------
def _fivedice(args) -> int:
    from ..settings import BonesSettings, ThousandSettings

    variant = args.variant
    if args.score or args.leader is not None:
        raise RuleError(_("--score and --leader are for under40"))
    for name in ("turn_total", "banked"):
        _nonneg(name.replace("_", "-"), getattr(args, name))
    if args.dice is not None:
        fd.check_n(args.dice)
    banked = args.banked
    if variant == "bones":
        settings = BonesSettings(**_settings("bones", args))
        if banked % 50:
            raise RuleError(_("Bones totals are multiples of 50, got --banked {banked}",
                              banked=str(banked)))
        state = {"on_board": banked > 0}
    else:
        settings = ThousandSettings(**_settings("thousand", args))
        if settings.barrel and banked > settings.barrel:
            raise RuleError(_("Thousand: a stand reaching the barrel sets the total to exactly "
                              "{barrel}, so --banked {banked} cannot happen (give {barrel} for "
                              "a player on the barrel)", barrel=settings.barrel,
                              banked=str(banked)))
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
            return _("on the board (any turn total may stand)")
        return _("not on the board yet: a turn needs {need} to stand", need=rules.min_on_board)
    b = state["banked"]
    if state["on_barrel"]:
        return _("on the barrel at {banked}: only a turn of {need} or more (to {target}) may "
                 "stand", banked=b, need=need, target=rules.target)
    words = [_("banked {banked}", banked=b), _("opened") if state["on_board"] else
             _("not opened (a first stand needs {opening})", opening=rules.opening)]
    if (pit := turn.pit(rules, b)) is not None:
        where = f"{pit[0]}-{pit[1]}"
        words.append(_("in the pit {pit}", pit=where))
    if (cap := turn.gain_cap(rules, b)) is not None:
        words.append(_("the barrel caps a stand's gain at {cap}", cap=cap))
    text = ", ".join(words)
    return _("{situation}; a stand needs {need}", situation=text, need=need) if need else text


def _dice(k) -> str:
    """"1 die " / "2 dice" for the tables' first column (padded to one width)."""
    return n_("{n} die", "{n} dice", int(k))


def _print_fivedice(out, rules, state, strategy, readout, fresh, distribution) -> None:
    if rules.variant == "bones":
        print(_("Bones (preset {preset}): exact odds", preset=rules.preset))
    else:
        print(_("Thousand: exact odds"))
    print(_situation_text(rules, state, fresh.need))
    print()
    # column heads, then rows aligned under them
    heads = (_("One roll"), _("counting die (exact)"), _("bust"), _("points on average"))
    w = max(len(_dice(k)) for k in range(1, 6))
    cols = (max(w + 4, len(heads[0]) + 2), max(18, len(heads[1])), max(10, len(heads[2]) + 2),
            max(13, len(heads[3]) + 3))
    print(f"{heads[0]:<{cols[0]}}{heads[1]:>{cols[1]}}{heads[2]:>{cols[2]}}"
          f"{heads[3]:>{cols[3]}}")
    for k in range(1, 6):
        c = out["counting_chance"][str(k)]
        counting = f"{out['counting_chance_exact'][str(k)]:>9} {_pct(c, 8)}"
        print(f"{'  ' + _dice(k):<{cols[0]}}{counting:>{cols[1]}}{_pct(1 - c):>{cols[2]}}"
              f"{fixed(out['expected_roll_points'][str(k)], 3):>{cols[3]}}")
    n = out["dice"]
    if distribution:
        print()
        print(n_("One roll of {n} die: points, counting dice, chance",
                 "One roll of {n} dice: points, counting dice, chance", n))
        for row in out["roll_distribution"]:
            label = _("bust") if row["counting"] == 0 else f"{row['points']:>6} {row['counting']}"
            print(f"  {label:>8}   {row['exact']:>10} {_pct(row['probability'], 8)}")
    print()
    print(_("Expected points of a fresh turn, optimal play: {points}",
            points=fixed(out["optimal_turn_ev"], 3)))
    if fresh.reach_chance is not None:
        print(_("Chance to reach {need} this turn (best play for it): {chance}",
                need=fresh.need, chance=_pct(fresh.reach_chance)))
    if strategy:
        args = dict(name=strategy["name"], threshold=strategy["threshold"],
                    points=fixed(strategy["turn_ev"], 3))
        print(_("Strategy {name} (stands at {threshold}, hot-dice habit on): {points}", **args)
              if strategy["hot_dice_habit"] else
              _("Strategy {name} (stands at {threshold}, hot-dice habit off): {points}", **args))
    print(_("Computer strategies: {strategies}", strategies=", ".join(
        f"{name} ({t}) {fixed(fd.strategy_turn_ev(rules, name, **state), 1)}"
        for name, t in fd.STRATEGIES[rules.variant].items())))
    print()
    print(_("Optimal play stands with these turn totals (dice left for the next roll):"))
    width = max(len(_dice(k)) for k in range(1, 6))
    for k, ranges in out["stand_from"].items():
        text = ", ".join(f"{lo}+" if hi is None else f"{lo}-{hi - rules.unit}"
                         for lo, hi in ranges) or _("never (hot dice must be rolled)")
        print(f"  {_dice(k):<{width}}: {text}")
    if readout:
        r = readout
        print()
        if r.hot_dice:
            print(n_("Turn total {total}, {n} die to roll (hot dice):",
                     "Turn total {total}, {n} dice to roll (hot dice):", r.dice_left,
                     total=r.turn_total))
        else:
            print(n_("Turn total {total}, {n} die to roll:",
                     "Turn total {total}, {n} dice to roll:",
                     r.dice_left, total=r.turn_total))
        print("  " + _("bust chance of the next roll {chance}, it scores {points} on average",
                       chance=_pct(r.bust_chance), points=fixed(r.expected_roll_points, 3)))
        stand = _("not allowed") if r.stand_value is None else fixed(r.stand_value, 3)
        print("  " + _("stand: {stand}   roll: {roll}   ->  {decision}", stand=stand,
                       roll=fixed(r.roll_value, 3), decision=_decision(r.decision)))
        if r.reach_chance is not None:
            print("  " + _("chance to reach {points} this turn: {chance}", points=r.reach_amount,
                           chance=_pct(r.reach_chance)))


# ----- Under40 ---------------------------------------------------------------------------------
def _under40(args) -> int:
    given = [f"--{n.replace('_', '-')}" for n in ("dice", "strategy")
             if getattr(args, n) is not None]
    given += [f"--{n.replace('_', '-')}" for n in _given_rules(args)]  # no setting changes them
    given += [f"--{n.replace('_', '-')}" for n in ("turn_total", "banked") if getattr(args, n)]
    if given:
        raise RuleError(_("under40 odds take --score and --leader, not {options}",
                          options=" ".join(given)))
    s = u40.check_score(args.score, _("--score (my round score)"))
    leader = args.leader
    other = 0 if leader is None else u40.check_score(leader, _("--leader (the standing score)"))
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
    print(_("Under40: exact odds"))
    print()
    print(_("One roll: points  chance"))
    for row in out["roll_distribution"]:
        print(f"  {row['points']:>12}  {row['exact']:>6} {_pct(row['probability'], 8)}")
    print()
    print(_("From a round score of {score}:", score=s))
    bust = _("bust (over 40) next roll:")
    exact = _("exactly 40 next roll:")
    width = max(len(bust), len(exact))
    print(f"  {bust:<{width}} {out['bust_chance_exact']:>6} {_pct(out['bust_chance'], 8)}")
    print(f"  {exact:<{width}} {out['exact_40_chance_exact']:>6} "
          f"{_pct(out['exact_40_chance'], 8)}")
    if leader is not None:
        print("  " + _("get above {leader} without busting (rolling until then): {chance}",
                       leader=leader, chance=_pct(out["above_leader_chance"])))
    print()
    if leader is not None:
        print(_("Two-player round, my turn at {score} against the other's standing score "
                "{leader}:", score=s, leader=leader))
    else:
        print(_("Two-player round, my turn at {score} against the other player, who has not "
                "stopped yet:", score=s))
    stop = _("not allowed") if rd.stop_win is None else _pct(rd.stop_win)
    print("  " + _("chance to win the round: roll {roll}, stop {stop}", roll=_pct(rd.roll_win),
                   stop=stop))
    print("  " + _("best: {decision} (wins the round with {chance})",
                   decision=_decision(rd.decision), chance=_pct(rd.win)))
    return 0
