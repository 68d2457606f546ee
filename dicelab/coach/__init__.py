"""The coach: what each decision of a game cost, and a review of the whole game (issue 17).

A game is seed + actions, so it is replayed through the game's own ``apply`` and, before each
action, the options of the player on turn are valued by the variant's exact solver:

- Bones, Thousand: expected points of the rest of the turn (``odds.fivedice.turn_readout``;
  with choose_keepers every way to set dice aside, ``keep_values``);
- Under40: chance to win the round (``odds.under40.readout``; two players: the exact
  ``round_readout``);
- Yahtzee: expected final score (the solved table's ``advise``: every keep and every box).

A state where the rules leave one option is not a decision. What a choice lost is the best
option's value minus the chosen one's (0 for the best, never negative). The value of an option
comes from a small per-variant ``ValueSource``; later sources of a variant add columns
(``Entry.extra``, ``SeatSummary.extra_lost``) without deciding "best": the chance to win the game
where an exact play-to-win solver covers the decision (``GameWinSource``: two-seat Bones,
``odds.win``; Yahtzee's last round, ``odds.yahtzee_race``; Under40's last stretch,
``odds.under40_game``), and one sentence where it disagrees with the first. A Bones final turn
is not judged in points (only passing the leader counts there): in a two-seat game the chance
to win judges it (``takes_over``; its entry's unit says so and the points columns stay empty).

    review = dicelab.review(game)      # a Game, a saved game's JSON (text or dict)
    review.seats["Ann"].lost           # value lost in all
    print(review.text())               # or review in a notebook: a table
    review.table()                     # every decision as a pandas DataFrame
    review.seats["Ann"].luck           # unit -> her rolls' luck (``luck``: exact, per roll)
    review.steps_table()               # every action: value before/after, luck, change

The package: ``values`` (the framework: Option, ValueSource, the registry of variants),
one module per variant's value sources (``fivedice``, ``under40``, ``yahtzee``: each calls
``register``; a new variant adds a module and imports it below), ``decision`` (one decision
valued and judged), ``review`` (the whole game) and ``render`` (the review's table and its
text, CSV, JSON and HTML).
"""
from __future__ import annotations

from .decision import Decision, Entry, Side, decision, hint_text, judge
from .exercises import Answer, Exercise, Score, exercises, score
from .fivedice import BonesLuck, BonesWinSource, FiveDiceLuck, FiveDiceSource, ThousandSource
from .luck import LuckModel, Segment, Step, Valued, segments
from .review import Review, SeatSummary, as_game, review
from .under40 import Under40Luck, Under40Source, Under40WinSource
from .values import (SOURCES, VARIANTS, ChanceSource, GameWinSource, Option, ValueSource,
                     Variant, register, sources_for)
from .yahtzee import YahtzeeLuck, YahtzeeRaceSource, YahtzeeSource

__all__ = ["Option", "Decision", "Entry", "SeatSummary", "Review", "ValueSource", "SOURCES",
           "decision", "review", "hint_text", "judge", "as_game", "sources_for", "register",
           "Variant", "VARIANTS", "Side", "ChanceSource", "GameWinSource", "FiveDiceSource",
           "ThousandSource", "BonesWinSource", "Under40Source", "Under40WinSource",
           "YahtzeeSource", "YahtzeeRaceSource", "Step", "Segment", "segments", "LuckModel",
           "Valued", "exercises", "score", "Exercise", "Answer", "Score", "FiveDiceLuck",
           "BonesLuck", "Under40Luck", "YahtzeeLuck"]
