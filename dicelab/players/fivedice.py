"""Threshold computers for Bones and Thousand (docs/explanation/rules.md "Bones": seed 000's
strategies)."""
from __future__ import annotations

import param

from ..i18n import N_
from ..actions import Roll, Stand
from ..rules import fivedice as turn
from ..rules.fivedice import STRATEGIES, THRESHOLD_RANGE, UNIT
from .registry import register, spec_value


def final_turn_action(view):
    """Bones' final turn (docs/explanation/rules.md "Bones": "one turn to try to exceed"): roll on
    until the total would be above the leader's, stand then. None outside a final turn. With
    choose_keepers the dice set aside are the ones that pass the leader most often."""
    st = view.state
    if getattr(st, "final_from", None) is None or st.phase != "decide":
        return None
    lead = turn.leader_total(st.totals, st.current)
    if view.choose_keepers():
        return _final_keep(view, lead)
    need, _ = view.need_to_stand()
    if turn.passes_leader(st.totals[st.current], st.turn_total, lead) and st.turn_total >= need:
        return Stand()
    return Roll()


def _final_keep(view, lead: int):
    """choose_keepers in a final turn: of every way to set dice aside and then stand or roll,
    the one with the highest exact chance to end above ``lead`` (odds.win.final_readout; a
    stand above it is certain, so it is taken when there is one)."""
    from ..odds import win
    from ..odds.fivedice import keep_options

    st = view.state
    best = None
    for keep, pts, left in keep_options(view.config, st.dice):
        r = win.final_readout(view.config, st.totals[st.current], lead, st.before_total + pts,
                              left)
        # rolling first: a stand behind (chance 0) never wins a tie
        for kind, chance in ((Roll, r.roll_win_chance), (Stand, r.stand_win_chance)):
            if chance is not None and (best is None or chance > best[0]):
                best = (chance, kind, keep)
    _chance, kind, keep = best
    return kind(keep=_positions(st.dice, keep))


# An opponent who finishes from the barrel on their next turn at least this often makes my turn
# probably my last: a stand that leaves me short of the barrel then hardly changes the outcome.
RACE_LIKELY = 0.5


def opponent_finish_chance(view) -> float:
    """Thousand: the highest exact chance (odds.fivedice.reach_chance) that an opponent on the
    barrel reaches ``target`` in their next turn (docs/explanation/rules.md "Thousand": from the
    barrel a stand that reaches the target wins at once). 0.0 when nobody else sits on the
    barrel."""
    st = view.state
    if not getattr(st, "on_barrel", None):
        return 0.0
    from ..odds.fivedice import reach_chance

    cfg = view.config
    return max((reach_chance(cfg, cfg.target - cfg.barrel, on_barrel=True,
                             banked=cfg.barrel)
                for i, on in enumerate(st.on_barrel) if on and i != st.current), default=0.0)


def race_action(view):
    """Thousand's race: when an opponent on the barrel will probably (RACE_LIKELY) win on their
    next turn and I am not on the barrel, roll on until a stand puts me on the barrel (the only
    stand that leaves me a real chance); None where the usual play applies."""
    st = view.state
    if (st.phase != "decide" or not getattr(st, "on_barrel", None) or st.on_barrel[st.current]
            or opponent_finish_chance(view) < RACE_LIKELY):
        return None
    need, _ = view.need_to_stand()
    reaches = st.totals[st.current] + st.turn_total >= view.config.barrel
    if reaches and st.turn_total >= need and not (st.hot_dice and view.hot_dice_compulsory):
        return Stand()
    return Roll()


def forced_or_endgame(player, view):
    """What every five-dice computer does before its own judgement: roll when rolling is the
    only move, and the endgame's play (a final turn, the barrel race) where it applies."""
    if view.state.phase != "decide":
        return Roll()
    return endgame_action(view, getattr(player, "race_sense", True))


