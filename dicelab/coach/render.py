"""The review's outputs. Its table is built once per language (``table``: a pandas DataFrame,
one row per judged decision, every value raw and as shown) and every output reads it: the
text, the CSV, the JSON, the notebook's HTML, and the app's Tabulator (``ui/coach_view.py``).
The seats' totals and the notes come from the review itself. (``review`` below is a
``coach.review.Review``, not imported: that module imports this one.)"""
from __future__ import annotations

import csv
import html
import io
from typing import TYPE_CHECKING, Any

from ..i18n import _, n_, p_, tr
from .values import ChanceSource, fixed, source_for_unit, variant_words

if TYPE_CHECKING:
    import pandas as pd

# the CSV's columns (then "options", then the later sources' columns: win_choice_value, ...)
COLUMNS = ("index", "turn", "player", "state", "choice", "choice_value", "best",
           "best_value", "lost", "mistake", "why", "unit")
# the review's unit: a decision judged in another (a final turn, by the chance to win) leaves
# these empty in the CSV and fills its own columns
IN_UNIT = ("choice_value", "best_value", "lost")
# cells a spreadsheet reads as a formula (OWASP, CSV injection): a text cell starting so is
# written after a single quote; a number is written as a number ("-0.5" is safe)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")



# the luck columns (``coach.luck``): the luck of the rolls no one chose since the seat's
# previous decision (a turn's first roll), the luck of the dice this choice threw, its unit
LUCK_COLUMNS = ("luck_before", "luck", "luck_unit")


def signed(unit_key: str, value: float) -> str:
    """A luck in its unit, with its sign: "+31.0 percentage points of win chance"."""
    src = source_for_unit(unit_key)
    amount = 100 * value if isinstance(src, ChanceSource) else value
    text = fixed(amount, 1)
    return tr(src.LOSS, amount=("+" + text) if amount >= 0.05 else text)


def luck_of_rows(review: Any) -> dict[int, dict[str, Any]]:
    """Action index of each decision -> its luck columns (``LUCK_COLUMNS``)."""
    steps = {s.index: s for s in review.steps}
    judged = {e.index for e in review.entries}
    out: dict[int, dict[str, Any]] = {}
    pending: dict[int, float] = {}  # seat -> forced rolls' luck since its last decision
    for i in sorted(set(steps) | judged):  # the steps and decisions in game order
        s = steps.get(i)
        if i not in judged:
            if s is not None and s.rolled:
                pending[s.seat] = pending.get(s.seat, 0.0) + s.luck
            continue
        seat = s.seat if s is not None else None
        before = pending.pop(seat, None) if seat is not None else None
        out[i] = {"luck_before": before,
                  "luck": s.luck if s is not None and s.rolled else None,
                  "luck_unit": tr(s.unit_key) if s is not None else None,
                  "luck_key": s.unit_key if s is not None else None}
    return out


def extra_columns(name: str) -> tuple[str, ...]:
    """A later source's columns (``Entry.extra_fields``)."""
    return tuple(f"{name}_{c}" for c in ("choice_value", "best", "best_value", "lost",
                                          "mistake"))


