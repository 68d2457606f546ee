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
comes from a small per-variant ``ValueSource``; later sources in ``SOURCES`` add columns
(``Entry.extra``, ``SeatSummary.extra_lost``) without deciding "best": the chance to win the game
where an exact play-to-win solver covers the decision (``GameWinSource``: two-seat Bones,
``odds.win``; Yahtzee's last round, ``odds.yahtzee_race``; Under40's last stretch,
``odds.under40_game``), and one sentence where it disagrees with the first. A Bones final turn
is not judged in points (only passing the leader counts there): in a two-seat game the chance
to win judges it (``takes_over``; its entry's unit says so and the points columns stay empty).

    review = dicelab.review(game)      # a Game, a saved game's JSON (text or dict)
    review.seats["Ann"].lost           # value lost in all
    print(review.text())               # or review in a notebook: a table
"""
from __future__ import annotations

import csv
import html
import io
import json
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from . import i18n
from .actions import Reroll, Roll, Score, Stand
from .errors import RuleError
from .games.base import Game, load_game
from .i18n import Joined, L_, Ln_, Msg, N_, _, n_, p_, percent, tr

__all__ = ["Option", "Decision", "Entry", "SeatSummary", "Review", "ValueSource", "SOURCES",
           "decision", "review", "hint_text"]


# ----- values ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One thing the player could do, valued: ``key`` identifies it (``("roll",)``,
    ``("keep", (5, 5, 5))``, ``("box", "full_house")``), ``words`` says it (a lazy message,
    or a function giving the words: ``label`` is it in the reader's language)."""

    key: tuple
    words: Msg | Callable[[], str]
    value: float
    detail: dict = field(default_factory=dict, compare=False)

    @property
    def label(self) -> str:
        return self.words() if callable(self.words) else i18n.text(self.words)


class ValueSource:
    """How one variant values the options of a decision (a strategy object: subclass it).
    Its words render when read (``unit``, ``tolerance_words``, ``fmt``): a review kept by a
    page reads in the language of whoever looks at it."""

    name = "value"        # column name
    UNIT = N_("points")   # what a value measures, in words (English: the key of a unit)
    tolerance = 0.01      # a loss above this is a mistake
    TOLERANCE_WORDS = N_("0.01 points")
    LOSS = N_("{amount} points")  # a loss in this source's unit
    DISAGREE = 0.0  # a later source: where its best differs from the first's (``disagree``)

    @property
    def unit(self) -> str:
        return tr(self.UNIT)

    @property
    def tolerance_words(self) -> str:
        return tr(self.TOLERANCE_WORDS)

    def supports(self, game: Game) -> Msg | str | None:
        """None if this source can value ``game``'s decisions, else why not ("": no note)."""
        return None

    def skip(self, game: Game) -> Msg | None:
        """Why the decision now is not judged in this source's units (the review notes it
        once), or None."""
        return None

    def takes_over(self, game: Game) -> bool:
        """A later source: it judges the decision now, which the first source skips (two-seat
        Bones' final turns, by the chance to win)."""
        return False

    def options(self, game: Game) -> list[Option]:
        """The distinct options of the player on turn now, valued."""
        raise NotImplementedError

    def key_of(self, game: Game, action) -> tuple:
        """The option ``action`` is, in ``game`` now (before it is applied)."""
        raise NotImplementedError

    def state_words(self, game: Game) -> Msg:
        raise NotImplementedError

    def unjudged(self, key: tuple) -> Msg:
        """Why a choice outside ``options`` is not judged (a review notes it)."""
        return L_("{choice}: not valued", choice=key[0])

    def situation(self, game: Game) -> dict:
        """The state as numbers, for grouping decisions ("where is the value lost?")."""
        return {}

    def disagree(self, best_label: str, best: float, points_label: str, points: float) -> str:
        """A later source: one sentence where its best play is not the first source's
        (called when read, like ``why``)."""
        return _("By the {unit}, {best} ({best_value}) beats {points} ({points_value}).",
                 unit=self.unit, best=best_label, best_value=self.fmt(best),
                 points=points_label, points_value=self.fmt(points))

    def why(self, d: Decision, chosen: Option, best: Option) -> str:
        """One plain sentence on why ``best`` was better than ``chosen`` (called when read:
        an entry keeps this call, not its text)."""
        return _("{best} is worth {best_value}, {chosen} {chosen_value}.",
                 best=_cap(best.label), best_value=self.fmt(best.value),
                 chosen=chosen.label, chosen_value=self.fmt(chosen.value))

    def fmt(self, value: float) -> str:
        return _fixed(value, 1)

    def fmt_loss(self, value: float) -> str:
        return tr(self.LOSS, amount=_fixed(value, 1))


class ChanceSource(ValueSource):
    """A source whose values are chances (0..1): shown as percentages, lost in percentage
    points (``LOSS``)."""

    tolerance = 1e-4
    TOLERANCE_WORDS = N_("0.01 percentage points")
    LOSS = N_("{amount} percentage points")

    def fmt(self, value: float) -> str:
        return percent(value, 1)

    def fmt_loss(self, value: float) -> str:
        return tr(self.LOSS, amount=_fixed(100 * value, 1))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fixed(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals and grouped thousands, the reader's way ("1,234.5",
    "1 234,5"): Python rounds it (as the English text always did), Babel gives the symbols."""
    text = f"{value:,.{digits}f}"
    lang = i18n.language()
    if lang == i18n.DEFAULT:
        return text
    from babel.numbers import get_decimal_symbol, get_group_symbol

    group, point = get_group_symbol(lang), get_decimal_symbol(lang)
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def _pct(p: float) -> str:
    whole = abs(100 * p - round(100 * p)) < 0.05 or p > 0.1
    return percent(p, 0 if whole else 1)


def _dice_list(dice) -> str:
    return " ".join(map(str, dice))


# the one-word options, said when read; a context tells them apart from the same English word
# elsewhere ("rolling" as a player's state)
def _rolling() -> str:
    return p_("coach option", "rolling")


def _standing() -> str:
    return p_("coach option", "standing")


def _rolling_on() -> str:
    return p_("coach option", "rolling on")


def _stopping() -> str:
    return p_("coach option", "stopping")


def _scoring() -> str:
    return p_("coach option", "scoring")


def _keeping() -> str:
    return p_("coach option", "keeping")


# ----- Bones and Thousand ------------------------------------------------------------------------
def _keep_label(kind: str, keep: tuple | None) -> Msg | Callable[[], str]:
    """"rolling", or with choose_keepers "setting aside 1 5 and rolling"."""
    if keep is None:
        return _rolling if kind == "roll" else _standing
    if kind == "roll":
        return L_("setting aside {dice} and rolling", dice=_dice_list(keep))
    return L_("setting aside {dice} and standing", dice=_dice_list(keep))


class FiveDiceSource(ValueSource):
    """Expected points of the rest of the turn (odds.fivedice: the gain to the banked total)."""

    name = "points"
    UNIT = N_("expected points of the turn")

    def _solver_state(self, game) -> dict:
        st = game.state
        seat = st.current
        out = {"on_board": st.on_board[seat], "banked": st.totals[seat]}
        if game.variant == "thousand":
            out.update(on_barrel=st.on_barrel[seat], barrel_turns=st.barrel_turns[seat],
                       bolts=st.bolts[seat])
        return out

    def skip(self, game) -> Msg | None:
        if getattr(game.state, "final_from", None) is not None:
            return L_("Final turns (after a player reached the target) are not judged in "
                      "points: there only passing the leader counts (RULES.md); two-seat games "
                      "judge them by the chance to win.")
        return None

    def options(self, game) -> list[Option]:
        from .odds.fivedice import bust_chance, keep_values, readout_for

        st = game.state
        if st.phase != "decide":
            return []
        if not game.choose_keepers():
            r = readout_for(game.config, st)
            detail = {"turn_total": st.turn_total, "dice_left": st.dice_left,
                      "hot": st.hot_dice, "bust": r.bust_chance, "readout": r}
            opts = [Option(("roll", None), _keep_label("roll", None), r.roll_value, detail)]
            if r.may_stand:
                opts.append(Option(("stand", None), _keep_label("stand", None), r.stand_value,
                                   detail))
            return opts
        opts = []
        auto = self._auto_keep(st)
        for keep, r in keep_values(game.config, st.dice, st.before_total,
                                   **self._solver_state(game)):
            key = None if keep == auto else keep
            detail = {"turn_total": r.turn_total, "dice_left": r.dice_left, "hot": r.hot_dice,
                      "bust": float(bust_chance(game.config, r.dice_left)), "readout": r,
                      "keep": keep}
            opts.append(Option(("roll", key), _keep_label("roll", keep), r.roll_value,
                               detail))
            if r.may_stand:
                opts.append(Option(("stand", key), _keep_label("stand", keep),
                                   r.stand_value, detail))
        return opts

    @staticmethod
    def _auto_keep(st) -> tuple:
        return tuple(sorted(d for d, c in zip(st.dice, st.counting) if c))

    def key_of(self, game, action) -> tuple:
        kind = "stand" if isinstance(action, Stand) else "roll"
        if action.keep is None or not game.choose_keepers():
            return (kind, None)
        keep = tuple(sorted(game.state.dice[p] for p in action.keep))
        return (kind, None if keep == self._auto_keep(game.state) else keep)

    def situation(self, game) -> dict:
        st = game.state
        return {"turn_total": st.turn_total, "dice_left": st.dice_left, "hot_dice": st.hot_dice,
                "banked": st.totals[st.current], "on_board": st.on_board[st.current]}

    def state_words(self, game) -> Msg:
        st = game.state
        n, banked = st.dice_left, st.totals[st.current]
        if game.choose_keepers():  # the choice is what to set aside from this roll
            text = L_("turn total {total} before the roll, rolled {dice}, banked {banked}",
                      total=st.before_total, dice=_dice_list(st.dice), banked=banked)
        elif st.hot_dice:
            # the turn total as the English text always gave it: not grouped
            text = L_("turn total {total}, hot dice, all 5 to roll, banked {banked}",
                      total=str(st.turn_total), banked=banked)
        else:
            text = Ln_("turn total {total}, {n} die to roll, banked {banked}",
                       "turn total {total}, {n} dice to roll, banked {banked}", n,
                       total=str(st.turn_total), banked=banked)
        goal = game.stand_goal()
        need, _rule = game.need_to_stand()
        if goal != "stand" and need:
            return _needs(text, need, goal)
        return text

    def why(self, d, chosen, best) -> str:
        def phrase(o: Option, own_dice: bool) -> str:
            t, value = o.detail["turn_total"], self.fmt(o.value)
            if o.key[0] == "stand":
                if value == self.fmt(t):
                    return _("{option} on {total} keeps {gain}", option=o.label, total=t,
                             gain=value)
                return _("{option} on {total} gains {gain}", option=o.label, total=t,
                         gain=value)
            if own_dice:  # each keep leaves its own dice: say which, and their bust chance
                n, chance = o.detail["dice_left"], _pct(o.detail["bust"])
                if o.detail["hot"]:
                    return _("{option} all 5 dice again (hot dice, a bust {chance} likely) is "
                             "worth {value}", option=o.label, chance=chance, value=value)
                return n_("{option} {n} die (a bust {chance} likely) is worth {value}",
                          "{option} {n} dice (a bust {chance} likely) is worth {value}", n,
                          option=o.label, chance=chance, value=value)
            return _("{option} is worth {value}", option=o.label, value=value)

        if "keep" in chosen.detail and chosen.key[0] == best.key[0] == "roll":
            return f"{_cap(phrase(best, True))}; {phrase(chosen, True)}."
        det = chosen.detail if chosen.key[0] == "roll" else best.detail
        first, second = phrase(best, False), phrase(chosen, False)
        if det["hot"]:
            return _("With hot dice (all 5) a bust is {chance} likely; {first}, {second}.",
                     chance=_pct(det["bust"]), first=first, second=second)
        return n_("With {n} die a bust is {chance} likely; {first}, {second}.",
                  "With {n} dice a bust is {chance} likely; {first}, {second}.",
                  det["dice_left"], chance=_pct(det["bust"]), first=first, second=second)

    def fmt(self, value: float) -> str:
        return _fixed(value, 0 if abs(value - round(value)) < 1e-9 else 1)


# what standing achieves (``stand_goal``), said after the state: whole messages
# (the keys are the games' ``stand_goal`` words)
_NEEDS = {
    "get on the board": N_("{state} (needs {need} to get on the board)"),  # i18n: not shown
    "open": N_("{state} (needs {need} to open)"),
    "climb out of the pit": N_("{state} (needs {need} to climb out of the pit)"),  # i18n: not shown
    "win from the barrel": N_("{state} (needs {need} to win from the barrel)"),  # i18n: not shown
}


def _needs(state: Msg, need: int, goal) -> Msg:
    if goal in _NEEDS:
        return Msg(_NEEDS[goal], {"state": state, "need": str(need)})
    return L_("{state} (needs {need} to {goal})", state=state, need=str(need),
              goal=goal if isinstance(goal, Msg) else Msg(str(goal)))


class GameWinSource(ChanceSource):
    """The chance to win the game, beside a variant's own unit where an exact play-to-win
    solver covers the decision (a later source: its column, and one sentence where its best
    play is not the first source's)."""

    name = "win"
    UNIT = N_("chance to win the game")
    LOSS = N_("{amount} percentage points of win chance")
    # the points' best play and the play that wins most "disagree" (one sentence says so)
    # where their win chances differ by more than this: 0.1 percentage points, so the two
    # numbers the sentence prints differ
    DISAGREE = 1e-3

    def disagree(self, best_label: str, best: float, points_label: str, points: float) -> str:
        """One sentence where the points' best play is not the play that wins most."""
        return _("Points and the chance to win disagree here: {best} wins the game "
                 "{best_chance} of the time, {points} (the points play) {points_chance}.",
                 best=best_label, best_chance=self.fmt(best), points=points_label,
                 points_chance=self.fmt(points))


class BonesWinSource(GameWinSource):
    """Chance to win the game (two-seat Bones: the exact play-to-win table, ``odds.win``).
    A second column beside the points: in regular turns it never decides "best" or "mistake",
    it says what a choice cost in games won, and where the points and the chance to win
    disagree. In a final turn (the other reached the target) the points do not count: there
    it judges the decision itself (``takes_over``; exact without the table,
    ``win.final_readout``)."""

    # tables up to this target build in about 2 s of CPU: built on the spot; larger ones
    # (the default 10,000: ~25 s) only if ready (``table_if_ready`` builds them elsewhere)
    BUILD_TARGET = 3000

    def __init__(self):
        self._tables: dict = {}

    def rules(self, game):
        """The game's WinRules, or None where the solver takes no such rules (a target below
        the minimum on board: the settings allow it, the table does not)."""
        from .odds import win

        try:
            return win.win_rules(game.config)
        except RuleError:
            return None

    def table(self, game):
        """The game's win table, or None while it is not built (looked up once per source, so
        one review uses one answer throughout)."""
        from .odds import win

        r = self.rules(game)
        if r is None:
            return None
        if r.key not in self._tables:
            self._tables[r.key] = (win.table(r, progress=False) if r.target <= self.BUILD_TARGET
                                   else win.table_if_ready(r))
        return self._tables[r.key]

    def supports(self, game) -> Msg | str | None:
        # "" (no note): the table is for two-seat Bones only
        if game.variant != "bones" or game.n_seats != 2:
            return ""
        if self.rules(game) is None:
            return L_("The chance to win is left out: the exact solver needs a target of at "
                      "least the minimum on board.")
        if self.table(game) is None:
            return L_("The chance to win is left out of regular turns: its exact table for "
                      "these rules is being built (about 25 s of CPU, once; `dicelab odds "
                      "bones --win` builds it too). Review again later.")
        return None

    def _final(self, game) -> bool:
        st = game.state
        return (game.variant == "bones" and game.n_seats == 2
                and getattr(st, "final_from", None) is not None and self.rules(game) is not None)

    def takes_over(self, game) -> bool:
        return self._final(game)

    def options(self, game) -> list[Option]:
        from .odds import win
        from .odds.fivedice import bust_chance

        st = game.state
        if st.phase != "decide":
            return []
        if self._final(game):
            def readout(b, o, total, left):
                return win.final_readout(game.config, b, o, total, left)
        elif (t := self.table(game)) is not None:
            readout = t.readout
        else:
            return []
        me = st.current
        b, o = st.totals[me], st.totals[1 - me]
        if game.choose_keepers():
            from .odds.fivedice import keep_options

            auto = FiveDiceSource._auto_keep(st)
            states = [(keep, None if keep == auto else keep, st.before_total + pts, left)
                      for keep, pts, left in keep_options(game.config, st.dice)]
        else:
            states = [(None, None, st.turn_total, st.dice_left)]
        opts = []
        try:
            for keep, key, total, left in states:
                r = readout(b, o, total, left)
                detail = {"readout": r, "turn_total": total, "dice_left": left,
                          "banked": b, "opponent": o,
                          "bust": float(bust_chance(game.config, left))}
                opts.append(Option(("roll", key), _keep_label("roll", keep), r.roll_win_chance,
                                   detail))
                if r.stand_win_chance is not None:
                    opts.append(Option(("stand", key), _keep_label("stand", keep),
                                       r.stand_win_chance, detail))
        except RuleError:  # a state the table does not hold (the game is decided): no column
            return []
        return opts

    # the rest judges a final turn (``takes_over``): the state, the key, the sentence
    def key_of(self, game, action) -> tuple:
        return FiveDiceSource().key_of(game, action)

    def state_words(self, game) -> Msg:
        st = game.state
        return L_("{state}; final turn: {name} has {points}",
                  state=FiveDiceSource().state_words(game), name=game.names[1 - st.current],
                  points=st.totals[1 - st.current])

    def situation(self, game) -> dict:
        st = game.state
        return {**FiveDiceSource().situation(game), "final_turn": True,
                "to_pass": st.totals[1 - st.current]}

    def why(self, d, chosen, best) -> str:
        det = chosen.detail
        total, other = det["banked"] + det["turn_total"], det["opponent"]
        must = det["readout"].must_reach
        if chosen.key[0] == "stand" and chosen.value == 0.0:
            return _("{chosen} on {turn_total} ends the game at {total}, not above {other}: a "
                     "sure loss; {best} on (reaching {must} this turn) still wins {chance} of "
                     "the time.", chosen=_cap(chosen.label), turn_total=det["turn_total"],
                     total=total, other=other, best=best.label, must=must,
                     chance=self.fmt(best.value))
        if best.key[0] == "stand" and best.value == 1.0:
            mine = det["banked"] + best.detail["turn_total"]
            return n_("{best} on {turn_total} makes {total}, above {other}: a sure win; "
                      "{chosen} risks a bust ({bust} likely with {n} die) and wins {chance} of "
                      "the time.",
                      "{best} on {turn_total} makes {total}, above {other}: a sure win; "
                      "{chosen} risks a bust ({bust} likely with {n} dice) and wins {chance} "
                      "of the time.", det["dice_left"],
                      best=_cap(best.label), turn_total=best.detail["turn_total"], total=mine,
                      other=other, chosen=chosen.label, bust=_pct(det["bust"]),
                      chance=self.fmt(chosen.value))
        return _("{best} wins the game {best_chance} of the time, {chosen} {chosen_chance}.",
                 best=_cap(best.label), best_chance=self.fmt(best.value), chosen=chosen.label,
                 chosen_chance=self.fmt(chosen.value))


# ----- Under40 -----------------------------------------------------------------------------------
class Under40Source(ChanceSource):
    """Chance to win the round (odds.under40.readout: exact for any number of players, each
    maximising their own chance of winning the round)."""

    name = "round_win"
    UNIT = N_("chance to win the round")
    LOSS = N_("{amount} points of round-win chance")

    def options(self, game) -> list[Option]:
        from .odds.under40 import bust_chance, readout

        st = game.state
        if st.phase != "decide":
            return []
        m, others = st.round_scores[st.current], game.round_others()
        r = readout(m, others)
        detail = {"score": m, "others": others, "bust": float(bust_chance(m)), "readout": r}
        opts = [Option(("roll",), _rolling_on, float(r.roll_win), detail)]
        if r.may_stop:
            opts.append(Option(("stop",), _stopping, float(r.stop_win), detail))
        return opts

    def key_of(self, game, action) -> tuple:
        return ("stop",) if isinstance(action, Stand) else ("roll",)

    def situation(self, game) -> dict:
        st = game.state
        return {"score": st.round_scores[st.current], "others": game.round_others(),
                "must_beat": game.must_beat()}

    def state_words(self, game) -> Msg:
        st = game.state
        me = st.current
        others = [L_("{name}'s {score}", name=game.names[i], score=st.round_scores[i])
                  for i in range(game.n_seats) if i != me and st.status[i] != "busted"]
        return L_("round score {score} against {others}", score=st.round_scores[me],
                  others=Joined(others))

    def why(self, d, chosen, best) -> str:
        det = best.detail
        return _("At {score} against {others} a roll goes over 40 {bust} of the time; {best} "
                 "wins the round {best_chance} of the time, {chosen} {chosen_chance}.",
                 score=det["score"], others=", ".join(map(str, det["others"])),
                 bust=_pct(det["bust"]), best=best.label, best_chance=self.fmt(best.value),
                 chosen=chosen.label, chosen_chance=self.fmt(chosen.value))


class Under40WinSource(GameWinSource):
    """Chance to win the game in Under40's last stretch (``odds.under40_game``: two players,
    both totals within its reach of the target, both playing for the game), beside the chance
    to win the round."""

    def supports(self, game) -> Msg | str | None:
        return "" if game.n_seats != 2 else None

    def options(self, game) -> list[Option]:
        from .odds import under40_game

        st = game.state
        me = st.current
        low = game.config.target - under40_game.REACH
        if st.phase != "decide" or min(st.totals) < low:
            return []  # outside the solved stretch (checked before solving it, ~3 s once)
        try:
            r = under40_game.solve(game.config.target).readout(
                st.totals[me], st.totals[1 - me], st.starter == me, st.round_scores[me],
                game.round_others()[0] if game.round_others() else 0)
        except RuleError:  # a total at the target (the round decides the game)
            return []
        opts = [Option(("roll",), _rolling_on, float(r.roll_win))]
        if r.stop_win is not None:
            opts.append(Option(("stop",), _stopping, float(r.stop_win)))
        return opts


# ----- Yahtzee -----------------------------------------------------------------------------------
class YahtzeeSource(ValueSource):
    """Expected final score (the solved table of the game's rules; the player's own card)."""

    name = "final_score"
    UNIT = N_("expected final score")

    def __init__(self):
        self._tables: dict = {}

    def table(self, game):
        """The solved table of the game's rules (looked up once per source: ``solve`` checks
        the rules on every call, which costs more than an advice)."""
        from .odds.yahtzee import solve

        key = json.dumps(game.settings.to_dict(), sort_keys=True)
        if key not in self._tables:
            self._tables[key] = solve(game.settings, progress=False)
        return self._tables[key]

    def _card(self, game):
        card = game.card()
        return [b for b, v in card.items() if v is None], game.upper_total(), card["yahtzee"]

    def options(self, game) -> list[Option]:
        from .rules.yahtzee import LABELS

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
                         n, dice=_dice_list(kept)) if kept
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
                  dice=_dice_list(st.dice),
                  rerolls=Ln_("{n} re-roll left", "{n} re-rolls left", game.rerolls_left),
                  boxes=Ln_("{n} box open", "{n} boxes open", len(open_boxes)),
                  total=str(game.total()))

    def why(self, d, chosen, best) -> str:
        return _("{best} is worth {best_value} final points on average; {chosen} "
                 "{chosen_value}.", best=_cap(best.label), best_value=self.fmt(best.value),
                 chosen=chosen.label, chosen_value=self.fmt(chosen.value))


