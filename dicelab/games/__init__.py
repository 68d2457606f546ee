"""Game models of every variant (param.Parameterized, one apply path)."""
from .base import GAMES, Event, Game, GameView, Seat, load_game, new_game
from .bones import BonesGame
from .thousand import ThousandGame
from .yahtzee import YahtzeeGame  # noqa: F401  (registers the variant)
from .under40 import Under40Game  # noqa: F401 (registers "under40")

__all__ = ["GAMES", "Event", "Game", "GameView", "Seat", "load_game", "new_game",
           "BonesGame", "ThousandGame"]