def endgame_action(view, race: bool = True):
    """The endgame rules every five-dice computer follows before its own habit (``race``
    off: the play before Thousand's race rule, kept to measure the rule against)."""
    endgame = final_turn_action(view)
    return endgame if endgame is not None or not race else race_action(view)


class ThresholdPlayer(param.Parameterized):
    """Stands as soon as the turn total is at least ``threshold`` and standing is allowed.

    With hot dice and ``hot_dice_habit`` it always rolls all five again, except when standing
    now would put it on the board for the first time (seed 000). In Thousand the rules decide
    what is allowed: it never stands where the opening, a pit or the barrel forbid it, so in a
    pit it keeps rolling until it climbs out in one turn.
    """

    threshold = param.Integer(default=300, bounds=THRESHOLD_RANGE["bones"], step=UNIT["bones"],
                              doc=N_("Turn total at which the computer stands."))
    hot_dice_habit = param.Boolean(default=True,
                                   doc=N_("With hot dice, always roll all five again."))

    @property
    def spec(self) -> str:
        named = STRATEGIES.get(self._variant, {}).get(self.name.lower())
        if named == self.threshold and self.hot_dice_habit:
            return self.name.lower()
        return f"threshold:{self.threshold}" + ("" if self.hot_dice_habit else ":nohabit")

    _variant = "bones"

    def act(self, view):
        st = view.state
        forced = forced_or_endgame(self, view)
        if forced is not None:
            return forced
        need, _ = view.need_to_stand()
        if st.turn_total < need or (st.hot_dice and view.hot_dice_compulsory):
            return Roll()  # standing is not allowed
        if st.hot_dice and self.hot_dice_habit and st.on_board[st.current]:
            return Roll()
        return Stand() if st.turn_total >= self.threshold else Roll()


class ThousandThresholdPlayer(ThresholdPlayer):
    """A threshold computer on Thousand's scale (a 1 scores 10 there, 100 in Bones)."""

    threshold = param.Integer(default=50, bounds=THRESHOLD_RANGE["thousand"],
                              step=UNIT["thousand"],
                              doc=N_("Turn total at which the computer stands."))
    _variant = "thousand"


def _named(cls, name: str, threshold: int):
    def make(spec=None):
        return cls(threshold=threshold, name=name.title())
    return make


# seed 000's personalities (STRATEGIES, from the rules module) on each variant's scale
_CLASSES = {"bones": ThresholdPlayer, "thousand": ThousandThresholdPlayer}


def threshold_player(spec: str = "threshold", variant: str = "bones") -> ThresholdPlayer:
    """``threshold:T`` or ``threshold:T:nohabit`` (Bones: T from 50 to 2000 in steps of 50)."""
    cls = _CLASSES[variant]
    t, flags = spec_value(spec, cls, "threshold", flags=("nohabit",))
    return cls(threshold=t, hot_dice_habit="nohabit" not in flags)


for _variant, _named_levels in STRATEGIES.items():
    for _name, _t in _named_levels.items():
        register(_variant, _name)(_named(_CLASSES[_variant], _name, _t))
    register(_variant, "threshold")(lambda spec, v=_variant: threshold_player(spec, v))


class OptimalPlayer(param.Parameterized):
    """Expected-points-optimal turns from the odds module, honouring every minimum (to get on
    the board, opening, pits, barrel). With choose_keepers it also picks the dice to set aside
    that leave the most valuable state."""

    spec = "optimal"

    def act(self, view):
        from ..odds.fivedice import keep_values, readout_for

        st = view.state
        forced = forced_or_endgame(self, view)
        if forced is not None:
            return forced
        if view.choose_keepers():
            seat = st.current
            best = max(keep_values(view.config, st.dice, st.before_total,
                                   on_board=st.on_board[seat], banked=st.totals[seat]),
                       key=lambda kv: max(kv[1].roll_value, kv[1].stand_value or float("-inf")))
            keep, r = best
            kind = Stand if r.decision == "stand" else Roll
            return kind(keep=_positions(st.dice, keep))
        return Stand() if readout_for(view.config, st).decision == "stand" else Roll()

    def stand_tables(self, config):
        """(on the board, not yet on the board) stand tables for the vectorised lab."""
        from ..odds.fivedice import optimal_stand_table

        return optimal_stand_table(config, on_board=True), optimal_stand_table(config,
                                                                                on_board=False)