class YahtzeeRaceSource(GameWinSource):
    """Chance to win the game in Yahtzee's last round (``odds.yahtzee_race``: with one box
    left, the exact chance to finish above every other seat for every keep and for scoring
    now). Only where that chance is exact: at most one other seat still to play."""

    def supports(self, game) -> str | None:
        return "" if game.n_seats < 2 else None

    def options(self, game) -> list[Option]:
        from .odds.yahtzee_race import race

        r = race(game)
        if r is None or not r.exact:
            return []
        opts = [Option(("box", r.box), _scoring, r.score_win)]
        opts += [Option(("keep", k), _keeping, w) for k, (w, _pts) in r.keeps.items()
                 if len(k) < 5]  # keeping every die is no re-roll (as YahtzeeSource)
        return opts


# variant -> value sources, the first one decides "best" and "lost"; later ones add columns
SOURCES: dict[str, list[Callable[[], ValueSource]]] = {
    "bones": [FiveDiceSource, BonesWinSource], "thousand": [FiveDiceSource], "under40": [Under40Source, Under40WinSource],
    "yahtzee": [YahtzeeSource, YahtzeeRaceSource],
}


def sources_for(game: Game) -> list[ValueSource]:
    if game.variant not in SOURCES:
        raise RuleError(L_("the coach knows bones, thousand, under40 and yahtzee, not "
                           "{variant}", variant=repr(game.variant)))
    return [make() for make in SOURCES[game.variant]]


