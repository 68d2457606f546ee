"""Yahtzee: the expected final score (the solved table of the game's rules), and in the last
round the exact chance to win the game (``odds.yahtzee_race``) beside it."""
from __future__ import annotations

import json

from ..actions import Reroll, Score
from ..i18n import L_, Ln_, Msg, N_, _, p_
from .luck import SEAT, LuckModel, Valued, valued_options
from .values import (GameWinSource, Option, ValueSource, Variant, cap, dice_list, keeping,
                     register, scoring)


class YahtzeeSource(ValueSource):
    """Expected final score (the solved table of the game's rules; the player's own card)."""

    name = "final_score"
    UNIT = N_("expected final score")
    LUCKY = 15.0

    def __init__(self):
        self._tables: dict = {}

    def table(self, game):
        """The solved table of the game's rules (looked up once per source: ``solve`` checks
        the rules on every call, which costs more than an advice)."""
        from ..odds.yahtzee import solve

        key = json.dumps(game.settings.to_dict(), sort_keys=True)
        if key not in self._tables:
            self._tables[key] = solve(game.settings, progress=False)
        return self._tables[key]

    def _card(self, game):
        card = game.card()
        return [b for b, v in card.items() if v is None], game.upper_total(), card["yahtzee"]

    def options(self, game) -> list[Option]:
        from ..rules.yahtzee import LABELS

        st = game.state
        if not st.rolls:
            return []
        table = self.table(game)
        open_boxes, upper, ybox = self._card(game)
        advice = table.advise(open_boxes, upper, ybox, st.dice, game.rerolls_left)
        base = game.total()
        opts = []
        for kept, v in advice.keeps.items():
            if len(kept) == 5:
                continue  # keeping every die is no re-roll: not an action of the game
            n = 5 - len(kept)
            words = (Ln_("keeping {dice} and re-rolling {n}", "keeping {dice} and re-rolling {n}",
                         n, dice=dice_list(kept)) if kept
                     else L_("keeping nothing and re-rolling {n}", n=n))
            opts.append(Option(("keep", kept), words, base + v, {"advice": advice}))
        for box, v in advice.boxes.items():
            # the box's name as the card gives it, in the reader's language
            opts.append(Option(("box", box), L_("scoring {points} in {box}",
                                                points=advice.points[box],
                                                box=Msg(LABELS[box])),
                               base + v, {"advice": advice}))
        # naming a filled box (the terminal's seed-004 rule) is left out: with rounds that
        # may be wasted without end the game has no finite optimum, and the table values the
        # standard game, where every round fills an open box
        return opts

    def key_of(self, game, action) -> tuple:
        if isinstance(action, Reroll):
            kept = tuple(sorted(d for i, d in enumerate(game.dice)
                                if i not in action.positions))
            return ("keep", kept)
        if isinstance(action, Score):
            if game.card()[action.box] is not None:
                return ("waste",)
            return ("box", action.box)
        return ("roll",)

    def unjudged(self, key: tuple) -> Msg:
        return L_("rounds wasted on a filled box are not judged (the solved game has no "
                  "wasted rounds)")

    def situation(self, game) -> dict:
        open_boxes, upper, _ybox = self._card(game)
        return {"roll": game.state.rolls, "rerolls_left": game.rerolls_left,
                "open_boxes": len(open_boxes), "upper_total": upper, "total": game.total()}

    def state_words(self, game) -> Msg:
        st = game.state
        open_boxes = self._card(game)[0]
        return L_("rolled {dice}, {rerolls}, {boxes}, total {total}",
                  dice=dice_list(st.dice),
                  rerolls=Ln_("{n} re-roll left", "{n} re-rolls left", game.rerolls_left),
                  boxes=Ln_("{n} box open", "{n} boxes open", len(open_boxes)),
                  total=str(game.total()))

    def why(self, d, chosen, best) -> str:
        return _("{best} is worth {best_value} final points on average; {chosen} "
                 "{chosen_value}.", best=cap(best.label), best_value=self.fmt(best.value),
                 chosen=chosen.label, chosen_value=self.fmt(chosen.value))


class YahtzeeRaceSource(GameWinSource):
    """Chance to win the game in Yahtzee's last round (``odds.yahtzee_race``: with one box
    left, the exact chance to finish above every other seat for every keep and for scoring
    now). Only where that chance is exact: at most one other seat still to play."""

    def supports(self, game) -> str | None:
        return "" if game.n_seats < 2 else None

    def options(self, game) -> list[Option]:
        from ..odds.yahtzee_race import race

        r = race(game)
        if r is None or not r.exact:
            return []
        opts = [Option(("box", r.box), scoring, r.score_win)]
        opts += [Option(("keep", k), keeping, w) for k, (w, _pts) in r.keeps.items()
                 if len(k) < 5]  # keeping every die is no re-roll (as YahtzeeSource)
        return opts


class YahtzeeLuck(LuckModel):
    """Luck in expected final score: one ``seat`` segment per seat for the whole game (its
    start the solved game's expected score, its end the seat's final score)."""

    def __init__(self):
        self.src = YahtzeeSource()

    def start(self, game, seat: int) -> float:
        """``seat``'s expected final score at the start of its turn."""
        card = game.card(seat)
        open_boxes = [b for b, v in card.items() if v is None]
        table = self.src.table(game)
        left = table.value((open_boxes, game.upper_total(seat), card["yahtzee"])) \
            if open_boxes else 0.0
        return game.total(seat) + left

    def value(self, game, d) -> Valued | None:
        unit = YahtzeeSource.UNIT
        if not game.state.rolls:
            return Valued(unit, SEAT, self.start(game, game.current_player))
        return valued_options(d, self.src, game, SEAT)

    def over(self, game, seat, v) -> float:
        return float(game.total(seat))

    def final(self, game, seat, v) -> float | None:
        if game.is_over:
            return self.over(game, seat, v)
        if game.current_player == seat and game.state.rolls:
            now = self.value(game, None)
            return None if now is None else now.value
        return self.start(game, seat)


register(Variant("yahtzee", (YahtzeeSource, YahtzeeRaceSource),
                 lambda: p_("variant in a sentence", "yahtzee"), luck=YahtzeeLuck))
