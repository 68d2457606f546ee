"""Under40: the chance to win the round (``odds.under40``), and in a two-seat game's last
stretch the chance to win the game (``odds.under40_game``) beside it."""
from __future__ import annotations

from ..actions import Stand
from ..errors import RuleError
from ..i18n import Joined, L_, Msg, N_, _, p_
from .luck import TURN, LuckModel, Valued, valued_options
from .values import (ChanceSource, GameWinSource, Option, Variant, pct, register,
                     rolling_on, stopping)


class Under40Source(ChanceSource):
    """Chance to win the round (odds.under40.readout: exact for any number of players, each
    maximising their own chance of winning the round)."""

    name = "round_win"
    UNIT = N_("chance to win the round")
    LUCKY = 0.5  # a round swings on one roll: a bust, or 40 exactly
    LOSS = N_("{amount} points of round-win chance")

    def options(self, game) -> list[Option]:
        from ..odds.under40 import bust_chance, readout

        st = game.state
        if st.phase != "decide":
            return []
        m, others = st.round_scores[st.current], game.round_others()
        r = readout(m, others)
        detail = {"score": m, "others": others, "bust": float(bust_chance(m)), "readout": r}
        opts = [Option(("roll",), rolling_on, float(r.roll_win), detail)]
        if r.may_stop:
            opts.append(Option(("stop",), stopping, float(r.stop_win), detail))
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
                 bust=pct(det["bust"]), best=best.label, best_chance=self.fmt(best.value),
                 chosen=chosen.label, chosen_chance=self.fmt(chosen.value))


class Under40WinSource(GameWinSource):
    """Chance to win the game in Under40's last stretch (``odds.under40_game``: two players,
    both totals within its reach of the target, both playing for the game), beside the chance
    to win the round."""

    def supports(self, game) -> Msg | str | None:
        return "" if game.n_seats != 2 else None

    def options(self, game) -> list[Option]:
        from ..odds import under40_game

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
        opts = [Option(("roll",), rolling_on, float(r.roll_win))]
        if r.stop_win is not None:
            opts.append(Option(("stop",), stopping, float(r.stop_win)))
        return opts


class Under40Luck(LuckModel):
    """Luck in the chance to win the round: one ``turn`` segment per run of a player's rolls
    (from its first roll to its stop, bust or 40), ending at the chance it left itself (a
    stop: the chance of stopping there; a bust 0; 40, or the last one left, 1)."""

    def __init__(self):
        self.src = Under40Source()
        self._rolls: dict = {}  # (score, others) of a forced roll -> its value

    def value(self, game, d) -> Valued | None:
        from ..odds.under40 import readout

        st = game.state
        v = valued_options(d, self.src, game, TURN, st.phase == "decide")
        if v is not None:
            return v
        key = (st.round_scores[st.current], game.round_others())
        if key not in self._rolls:
            self._rolls[key] = float(readout(*key).roll_win)
        return Valued(Under40Source.UNIT, TURN, self._rolls[key])

    def ended(self, before, action, game, seat, v, chosen) -> float | None:
        st = game.state
        if game.is_over or st.round != before.round:
            return 1.0 if st.round_winner == seat else 0.0
        if st.current == seat and st.phase == "decide":
            return None  # still rolling
        return chosen if isinstance(action, Stand) else 0.0  # stopped; or busted


register(Variant("under40", (Under40Source, Under40WinSource),
                 lambda: p_("variant in a sentence", "under40"),
                 turn=lambda game: game.state.round,  # Under40 is played in rounds
                 luck=Under40Luck))
