"""Threshold computers for Bones and Thousand (RULES.md "Bones": seed 000's strategies)."""
from __future__ import annotations

import param

from ..actions import Roll, Stand
from ..errors import RuleError
from . import register


class ThresholdPlayer(param.Parameterized):
    """Stands as soon as the turn total is at least ``threshold`` and standing is allowed.

    With hot dice and ``hot_dice_habit`` it always rolls all five again, except when standing
    now would put it on the board for the first time (seed 000). In Thousand the rules decide
    what is allowed: it never stands where the opening, a pit or the barrel forbid it, so in a
    pit it keeps rolling until it climbs out in one turn.
    """

    threshold = param.Integer(default=300, bounds=(50, 2000), step=50,
                              doc="Turn total at which the computer stands.")
    hot_dice_habit = param.Boolean(default=True,
                                   doc="With hot dice, always roll all five again.")

    @property
    def spec(self) -> str:
        return f"threshold:{self.threshold}" + ("" if self.hot_dice_habit else ":nohabit")

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


class NamedThreshold(ThresholdPlayer):
    """A seed 000 personality: a fixed name over a threshold."""

    name_ = param.String(default="", precedence=-1)

    @property
    def spec(self) -> str:
        return self.name_


def _named(name: str, threshold: int):
    def make(spec=None):
        return NamedThreshold(threshold=threshold, name_=name, name=name.title())
    return make


STRATEGIES = {"chicken": 100, "aggressive": 200, "gambler": 300}


def threshold_player(spec: str = "threshold:300") -> ThresholdPlayer:
    """``threshold:T`` or ``threshold:T:nohabit`` (T from 50 to 2000, step 50)."""
    parts = spec.split(":")
    try:
        t = int(parts[1]) if len(parts) > 1 else 300
    except ValueError:
        raise RuleError(f"a threshold player is threshold:T with T from 50 to 2000, got {spec!r}") \
            from None
    if not (50 <= t <= 2000 and t % 50 == 0) or parts[2:] not in ([], ["nohabit"]):
        raise RuleError(f"threshold:T takes T from 50 to 2000 in steps of 50 (and optionally "
                        f":nohabit), got {spec!r}")
    return ThresholdPlayer(threshold=t, hot_dice_habit=parts[2:] != ["nohabit"])


for _variant in ("bones", "thousand"):
    for _name, _t in STRATEGIES.items():
        register(_variant, _name)(_named(_name, _t))
    register(_variant, "threshold")(threshold_player)