# ----- one decision ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Side:
    """A later source's values of one decision (``Entry.extra[name]``): the chance to win."""

    values: dict          # option key -> value
    chosen: float
    best: float
    best_key: tuple
    lost: float           # best - chosen: 0 for the best, never negative
    mistake: bool         # lost above that source's tolerance


@dataclass(frozen=True)
class Entry:
    """One decision of one seat, judged. Its words (``state``, ``why``, ``unit``, ``line()``)
    render when read, in the reader's language: an entry keeps lazy messages and the calls
    that say why, not text."""

    index: int            # the action's position in the game (0-based)
    turn: int             # the game's turn (Under40: round) number, from 1
    seat: int
    player: str
    computer: bool
    state_words: Any      # the situation in words (a lazy message): ``state``
    options: tuple[Option, ...]
    chosen: Option
    best: Option
    lost: float           # best.value - chosen.value: 0 for the best, never negative
    mistake: bool         # lost above the source's tolerance
    reasons: tuple        # calls giving sentences ("" in all when the choice was the best)
    unit_key: str         # the source's unit in English (``unit``: in the reader's language)
    extra: dict = field(default_factory=dict)  # later sources: name -> Side
    situation: dict = field(default_factory=dict)  # the state as numbers (source.situation)

    @property
    def state(self) -> str:
        return i18n.text(self.state_words)

    @property
    def why(self) -> str:
        """One sentence, or two where the chance to win disagrees ("" for the best)."""
        return " ".join(say() for say in self.reasons)

    @property
    def unit(self) -> str:
        return tr(self.unit_key)

    def line(self, source: ValueSource | None = None) -> str:
        """The short line the app and the terminal show after a decision."""
        src = self.source if self.unit_key in _SOURCE_BY_UNIT else source or ValueSource()
        chosen = src.fmt(self.chosen.value)
        if not self.mistake:
            if self.best.key != self.chosen.key and self.lost == 0:
                text = _("Best play: {choice} ({value}; {best} was as good).",
                         choice=self.chosen.label, value=chosen, best=self.best.label)
            else:
                text = _("Best play: {choice} ({value}).", choice=self.chosen.label,
                         value=chosen)
        else:
            text = _("{choice} cost {loss}: {best} was worth {best_value}, {choice_again} "
                     "{value}.", choice=_cap(self.chosen.label),
                     loss=src.fmt_loss(self.lost), best=self.best.label,
                     best_value=src.fmt(self.best.value), choice_again=self.chosen.label,
                     value=chosen)
        for k, side in self.extra.items():  # the chance to win, where it is known
            x = _SOURCE_BY_NAME[k]
            if x.UNIT == self.unit_key:  # the decision was judged in it: said already
                continue
            if side.mistake:
                text += " " + _("{unit}: {chance}, {best_chance} by {best}.",
                                unit=_cap(x.unit), chance=x.fmt(side.chosen),
                                best_chance=x.fmt(side.best), best=self._label(side.best_key))
            else:
                text += " " + _("{unit}: {chance}.", unit=_cap(x.unit),
                                chance=x.fmt(side.chosen))
        return text

    def _label(self, key: tuple) -> str:
        return next((o.label for o in self.options if o.key == key), "")

    @property
    def source(self) -> ValueSource:
        """The source this decision was judged by (its numbers' format)."""
        return _SOURCE_BY_UNIT[self.unit_key]

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "seat": self.seat,
                "player": self.player, "computer": self.computer, "state": self.state,
                "options": [{"option": o.label, "value": o.value,
                             **{k: v.values.get(o.key) for k, v in self.extra.items()}}
                            for o in self.options],
                "choice": self.chosen.label, "choice_value": self.chosen.value,
                "best": self.best.label, "best_value": self.best.value, "lost": self.lost,
                "mistake": self.mistake, "why": self.why, "unit": self.unit,
                "situation": self.situation,
                **self.extra_fields()}

    def extra_fields(self) -> dict[str, Any]:
        """The later sources' numbers, flat: win_choice_value, win_best, win_best_value,
        win_lost, win_mistake (the review's CSV, JSON and tables)."""
        out: dict[str, Any] = {}
        for k, v in self.extra.items():
            best = self._label(v.best_key)
            out.update({f"{k}_choice_value": v.chosen, f"{k}_best": best,
                        f"{k}_best_value": v.best, f"{k}_lost": v.lost,
                        f"{k}_mistake": v.mistake})
        return out


