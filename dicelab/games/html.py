"""A game's table as plain HTML (inline styles, no scripts): what ``Game._repr_html_`` shows in
a notebook, so a game reads at a glance even where Panel's front end is missing."""
from __future__ import annotations

from html import escape as esc

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
        out.append(f"<span style='{style}' title='die {i + 1}: {d}'><span style='font-size:"
                   f"32px;line-height:1'>{FACES[d - 1] if 1 <= d <= 6 else '?'}</span><br>{d}"
                   "</span>")
    return "".join(out)


def game_html(game) -> str:
    """Title, whose turn, the dice on the table, every seat's total, the last event."""
    st = game.state
    over = game.is_over
    names = game.names
    if over:
        who = " and ".join(names[w] for w in game.winners) or "nobody"
        head = f"game over: {esc(who)} won"
    else:
        head = f"{esc(names[st.current])} to play"
        tt = getattr(st, "turn_total", None)
        if tt:
            head += f" · turn total {tt:,}"
        if getattr(st, "round_scores", None):
            head += f" · round score {st.round_scores[st.current]} of 40"
        if game.variant == "yahtzee" and st.rolls:
            head += f" · roll {st.rolls} of 3"
    kept = getattr(st, "kept", ())
    dice = ""
    if st.dice:
        dice = ("<div style='margin:6px 0'>dice: " + dice_html(st.dice, getattr(st, "counting",
                                                                                 ()))
                + (f" &nbsp; kept: {dice_html(kept)}" if kept else "") + "</div>")
    else:
        dice = "<div style='margin:6px 0;opacity:.8'>no dice on the table</div>"
    totals = game.totals()
    rows = []
    for i, name in enumerate(names):
        turn = i == st.current and not over
        mark = "▶ " if turn else ""
        star = " ★" if i in game.winners else ""
        kind = " <small>(computer)</small>" if game.seats[i].is_computer else ""
        bg = "background:rgba(21,101,192,.14);font-weight:700;" if turn else ""
        rows.append(f"<tr style='{bg}'><td style='padding:2px 8px'>{mark}{esc(name)}{kind}{star}"
                    f"</td><td style='padding:2px 8px;text-align:right'>{totals[i]:,}</td></tr>")
    last = game.history[-1].text if game.history else ""
    return (f"<div class='dicelab-game' style='{BOX}'><b>{esc(game.variant.capitalize())}</b>"
            f" — {head}{dice}<table style='border-collapse:collapse'><tr><th style='text-align:"
            "left;padding:2px 8px'>player</th><th style='padding:2px 8px'>total</th></tr>"
            + "".join(rows) + f"</table><div style='margin-top:6px;opacity:.85'>{esc(last)}</div>"
            f"<div style='opacity:.6;font-size:12px'>{len(game.actions)} actions · seed "
            f"{game.seed}</div></div>")
