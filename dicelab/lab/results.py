"""What a lab run returns (``LabResult``: a table and bokeh plots) and its statistics (95%
intervals). Its own module so that the simulators import it without importing the package that
dispatches to them."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import i18n
from ..i18n import _

Z95 = 1.959963984540054


def progress_bar(iterable, enabled: bool, **kw):
    """``iterable`` with a tqdm bar when ``enabled`` (tqdm is imported only then)."""
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, **kw)


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    m = float(np.mean(x)) if len(x) else float("nan")
    se = float(np.std(x, ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")
    return m, m - Z95 * se, m + Z95 * se


# Thousand's totals may fall for ever (docs/explanation/rules.md: bolts, "totals may go negative"):
# two gamblers drift below -100,000 and never finish. A game still going after this many turns
# is stopped and reported as unfinished (nobody wins it) instead of hanging the lab.
MAX_TURNS = 5_000


def _widths(heads, least) -> list[int]:
    """Column widths: at least ``least``, and two more than a longer (translated) head."""
    return [max(n, len(h) + 2) for h, n in zip(heads, least)]


@dataclass
class LabResult:
    """What a lab run found: one row per player, plus the raw samples for plots."""

    variant: str
    mode: str                 # "games" or "turns"
    n: int
    seed: int | None
    rows: list[dict[str, Any]]
    samples: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    game_lengths: np.ndarray | None = field(default=None, repr=False)
    length_unit: str = "turns"
    unfinished: int = 0       # games stopped before anyone won (MAX_TURNS)

    def keys(self) -> list[str]:
        """Player names, with the seat added where a name repeats."""
        names = [r["player"] for r in self.rows]
        return [n if names.count(n) == 1 else f"{n} #{i + 1}" for i, n in enumerate(names)]

    def to_dict(self) -> dict[str, Any]:
        out = {"variant": self.variant, "mode": self.mode, self.mode: self.n, "seed": self.seed,
               "players": self.rows}
        if self.mode == "turns":
            out["mean_turn_score"] = {k: r["mean_turn_score"]
                                      for k, r in zip(self.keys(), self.rows)}
        else:
            out["win_rate"] = {k: r["win_rate"] for k, r in zip(self.keys(), self.rows)}
            if self.game_lengths is not None and len(self.game_lengths):
                out[f"mean_game_{self.length_unit}"] = float(np.mean(self.game_lengths))
            out["unfinished_games"] = self.unfinished
        return out

    def table(self) -> str:
        """An aligned text table for people."""
        from ..i18n import fixed

        pct = i18n.percent
        heads: tuple[str, ...]  # the columns: five or six
        cells: tuple[str, ...]
        if self.mode == "turns":
            heads = (_("player"), _("turns"), _("mean turn score"), _("95% interval"),
                     _("bust %"))
            w = _widths(heads, (22, 10, 18, 22, 9))
            head = "".join(f"{h:{a}{n}}" for h, a, n in zip(heads, "<>>>>", w))
            lines = [head, "-" * len(head)]
            for r in self.rows:
                lo, hi = r["mean_turn_score_ci"]
                cells = (r["player"], i18n.number(r["turns"]), fixed(r["mean_turn_score"]),
                         f"{fixed(lo)} – {fixed(hi)}", pct(r["bust_rate"], 1))
                lines.append("".join(f"{c:{a}{n}}" for c, a, n in zip(cells, "<>>>>", w)))
        else:
            extra = next((k for k in ("points_per_turn", "mean_score") if k in self.rows[0]
                          and not math.isnan(self.rows[0][k])), None)
            label = {"points_per_turn": _("pts/turn"),
                     "mean_score": _("mean score")}.get(extra or "", "")
            heads = (_("player"), _("games"), _("wins"), _("win rate"), _("95% interval"), label)
            w = _widths(heads, (22, 8, 8, 10, 18, 12))
            head = "".join(f"{h:{a}{n}}" for h, a, n in zip(heads, "<>>>>>", w))
            lines = [head, "-" * len(head)]
            for r in self.rows:
                lo, hi = r["win_rate_ci"]
                wins = r["wins"]
                wins = fixed(wins, 0 if wins == int(wins) else 1)  # ties share a win
                cells = (r["player"], i18n.number(self.n), wins, pct(r["win_rate"], 1),
                         f"{fixed(100 * lo, 1)} – {pct(hi, 1)}",
                         fixed(r[extra], 1) if extra else "")
                lines.append("".join(f"{c:{a}{n}}" for c, a, n in zip(cells, "<>>>>>", w))
                             .rstrip())
            if self.game_lengths is not None and len(self.game_lengths):
                mean = fixed(float(np.mean(self.game_lengths)), 1)
                lines.append(_("mean game length: {mean} actions", mean=mean)
                             if self.length_unit == "actions"
                             else _("mean game length: {mean} turns", mean=mean))
            if self.unfinished:
                lines.append(_("{unfinished} of {n} games were still going after the turn "
                               "limit and were stopped: nobody won them",
                               unfinished=self.unfinished, n=self.n))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.table())}</pre>"

    def plot(self):
        """Bokeh figure: win rates with intervals, or each player's turn-score distribution."""
        from bokeh.models import ColumnDataSource, Whisker
        from bokeh.plotting import figure

        names = [r["player"] for r in self.rows]
        if self.mode == "games":
            src = ColumnDataSource(dict(
                player=names, rate=[r["win_rate"] for r in self.rows],
                lo=[r["win_rate_ci"][0] for r in self.rows],
                hi=[r["win_rate_ci"][1] for r in self.rows]))
            p = figure(x_range=names, height=300,
                       title=_("{variant}: win rate over {n} games (95% intervals)",
                               variant=self.variant, n=self.n), toolbar_location=None)
            p.vbar(x="player", top="rate", width=0.6, source=src, color="#4c78a8")
            p.add_layout(Whisker(base="player", lower="lo", upper="hi", source=src))
            p.yaxis.axis_label = _("win rate")
            p.y_range.start = 0
            return p
        p = figure(height=300, title=_("{variant}: points banked per turn ({n} turns each)",
                                       variant=self.variant, n=self.n),
                   toolbar_location=None)
        colours = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6",
                   "#9d755d"]
        for i, name in enumerate(names):
            x = self.samples[name]
            top = np.quantile(x, 0.99) if len(x) else 1
            hist, edges = np.histogram(x[x <= top], bins=40, density=True)
            p.step(edges[:-1], hist, mode="after", legend_label=name, color=colours[i % 8],
                   line_width=2)
        p.xaxis.axis_label = _("points banked in a turn (0 = bust)")
        return p
