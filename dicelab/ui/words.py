"""What the table says in words: the whose-turn banner and the hint line.

The numbers come from the game model (``need_to_stand``, ``must_beat``, ``rolls_left``...) and
dicelab.odds; this module only phrases them.
"""
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


def banner(play) -> tuple[str, str, str]:
    """(headline, details, kind) — kind: "you", "cpu" or "over"."""
    g = play.game
    st = g.state
    if g.is_over:
        win = g.winners
        if not win:
            return "GAME OVER", "", "over"
        names = " and ".join(shown_name(play, i) for i in win)
        totals = g.totals()
        if len(win) > 1:
            return f"{names.upper()} TIE", f"with {num(totals[win[0]])} each", "over"
        verb = "WIN" if names.lower() == "you" else "WINS"
        return f"{names.upper()} {verb}", f"with {num(totals[win[0]])}", "over"
    seat = st.current
    name = shown_name(play, seat)
    head = f"{possessive(name)} turn".upper()
    kind = "you" if play.is_mine(seat) else "cpu"
    if play.is_computer(seat):
        head += " (COMPUTER)"
    parts = []
    if play.five_dice:
        parts.append(f"turn total {num(st.turn_total)}")
        if st.phase == "decide" or st.hot_dice:
            parts.append("hot dice: 5 dice to roll" if st.hot_dice
                         else f"{st.dice_left} {'die' if st.dice_left == 1 else 'dice'} to roll")
        if getattr(st, "final_from", None) is not None:
            parts.append("final turns")
    elif g.variant == "under40":
        parts.append(f"round {st.round}")
        parts.append(f"round score {st.round_scores[seat]}")
        beat = g.must_beat()
        if beat:
            parts.append(f"beat {beat}")
    elif g.variant == "yahtzee":
        filled = 13 - len(g.open_boxes(seat))
        parts.append(f"round {min(filled + 1, 13)} of 13")
        if st.rolls:
            parts.append(f"roll {st.rolls} of {g.config.rerolls + 1}")
    return head, " · ".join(parts), kind


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


def _you(play, seat: int) -> tuple[str, str]:
    """("You", "need") or ("Chicken", "needs")."""
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
    return f"For points, {pts}. To win, {w.decision}: {_win_pair(w)}."


def yahtzee_choice(choice) -> str:
    """("keep", (6, 6, 6)) -> "keep 6 6 6"; ("keep", ()) -> "reroll all";
    ("box", "chance") -> "score Chance now"."""
    from ..rules.yahtzee import LABELS

    kind, what = choice
    if kind == "box":
        return f"score {LABELS[what]} now"
    return f"keep {' '.join(map(str, what))}" if what else "reroll all"


def yahtzee_note(odds) -> str:
    """The Yahtzee odds' advice sentence: the points advice, or in the last box against others
    the play to win, with the points contrast where they part."""
    note = getattr(odds, "note", "")
    r = getattr(odds, "race", None)
    if r is None:
        return note
    if r.differs:
        return f"Best play to win: {yahtzee_choice(r.choice)}. {race_points_vs_win(r)}"
    return f"{note} Chance to win: {pct(r.win_chance)}."


def race_points_vs_win(r) -> str:
    """Yahtzee's last box (odds.yahtzee_race.Race), where points and the chance to win part:
    "For points, keep 6 6 6 (expected 24.5). To win, reroll all: 31% vs 18%." ("" where they
    agree)."""
    if not r.differs:
        return ""
    return (f"For points, {yahtzee_choice(r.points_choice)} (expected "
            f"{r.points_choice_points:.1f}). To win, {yahtzee_choice(r.choice)}: "
            f"{pct(r.win_chance)} vs {pct(r.points_choice_win)}.")


def _win_pair(w) -> str:
    """"41% vs 23%": the chance to win by the preferred play, then by the other."""
    first, second = ((w.roll_win_chance, w.stand_win_chance) if w.decision == "roll"
                     else (w.stand_win_chance, w.roll_win_chance))
    return f"{pct(first)} vs {pct(second)}"


