"""Value objects and helpers shared by the variants' scoring rules."""
from __future__ import annotations

from typing import NamedTuple


class RollScore(NamedTuple):
    """The score of one roll: its points, how many dice counted, and which ones (in roll order)."""

    points: int
    counting: int
    mask: tuple[bool, ...] = ()

    @property
    def bust(self) -> bool:
        return self.counting == 0

    def _repr_html_(self) -> str:
        """In a notebook: the points, and which dice counted (✓) in roll order."""
        from html import escape

        from ..i18n import _, n_

        marks = " ".join("✓" if m else "✗" for m in self.mask)
        what = _("bust: no die counts") if self.bust else n_(
            "{points} points, {n} die counts", "{points} points, {n} dice count", self.counting,
            points=self.points)
        title = escape(_("counting dice in roll order"), quote=True)
        return (f"<div class='dicelab-roll' style='font:15px system-ui,sans-serif'><b>"
                f"{escape(what)}</b>"
                + (f" <span title='{title}'>({marks})</span>" if marks else "") + "</div>")


def roll_score(dice: tuple[int, ...], points: int, counting_by_face: dict[int, int]) -> RollScore:
    """Build a RollScore, marking the first counting dice of each face in roll order."""
    left = dict(counting_by_face)
    mask = []
    for d in dice:
        take = left.get(d, 0) > 0
        if take:
            left[d] -= 1
        mask.append(take)
    return RollScore(points, sum(counting_by_face.values()), tuple(mask))
