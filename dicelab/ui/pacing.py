"""The pacing of a table's computer seats (a part of ``Play``): one action every
``Prefs.pace`` seconds through a periodic callback that runs only while a computer is on turn,
the strategy thinking in a worker thread so a slow one never stalls the server."""
from __future__ import annotations

import asyncio

import panel as pn

from ..errors import RuleError
from .names import said
from .session import defer


class ComputerPace:
    """Mixed into ``Play``, whose game, prefs, ``computers`` flag and actions it uses."""

    def step_computer(self) -> bool:
        """Let the computer on turn make one action (False if a person is on turn)."""
        g = self.game
        if g.is_over or not self.is_computer(g.current_player) or not self.computers:
            self._schedule()
            return False
        try:
            action = g.computer_action()
        except RuleError as exc:
            self.computers = False
            return self._refuse(said(exc))
        if action is None:
            self._schedule()
            return False
        return self._apply(action)

    def _want_cb(self) -> bool:
        g = self.game
        return not g.is_over and self.computers and self.is_computer(g.current_player)

    def _schedule(self):
        if self._want_cb() != (self._cb is not None):
            defer(self._reconcile)

    def _reconcile(self):
        """Start or stop the computers' periodic callback to match the game."""
        if not self._want_cb():
            self._stop()
        elif self._cb is None:
            try:
                self._cb = pn.state.add_periodic_callback(
                    self._computer_tick, period=max(int(self.prefs.pace * 1000), 20))
            except Exception:  # no event loop (plain script): step_computer() by hand
                self._cb = None

    async def _computer_tick(self):
        """One paced computer action; the computer thinks in a worker thread so a slow
        strategy never stalls the server (this session's other events wait meanwhile)."""
        if self._thinking:
            return
        g = self.game
        if g.is_over or not self.computers or not self.is_computer(g.current_player):
            self._schedule()
            return
        self._thinking = True
        version = g.version
        try:
            action = await asyncio.get_running_loop().run_in_executor(None, g.computer_action)
        except RuleError as exc:
            self.computers = False
            self._refuse(said(exc))
            return
        finally:
            self._thinking = False
        if action is None or g.version != version or g.is_over \
                or not self.is_computer(g.current_player):  # the game moved on meanwhile
            self._schedule()
            return
        self._apply(action)

    def _stop(self):
        if self._cb is not None:
            cb, self._cb = self._cb, None
            try:
                cb.stop()
            except Exception:
                pass

    def _pace_changed(self, event):
        if self._sets_pace:
            self.game.pace = event.new
        if self._cb is not None:
            def repace():
                if self._cb is not None:
                    self._cb.period = max(int(event.new * 1000), 20)
            defer(repace)