def build(review: Any) -> pd.DataFrame:
    """The review's table in the language of the moment (``Review.table()`` keeps it).

    Columns: the CSV's (``csv_columns``; raw values, ``in_unit`` says whether the first three
    values are in the review's unit), ``seat``, ``computer``, ``situation``, ``option_values``
    (the JSON's options), and as shown: ``choice_shown``, ``best_shown``, ``lost_shown`` (in
    the unit of the decision's source) and per later source ``{name}_choice_shown``,
    ``{name}_best_shown``, ``{name}_lost_shown`` (percentage points)."""
    import pandas as pd

    rows, extra_cols = [], {}
    luck = luck_of_rows(review) if review.steps else {}
    for e in review.entries:
        fmt = e.source.fmt
        d = e.to_dict()  # the entry's own fields (its sentences said once, here)
        row = {k: d[k] for k in COLUMNS}
        row["options"] = "; ".join(f"{o.label} {fmt(o.value)}" + _extra_words(review, e, o)
                                   for o in e.options)
        extra = e.extra_fields()
        extra_cols.update(dict.fromkeys(extra))
        row.update(extra)
        row.update({
            "seat": d["seat"], "computer": d["computer"], "situation": d["situation"],
            "option_values": d["options"], "in_unit": e.unit_key == review.unit_key,
            "choice_shown": fmt(e.chosen.value), "best_shown": fmt(e.best.value),
            "lost_shown": fmt(e.lost)})
        for k, src in review.extras.items():
            side = e.extra.get(k)
            row.update({f"{k}_choice_shown": side and src.fmt(side.chosen),
                        f"{k}_best_shown": side and src.fmt(side.best),
                        f"{k}_lost_shown": side and fixed(100 * side.lost, 1)})
        if review.steps:
            lk = luck.get(e.index, dict.fromkeys((*LUCK_COLUMNS, "luck_key")))
            row.update({c: lk[c] for c in (*LUCK_COLUMNS, "luck_key")})
            both = [x for x in (lk["luck_before"], lk["luck"]) if x is not None]
            row["luck_shown"] = signed(lk["luck_key"], sum(both)) if both else None
        rows.append(row)
    csv_cols = [*COLUMNS, "options", *extra_cols, *(LUCK_COLUMNS if review.steps else ())]
    cols = list(dict.fromkeys([*csv_cols, *(k for r in rows for k in r)]))
    # object columns: the values stay Python's (None, not NaN; the exact floats)
    df = pd.DataFrame({c: [r.get(c) for r in rows] for c in cols}, columns=cols, dtype=object)
    df.attrs["csv_columns"] = csv_cols
    return df


def _extra_words(review: Any, e, o) -> str:
    """" (win 43.2%)": an option's values from the later sources."""
    parts = [f"{k} {src.fmt(e.extra[k].values[o.key])}" for k, src in review.extras.items()
             if k in e.extra and o.key in e.extra[k].values and src.UNIT != e.unit_key]
    return f" ({', '.join(parts)})" if parts else ""


def rows(review: Any) -> list[dict[str, Any]]:
    """One flat row per decision: the CSV's cells (values outside the review's unit empty)."""
    df = review.table()
    out = []
    for rec in df.to_dict("records"):
        row = {c: rec[c] for c in df.attrs["csv_columns"]}
        if not rec["in_unit"]:
            row.update(dict.fromkeys(IN_UNIT))
        out.append(row)
    return out


