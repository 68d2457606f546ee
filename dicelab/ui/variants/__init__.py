"""Per-variant UI pieces behind one interface (``VariantUI``), found by the game's variant
(``ui_for(game)``) as games are found in ``GAMES``: shared components never branch on a
variant's name. A new variant adds a module here and registers its class."""
from .base import UIS, VariantUI, die, register, ui_for
from .fivedice import BonesUI, FiveDiceUI, ThousandUI
from .under40 import Under40UI
from .yahtzee import YahtzeeUI

__all__ = ["UIS", "VariantUI", "die", "register", "ui_for", "BonesUI", "FiveDiceUI",
           "ThousandUI", "Under40UI", "YahtzeeUI"]
