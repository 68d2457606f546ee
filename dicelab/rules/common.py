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
        marks = " ".join("✓" if m else "✗" for m in self.mask)
        what = "bust: no die counts" if self.bust else (
            f"{self.points:,} points, {self.counting} dice count")
        return (f"<div class='dicelab-roll' style='font:15px system-ui,sans-serif'><b>{what}</b>"
                + (f" <span title='counting dice in roll order'>({marks})</span>" if marks
                   else "") + "</div>")


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
