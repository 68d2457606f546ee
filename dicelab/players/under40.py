"""Under40 computers (issue 4): cautious, threshold and optimal."""
from __future__ import annotations

import param

from ..actions import Roll, Stand
from ..odds.under40 import round_decision
from .registry import register, spec_value


class CautiousPlayer(param.Parameterized):
    """Stops as soon as it leads (as soon as stopping is allowed)."""

    spec = "cautious"

    def act(self, view):
        return Stand() if view.may_stop else Roll()


class Under40ThresholdPlayer(param.Parameterized):
    """Rolls on while its round score is below ``threshold`` (and whenever it may not stop)."""

    threshold = param.Integer(default=26, bounds=(2, 38), step=2,
                              doc="Round score at which the computer stops (if allowed).")

    @property
    def spec(self) -> str:
        return f"threshold:{self.threshold}"

    def act(self, view):
        st = view.state
        if view.may_stop and st.round_scores[st.current] >= self.threshold:
            return Stand()
        return Roll()


class Under40OptimalPlayer(param.Parameterized):
    """Maximises its chance of winning the round. Exact for two players (backward induction in
    dicelab.odds.under40), where the answer is "stop as soon as you lead". With more players it
    plays the two-player answer against the best standing score, i.e. it also stops as soon as
    it leads: in 3-player lab games (6,000 each, target 300) stopping at 10, 16, 20 or 24 instead
    won 32.9-33.6% against it, no better than an even share."""

    spec = "optimal"

    def act(self, view):
        if not view.may_stop:
            return Roll()
        st = view.state
        me = st.current
        others = [s for i, s in enumerate(st.round_scores) if i != me and st.status[i] != "busted"]
        if view.n_seats == 2:
            other = others[0] if others else 0
        else:
            other = view.must_beat()
        return Stand() if round_decision(st.round_scores[me], other) == "stop" else Roll()


def _threshold(spec: str):
    return Under40ThresholdPlayer(threshold=spec_value(spec, Under40ThresholdPlayer,
                                                       "threshold")[0])


register("under40", "cautious")(lambda spec: CautiousPlayer())
register("under40", "threshold")(_threshold)
register("under40", "optimal")(lambda spec: Under40OptimalPlayer())
