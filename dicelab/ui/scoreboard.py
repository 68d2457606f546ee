"""The scoreboard: totals, each variant's status column, the target, the records."""
from __future__ import annotations

import html

import param

from ..i18n import _, number as num
from .names import seat_name
from .notebook import HTML
from .play import Play
from .view import TableView, follows

esc = html.escape


BOARD_CSS = """
table.board { border-collapse: collapse; width: 100%; font: 1rem system-ui, sans-serif; }
.board th, .board td { padding: 5px 6px; text-align: left;
  border-bottom: 1px solid rgba(127,127,127,.35); }
.board td.num, .board th.num { text-align: right; font-variant-numeric: tabular-nums; }
.board tr.turn { font-weight: 700; background: rgba(21, 101, 192, .14); }
.board tr.turn td:first-child { box-shadow: inset 5px 0 0 #1565c0; }
.board .tag { font-size: .85rem; opacity: .85; }
.board .status span { margin-right: 6px; white-space: nowrap; }
.bar { position: relative; height: 18px; border: 1px solid rgba(127,127,127,.7);
  border-radius: 4px; min-width: 90px;
  background: linear-gradient(90deg, rgba(127,127,127,.12) 0 100%); overflow: hidden; }
.bar .fill { position: absolute; left: 0; top: 0; bottom: 0; background: #1e88e5; }
.bar .fill.bust { background: repeating-linear-gradient(45deg, #c62828 0 6px, #e57373 6px 12px); }
.bar .fill.win { background: #2e7d32; }
.bar .beat { position: absolute; top: -2px; bottom: -2px; width: 2px; background: #ff8f00; }
.records { font: .9rem system-ui, sans-serif; opacity: .9; margin-top: 6px; }
.final { font-weight: 700; }
"""


def _seat_cell(play: Play, i: int) -> str:
    s = play.game.seats[i]
    on_turn = esc(_("on turn"))
    mark = f'<span aria-label="{on_turn}">▶</span> ' if \
        i == play.game.current_player and not play.game.is_over else ""
    tag = esc(_("({tags})", tags=play.seat_tag(i)))
    return f'<td>{mark}{esc(seat_name(s.name))} <span class="tag">{tag}</span></td>'


def scoreboard_html(play: Play, records=None) -> str:
    g = play.game
    st = g.state
    ui = play.ui
    totals = g.totals()
    win = set(g.winners)
    rows = []
    for i in range(g.n_seats):
        cls = "turn" if i == st.current and not g.is_over else ""
        rows.append(f"<tr class='{cls}'>{_seat_cell(play, i)}<td class='num'>"
                    f"{num(totals[i])}</td>{ui.board_cell(play, i, i in win)}</tr>")
    note = ui.board_note(play)
    target = f"<div class='records'>{note}</div>" if note else ""
    rec = ""
    if records is not None:
        line = esc(_("Records: {records}", records=records.line(g.variant)))
        rec = f"<div class='records' data-testid='records'>{line}</div>"
    label = esc(_("Scoreboard"))
    return (f"<table class='board' aria-label='{label}'>"
            f"<thead>{ui.board_head()}</thead>"
            "<tbody>" + "".join(rows) + f"</tbody></table>{target}{rec}")


class Scoreboard(TableView):
    """Totals, on the board / status column, round scores; records."""

    records = param.Parameter(default=None)

    def __init__(self, game=None, **params):
        super().__init__(game, **params)
        if self.records is None:
            self.records = getattr(self.play, "records", None)
        self._pane = HTML(self._html(), sizing_mode="stretch_width",
                                  stylesheets=[BOARD_CSS])
        if self.records is not None:
            self.records.param.watch(self._update, "changed")

    def _html(self):
        return scoreboard_html(self.play, self.records)

    @follows("shown", "seats")
    def _update(self, *__):
        self._pane.show(self._html())

    def __panel__(self):
        return self._pane
