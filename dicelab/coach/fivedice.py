"""Bones and Thousand: expected points of the rest of the turn (``odds.fivedice``), and in
two-seat Bones the chance to win the game (``odds.win``) beside them."""
from __future__ import annotations

from typing import Callable

from ..actions import Stand
from ..errors import RuleError
from ..i18n import L_, Ln_, Msg, N_, _, n_, p_
from .luck import DUEL, TURN, LuckModel, Valued, valued_options
from .values import (GameWinSource, Option, ValueSource, Variant, cap,
                     dice_list, fixed, pct, register, rolling, standing)

# ----- Bones and Thousand ------------------------------------------------------------------------
def keep_label(kind: str, keep: tuple | None) -> Msg | Callable[[], str]:
    """"rolling", or with choose_keepers "setting aside 1 5 and rolling"."""
    if keep is None:
        return rolling if kind == "roll" else standing
    if kind == "roll":
        return L_("setting aside {dice} and rolling", dice=dice_list(keep))
    return L_("setting aside {dice} and standing", dice=dice_list(keep))


class FiveDiceSource(ValueSource):
    """Expected points of the rest of the turn (odds.fivedice: the gain to the banked total)."""

    name = "points"
    UNIT = N_("expected points of the turn")
    LUCKY = 400.0

    def _solver_state(self, game) -> dict:
        st = game.state
        seat = st.current
        return {"on_board": st.on_board[seat], "banked": st.totals[seat]}

    def skip(self, game) -> Msg | None:
        if getattr(game.state, "final_from", None) is not None:
            return L_("Final turns (after a player reached the target) are not judged in "
                      "points: there only passing the leader counts (each other player has one "
                      "turn to end above the leader's total); two-seat games judge them by the "
                      "chance to win.")
        return None

    def options(self, game) -> list[Option]:
        from ..odds.fivedice import bust_chance, keep_values, readout_for

        st = game.state
        if st.phase != "decide":
            return []
        if not game.choose_keepers():
            r = readout_for(game.config, st)
            detail = {"turn_total": st.turn_total, "dice_left": st.dice_left,
                      "hot": st.hot_dice, "bust": r.bust_chance, "readout": r}
            opts = [Option(("roll", None), keep_label("roll", None), r.roll_value, detail)]
            if r.may_stand:
                opts.append(Option(("stand", None), keep_label("stand", None), r.stand_value,
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
            opts.append(Option(("roll", key), keep_label("roll", keep), r.roll_value,
                               detail))
            if r.may_stand:
                opts.append(Option(("stand", key), keep_label("stand", keep),
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
                      total=st.before_total, dice=dice_list(st.dice), banked=banked)
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
                n, chance = o.detail["dice_left"], pct(o.detail["bust"])
                if o.detail["hot"]:
                    return _("{option} all 5 dice again (hot dice, a bust {chance} likely) is "
                             "worth {value}", option=o.label, chance=chance, value=value)
                return n_("{option} {n} die (a bust {chance} likely) is worth {value}",
                          "{option} {n} dice (a bust {chance} likely) is worth {value}", n,
                          option=o.label, chance=chance, value=value)
            return _("{option} is worth {value}", option=o.label, value=value)

        if "keep" in chosen.detail and chosen.key[0] == best.key[0] == "roll":
            return f"{cap(phrase(best, True))}; {phrase(chosen, True)}."
        det = chosen.detail if chosen.key[0] == "roll" else best.detail
        first, second = phrase(best, False), phrase(chosen, False)
        if det["hot"]:
            return _("With hot dice (all 5) a bust is {chance} likely; {first}, {second}.",
                     chance=pct(det["bust"]), first=first, second=second)
        return n_("With {n} die a bust is {chance} likely; {first}, {second}.",
                  "With {n} dice a bust is {chance} likely; {first}, {second}.",
                  det["dice_left"], chance=pct(det["bust"]), first=first, second=second)

    def fmt(self, value: float) -> str:
        return fixed(value, 0 if abs(value - round(value)) < 1e-9 else 1)


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
        from ..odds import win

        try:
            return win.win_rules(game.config)
        except RuleError:
            return None

    def table(self, game):
        """The game's win table, or None while it is not built (looked up once per source, so
        one review uses one answer throughout)."""
        from ..odds import win

        r = self.rules(game)
        if r is None:
            return None
        if r.key not in self._tables:
            self._tables[r.key] = (win.table(r, progress=False) if r.target <= self.BUILD_TARGET
                                   else win.table_if_ready(r))
        return self._tables[r.key]

    def supports(self, game) -> Msg | str | None:
        # "" (no note): the table is for two seats only
        if game.n_seats != 2:
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
        return (game.n_seats == 2 and getattr(st, "final_from", None) is not None
                and self.rules(game) is not None)

    def takes_over(self, game) -> bool:
        return self._final(game)

    def options(self, game) -> list[Option]:
        from ..odds import win
        from ..odds.fivedice import bust_chance

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
            from ..odds.fivedice import keep_options

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
                opts.append(Option(("roll", key), keep_label("roll", keep), r.roll_win_chance,
                                   detail))
                if r.stand_win_chance is not None:
                    opts.append(Option(("stand", key), keep_label("stand", keep),
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
                     "the time.", chosen=cap(chosen.label), turn_total=det["turn_total"],
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
                      best=cap(best.label), turn_total=best.detail["turn_total"], total=mine,
                      other=other, chosen=chosen.label, bust=pct(det["bust"]),
                      chance=self.fmt(chosen.value))
        return _("{best} wins the game {best_chance} of the time, {chosen} {chosen_chance}.",
                 best=cap(best.label), best_chance=self.fmt(best.value), chosen=chosen.label,
                 chosen_chance=self.fmt(chosen.value))


class ThousandSource(FiveDiceSource):
    """Thousand's expected points: the solver also takes the barrel and the bolts."""

    LUCKY = 75.0  # Thousand's dice score a tenth of Bones' (a 1 is 10, not 100)

    def _solver_state(self, game) -> dict:
        st = game.state
        seat = st.current
        return {**super()._solver_state(game), "on_barrel": st.on_barrel[seat],
                "barrel_turns": st.barrel_turns[seat], "bolts": st.bolts[seat]}


class FiveDiceLuck(LuckModel):
    """Luck in expected points of the turn (one ``turn`` segment per turn: its start is the
    turn's expected points under the best play, its end what the turn added to the banked
    total); Bones' final turns are left to ``BonesLuck``."""

    def __init__(self, source: FiveDiceSource | None = None):
        self.src = source or FiveDiceSource()
        self._rolls: dict = {}  # a forced roll's state -> its value (a turn's start recurs)

    def value(self, game, d) -> Valued | None:
        st = game.state
        if getattr(st, "final_from", None) is not None:
            return None
        # without the coach's decision (the rules leave one action) only choose_keepers has
        # options to value here
        v = valued_options(d, self.src, game, TURN,
                           st.phase == "decide" and game.choose_keepers())
        if v is not None:
            return v
        # a roll that must be thrown: a turn's first, one short of the minimum to stand, or
        # hot dice that must go again
        key = (st.turn_total, st.dice_left, *self.src._solver_state(game).values())
        if key not in self._rolls:
            from ..odds.fivedice import readout_for
            try:
                self._rolls[key] = readout_for(game.config, st).roll_value
            except RuleError:
                self._rolls[key] = None
        value = self._rolls[key]
        return None if value is None else Valued(FiveDiceSource.UNIT, TURN, value)

    def ended(self, before, action, game, seat, v, chosen) -> float | None:
        if game.state.turn == before.turn and not game.is_over:
            return None
        # the turn's result: what it added to (a bust: took from) the banked total
        return float(game.state.totals[seat] - before.totals[seat])


class BonesLuck(FiveDiceLuck):
    """Two-seat Bones: the chance to win the game (``odds.win``) for the whole game where the
    table is ready (one ``duel`` segment), else for the final turn only (a ``turn`` segment,
    exact without the table: ``win.final_readout``) and expected points of the turn before
    it. More seats: points; their final turns are not valued yet."""

    def __init__(self):
        super().__init__()
        self.win = BonesWinSource()
        self._duel: bool | None = None

    def value(self, game, d) -> Valued | None:
        if game.n_seats != 2 or self.win.rules(game) is None:
            return super().value(game, d)
        if self._duel is None:  # one answer for the whole game
            self._duel = self.win.table(game) is not None
        st = game.state
        final = st.final_from is not None
        if not self._duel and not final:
            return super().value(game, d)
        kind = DUEL if self._duel else TURN
        unit = BonesWinSource.UNIT
        v = valued_options(d, self.win, game, kind, st.phase == "decide")
        if v is not None:
            return v
        from ..odds import win

        me = st.current
        args = (st.totals[me], st.totals[1 - me], st.turn_total, st.dice_left)
        try:
            r = (win.final_readout(game.config, *args) if final
                 else self.win.table(game).readout(*args))
        except RuleError:
            return None
        return Valued(unit, kind, r.roll_win_chance)

    def ended(self, before, action, game, seat, v, chosen) -> float | None:
        if v.unit_key != FiveDiceSource.UNIT:
            return None  # the chance to win: the game's end says
        return super().ended(before, action, game, seat, v, chosen)


register(Variant("bones", (FiveDiceSource, BonesWinSource),
                 lambda: p_("variant in a sentence", "bones"), luck=BonesLuck))
register(Variant("thousand", (ThousandSource,),
                 lambda: p_("variant in a sentence", "thousand"),
                 luck=lambda: FiveDiceLuck(ThousandSource())))
