"""Set up a position: a game of any variant built at a stated legal position (issue 35).

One builder per variant, found by the variant's name (``SETUPS``) as games are found in
``GAMES``: callers never ask which variant they set up::

    g = dicelab.games.setup.position("bones", ["Ann", "Bob"], totals=[2000, 3500],
                                     kept=[1, 5], kept_points=150, roll=[2, 2, 2])

The position is checked against the rules before anything is built; an impossible one raises
``PositionError`` (a ``RuleError``) whose ``field`` names the field at fault and whose message
says why. The game built has no actions: it starts at that position (``set_up`` holds what was
stated), so it is for odds and analysis; saving it (``to_dict``) is refused.
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Callable

from ..dice import check_dice, is_whole
from ..errors import RuleError
from ..i18n import L_
from ..rules import fivedice as turn
from ..rules import under40 as u40
from ..rules import yahtzee as yz
from .base import GAMES, Game, evolve


class PositionError(RuleError):
    """A stated position the rules cannot reach; ``field``: the field at fault."""

    def __init__(self, field: str, message):
        super().__init__(message)
        self.field = field


SETUPS: dict[str, Callable[..., Game]] = {}


def register(variant: str):
    def deco(fn):
        SETUPS[variant] = fn
        return fn
    return deco


def position(variant: str, seats=("Player 1", "Player 2"),  # i18n: not shown (names as given)
             settings=None, **fields) -> Game:
    """A game of ``variant`` at the position ``fields`` state (see each variant's builder:
    ``fivedice_position``, ``under40_position``, ``yahtzee_position``)."""
    if variant not in SETUPS:
        raise PositionError("variant", L_("unknown variant {variant}; the variants are "
                                          "{variants}", variant=repr(variant)[:60],
                                          variants=", ".join(SETUPS)))
    return SETUPS[variant](seats, settings, **fields)


def _blank(variant: str, seats, settings) -> Game:
    """The game to put the position in (seed 0: a position is analysed, not played on)."""
    return GAMES[variant](list(seats), settings, 0)


def _built(game: Game, state, stated: dict) -> Game:
    game = type(game).resumed(game.settings, state, game.n_seats, game.seats, 0)
    game.set_up = dict(stated)
    game.to_dict = _not_saved  # its actions would replay the start, not this position
    return game


def _not_saved():
    raise RuleError(L_("a set-up position has no actions to save: it is for odds and analysis"))


def _seat_list(field: str, values, n: int, kind=int) -> tuple:
    """``values``: one per seat, each a whole number (or a bool / str with ``kind``)."""
    try:
        out = tuple(values)
    except TypeError:
        raise PositionError(field, L_("{field}: one value per seat, got {value}", field=field,
                                      value=repr(values)[:60])) from None
    if len(out) != n:
        raise PositionError(field, L_("{field}: one value per seat ({n}), got {got}",
                                      field=field, n=n, got=len(out)))
    if kind is int and not all(is_whole(v) for v in out):
        raise PositionError(field, L_("{field}: whole numbers, got {value}", field=field,
                                      value=repr(out)[:80]))
    return tuple(int(v) for v in out) if kind is int else tuple(kind(v) for v in out)


def _seat_index(field: str, value, n: int) -> int:
    if not is_whole(value) or not 0 <= int(value) < n:
        raise PositionError(field, L_("{field}: a seat from 0 to {last}, got {value}",
                                      field=field, last=n - 1, value=repr(value)[:40]))
    return int(value)


def _dice(field: str, dice, n=None) -> tuple[int, ...]:
    try:
        return check_dice(dice, n)
    except RuleError as exc:
        raise PositionError(field, L_("{field}: {why}", field=field, why=exc.args[0])) from None


# ----- Bones and Thousand ------------------------------------------------------------------------
def fivedice_position(variant: str, seats, settings, *, totals, current: int = 0,
                      on_board=None, kept=(), kept_points: int = 0, roll=None,
                      final_from=None, bolts=None, on_barrel=None, barrel_turns=None) -> Game:
    """Bones or Thousand. ``totals``: every seat's banked total; ``current``: the seat on turn;
    ``on_board`` (Bones: on the board, Thousand: opened; default: total > 0); ``kept``: the dice
    set aside this turn before the last roll (since all five were last free) and
    ``kept_points`` their points (the turn total before it); ``roll``: the last roll (5 -
    len(kept) dice; None: the turn's next roll is due). Bones: ``final_from``, the seat whose
    total reached the target (final turns). Thousand: ``bolts``, ``on_barrel``,
    ``barrel_turns`` per seat."""
    g = _blank(variant, seats, settings)
    n, rules = g.n_seats, g.turn_rules
    unit = rules.unit
    stated = dict(totals=totals, current=current, on_board=on_board, kept=kept,
                  kept_points=kept_points, roll=roll, final_from=final_from, bolts=bolts,
                  on_barrel=on_barrel, barrel_turns=barrel_turns)
    current = _seat_index("current", current, n)
    totals = _seat_list("totals", totals, n)
    board = (tuple(t > 0 for t in totals) if on_board is None
             else _seat_list("on_board", on_board, n, bool))
    thousand = variant == "thousand"
    if not thousand:
        for name, v in (("bolts", bolts), ("on_barrel", on_barrel),
                        ("barrel_turns", barrel_turns)):
            if v is not None:
                raise PositionError(name, L_("{field}: Bones has no bolts and no barrel",
                                             field=name))
    bolts = (0,) * n if bolts is None else _seat_list("bolts", bolts, n)
    barrel = (False,) * n if on_barrel is None else _seat_list("on_barrel", on_barrel, n, bool)
    tries = (0,) * n if barrel_turns is None else _seat_list("barrel_turns", barrel_turns, n)
    for i in range(n):
        if totals[i] % unit:
            raise PositionError("totals", L_("totals: {game} totals are multiples of {unit}, "
                                             "got {total}", game=g.rule_name, unit=unit,
                                             total=totals[i]))
        if thousand and bolts[i] >= g.config.bolts_per_penalty and g.config.bolt_penalty:
            raise PositionError("bolts", L_("bolts: {n} bolts in a row cost the penalty and "
                                            "start again from 0", n=bolts[i]))
        try:
            turn.check_standing(rules, turn.Standing(totals[i], board[i], barrel[i], tries[i],
                                                     bolts[i]))
        except RuleError as exc:
            field = "on_barrel" if barrel[i] else "totals"
            raise PositionError(field, L_("{field}: {why}", field=field,
                                          why=exc.args[0])) from None
        if not board[i] and totals[i] != 0:
            raise PositionError("on_board", L_("on_board: a seat not yet on the board has a "
                                               "total of 0, got {total}", total=totals[i]))
    state = evolve(g.state, current=current)
    extra: dict[str, Any] = {}
    if thousand:
        extra = dict(bolts=bolts, on_barrel=barrel, barrel_turns=tries)
    else:
        target = g.config.target
        reached = [i for i in range(n) if totals[i] >= target]
        if final_from is None:
            if reached and n > 1:
                raise PositionError("final_from", L_(
                    "final_from: a total of {target} or more started the final turns: say "
                    "whose total reached it first", target=target))
        else:
            final_from = _seat_index("final_from", final_from, n)
            if totals[final_from] < target:
                raise PositionError("final_from", L_(
                    "final_from: that seat's total is below the target {target}",
                    target=target))
            if final_from == current:
                raise PositionError("current", L_(
                    "current: the final turns end before the seat that reached the target "
                    "plays again (the game is over)"))
        if n == 1 and reached:
            raise PositionError("totals", L_("totals: a lone player reaching {target} has "
                                             "won", target=target))
        extra = dict(final_from=final_from,
                     reached_at=tuple(0 if i == final_from else 1 for i in range(n)))
    state = evolve(state, totals=totals, on_board=board, **extra)
    state = _turn(g, state, current, kept, kept_points, roll)
    return _built(g, state, stated)


def _turn(g, state, seat, kept, kept_points, roll):
    """The turn so far: dice set aside before the last roll, then that roll."""
    unit = g.turn_rules.unit
    kept = _dice("kept", kept, (0, 4))
    if not is_whole(kept_points) or kept_points < 0 or kept_points % unit:
        raise PositionError("kept_points", L_("kept_points: a turn total is a multiple of "
                                              "{unit}, 0 or more, got {value}", unit=unit,
                                              value=repr(kept_points)[:40]))
    kept_points = int(kept_points)
    if kept and not kept_points:
        raise PositionError("kept_points", L_("kept_points: dice set aside have scored points"))
    if kept and g.score_roll(kept).counting != len(kept):
        raise PositionError("kept", L_("kept: only counting dice are set aside (ones, fives, "
                                       "groups of a kind)"))
    if roll is None:
        if kept or kept_points:
            raise PositionError("roll", L_("roll: after dice were set aside, give the roll "
                                           "that was thrown"))
        return state
    roll = _dice("roll", roll, 5 - len(kept))
    sc = g.score_roll(roll)
    if sc.bust:
        raise PositionError("roll", L_("roll: no die counts in this roll, which ends the turn "
                                       "(a bust): give the position before it"))
    before = evolve(state, phase="decide", kept=kept, dice_left=5 - len(kept),
                    turn_total=kept_points, dice=(1,), hot_dice=False)
    if kept_points and not kept:  # hot dice came before: all five are thrown again
        before = evolve(before, hot_dice=True, kept=(), dice_left=5)
    counted = tuple(d for d, c in zip(roll, sc.mask) if c)
    left = len(roll) - sc.counting
    hot = left == 0
    phase = "roll" if hot and g.hot_dice_compulsory else "decide"
    return evolve(before, dice=roll, counting=sc.mask, roll_points=sc.points,
                  kept=kept + counted, dice_left=left or 5, hot_dice=hot,
                  turn_total=kept_points + sc.points, before_total=kept_points,
                  before_kept=kept, phase=phase)


@register("bones")
def bones_position(seats, settings=None, **fields) -> Game:
    return fivedice_position("bones", seats, settings, **fields)


@register("thousand")
def thousand_position(seats, settings=None, **fields) -> Game:
    return fivedice_position("thousand", seats, settings, **fields)


# ----- Under40 -----------------------------------------------------------------------------------
@register("under40")
def under40_position(seats, settings=None, *, totals, round_scores, current: int = 0,
                     starter=None, round: int = 1, dice=None) -> Game:
    """Under40. ``round_scores``: this round's score of every seat: the seats from the round's
    ``starter`` (default: ``current``) up to ``current`` have had their turn (stopped below
    40, or busted above it), the ones after it wait with 0; ``current``'s score is its turn
    so far (0: its first roll is due). ``dice``: the last roll shown (optional)."""
    from .under40 import BUSTED, ROLLING, STOPPED, WAITING

    g = _blank("under40", seats, settings)
    n = g.n_seats
    stated = dict(totals=totals, round_scores=round_scores, current=current, starter=starter,
                  round=round, dice=dice)
    current = _seat_index("current", current, n)
    starter = current if starter is None else _seat_index("starter", starter, n)
    totals = _seat_list("totals", totals, n)
    scores = _seat_list("round_scores", round_scores, n)
    target = g.config.target
    if not is_whole(round) or round < 1:
        raise PositionError("round", L_("round: rounds are counted from 1"))
    for t in totals:
        if not 0 <= t < target:
            raise PositionError("totals", L_(
                "totals: a total is 0 or more and below the target {target} (reaching it wins "
                "the game), got {total}", target=target, total=t))
    order = [(starter + k) % n for k in range(n)]
    played = order[:order.index(current)]
    status, best, pot = [WAITING] * n, 0, 0
    for i in scores:
        if i % 2:
            raise PositionError("round_scores", L_(
                "round_scores: every roll adds an even number, so round scores are even, got "
                "{score}", score=i))
    for i in played:
        s = scores[i]
        if s > u40.GOAL:
            status[i], pot = BUSTED, pot + s
        elif 0 < s < u40.GOAL and s > best:
            status[i], best = STOPPED, s
        else:
            raise PositionError("round_scores", L_(
                "round_scores: a seat that has played this round stopped above the best "
                "standing score before it and below 40, or busted above 40; got {score}",
                score=s))
        if s > u40.GOAL + 72:  # 39 plus the largest roll (6 6: 72)
            raise PositionError("round_scores", L_(
                "round_scores: a bust comes from 39 or less plus one roll, got {score}",
                score=s))
    for i in order[order.index(current) + 1:]:
        if scores[i]:
            raise PositionError("round_scores", L_(
                "round_scores: a seat that has not played this round has 0"))
    if not 0 <= scores[current] < u40.GOAL:
        raise PositionError("round_scores", L_(
            "round_scores: the seat on turn has from 0 to 39 (40 ends the round)"))
    if sum(s == BUSTED for s in status) >= n - 1:
        raise PositionError("round_scores", L_(
            "round_scores: when every other seat has busted, the round is over"))
    status[current] = ROLLING
    state = evolve(evolve(g.state, current=current), current=current, starter=starter,
                   totals=totals, round_scores=scores, status=tuple(status), round=int(round),
                   phase="decide" if scores[current] else "roll", pot=pot)
    if dice is not None:
        dice = _dice("dice", dice, 2)
        state = evolve(state, dice=dice, roll_points=u40.roll_points(*dice),
                       roller=current if scores[current] else None)
    return _built(g, state, stated)


# ----- Yahtzee -----------------------------------------------------------------------------------
def _possible_scores() -> dict[str, frozenset]:
    """Every score each box can hold (over every roll, as a joker too)."""
    out: dict[str, set] = {b: {0} for b in yz.BOXES}
    for dice in combinations_with_replacement(range(1, 7), 5):
        for joker in (False, True):
            opts = yz.scoring_options(dice, list(yz.BOXES), 50 if joker else None, joker)
            for b, v in opts.items():
                out[b].add(v)
    return {b: frozenset(v) for b, v in out.items()}


_POSSIBLE: dict[str, frozenset] = {}


@register("yahtzee")
def yahtzee_position(seats, settings=None, *, cards, current: int = 0, dice=(), rolls=None,
                     yahtzee_bonuses=None) -> Game:
    """Yahtzee. ``cards``: per seat a mapping box -> points (boxes left out are open);
    ``dice``: the dice on the table (() before the turn's first roll); ``rolls``: the rolls
    thrown this turn (default 1 with dice, 0 without); ``yahtzee_bonuses``: per seat, the
    Yahtzee bonuses earned."""
    g = _blank("yahtzee", seats, settings)
    n, s = g.n_seats, g.config
    stated = dict(cards=cards, current=current, dice=dice, rolls=rolls,
                  yahtzee_bonuses=yahtzee_bonuses)
    current = _seat_index("current", current, n)
    if not _POSSIBLE:
        _POSSIBLE.update(_possible_scores())
    rows = _seat_list("cards", cards, n, dict)
    built = []
    for card in rows:
        unknown = set(card) - set(yz.BOXES)
        if unknown:
            raise PositionError("cards", L_("cards: unknown box {box}; the boxes are {boxes}",
                                            box=repr(sorted(map(str, unknown))[0])[:30],
                                            boxes=", ".join(yz.BOXES)))
        for b, v in card.items():
            if v is not None and (not is_whole(v) or int(v) not in _POSSIBLE[b]):
                raise PositionError("cards", L_("cards: {box} cannot hold {value}",
                                                box=yz.label(b), value=repr(v)[:20]))
        built.append(tuple(None if card.get(b) is None else int(card[b]) for b in yz.BOXES))
    filled = [sum(v is not None for v in c) for c in built]
    if filled[current] == len(yz.BOXES):
        raise PositionError("current", L_("current: the seat on turn has an open box"))
    ahead = [(current - k) % n for k in range(1, n)]  # played this round before current
    done = 0
    for i in ahead:
        if filled[i] == filled[current] + 1 and done == ahead.index(i):
            done += 1
        elif filled[i] != filled[current]:
            raise PositionError("cards", L_(
                "cards: every card has as many filled boxes as the card on turn, or one more "
                "for the seats that played this round before it"))
    bonuses = (0,) * n if yahtzee_bonuses is None else _seat_list("yahtzee_bonuses",
                                                                  yahtzee_bonuses, n)
    for i, k in enumerate(bonuses):
        if k < 0 or k and (not built[i][yz.BOXES.index("yahtzee")] or k >= filled[i]):
            raise PositionError("yahtzee_bonuses", L_(
                "yahtzee_bonuses: a bonus needs 50 in the Yahtzee box and another Yahtzee "
                "scored after it"))
    dice = _dice("dice", dice, (0, 5)) if dice != () else ()
    if dice and len(dice) != 5:
        raise PositionError("dice", L_("dice: five dice, or none before the first roll"))
    rolls = (1 if dice else 0) if rolls is None else rolls
    if not is_whole(rolls) or not (1 <= rolls <= s.rerolls + 1 if dice else rolls == 0):
        raise PositionError("rolls", L_("rolls: from 1 to {most} with dice on the table, 0 "
                                        "without", most=s.rerolls + 1))
    state = evolve(evolve(g.state, current=current), cards=tuple(built), dice=dice,
                   rolls=int(rolls),
                   yahtzee_bonuses=bonuses,
                   bonus_points=tuple(k * s.yahtzee_bonus for k in bonuses),
                   turn=sum(filled))
    return _built(g, state, stated)