_SOURCE_BY_UNIT = {c.UNIT: c() for c in (FiveDiceSource, Under40Source, YahtzeeSource,
                                          BonesWinSource)}
_SOURCE_BY_NAME = {s.name: s for s in _SOURCE_BY_UNIT.values()}


@dataclass(frozen=True)
class Decision:
    """The options of the player on turn in one state (``decision(game)``)."""

    source: ValueSource
    seat: int
    player: str
    computer: bool
    turn: int
    state: str
    options: tuple[Option, ...]
    extra: tuple = ()  # (source, options) of the other sources
    situation: dict = field(default_factory=dict)

    @property
    def best(self) -> Option:
        return max(self.options, key=lambda o: o.value)

    def option(self, key: tuple) -> Option:
        for o in self.options:
            if o.key == key:
                return o
        raise RuleError(  # i18n: not shown (a defect, not a player's error)
            f"internal: no option {key!r} among {[o.key for o in self.options]}")

    def judge(self, key: tuple, index: int = -1) -> Entry:
        chosen, best = self.option(key), self.best
        lost = best.value - chosen.value
        if chosen.key == best.key or lost < 0:  # lost < 0 only by float rounding of a tie
            lost = 0.0
        mistake = lost > self.source.tolerance
        # the sentences are said when read (in the reader's language): keep the calls
        why = [partial(self.source.why, self, chosen, best)] if lost > 0 else []
        extra = {}
        for src, opts in self.extra:
            by = {o.key: o.value for o in opts}
            if key not in by:
                continue
            top_key = max(by, key=by.get)
            top = by[top_key]
            lost_here = 0.0 if top_key == key else max(top - by[key], 0.0)
            extra[src.name] = Side(by, by[key], top, top_key, lost_here,
                                   lost_here > src.tolerance)
            if best.key in by and top - by[best.key] > src.DISAGREE:
                why.append(partial(_disagree, src, self.option(top_key), top, best,
                                   by[best.key]))
        return Entry(index, self.turn, self.seat, self.player, self.computer, self.state,
                     self.options, chosen, best, lost, mistake, tuple(why), self.source.UNIT,
                     extra, self.situation)

    def hint(self) -> str:
        """The coach's advice before the decision: the options, best first."""
        fmt = self.source.fmt
        ranked = sorted(self.options, key=lambda o: -o.value)
        shown = "; ".join(f"{o.label} {fmt(o.value)}" for o in ranked[:4])
        if len(ranked) > 4:
            return n_("Coach: best is {best} ({unit}: {options} (and {n} more)).",
                      "Coach: best is {best} ({unit}: {options} (and {n} more)).",
                      len(ranked) - 4, best=ranked[0].label, unit=self.source.unit,
                      options=shown)
        return _("Coach: best is {best} ({unit}: {options}).", best=ranked[0].label,
                 unit=self.source.unit, options=shown)


