"""The table's small phrases, shared by every variant: numbers, chances, names, the end of a
game. Below ``ui.variants`` (each variant's own words) and ``ui.words`` (which picks them).

Every phrase renders in the current language when called (``dicelab.i18n``): call them while
drawing, never keep their text across a change of language."""
from __future__ import annotations

from .. import names
from ..i18n import Msg, _, fixed, number, p_, percent, tr


def pct(p: float | None) -> str:
    if p is None:
        return "—"
    if 0 < p < 0.005:
        return "<" + percent(0.01)
    if 0.995 < p < 1:
        return ">" + percent(0.99)
    return percent(p)


def percent_ticks() -> str:
    """Bokeh's numeral format of a percentage axis, spaced the language's way (50% / 50 %)."""
    return "0%" if percent(0.5).endswith("0%") else "0 %"


def num(x) -> str:
    """A number of points, whole, grouped the language's way (10,000 / 10 000)."""
    return number(int(round(x)))


def decimal(x: float, digits: int = 1) -> str:
    """A number with ``digits`` decimals, the language's way (24.5 / 24,5)."""
    return fixed(x, digits)


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def shown(value) -> str:
    """A table's label marked with ``N_`` (or kept as a lazy Msg), in the current language."""
    return value.render() if isinstance(value, Msg) else tr(value)


def strategy_name(key: str) -> str:
    """A computer player's strategy ("chicken", "skill:1") as players call it, in the current
    language (the key's ":..." suffix is kept)."""
    base, sep, rest = str(key).partition(":")
    words = {"aggressive": p_("strategy", "aggressive"), "chicken": p_("strategy", "chicken"),
             "gambler": p_("strategy", "gambler"), "optimal": p_("strategy", "optimal"),
             "random": p_("strategy", "random"), "threshold": p_("strategy", "threshold"),
             "winning": p_("strategy", "winning"), "cautious": p_("strategy", "cautious"),
             "greedy": p_("strategy", "greedy"), "skill": p_("strategy", "skill")}
    return words.get(base.lower(), base) + sep + rest


def preset_name(key: str) -> str:
    """A rules preset ("official", "french"), as the end of "... {preset} rules"."""
    words = {"hypercard": p_("preset", "hypercard"), "french": p_("preset", "french"),
             "official": p_("preset", "official"), "seed": p_("preset", "seed"),
             "upper_bonus_only": p_("preset", "upper bonus only"),
             "no_bonus": p_("preset", "no bonus")}
    return words.get(key, shown(key))


def is_you(play, seat) -> bool:
    """Is ``seat`` the one this browser holds in a network game (shown as "You")?"""
    return seat is not None and getattr(play, "seat", None) == seat


def says_you(name: str) -> bool:
    """Is this name "You" (this browser's seat, or a local seat named so): the sentences
    then say "you win", not "You wins"."""
    return name.lower() in ("you", _("You").lower())


def shown_name(play, seat: int) -> str:
    """"You" for the seat this browser holds in a network game (its name is the player's own,
    "Bob"), else the seat's name."""
    if is_you(play, seat):
        return _("You")
    return names.shown_name(play.game.seats[seat].name)  # the app's default names translated


def seat_label(play, seat: int) -> str:
    s = play.game.seats[seat]
    strategy = getattr(s.player, "strategy", None) or s.strategy
    if not s.is_computer:
        return f"{s.name}"
    if strategy:
        return _("{name} (computer, {strategy})", name=s.name, strategy=strategy_name(strategy))
    return _("{name} (computer)", name=s.name)


def names_and(names: list[str]) -> str:
    """"Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def game_over(play) -> str:
    g = play.game
    win = g.winners
    totals = g.totals()
    if not win:
        return _("Game over. Start another with New game.")
    again = (_("Play again (same seats) starts a rematch in this room.")
             if getattr(play, "room", None) is not None else _("Play again with New game."))
    points = totals[win[0]]
    if len(win) > 1:
        names = names_and([shown_name(play, i) for i in win])
        return _("Game over: {names} tie with {points}. {again}", names=names, points=points,
                 again=again)
    if says_you(shown_name(play, win[0])):
        return _("Game over: you win with {points}. {again}", points=points, again=again)
    return _("Game over: {name} wins with {points}. {again}", name=shown_name(play, win[0]),
             points=points, again=again)


def you(play, seat: int) -> str | None:
    """The name of whoever is on ``seat``, or None where it is this person's own seat (the
    sentences say "You ..." then)."""
    if not play.is_mine(seat):
        return names.shown_name(play.game.seats[seat].name)
    return None


def decision(word: str) -> str:
    """"roll" / "stand" / "stop" as the odds readouts give them, in words."""
    words = {"roll": p_("play", "roll"), "stand": p_("play", "stand"), "stop": p_("play", "stop")}
    return words.get(word, word)


def points_vs_win(ro, w) -> str:
    """One plain sentence where the best play for points and for winning part, e.g. "For
    points, stand (350 now vs 291 rolling). To win, roll: 41% vs 23%." ("" where they agree
    or standing is not allowed)."""
    if ro.stand_value is None or w.stand_win_chance is None or ro.decision == w.decision:
        return ""
    stand, roll = round(ro.stand_value), round(ro.roll_value)
    if ro.decision == "stand":
        return _("For points, stand ({stand} now vs {roll} rolling). To win, roll: {chances}.",
                 stand=stand, roll=roll, chances=win_pair(w))
    return _("For points, roll ({roll} rolling vs {stand} now). To win, stand: {chances}.",
             stand=stand, roll=roll, chances=win_pair(w))


def win_pair(w) -> str:
    """"41% vs 23%": the chance to win by the preferred play, then by the other."""
    first, second = ((w.roll_win_chance, w.stand_win_chance) if w.decision == "roll"
                     else (w.stand_win_chance, w.roll_win_chance))
    return _("{first} vs {second}", first=pct(first), second=pct(second))
