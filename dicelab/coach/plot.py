"""The review's chart (``Review.plot()``): the value through the whole game for every seat,
each roll's luck and each costly decision marked. It reads the review's steps
(``Review.steps_table()``); the app's end-of-game panel and the notebook show the same figure.

What is drawn per unit: the chance to win a two-seat game (a ``duel``), for both seats; a
Yahtzee seat's expected final score; where the value is one turn's (expected points of the turn,
the chance to win an Under40 round) each seat's running account: its rolls' luck plus its
decisions' changes so far (the start of each turn is not a fall or a rise: only luck and
decisions move it).
"""
from __future__ import annotations

from typing import Any

from ..i18n import _, tr
from .luck import DUEL, SEAT
from .values import ChanceSource, source_for_unit

COLOURS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6",
           "#9d755d"]


def series(review: Any, unit_key: str | None = None) -> dict[int, dict[str, list]]:
    """Seat -> the chart's points in ``unit_key`` (default: the review's most used luck unit):
    ``x`` (the action's index), ``y`` (the value for that seat after the action), ``luck``,
    ``change``, ``lucky`` and the acting seat of each point (``actor``)."""
    unit_key = unit_key or (review.luck_units[0] if review.luck_units else None)
    steps = [s for s in review.steps if s.unit_key == unit_key]
    out: dict[int, dict[str, list]] = {}
    n = len(review.names)
    running = [0.0] * n
    for s in steps:
        seats = range(n) if s.kind == DUEL else [s.seat]
        for me in seats:
            mine = s.seat == me
            if s.kind in (DUEL, SEAT):
                y = s.after if mine else 1.0 - s.after
                y0 = s.before if mine else 1.0 - s.before
            else:
                y0 = running[me]
                running[me] += s.luck + s.change
                y = running[me]
            d = out.setdefault(me, {k: [] for k in ("x", "y", "y0", "luck", "change", "lucky",
                                                    "actor", "turn")})
            d["x"].append(s.index)
            d["y"].append(y)
            d["y0"].append(y0)
            d["luck"].append(s.luck if mine else -s.luck)
            d["change"].append(s.change if mine else -s.change)
            d["lucky"].append(review.lucky(s) if mine else 0)
            d["actor"].append(s.player)
            d["turn"].append(s.turn)
    return out


def figure(review: Any, unit_key: str | None = None, height: int = 320):
    """A bokeh figure of the game (module doc); None when no step was valued."""
    from bokeh.models import ColumnDataSource, HoverTool
    from bokeh.plotting import figure as bk_figure

    unit_key = unit_key or (review.luck_units[0] if review.luck_units else None)
    if unit_key is None:
        return None
    data = series(review, unit_key)
    kind = next(s.kind for s in review.steps if s.unit_key == unit_key)
    chance = isinstance(source_for_unit(unit_key), ChanceSource)
    scale = 100.0 if chance else 1.0
    if kind in (DUEL, SEAT):
        ylabel = tr(unit_key) + (" (%)" if chance else "")
    else:
        ylabel = _("luck + decisions so far ({unit})", unit=tr(unit_key))
    p = bk_figure(height=height, sizing_mode="stretch_width", toolbar_location=None,
                  title=review.title(), x_axis_label=_("action"), y_axis_label=ylabel)
    by_name = {s.seat: s.player for s in review.seats.values()}
    mistakes = {e.index for e in review.entries if e.mistake}
    for seat, d in sorted(data.items()):
        colour = COLOURS[seat % len(COLOURS)]
        name = by_name.get(seat, str(seat))
        src = ColumnDataSource(dict(x=d["x"], y=[v * scale for v in d["y"]],
                                    luck=[v * scale for v in d["luck"]],
                                    change=[v * scale for v in d["change"]],
                                    actor=d["actor"], turn=d["turn"]))
        p.step("x", "y", source=src, mode="after", line_width=2, color=colour,
               legend_label=name)
        # every roll of this seat: a dot; very lucky ones up-triangles, unlucky down
        for mark, sign in (("triangle", 1), ("inverted_triangle", -1)):
            idx = [i for i, v in enumerate(d["lucky"]) if v == sign]
            if idx:
                p.scatter([d["x"][i] for i in idx], [d["y"][i] * scale for i in idx],
                          marker=mark, size=11, color=colour, line_color="black")
        costly = [i for i, x in enumerate(d["x"]) if x in mistakes and d["actor"][i] == name]
        if costly:
            p.scatter([d["x"][i] for i in costly], [d["y"][i] * scale for i in costly],
                      marker="x", size=12, line_width=2, color="#d62728")
    p.add_tools(HoverTool(tooltips=[(_("turn"), "@turn"), (_("player"), "@actor"),
                                    (_("luck"), "@luck{+0.0}"),
                                    (_("decision"), "@change{+0.0}")]))
    p.legend.location = "top_left"
    p.legend.click_policy = "hide"
    return p


def html(review: Any) -> str:
    """The figure as a ``<div>`` and its script (BokehJS loaded in the page, as after
    ``dicelab.extension()``); "" when there is nothing to draw."""
    from bokeh.embed import components

    fig = figure(review)
    if fig is None:
        return ""
    script, div = components(fig)
    return script + div
