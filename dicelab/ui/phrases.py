"""The table's small phrases, shared by every variant: numbers, chances, names, the end of a
game. Below ``ui.variants`` (each variant's own words) and ``ui.words`` (which picks them)."""
from __future__ import annotations


def pct(p: float | None) -> str:
    if p is None:
        return "—"
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{p * 100:.0f}%"


def num(x) -> str:
    return f"{x:,.0f}"


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def possessive(name: str) -> str:
    return "your" if name.lower() == "you" else f"{name}'s"


def shown_name(play, seat: int) -> str:
    """"You" for the seat this browser holds in a network game (its name is the player's own,
    "Bob"), else the seat's name."""
    if seat is not None and getattr(play, "seat", None) == seat:
        return "You"
    return play.game.seats[seat].name


def seat_label(play, seat: int) -> str:
    s = play.game.seats[seat]
    strategy = getattr(s.player, "strategy", None) or s.strategy
    return f"{s.name} (computer{', ' + strategy if strategy else ''})" if s.is_computer \
        else f"{s.name}"


def game_over(play) -> str:
    g = play.game
    win = g.winners
    totals = g.totals()
    if not win:
        return "Game over. Start another with New game."
    names = " and ".join(shown_name(play, i) for i in win)
    again = ("Play again (same seats) starts a rematch in this room."
             if getattr(play, "room", None) is not None else "Play again with New game.")
    if len(win) > 1:
        return f"Game over: {names} tie with {num(totals[win[0]])}. {again}"
    verb = "win" if names.lower() == "you" else "wins"
    return f"Game over: {names} {verb} with {num(totals[win[0]])}. {again}"


def you(play, seat: int) -> tuple[str, str]:
    """("You", "") or ("Chicken", "s"): the subject and the verb's ending."""
    if not play.is_mine(seat):
        return play.game.seats[seat].name, "s"
    return "You", ""


def points_vs_win(ro, w) -> str:
    """One plain sentence where the best play for points and for winning part, e.g. "For
    points, stand (350 now vs 291 rolling). To win, roll: 41% vs 23%." ("" where they agree
    or standing is not allowed)."""
    if ro.stand_value is None or w.stand_win_chance is None or ro.decision == w.decision:
        return ""
    if ro.decision == "stand":
        pts = f"stand ({num(ro.stand_value)} now vs {num(ro.roll_value)} rolling)"
    else:
        pts = f"roll ({num(ro.roll_value)} rolling vs {num(ro.stand_value)} now)"
    return f"For points, {pts}. To win, {w.decision}: {win_pair(w)}."


def win_pair(w) -> str:
    """"41% vs 23%": the chance to win by the preferred play, then by the other."""
    first, second = ((w.roll_win_chance, w.stand_win_chance) if w.decision == "roll"
                     else (w.stand_win_chance, w.roll_win_chance))
    return f"{pct(first)} vs {pct(second)}"
