"""Threshold computers for Bones and Thousand (RULES.md "Bones": seed 000's strategies)."""
from __future__ import annotations

import param

from ..actions import Roll, Stand
from ..rules.fivedice import STRATEGIES, THRESHOLD_RANGE, UNIT
from .registry import register, spec_value


class ThresholdPlayer(param.Parameterized):
    """Stands as soon as the turn total is at least ``threshold`` and standing is allowed.

    With hot dice and ``hot_dice_habit`` it always rolls all five again, except when standing
    now would put it on the board for the first time (seed 000). In Thousand the rules decide
    what is allowed: it never stands where the opening, a pit or the barrel forbid it, so in a
    pit it keeps rolling until it climbs out in one turn.
    """

    threshold = param.Integer(default=300, bounds=THRESHOLD_RANGE["bones"], step=UNIT["bones"],
                              doc="Turn total at which the computer stands.")
    hot_dice_habit = param.Boolean(default=True,
                                   doc="With hot dice, always roll all five again.")

    @property
    def spec(self) -> str:
        named = STRATEGIES.get(self._variant, {}).get(self.name.lower())
        if named == self.threshold and self.hot_dice_habit:
            return self.name.lower()
        return f"threshold:{self.threshold}" + ("" if self.hot_dice_habit else ":nohabit")

    _variant = "bones"

    def act(self, view):
        st = view.state
        if st.phase != "decide":
            return Roll()
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
                              doc="Turn total at which the computer stands.")
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
        if st.phase != "decide":
            return Roll()
        if view.choose_keepers():
            seat = st.current
            best = max(keep_values(view.config, st.dice, st.before_total,
                                   on_board=st.on_board[seat], banked=st.totals[seat]),
                       key=lambda kv: max(kv[1].roll_value, kv[1].stand_value or float("-inf")))
            keep, r = best
            positions, pool = [], list(enumerate(st.dice))
            for v in keep:
                i = next(j for j, (p, d) in enumerate(pool) if d == v)
                positions.append(pool.pop(i)[0])
            kind = Stand if r.decision == "stand" else Roll
            return kind(keep=tuple(sorted(positions)))
        return Stand() if readout_for(view.config, st).decision == "stand" else Roll()

    def stand_tables(self, config):
        """(on the board, not yet on the board) stand tables for the vectorised lab."""
        from ..odds.fivedice import optimal_stand_table

        return optimal_stand_table(config, on_board=True), optimal_stand_table(config,
                                                                                on_board=False)


for _variant in ("bones", "thousand"):
    register(_variant, "optimal")(lambda spec: OptimalPlayer())
