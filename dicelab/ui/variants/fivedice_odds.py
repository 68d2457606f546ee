"""Bones' and Thousand's odds in words: the hint's odds sentence, the odds panel's chart and
numbers. Rendered in the current language on every call (nothing kept)."""
from __future__ import annotations

from bokeh.models import ColumnDataSource, LabelSet, Range1d

from ...i18n import _, n_, p_, percent
from ..phrases import decision, num, pct, points_vs_win, shown_name, win_pair
from .base import HI, LO, esc, odds_figure, odds_list, set_data

DICE = ["1", "2", "3", "4", "5"]


def goal_words(goal) -> str:
    """What standing achieves (the game's ``stand_goal``), as the end of "... to {goal}"."""
    key = getattr(goal, "english", goal)
    words = {  # i18n: not shown (the keys: the game's goals, in English)
        "get on the board": p_("goal", "get on the board"), "open": p_("goal", "open"),
        "climb out of the pit": p_("goal", "climb out of the pit"),
        "win from the barrel": p_("goal", "win from the barrel"),
        "stand": p_("goal", "stand")}
    return words.get(key, str(goal))


def best_play(ro) -> str:
    """"Best play: roll (rolling is worth 420 vs 350 standing).\""""
    roll = round(ro.roll_value)
    if ro.stand_value is None:
        return _("Best play: roll (rolling is worth {roll}, standing is not allowed yet).",
                 roll=roll)
    stand = round(ro.stand_value)
    if ro.decision == "stand":
        return _("Best play: stand (rolling is worth {roll} vs {stand} standing).", roll=roll,
                 stand=stand)
    return _("Best play: roll (rolling is worth {roll} vs {stand} standing).", roll=roll,
             stand=stand)


def odds_words(odds, tt, name) -> str:
    """The hint's odds sentence (``name`` on turn, None: this person)."""
    ro = odds.readout
    n = ro.dice_left
    if tt:
        risk = n_("Rolling {n} die: {chance} chance to lose {points}.",
                  "Rolling {n} dice: {chance} chance to lose {points}.", n,
                  chance=pct(ro.bust_chance), points=tt)
    else:
        risk = n_("Rolling {n} die: {chance} chance of a bust.",
                  "Rolling {n} dice: {chance} chance of a bust.", n, chance=pct(ro.bust_chance))
    if odds.final:
        # Bones' final turn: only passing the leader counts, not the points
        must, leader, chance = odds.final
        done = _("Final turn: {points} passes {leader}. Best play: stand and win.", points=tt,
                 leader=leader)
        if name is None:
            todo = _("Final turn: you must reach {must} this turn to pass {leader} ({chance} "
                     "chance from here). Best play: roll.", must=must, leader=leader,
                     chance=pct(chance))
        else:
            todo = _("Final turn: {name} must reach {must} this turn to pass {leader} ({chance} "
                     "chance from here). Best play: roll.", name=name, must=must,
                     leader=leader, chance=pct(chance))
    elif odds.race:
        # Thousand's race: a stand short of the barrel leaves the opponent the game
        p, must, chance = odds.race
        done = _("{points} reaches the barrel. Best play: stand.", points=tt)
        todo = _("An opponent on the barrel wins next turn with {p} chance, so only reaching "
                 "the barrel counts: {must} this turn ({chance} chance from here). Best play: "
                 "roll.", p=pct(p), must=must, chance=pct(chance))
    if odds.final or odds.race:
        best = done if tt >= must and ro.may_stand else todo
    else:
        best = best_play(ro)
        w = odds.win
        if w is not None and w.stand_win_chance is not None and w.decision != ro.decision:
            best += " " + (_("To win, though: roll ({chances} chance to win).",
                             chances=win_pair(w)) if w.decision == "roll" else
                           _("To win, though: stand ({chances} chance to win).",
                             chances=win_pair(w)))
    return risk + " " + best