def _disagree(src: ValueSource, top: Option, top_value: float, best: Option,
              value: float) -> str:
    return src.disagree(top.label, top_value, best.label, value)


def _turn_number(game: Game) -> int:
    st = game.state
    return st.round if game.variant == "under40" else st.turn + 1


def decision(game: Game, sources: list[ValueSource] | None = None) -> Decision | None:
    """The decision the player on turn faces now, valued; None when the game is over, the
    rules leave one option, or the source cannot value this game."""
    if game.is_over:
        return None
    sources = sources or sources_for(game)
    main = sources[0]
    if main.supports(game) is not None or len(game.legal_actions()) < 2:
        return None
    if main.skip(game) is not None:  # a later source may judge it (Bones' final turns)
        main = next((s for s in sources[1:] if s.takes_over(game)), None)
        if main is None:
            return None
    options = main.options(game)
    if len(options) < 2:
        return None
    # the later sources' columns (one that judges the decision fills its own column too)
    extra = tuple((s, options if s is main else s.options(game)) for s in sources[1:]
                  if s is main or s.supports(game) is None)
    seat = game.current_player
    return Decision(main, seat, game.names[seat], game.seats[seat].is_computer,
                    _turn_number(game), main.state_words(game), tuple(options), extra,
                    main.situation(game))