def fivedice_hint(play, odds) -> str:
    g = play.game
    st = g.state
    if g.is_over:
        return game_over(play)
    seat = st.current
    who, s = _you(play, seat)
    need, _rule = g.need_to_stand()
    from .odds_view import FiveDiceOdds

    tt = st.turn_total
    if play.choosing and play.keep is not None and isinstance(odds, FiveDiceOdds):
        tt = odds.readout.turn_total
    goal = g.stand_goal()
    lines = []
    if st.phase == "roll" and tt == 0:
        lines.append(f"{who} roll{s} to start the turn." if who != "You"
                     else "Roll to start your turn (press . or click Roll).")
        if need:
            lines.append(f"{who} need{s} {num(need)} in this turn to {goal}.")
    elif st.hot_dice and g.hot_dice_compulsory:
        lines.append(f"Hot dice! All five must be rolled again (turn total {num(tt)}).")
    else:
        if st.hot_dice:
            lines.append(f"Hot dice! {who} may roll all five again, keeping {num(tt)}.")
        if tt < need:
            lines.append(f"{who} need{s} {num(need - tt)} more this turn to {goal}"
                         f" ({num(need)} in all).")
        elif need and not st.hot_dice:
            lines.append(f"{num(tt)} is enough to {goal}: {who.lower() if who == 'You' else who}"
                         f" may stand.")
    if isinstance(odds, FiveDiceOdds):
        ro = odds.readout
        n = ro.dice_left
        risk = f"Rolling {n} {'die' if n == 1 else 'dice'}: {pct(ro.bust_chance)} chance"
        risk += f" to lose {num(tt)}." if tt else " of a bust."
        if odds.final:
            # Bones' final turn: only passing the leader counts, not the points
            must, leader, chance = odds.final
            done = f"Final turn: {num(tt)} passes {num(leader)}. Best play: stand and win."
            todo = (f"Final turn: {who.lower() if who == 'You' else who} must reach "
                    f"{num(must)} this turn to pass {num(leader)} ({pct(chance)} chance "
                    f"from here). Best play: roll.")
        elif odds.race:
            # Thousand's race: a stand short of the barrel leaves the opponent the game
            p, must, chance = odds.race
            done = f"{num(tt)} reaches the barrel. Best play: stand."
            todo = (f"An opponent on the barrel wins next turn with {pct(p)} chance, so only "
                    f"reaching the barrel counts: {num(must)} this turn ({pct(chance)} "
                    f"chance from here). Best play: roll.")
        if odds.final or odds.race:
            best = done if tt >= must and ro.may_stand else todo
        else:
            best = (f"Best play: {ro.decision} (rolling is worth {num(ro.roll_value)}"
                    + (f" vs {num(ro.stand_value)} standing)." if ro.stand_value is not None
                       else ", standing is not allowed yet)."))
            w = odds.win
            if w is not None and w.stand_win_chance is not None and w.decision != ro.decision:
                best += f" To win, though: {w.decision} ({_win_pair(w)} chance to win)."
        lines.append(risk + " " + best)
    return " ".join(lines)


def under40_hint(play, odds) -> str:
    g = play.game
    if g.is_over:
        return game_over(play)
    text = g.hint()
    from .odds_view import Under40Odds

    if isinstance(odds, Under40Odds):
        text += (f" Next roll: {pct(odds.bust)} bust (over 40), {pct(odds.exact)} exactly 40.")
        if odds.decision:
            text += f" Best play: {odds.decision}."
    return text


def yahtzee_hint(play, odds=None) -> str:
    g = play.game
    st = g.state
    if g.is_over:
        return game_over(play)
    seat = st.current
    who, s = _you(play, seat)
    total_rolls = g.config.rerolls + 1
    if not st.rolls:
        return (f"{who} roll{s} all five dice (Roll, Enter or .)." if who != "You"
                else f"Roll all five dice (click Roll, or press Enter or .): "
                     f"{total_rolls} rolls this turn.")
    left = g.rerolls_left
    text = f"Roll {st.rolls} of {total_rolls}: "
    if left and who == "You":
        text += ("click dice (or press 1-5) to hold them, then Roll again (Enter) "
                 "— or choose a box on the score card.")
    elif left:
        text += f"{who} may roll again or score a box."
    else:
        text += "no rolls left — choose a box on the score card." if who == "You" \
            else f"{who} must score a box."
    note = yahtzee_note(odds)
    if note and "Best play" in note:
        text += " " + note.split(" Holding")[0]
    return text


def alert_html(message: str) -> str:
    """A refusal or error as the page shows it (escaped; empty when there is none)."""
    from html import escape

    return (f"<div role='alert' style='color:var(--dl-red, #b71c1c);font-weight:600'>⚠ "
            f"{escape(message)}</div>"
            if message else "")


def apply_preset(event) -> None:
    """Watcher on a Settings' ``preset``: load the preset's values."""
    values = event.obj.PRESETS.get(event.new, {})
    if values:
        event.obj.param.update(**values)


def settings_lines(settings) -> list[str]:
    """Each rules setting as a person reads it: "Choose keepers: no", "Pits: 200-300, 600-700"."""
    out = []
    for name in settings.names():
        v = getattr(settings, name)
        if isinstance(v, bool):
            text = "yes" if v else "no"
        elif name == "pits":
            text = ", ".join(f"{lo:,}-{hi:,}" for lo, hi in v) or "none"
        elif isinstance(v, int):
            text = f"{v:,}"
        else:
            text = str(v)
        out.append(f"{settings.param[name].label}: {text}")
    return out


def settings_title(v: str, c) -> str:
    """The rules in force in a few words (``c``: the settings, as attributes)."""
    if v == "bones":
        extra = ", choose keepers" if c.choose_keepers else ""
        return f"Bones ({c.preset} rules, to {c.target:,}, on board at {c.min_on_board}{extra})"
    if v == "thousand":
        return f"Thousand (to {c.target}, barrel {c.barrel or 'off'})"
    if v == "under40":
        return f"Under40 (to {c.target:,})"
    return f"Yahtzee ({c.preset} rules, {c.rerolls + 1} rolls)"