for _variant in ("bones", "thousand"):
    register(_variant, "optimal")(lambda spec: OptimalPlayer())


def _positions(dice, keep) -> tuple[int, ...]:
    """Positions in the roll ``dice`` of the dice values ``keep``."""
    positions, pool = [], list(enumerate(dice))
    for v in keep:
        i = next(j for j, (_p, d) in enumerate(pool) if d == v)
        positions.append(pool.pop(i)[0])
    return tuple(sorted(positions))


class WinningPlayer(param.Parameterized):
    """Plays to win the game, not the turn: in a two-seat Bones or Thousand game, the exact
    policy that maximises the chance of winning (``dicelab.odds.win``, Thousand's
    ``dicelab.odds.win_thousand``: it weighs every stand by the chance to win from the
    standings it leads to, so it rolls on when far behind near the end and banks early when a
    small lead is worth keeping; in Thousand it also weighs bolts, pits and the barrel). With
    more seats, or until its table is built, it plays ``optimal`` (a Thousand table that takes
    many minutes, such as the default one, is never built on demand: ``win.table``)."""

    spec = "winning"
    wait = param.Boolean(default=True, doc=N_(
        "Build a missing win table before the first move (seconds to a minute once per "
        "settings; then cached). Off (the app): play `optimal` until the table, built in "
        "another process, is there."))

    def act(self, view):
        st = view.state
        if st.phase != "decide":
            return Roll()
        if view.n_seats != 2:
            return OptimalPlayer().act(view)
        from ..odds import win

        if view.variant == "thousand":
            from ..odds.win_thousand import table_for_play

            table = table_for_play(view.config, self.wait)
            return OptimalPlayer().act(view) if table is None else _thousand_winning(view, table)
        table = win.table(view.config, progress=False) if self.wait else \
            win.table_if_ready(view.config)
        if table is None:
            return OptimalPlayer().act(view)
        b, o = st.totals[st.current], st.totals[1 - st.current]
        if view.choose_keepers():
            options = []
            for keep, pts, left in _keep_options(view.config, st.dice):
                r = table.readout(b, o, st.before_total + pts, left)
                options.append((r.win_chance, keep, r.decision))
            _w, keep, decision = max(options, key=lambda x: x[0])
            kind = Stand if decision == "stand" else Roll
            return kind(keep=_positions(st.dice, keep))
        endgame = final_turn_action(view)
        if endgame is not None:
            return endgame      # the final turn: the max-win play is to pass the leader
        u = table.rules.unit
        need, _ = view.need_to_stand()
        if st.turn_total < max(need, u):
            return Roll()
        # the build's stand bits: a decision without solving the turn's values
        stand = table.stands_at(b // u, o // u, (b + st.turn_total) // u, st.dice_left)
        return Stand() if stand else Roll()


def _thousand_winning(view, table):
    """Thousand: the table's stand bits for this pair of standings, turn total and dice."""
    st = view.state
    need, _ = view.need_to_stand()
    if st.turn_total < max(need, 1) or (st.hot_dice and view.hot_dice_compulsory):
        return Roll()   # standing is not allowed
    u = table.rules.unit
    me, other = (view.standing(st, s) for s in (st.current, 1 - st.current))
    stand = table.stands_at(table.st.index(me, u), table.st.index(other, u),
                            st.turn_total // u, st.dice_left)
    return Stand() if stand else Roll()


def _keep_options(config, dice):
    from ..odds.fivedice import keep_options

    return keep_options(config, dice)


for _variant in ("bones", "thousand"):
    register(_variant, "winning")(lambda spec: WinningPlayer())