def hint_text(game: Game) -> str | None:
    """The coach's hint for the player on turn, or None when there is nothing to decide."""
    d = decision(game)
    return None if d is None else d.hint()


def judge(game: Game, action) -> Entry | None:
    """The entry ``action`` would make in ``game`` now (before it is applied); None when it is
    not a decision. The game does not change."""
    from .actions import coerce

    action = game.check(action)
    d = decision(game)
    if d is None:
        return None
    key = d.source.key_of(game, coerce(action))
    if not any(o.key == key for o in d.options):
        return None
    return d.judge(key, game.version)


# ----- the review --------------------------------------------------------------------------------
@dataclass
class SeatSummary:
    player: str
    seat: int
    computer: bool
    decisions: int = 0
    mistakes: int = 0
    lost: float = 0.0
    costliest: list[Entry] = field(default_factory=list)
    extra_lost: dict = field(default_factory=dict)  # later sources: name -> lost in all
    # decisions judged in the review's unit (``lost``; two-seat Bones' final turns are judged
    # by the chance to win), and per later source the decisions it valued
    valued: int = 0
    extra_valued: dict = field(default_factory=dict)

    @property
    def mean_lost(self) -> float:
        """Lost per decision judged in the review's unit."""
        return self.lost / self.valued if self.valued else 0.0

    def mean_extra_lost(self, name: str) -> float | None:
        """A later source's value lost per decision it valued (None: it valued none)."""
        n = self.extra_valued.get(name, 0)
        return self.extra_lost[name] / n if n else None

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "seat": self.seat, "computer": self.computer,
                "decisions": self.decisions, "mistakes": self.mistakes, "lost": self.lost,
                "mean_lost": self.mean_lost,
                **{f"{k}_lost": v for k, v in self.extra_lost.items()},
                **{f"mean_{k}_lost": self.mean_extra_lost(k)  # i18n: not shown
                   for k in self.extra_lost},
                "costliest": [{"index": e.index, "turn": e.turn, "lost": e.lost, "why": e.why}
                              for e in self.costliest]}