def guard(cell: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula, made inert: ``'`` before it
    (OWASP's CSV injection advice). Numbers, booleans and empty cells are left as they are:
    a number is written as one ("-0.5") and read as one."""
    if isinstance(cell, str) and cell.startswith(FORMULA_START):
        return "'" + cell
    return cell


def to_csv(review: Any) -> str:
    cols = review.table().attrs["csv_columns"]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    w.writerows({k: guard(v) for k, v in row.items()} for row in rows(review))
    return buf.getvalue()


def to_dict(review: Any) -> dict[str, Any]:
    return {"variant": review.variant, "unit": review.unit, "tolerance": review.tolerance,
            **{f"{k}_unit": src.unit for k, src in review.extras.items()},
            "finished": review.finished, "actions": review.actions, "notes": review.notes,
            "seats": {n: s.to_dict() for n, s in review.seats.items()},
            "decisions": decisions(review),
            **({"steps": [dict(st.to_dict(), unit=tr(st.unit_key), lucky=review.lucky(st))
                          for st in review.steps]} if review.steps else {})}


def decisions(review: Any) -> list[dict[str, Any]]:
    """The JSON's decisions, read from the table."""
    out = []
    for r in review.table().to_dict("records"):
        d = {k: r[k] for k in ("index", "turn", "seat", "player", "computer", "state")}
        d["options"] = r["option_values"]
        d.update({k: r[k] for k in ("choice", "choice_value", "best", "best_value", "lost",
                                    "mistake", "why", "unit", "situation")})
        for k in review.extras:  # the later sources that valued this decision
            if r[f"{k}_mistake"] is not None:
                d.update({c: r[c] for c in extra_columns(k)})
        if review.steps:
            d.update({c: r[c] for c in LUCK_COLUMNS})
        out.append(d)
    return out


def summary_lines(review: Any) -> list[str]:
    src = review.source
    if review.extras:
        lines = [_("Values: {unit}; beside them the {others}. A mistake loses more than "
                   "{tolerance}.", unit=review.unit,
                   others=", ".join(x.unit for x in review.extras.values()),
                   tolerance=src.tolerance_words)]
    else:
        lines = [_("Values: {unit}. A mistake loses more than {tolerance}.",
                   unit=review.unit, tolerance=src.tolerance_words)]
    lines += review.notes
    for s in review.seats.values():
        who = _("{name} (computer)", name=s.player) if s.computer else s.player
        counts = dict(who=who, loss=src.fmt_loss(s.lost),
                      decisions=n_("{n} decision", "{n} decisions", s.decisions),
                      mistakes=n_("{n} mistake", "{n} mistakes", s.mistakes))
        if review.extras:
            lines.append(_("{who}: {decisions}, {mistakes}, {loss} lost in all; {others} "
                           "lost.", others=", ".join(x.fmt_loss(s.extra_lost.get(k, 0.0))
                                                     for k, x in review.extras.items()),
                           **counts))
        else:
            lines.append(_("{who}: {decisions}, {mistakes}, {loss} lost in all.", **counts))
        for e in s.costliest:
            lines.append("  " + _("turn {turn}, {loss}: {why}", turn=e.turn,
                                  loss=e.source.fmt_loss(e.lost), why=e.why))
    return lines + luck_lines(review)


def luck_lines(review: Any) -> list[str]:
    """Luck and skill per seat, side by side, then the very lucky and unlucky rolls."""
    if not review.steps:
        return []
    lines = []
    for s in review.seats.values():
        who = _("{name} (computer)", name=s.player) if s.computer else s.player
        parts = []
        for u in review.luck_units:
            if u not in s.luck:
                continue
            cost = source_for_unit(u).fmt_loss(max(-s.skill.get(u, 0.0), 0.0))
            if u in s.luck_against:
                parts.append(_("dice worth {luck} against the other's, decisions cost {cost}",
                               luck=signed(u, s.luck_against[u]), cost=cost))
            else:
                parts.append(n_("dice worth {luck} over {n} roll ({unit}), decisions cost "
                                "{cost}", "dice worth {luck} over {n} rolls ({unit}), "
                                "decisions cost {cost}", s.rolls.get(u, 0),
                                luck=signed(u, s.luck[u]), unit=tr(u), cost=cost))
        if not parts:
            continue
        if review.winner is not None and review.finished:
            lines.append(_("{who} won: {luck}.", who=who, luck="; ".join(parts))
                         if s.player == review.winner else
                         _("{who} lost: {luck}.", who=who, luck="; ".join(parts)))
        else:
            lines.append(_("{who}: {luck}.", who=who, luck="; ".join(parts)))
    for sign, words in ((1, _("Very lucky rolls")), (-1, _("Very unlucky rolls"))):
        marked = sorted((st for st in review.steps if review.lucky(st) == sign),
                        key=lambda st: -abs(st.luck))
        if marked:
            shown = ", ".join(_("turn {turn} {player} {luck}", turn=st.turn,
                                player=st.player, luck=signed(st.unit_key, st.luck))
                              for st in marked[:5])
            more = len(marked) - 5
            lines.append(n_("{what}: {rolls} (and {n} more).", "{what}: {rolls} (and {n} "
                            "more).", more, what=words, rolls=shown) if more > 0 else
                         _("{what}: {rolls}.", what=words, rolls=shown))
    return lines


def steps_table(review: Any) -> pd.DataFrame:
    """Every valued action of the game (``Review.steps``), one row each: ``index``, ``turn``,
    ``seat``, ``player``, ``computer``, ``unit`` (in the reader's language), ``unit_key``,
    ``segment`` (turn, seat or duel), ``before``, ``chosen``, ``after``, ``luck``,
    ``change``, ``rolled``, ``dice``, ``decision``, ``lucky`` (+1 very lucky, -1 very
    unlucky, 0) and ``luck_shown`` (signed, in words)."""
    import pandas as pd

    cols = ["index", "turn", "seat", "player", "computer", "unit", "unit_key", "segment",
            "before", "chosen", "after", "luck", "change", "rolled", "dice", "decision",
            "lucky", "luck_shown"]
    rows = [dict(st.to_dict(), unit=tr(st.unit_key), unit_key=st.unit_key,
                 dice=tuple(st.dice), lucky=review.lucky(st),
                 luck_shown=signed(st.unit_key, st.luck)) for st in review.steps]
    return pd.DataFrame([[r[c] for c in cols] for r in rows], columns=cols)


def title(review: Any) -> str:
    """"Review of a bones game", "... (not finished)"."""
    name = variant_words(review.variant)
    if review.finished:
        return _("Review of a {variant} game", variant=name)
    return _("Review of a {variant} game (not finished)", variant=name)


def text(review: Any) -> str:
    """The review as aligned text: a table of decisions, then the totals."""
    head = (f"{'#':>4} {p_('review column', 'turn'):>4}  "
            f"{p_('review column', 'player'):<12} {p_('review column', 'choice'):<40} "
            f"{p_('review column', 'best'):<40} {p_('review column', 'lost'):>8}")
    for src in review.extras.values():  # the chance to win: the choice's, the best, the loss
        win, best, lost = src.heads()
        head += f"  {win:>6} {best:>9} {lost:>9}"
    if review.steps:
        head += f"  {p_('review column', 'luck'):>8}"
    lines = [title(review), head, "-" * len(head)]
    for r in review.table().to_dict("records"):
        mark = "!" if r["mistake"] else " "
        line = (f"{r['index']:>4} {r['turn']:>4}  {r['player'][:12]:<12} "
                f"{(r['choice'] + ' ' + r['choice_shown'])[:40]:<40} "
                f"{(r['best'] + ' ' + r['best_shown'])[:40]:<40} "
                f"{r['lost_shown']:>7}{mark}")
        for k in review.extras:
            if r[f"{k}_choice_shown"] is None:
                line += f"  {'':>6} {'':>9} {'':>9}"
                continue
            line += (f"  {r[f'{k}_choice_shown']:>6} {r[f'{k}_best_shown']:>9} "
                     f"{r[f'{k}_lost_shown']:>8}{'!' if r[f'{k}_mistake'] else ' '}")
        if review.steps:
            line += f"  {_short_luck(r):>8}"
        lines.append(line)
    lines.append("")
    lines += summary_lines(review)
    return "\n".join(lines)


def _short_luck(r: dict) -> str:
    """The luck of a row as a number in its unit (percentage points for chances)."""
    both = [x for x in (r.get("luck_before"), r.get("luck")) if x is not None]
    if not both:
        return ""
    chance = isinstance(source_for_unit(r["luck_key"]), ChanceSource)
    value = sum(both) * (100 if chance else 1)
    text = fixed(value, 1)
    return "+" + text if value >= 0.05 else text


def to_html(review: Any) -> str:
    """The notebook's table (``Review._repr_html_``)."""
    esc = html.escape
    rows_ = []
    for r in review.table().to_dict("records"):
        style = ' style="background:#fde2e1"' if r["mistake"] else ""
        rows_.append(f"<tr{style}><td>{r['turn']}</td><td>{esc(r['player'])}</td>"
                     f"<td>{esc(r['state'])}</td><td>{esc(r['choice'])} "
                     f"({r['choice_shown']})</td><td>{esc(r['best'])} "
                     f"({r['best_shown']})</td><td>{r['lost_shown']}</td>"
                     + "".join("<td>" + esc(_("{chance} of {best}",
                                              chance=r[f"{k}_choice_shown"],
                                              best=r[f"{k}_best_shown"])) + "</td>"
                               if r[f"{k}_choice_shown"] is not None else "<td></td>"
                               for k in review.extras)
                     + (f"<td>{esc(r['luck_shown'] or '')}</td>" if review.steps else "")
                     + f"<td>{esc(r['why'])}</td></tr>")
    summary = "".join(f"<li>{esc(line)}</li>" for line in summary_lines(review))
    heads = [p_("review column", "turn"), p_("review column", "player"),
             p_("review column", "state"), p_("review column", "choice"),
             p_("review column", "best"), p_("review column", "lost")]
    heads += [_("{name} chance (of best)", name=src.heads()[0])
              for src in review.extras.values()]
    heads += [p_("review column", "luck")] if review.steps else []
    heads += [p_("review column", "why")]
    return (f"<div class='dicelab-review'><b>{esc(title(review))}</b>"
            f"<table><thead><tr>{''.join(f'<th>{esc(h)}</th>' for h in heads)}"
            f"</tr></thead><tbody>{''.join(rows_)}"
            f"</tbody></table><ul>{summary}</ul></div>")