def odds_chart():
    src = ColumnDataSource(dict(x=DICE, y=[0.0] * 5, color=[LO] * 5, label=[""] * 5,
                                hatch=[" "] * 5))
    f = odds_figure("", x_range=DICE)
    f.vbar(x="x", top="y", width=0.7, color="color", hatch_pattern="hatch",
           hatch_color="white", hatch_alpha=0.5, source=src)
    f.add_layout(LabelSet(x="x", y="y", text="label", source=src, text_align="center",
                          y_offset=3, text_font_size="11px", text_font_style="bold"))
    f.y_range = Range1d(0, 1.18)
    f.yaxis.ticker = [0, 0.25, 0.5, 0.75, 1]
    label_chart(f)
    return f, src


def label_chart(f) -> None:
    f.title.text = _("Chance to score, by dice rolled")
    f.yaxis.major_label_overrides = {t: percent(t) for t in (0, 0.25, 0.5, 0.75, 1)}
    f.xaxis.axis_label = _("dice rolled (current: ▲)")


def shout(word: str) -> str:
    return f"<b class='best'>{esc(decision(word).upper())}</b>"


def draw_odds(o, src, play) -> str:
    ro = o.readout
    n = o.dice_now
    set_data(src, dict(
        x=DICE, y=o.counting,
        color=[HI if i + 1 == n else LO for i in range(5)],
        label=[("▲ " if i + 1 == n else "") + pct(p) for i, p in enumerate(o.counting)],
        hatch=[" " if i + 1 == n else "/" for i in range(5)]))
    st = play.state
    # a computer's (or another browser's) turn: the odds are theirs, not "you"
    mine = play.is_mine(st.current)
    name = shown_name(play, st.current)
    stand = _("not allowed") if ro.stand_value is None else num(ro.stand_value)
    best_now = ro.decision
    if o.final:  # a final turn: only passing the leader counts, so the one ★ marks that play
        must = o.final[0]
        best_now = "stand" if st.turn_total >= must and ro.may_stand else "roll"
    star_roll = " ★" if best_now == "roll" else ""
    star_stand = " ★" if best_now == "stand" else ""
    rows = [
        (n_("Chance to score with {n} die", "Chance to score with {n} dice", n),
         pct(ro.counting_chance)),
        (_("Bust chance (lose {points})", points=st.turn_total) if st.turn_total
         else _("Bust chance"), pct(ro.bust_chance)),
        (_("Next roll scores on average"), num(ro.expected_roll_points)),
        (_("Expected points if you stand") if mine else
         _("Expected points if {name} stands", name=name), f"{stand}{star_stand}"),
        (_("Expected points if you roll (then play best)") if mine else
         _("Expected points if {name} rolls (then plays best)", name=name),
         num(ro.roll_value) + star_roll),
    ]
    if ro.reach_amount:
        rows.append((_("Chance to {goal} ({points} this turn)", goal=goal_words(o.reach_label),
                       points=ro.reach_amount), pct(ro.reach_chance)))
    best = _("Best play now: {play} ★ (expected points)", play=shout(ro.decision))
    if o.final:
        must, leader, chance = o.final
        rows.append((_("Final turn: reach {must} this turn to pass {leader}", must=must,
                       leader=leader), pct(chance)))
        best = _("Best play now: {play} ★ (to win: only passing {leader} counts)",
                 play=shout(best_now), leader=leader)
    elif o.win is not None:
        w = o.win
        rows.append((_("Chance to win from here"), pct(w.win_chance)))
        rows.append((_("… if you stand") if mine else _("… if {name} stands", name=name),
                     _("not allowed") if w.stand_win_chance is None
                     else pct(w.stand_win_chance)))
        rows.append((_("… if you roll (then play to win)") if mine else
                     _("… if {name} rolls (then plays to win)", name=name),
                     pct(w.roll_win_chance)))
        best += "<br>" + _("To win: {play}", play=shout(w.decision))
        said = points_vs_win(ro, w)
        if said:
            best += f"<br>{esc(said)}"
    elif o.win_note:
        best += f"<br><span class='na'>{esc(str(o.win_note))}</span>"
    return odds_list(rows, best)