class Review:
    """Every judged decision of a game and the totals per seat."""

    COLUMNS = ("index", "turn", "player", "state", "choice", "choice_value", "best",
               "best_value", "lost", "mistake", "why", "unit")

    def __init__(self, game: Game, entries: list[Entry], source: ValueSource,
                 notes: list[str], extras: dict[str, ValueSource] | None = None):
        self.variant = game.variant
        self.names = list(game.names)
        self.finished = game.is_over
        self.actions = len(game.actions)
        self.entries = entries
        self.source = source
        self.unit_key = source.UNIT
        self.tolerance = source.tolerance
        self.note_words = notes  # lazy messages: ``notes`` in the reader's language
        # later sources that valued at least one decision: name -> source (their columns)
        self.extras = {k: v for k, v in (extras or {}).items()
                       if any(k in e.extra for e in entries)}
        self.game_json = game.to_json()
        self.seats: dict[str, SeatSummary] = {
            s.name: SeatSummary(s.name, i, s.is_computer) for i, s in enumerate(game.seats)}
        for s in self.seats.values():
            s.extra_lost = dict.fromkeys(self.extras, 0.0)
            s.extra_valued = dict.fromkeys(self.extras, 0)
        for e in entries:
            s = self.seats[e.player]
            s.decisions += 1
            s.mistakes += e.mistake
            if e.unit_key == self.unit_key:  # a final turn's loss is in games won, not points
                s.lost += e.lost
                s.valued += 1
            for k, side in e.extra.items():
                s.extra_lost[k] = s.extra_lost.get(k, 0.0) + side.lost
                s.extra_valued[k] = s.extra_valued.get(k, 0) + 1
        for s in self.seats.values():
            # a final turn thrown away decides the game: such a mistake comes first
            mine = [e for e in entries if e.player == s.player and e.lost > 0
                    and (e.unit_key == self.unit_key or e.mistake)]
            s.costliest = sorted(mine, key=lambda e: (e.unit_key == self.unit_key,
                                                      -e.lost))[:3]

    @property
    def unit(self) -> str:
        return tr(self.unit_key)

    @property
    def notes(self) -> list[str]:
        return [i18n.text(n) for n in self.note_words]

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def for_seat(self, name: str) -> Review:
        """The same review with only ``name``'s decisions (RuleError for an unknown name)."""
        if name not in self.seats:
            raise RuleError(L_("no seat {name} in this game; the seats are {seats}",
                               name=repr(name), seats=", ".join(self.names)))
        out = object.__new__(Review)
        out.__dict__.update(self.__dict__)
        out.entries = [e for e in self.entries if e.player == name]
        out.seats = {name: self.seats[name]}
        return out

    # ----- outputs -------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """One flat row per decision (the CSV and the app's table)."""
        out = []
        for e in self.entries:
            # the value columns are in the review's unit: a decision judged in another (a
            # final turn, by the chance to win) leaves them empty and fills its own columns
            mine = e.unit_key == self.unit_key
            row = {"index": e.index, "turn": e.turn, "player": e.player, "state": e.state,
                   "choice": e.chosen.label, "choice_value": e.chosen.value if mine else None,
                   "best": e.best.label, "best_value": e.best.value if mine else None,
                   "lost": e.lost if mine else None, "mistake": e.mistake, "why": e.why,
                   "unit": e.unit,
                   "options": "; ".join(f"{o.label} {e.source.fmt(o.value)}"
                                        + self._extra_words(e, o) for o in e.options)}
            row.update(e.extra_fields())
            out.append(row)
        return out

    def _extra_words(self, e: Entry, o: Option) -> str:
        """" (win 43.2%)": an option's values from the later sources."""
        parts = [f"{k} {src.fmt(e.extra[k].values[o.key])}" for k, src in self.extras.items()
                 if k in e.extra and o.key in e.extra[k].values and src.UNIT != e.unit_key]
        return f" ({', '.join(parts)})" if parts else ""

    def to_csv(self) -> str:
        rows = self.rows()
        cols = list(self.COLUMNS) + ["options"]
        cols += [k for k in dict.fromkeys(k for r in rows for k in r) if k not in cols]
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue()

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "unit": self.unit, "tolerance": self.tolerance,
                **{f"{k}_unit": src.unit for k, src in self.extras.items()},
                "finished": self.finished, "actions": self.actions, "notes": self.notes,
                "seats": {n: s.to_dict() for n, s in self.seats.items()},
                "decisions": [e.to_dict() for e in self.entries]}

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    def summary_lines(self) -> list[str]:
        src = self.source
        if self.extras:
            lines = [_("Values: {unit}; beside them the {others}. A mistake loses more than "
                       "{tolerance}.", unit=self.unit,
                       others=", ".join(x.unit for x in self.extras.values()),
                       tolerance=src.tolerance_words)]
        else:
            lines = [_("Values: {unit}. A mistake loses more than {tolerance}.",
                       unit=self.unit, tolerance=src.tolerance_words)]
        lines += self.notes
        for s in self.seats.values():
            who = _("{name} (computer)", name=s.player) if s.computer else s.player
            counts = dict(who=who, loss=src.fmt_loss(s.lost),
                          decisions=n_("{n} decision", "{n} decisions", s.decisions),
                          mistakes=n_("{n} mistake", "{n} mistakes", s.mistakes))
            if self.extras:
                lines.append(_("{who}: {decisions}, {mistakes}, {loss} lost in all; {others} "
                               "lost.", others=", ".join(x.fmt_loss(s.extra_lost.get(k, 0.0))
                                                         for k, x in self.extras.items()),
                               **counts))
            else:
                lines.append(_("{who}: {decisions}, {mistakes}, {loss} lost in all.", **counts))
            for e in s.costliest:
                lines.append("  " + _("turn {turn}, {loss}: {why}", turn=e.turn,
                                      loss=e.source.fmt_loss(e.lost), why=e.why))
        return lines

    def title(self) -> str:
        """"Review of a bones game", "... (not finished)"."""
        name = _variant_words(self.variant)
        if self.finished:
            return _("Review of a {variant} game", variant=name)
        return _("Review of a {variant} game (not finished)", variant=name)

    def text(self) -> str:
        """The review as aligned text: a table of decisions, then the totals."""
        head = (f"{'#':>4} {p_('review column', 'turn'):>4}  "
                f"{p_('review column', 'player'):<12} {p_('review column', 'choice'):<40} "
                f"{p_('review column', 'best'):<40} {p_('review column', 'lost'):>8}")
        for k in self.extras:  # the chance to win: the choice's, the best, what was lost
            win, best, lost = _extra_heads(k)
            head += f"  {win:>6} {best:>9} {lost:>9}"
        lines = [self.title(), head, "-" * len(head)]
        for e in self.entries:
            mark = "!" if e.mistake else " "
            fmt = e.source.fmt  # a final turn's values are chances ("34.5%")
            lines.append(f"{e.index:>4} {e.turn:>4}  {e.player[:12]:<12} "
                         f"{(e.chosen.label + ' ' + fmt(e.chosen.value))[:40]:<40} "
                         f"{(e.best.label + ' ' + fmt(e.best.value))[:40]:<40} "
                         f"{fmt(e.lost):>7}{mark}" + self._extra_cells(e))
        lines.append("")
        lines += self.summary_lines()
        return "\n".join(lines)

    def _extra_cells(self, e: Entry) -> str:
        out = ""
        for k, src in self.extras.items():
            v = e.extra.get(k)
            if v is None:
                out += f"  {'':>6} {'':>9} {'':>9}"
                continue
            out += (f"  {src.fmt(v.chosen):>6} {src.fmt(v.best):>9} "
                    f"{_fixed(100 * v.lost, 1):>8}{'!' if v.mistake else ' '}")
        return out

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        lost = ", ".join(f"{s.player} {self.source.fmt(s.lost)}" for s in self.seats.values())
        return f"<Review {self.variant}: {len(self.entries)} decisions; lost {lost}>"

    def _repr_html_(self) -> str:
        esc = html.escape
        rows = []
        for e in self.entries:
            fmt = e.source.fmt
            style = ' style="background:#fde2e1"' if e.mistake else ""
            rows.append(f"<tr{style}><td>{e.turn}</td><td>{esc(e.player)}</td>"
                        f"<td>{esc(e.state)}</td><td>{esc(e.chosen.label)} "
                        f"({fmt(e.chosen.value)})</td><td>{esc(e.best.label)} "
                        f"({fmt(e.best.value)})</td><td>{fmt(e.lost)}</td>"
                        + "".join("<td>" + esc(_("{chance} of {best}",
                                                 chance=x.fmt(e.extra[k].chosen),
                                                 best=x.fmt(e.extra[k].best))) + "</td>"
                                  if k in e.extra else "<td></td>"
                                  for k, x in self.extras.items())
                        + f"<td>{esc(e.why)}</td></tr>")
        summary = "".join(f"<li>{esc(line)}</li>" for line in self.summary_lines())
        heads = [p_("review column", "turn"), p_("review column", "player"),
                 p_("review column", "state"), p_("review column", "choice"),
                 p_("review column", "best"), p_("review column", "lost")]
        heads += [_("{name} chance (of best)", name=_extra_heads(k)[0]) for k in self.extras]
        heads += [p_("review column", "why")]
        return (f"<div class='dicelab-review'><b>{esc(self.title())}</b>"
                f"<table><thead><tr>{''.join(f'<th>{esc(h)}</th>' for h in heads)}"
                f"</tr></thead><tbody>{''.join(rows)}"
                f"</tbody></table><ul>{summary}</ul></div>")


