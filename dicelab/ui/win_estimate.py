"""A table's live chance-to-win estimate (dicelab.lab.win_live), shared by the odds panel and
the win chart: restarted on every move of the game, refined in the background, handed to the
page's own thread when a step is done. Pages showing the same state (a network room's viewers)
read one estimate (lab.win_live keeps one per state). Only glue: the play-outs are lab.win's."""
from __future__ import annotations

import html
import weakref

import panel as pn
import param

from ..i18n import _
from ..lab.win_live import LiveEstimate, applies
from .session import defer, handoff, served_doc
from .variants import ui_for
from .phrases import pct, shown_name, strategy_name


class WinEstimate(param.Parameterized):
    """``result`` (a lab.win.Estimate, None while the first step runs) for ``key`` game
    actions; set on the page's thread."""

    result = param.Parameter(default=None)
    key = param.Integer(default=-1)

    def __init__(self, play, **params):
        super().__init__(**params)
        self.play = play
        me = weakref.ref(self)  # the background thread must not keep a closed page alive

        def publish():
            est = me()
            if est is not None:
                est._publish()
        self.live = LiveEstimate(notify=handoff(publish))
        play.game.param.watch(self._moved, "state")
        weakref.finalize(play, self.live.stop)
        if served_doc() is not None:
            try:
                pn.state.on_session_destroyed(lambda ctx, live=self.live: live.stop())
            except Exception:
                pass
        self._restart_pending = False
        self._restart()

    def _moved(self, *_args):
        """The game moved. What the page shows of the old estimate is stale at once (its
        ``key`` is an older number of actions: ``estimate_html`` says "estimating"); the new
        one is asked for once the page's update has gone out (``defer``), off the path of the
        table the players wait for: on every page of a room, at every action. Its first
        play-outs wait ``SETTLE`` anyway."""
        if not self._restart_pending:
            self._restart_pending = True
            defer(self._restart)

    def _restart(self):
        self._restart_pending = False
        g = self.play.game
        if applies(g):
            self.live.restart(g)
        else:
            self.live.stop()
        self.param.update(result=None, key=len(g.actions))

    def _publish(self):
        live = self.live
        if live.result is not None and live.key == len(self.play.game.actions):
            self.param.update(result=live.result, key=live.key)


def win_estimate(play) -> WinEstimate | None:
    """The table's estimate (made on first use), or None where the game never needs one
    (one seat; an exact table: two-seat Bones, two-seat Thousand once cached)."""
    g = play.game
    if g.n_seats < 2 or ui_for(g).exact_win(g):
        return None
    return play.shared("win_estimate", lambda: WinEstimate(play))


def estimate_html(play) -> str:
    """The odds panel's lines: each seat's estimated chance with its 95% interval, labelled as
    an estimate ("" where there is none to show)."""
    est = win_estimate(play)
    if est is None or not applies(play.game):
        return ""
    # (an estimate of an earlier state is not shown: the table may redraw before it restarts)
    r = est.result if est.key == len(play.game.actions) else None
    if r is None:
        words = _("estimating from play-outs…")
        body = f"<span class='na'>{words}</span>"
    else:
        body = "<br>".join(
            f"{html.escape(shown_name(play, i))}: <b>{pct(p)}</b> ({pct(lo)}–{pct(hi)})"
            for i, (p, (lo, hi)) in enumerate(zip(r.chances, r.intervals)))
        stand_in = strategy_name(r.stand_in)
        if est.live.running:
            note = _("Estimate from {n} simulated play-outs, 95% interval; people played by the "
                     "{computer} computer (refining…).", n=r.playouts, computer=stand_in)
        else:
            note = _("Estimate from {n} simulated play-outs, 95% interval; people played by the "
                     "{computer} computer.", n=r.playouts, computer=stand_in)
        body += f"<br><small>{html.escape(note)}</small>"
    title = _("Chance to win (estimate)")
    return f"<div data-testid='win-estimate'><b>{title}</b><br>{body}</div>"
