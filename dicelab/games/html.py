"""A game's table as plain HTML (inline styles, no scripts): what ``Game._repr_html_`` shows in
a notebook, so a game reads at a glance even where Panel's front end is missing."""
from __future__ import annotations

from html import escape

from ..i18n import _, n_, number
from ..names import shown_name, variant_name


def esc(text) -> str:
    return escape(str(text))  # str(): a lazy message renders in the reader's language

FACES = "⚀⚁⚂⚃⚄⚅"
BOX = ("font:14px/1.4 system-ui,sans-serif;border:1px solid #9e9e9e;border-radius:8px;"
       "padding:8px 12px;display:inline-block;min-width:260px")


def dice_html(dice, marks=()) -> str:
    """Dice as large faces with their numbers; ``marks[i]`` True draws die i as counting."""
    out = []
    for i, d in enumerate(dice):
        on = i < len(marks) and marks[i]
        style = ("display:inline-block;text-align:center;margin-right:6px;padding:0 4px;"
                 "border-radius:6px;" + ("background:#c8e6c9;font-weight:700;" if on else ""))
        title = esc(_("die {position}: {face}", position=i + 1, face=d))
        out.append(f"<span style='{style}' title='{title}'><span style='font-size:"
                   f"32px;line-height:1'>{FACES[d - 1] if 1 <= d <= 6 else '?'}</span><br>{d}"
                   "</span>")
    return "".join(out)


def game_html(game) -> str:
    """Title, whose turn, the dice on the table, every seat's total, the last event."""
    st = game.state
    over = game.is_over
    names = [shown_name(n) for n in game.names]
    if over:
        won = [names[w] for w in game.winners]
        if not won:
            head = esc(_("game over: nobody won"))
        else:
            who = won[0]
            for more in won[1:]:
                who = _("{first} and {second}", first=who, second=more)
            head = esc(_("game over: {names} won", names=who))
    else:
        head = esc(_("{name} to play", name=names[st.current]))
        tt = getattr(st, "turn_total", None)
        if tt:
            head += " · " + esc(_("turn total {points}", points=tt))
        if getattr(st, "round_scores", None):
            head += " · " + esc(_("round score {score} of {goal}",
                                  score=st.round_scores[st.current], goal=40))
        if game.variant == "yahtzee" and st.rolls:
            head += " · " + esc(_("roll {roll} of {rolls}", roll=st.rolls, rolls=3))
    kept = getattr(st, "kept", ())
    dice = ""
    if st.dice:
        dice = ("<div style='margin:6px 0'>" + esc(_("dice:")) + " "
                + dice_html(st.dice, getattr(st, "counting", ()))
                + (" &nbsp; " + esc(_("kept:")) + " " + dice_html(kept) if kept else "")
                + "</div>")
    else:
        dice = ("<div style='margin:6px 0;opacity:.8'>" + esc(_("no dice on the table"))
                + "</div>")
    totals = game.totals()
    computer = esc(_("(computer)"))
    rows = []
    for i, name in enumerate(names):
        turn = i == st.current and not over
        mark = "▶ " if turn else ""
        star = " ★" if i in game.winners else ""
        kind = f" <small>{computer}</small>" if game.seats[i].is_computer else ""
        bg = "background:rgba(21,101,192,.14);font-weight:700;" if turn else ""
        rows.append(f"<tr style='{bg}'><td style='padding:2px 8px'>{mark}{esc(name)}{kind}{star}"
                    f"</td><td style='padding:2px 8px;text-align:right'>"
                    f"{esc(number(totals[i]))}</td></tr>")
    last = game.history[-1].text if game.history else ""
    player, total = esc(_("player")), esc(_("total"))
    footer = esc(n_("{n} action · seed {seed}", "{n} actions · seed {seed}", len(game.actions),
                    seed=str(game.seed)))
    return (f"<div class='dicelab-game' style='{BOX}'><b>{esc(variant_name(game.variant))}</b>"
            f" — {head}{dice}<table style='border-collapse:collapse'><tr><th style='text-align:"
            f"left;padding:2px 8px'>{player}</th><th style='padding:2px 8px'>{total}</th></tr>"
            + "".join(rows) + f"</table><div style='margin-top:6px;opacity:.85'>{esc(last)}</div>"
            f"<div style='opacity:.6;font-size:12px'>"
            f"{footer}"
            f"</div></div>")
