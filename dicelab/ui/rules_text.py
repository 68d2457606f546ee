"""One-line summaries and short rules of each variant for the start screen
(docs/explanation/rules.md decides).

``summary(v)`` and ``rules(v)`` give them in the current language; ``SUMMARY[v]`` and
``RULES[v]`` are the same, read when indexed (one message per paragraph or list item, so a
translator sees whole sentences)."""
from __future__ import annotations

from collections.abc import Mapping

from ..i18n import _
from .variants import ui_for


def summary(variant: str) -> tuple[str, str]:
    """(the variant's name, one line about it)."""
    lines = {
        "bones": lambda: _("Five dice, first to 10,000: keep 1s, 5s and triples, and stop "
                           "before a roll with nothing wipes out your turn."),
        "thousand": lambda: _("Five dice to 1000 — open with 50, climb out of the pits, sit on "
                              "the barrel at 880, and beware of bolts."),
        "under40": lambda: _("Two dice, round after round: beat the best standing score and "
                             "stay at or under 40 — exactly 40 takes the pot."),
        "yahtzee": lambda: _("Five dice, three rolls a turn, hold what you like, and fill the "
                             "thirteen boxes of your score card."),
    }
    return ui_for(variant).title, lines[variant]()


def _bones() -> list[str]:
    return [
        _("**Bones** — five dice; the first to the target (10,000) wins."),
        _("A roll scores only from the dice thrown in it: each **1 = 100**, each **5 = 50**, "
          "three of a kind thrown together = face × 100 (three 1s = 1000), five of a kind in "
          "one roll of all five dice = **BONES, 10,000**."),
        _("Counting dice are set aside (marked ✓); you may roll the others again, or **stand** "
          "to bank the turn total."),
        _("A roll with no counting die is a **bust**: the turn's points are lost."),
        _("**Hot dice**: when all five have counted you may roll all five again, keeping the "
          "turn total."),
        _("Until you have banked once you may stand only with at least the **minimum on "
          "board** (600 by default; 50 means any score)."),
        _("When someone reaches the target, everyone else gets one final turn; the highest "
          "total wins."),
        _("Keys: **.** rolls (or rolls again), **0** stands."),
    ]


def _thousand() -> list[str]:
    return [
        _("**Thousand (1000)** — five dice; the first to 1000 wins."),
        _("Each **1 = 10**, each **5 = 5**; three of a kind = face × 10 (three 1s = 100); four "
          "of a kind twice that, five of a kind ten times that; the straight 1-2-3-4-5 = 250."),
        _("Counting dice are set aside; when all five have counted you **must** roll all five "
          "again."),
        _("A roll with no counting die is a bust and gives you a **bolt ⚡**; three bolts in a "
          "row cost 100."),
        _("**Opening**: your first stand needs a turn total of at least 50."),
        _("**Pits ⛏** (200–300 and 600–700): from inside a pit you may stand only by climbing "
          "out in one turn."),
        _("**Barrel 🛢**: a stand reaching 880 puts you on the barrel at exactly 880; from there "
          "only a turn reaching 1000 may stand (and wins). After 3 failed turns you fall off and "
          "lose 100."),
        _("Keys: **.** rolls, **0** stands."),
    ]


def _under40() -> list[str]:
    return [
        _("**Under40** — two dice, played in rounds; the first to 1000 at the end of a round "
          "wins."),
        _("One roll scores: doubles **2 × a × a**; otherwise **a × b** if a die is even; "
          "otherwise (both odd) **a × b − the smaller die**. Your round score starts at 0 each "
          "round."),
        _("The round's first player must roll at least once and may stop at any time under "
          "40."),
        _("Each following player must roll until their round score is **higher than the best "
          "standing score**, then may stop or roll on."),
        _("**Exactly 40** ends the round at once: 40 × the number of players."),
        _("**Over 40 is a bust**: out of the round, and your score goes to the round's "
          "winner."),
        _("When all but one have busted, that player wins the sum of the busted scores."),
        _("Keys: **.** rolls, **0** stops."),
    ]


def _yahtzee() -> list[str]:
    return [
        _("**Yahtzee** — five dice, 13 boxes, one box filled per turn."),
        _("Roll all five; then up to two more times choose dice to roll again (**hold** the "
          "others: click them or press **1–5**; **Enter** rolls)."),
        _("Then fill one open box on your score card with its score for the dice (zero if they "
          "don't fit)."),
        _("Upper boxes (Aces…Sixes) score the sum of that face; 63 or more earns a **35 "
          "bonus**."),
        _("Three / Four of a Kind: sum of all dice. Full House 25, Small Straight (four in a "
          "row) 30, Large Straight (five in a row) 40, Yahtzee (five alike) 50, Chance: the "
          "sum."),
        _("Official rules: each further Yahtzee earns a 100 bonus and is a joker."),
    ]


_RULES = {"bones": _bones, "thousand": _thousand, "under40": _under40, "yahtzee": _yahtzee}


def rules(variant: str) -> str:
    """The short rules as Markdown: a heading line, then the list."""
    head, *items = _RULES[variant]()
    return "\n" + head + "\n\n" + "".join(f"- {item}\n" for item in items)


class _ReadWhenShown(Mapping):
    """variant -> text, made when indexed (so in the language of that moment)."""

    def __init__(self, make):
        self._make = make

    def __getitem__(self, variant: str):
        if variant not in _RULES:
            raise KeyError(variant)
        return self._make(variant)

    def __iter__(self):
        return iter(_RULES)

    def __len__(self) -> int:
        return len(_RULES)


SUMMARY = _ReadWhenShown(summary)
RULES = _ReadWhenShown(rules)
