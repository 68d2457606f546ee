"""Under40 computers (issue 4): cautious, threshold and optimal."""
from __future__ import annotations

import param

from ..i18n import N_
from ..actions import Roll, Stand
from ..odds.under40 import readout
from .registry import register, spec_value


class CautiousPlayer(param.Parameterized):
    """Stops as soon as it leads (as soon as stopping is allowed)."""

    spec = "cautious"

    def act(self, view):
        return Stand() if view.may_stop else Roll()


class Under40ThresholdPlayer(param.Parameterized):
    """Rolls on while its round score is below ``threshold`` (and whenever it may not stop)."""

    threshold = param.Integer(default=26, bounds=(2, 38), step=2,
                              doc=N_("Round score at which the computer stops (if allowed)."))

    @property
    def spec(self) -> str:
        return f"threshold:{self.threshold}"

    def act(self, view):
        st = view.state
        if view.may_stop and st.round_scores[st.current] >= self.threshold:
            return Stand()
        return Roll()


class Under40OptimalPlayer(param.Parameterized):
    """Maximises its chance of winning the round, for any number of players: the best decision
    of the exact round solve in dicelab.odds.under40 (every player maximising their own chance
    of winning the round; see ``readout``). It ignores the points at stake and the game score."""

    spec = "optimal"

    def act(self, view):
        if not view.may_stop:
            return Roll()
        st = view.state
        ro = readout(st.round_scores[st.current], view.round_others())
        return Stand() if ro.decision == "stop" else Roll()


def _threshold(spec: str):
    return Under40ThresholdPlayer(threshold=spec_value(spec, Under40ThresholdPlayer,
                                                       "threshold")[0])


register("under40", "cautious")(lambda spec: CautiousPlayer())
register("under40", "threshold")(_threshold)
register("under40", "optimal")(lambda spec: Under40OptimalPlayer())