def _variant_words(variant: str) -> str:
    """A variant's name in a sentence ("a bones game")."""
    if variant == "bones":
        return p_("variant in a sentence", "bones")
    if variant == "thousand":
        return p_("variant in a sentence", "thousand")
    if variant == "under40":
        return p_("variant in a sentence", "under40")
    if variant == "yahtzee":
        return p_("variant in a sentence", "yahtzee")
    return variant


def _extra_heads(name: str) -> tuple[str, str, str]:
    """A later source's three columns of the text review: its value, the best, the loss."""
    if name == "win":
        return (p_("review column", "win"), p_("review column", "win best"),
                p_("review column", "win lost"))
    return name, f"{name} best", f"{name} lost"  # i18n: not shown (every source is above)


class _AnyStrategy(dict):
    """A players map for load_game that seats every computer without building it: a review
    only replays the recorded actions."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return None


def as_game(game: Game | dict | str) -> Game:
    """A Game, a saved game (dict or its JSON text) -> the Game."""
    if isinstance(game, Game):
        return game
    if isinstance(game, (str, bytes, dict)):
        return load_game(game if not isinstance(game, bytes) else game.decode(),
                         players=_AnyStrategy())
    raise RuleError(L_("review takes a game or a saved game's JSON, got {kind}",
                       kind=type(game).__name__))


def review(game: Game | dict | str, seat: str | None = None) -> Review:
    """Replay ``game`` (through its own ``apply``) and judge every decision of every seat."""
    game = as_game(game)
    sources = sources_for(game)
    notes = [why for s in sources if (why := s.supports(game))]
    fresh = type(game)(game.seats, game.settings, game.seed)
    entries = []
    for i, action in enumerate(game.actions):
        d = decision(fresh, sources)
        if d is None and not fresh.is_over and (note := sources[0].skip(fresh)) \
                and note not in notes and not any(s.takes_over(fresh) for s in sources[1:]):
            notes.append(note)
        if d is not None:
            key = d.source.key_of(fresh, action)
            if any(o.key == key for o in d.options):
                entries.append(d.judge(key, i))
            elif (note := d.source.unjudged(key)) not in notes:
                notes.append(note)
        fresh.apply(action)
    out = Review(game, entries, sources[0], notes, {s.name: s for s in sources[1:]})
    return out if seat is None else out.for_seat(seat)
