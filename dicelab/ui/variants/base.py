"""What every variant's UI answers, and the registry that finds it by the game's variant.

The shared components (tray, scoreboard, controls, hint, odds panel...) never ask which
variant they show: they ask the game's ``VariantUI``, and a variant overrides what differs
(python-chess style). Stateless: one instance per variant serves every table."""
from __future__ import annotations

import html
from typing import ClassVar

from bokeh.plotting import figure

from ...actions import Roll, Stand
from ...i18n import L_, _
from ...odds.win_game import is_exact
from ..phrases import game_over, you

esc = html.escape
HI, LO, BUST, GOOD = "#1565c0", "#90a4ae", "#c62828", "#2e7d32"
BUST_ON_DARK = "#ff8a80"

UIS: dict[str, "VariantUI"] = {}


def register(cls: type["VariantUI"]) -> type["VariantUI"]:
    UIS[cls.variant] = cls()
    return cls


def ui_for(game_or_variant) -> "VariantUI":
    """The UI pieces of a game (or a Play, or a variant's name)."""
    v = game_or_variant if isinstance(game_or_variant, str) else game_or_variant.variant
    try:
        return UIS[v]
    except KeyError:
        raise KeyError(f"no UI for variant {v!r}; the variants are {', '.join(UIS)}") from None


def die(v: int, pos: int, tag: str = "", mark: str = "", label: str = "", fresh=False,
        click=False, sel=False) -> dict:
    """One die as the tray draws it."""
    return {"v": int(v), "pos": pos, "tag": tag, "mark": mark, "label": label or f"{v}",
            "fresh": fresh, "click": click, "sel": sel}


def odds_figure(title: str, height: int = 210, **kw):
    """A small bokeh chart for the odds panel (transparent, no toolbar)."""
    f = figure(height=height, sizing_mode="stretch_width", toolbar_location=None, tools="",
               title=title, min_border_left=40, min_border_right=10, **kw)
    f.background_fill_color = None
    f.border_fill_color = None
    f.outline_line_color = None
    f.grid.grid_line_alpha = 0.25
    f.xgrid.grid_line_color = None
    return f


def set_data(src, data: dict) -> None:
    """Give a chart's source new columns only if they differ: most actions leave a chart's
    bars as they were, and every new ``data`` goes to each page of a room whole."""
    old = src.data
    if set(old) != set(data) or any(list(old[k]) != list(v) for k, v in data.items()):
        src.data = data


def board_head_row(last: str) -> str:
    """The scoreboard's header row: player, total, and the variant's own column."""
    player, total = _("Player"), _("Total")
    return f"<tr><th>{player}</th><th class='num'>{total}</th><th>{esc(last)}</th></tr>"


def winner_mark() -> str:
    won = _("★ winner")
    return f" <b>{won}</b>"


def odds_list(rows, foot="") -> str:
    """The odds panel's numbers as a definition list, and a line under them."""
    items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows)
    return (f"<div class='odds' data-testid='odds' aria-live='off'><dl>{items}</dl>"
            f"<p>{foot}</p></div>")


class VariantUI:
    """The defaults; a variant overrides what differs."""

    variant: ClassVar[str] = ""
    has_stand: ClassVar[bool] = True   # a Stand button
    enter_rolls: ClassVar[bool] = False  # Enter rolls (as "." does)
    score_card: ClassVar[bool] = False   # the score card is the main control
    history_shown: ClassVar[int] = 8     # history lines shown in full
    chance_points: ClassVar[bool] = False  # the coach's losses are chances (% points)

    # words read when shown (properties: in the language of the moment, never kept)
    @property
    def title(self) -> str:
        """The variant's name as its players call it, in the current language (menus, the
        room bar)."""
        return self.variant

    @property
    def stand_label(self) -> str:
        return _("Stand (0)")

    @property
    def turn_word(self) -> str:
        """What a player's go is called (the coach chart's axis)."""
        return _("turn")

    def exact_win(self, game) -> bool:
        """Is the chance to win exact here (a win table), not estimated from play-outs?"""
        return is_exact(game)

    # ----- the rules in words ----------------------------------------------------------------
    def settings_title(self, c) -> str:
        """The rules in force in a few words (``c``: the settings, as attributes)."""
        return _("{game} (to {target})", game=self.title, target=c.target)

    # ----- the person's choices --------------------------------------------------------------
    def choosing(self, play) -> bool:
        """Is the person choosing dice to set aside from the last roll?"""
        return False

    def roll_action(self, play):
        return Roll()

    def stand_action(self, play):
        return Stand()

    def roll_refusal(self, play) -> str:
        """Why Roll is refused before the rules are asked ("" : ask them)."""
        return ""

    def stand_refusal(self, play) -> str:
        return ""

    def toggled(self, play, pos: int):
        """A click on die ``pos``: the Play's new selection ({param: value}), a refusal (str),
        or None (dice are not chosen in this variant)."""
        return None

    def drops_held(self, state, seat: int) -> bool:
        """After an action by ``seat``: are the held dice let go?"""
        return False

    def roll_label(self, play) -> str:
        return _("Roll (.)")

    # ----- what the table shows ----------------------------------------------------------------
    def banner_parts(self, play) -> list[str]:
        """The banner's details under whose turn it is."""
        return []

    def odds(self, play):
        """The odds the panel and the hint show (an ``odds_view`` readout or a sentence)."""
        return L_("odds not available")

    def hint(self, play, odds) -> str:
        """What the rules require now and what the odds say, in words."""
        if play.game.is_over:
            return game_over(play)
        return self.turn_hint(play, odds, you(play, play.game.state.current))

    def turn_hint(self, play, odds, name: str | None) -> str:
        """The hint during a turn (``name``: who is on turn, None where it is this person, whom
        the sentences address as "you")."""
        raise NotImplementedError

    def tray(self, play, view: dict, roller: str, last, fresh: set) -> tuple[list, list]:
        """Fill the tray's labels and badge in ``view``; return its (rolled, kept) dice."""
        raise NotImplementedError

    def board_head(self) -> str:
        """The scoreboard's header row."""
        raise NotImplementedError

    def board_cell(self, play, seat: int, won: bool) -> str:
        """The scoreboard's last cell of ``seat`` (a whole ``<td>``)."""
        raise NotImplementedError

    def board_note(self, play) -> str:
        """The line under the scoreboard (HTML), or ""."""
        return _("Target {target}", target=play.game.config.target)

    def turn_points(self, event, before_turn_total):
        """What ``event`` scored in one turn, for the records (None: not a turn's score)."""
        return None

    # ----- the odds panel --------------------------------------------------------------------
    def odds_chart(self):
        """(bokeh figure, its ColumnDataSource) of the odds panel, or (None, None)."""
        return None, None

    def label_chart(self, fig) -> None:
        """Put the chart's words (title, axis titles) in the current language; the panel calls
        it on every redraw (bokeh sends only what changed)."""

    def draw_odds(self, odds, src, play) -> str:
        """Put ``odds`` in the chart's ``src``; return the panel's text (HTML)."""
        raise NotImplementedError
