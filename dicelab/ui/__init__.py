"""dicelab's Panel app and its components (each can be shown on its own in a notebook)."""
from .app import DicelabApp, StartScreen, SettingsDrawer, SwitchPlayer, Table, create_app, serve
from .components import Controls, DiceTray, HintLine, History, ScoreCard, Scoreboard, TurnBanner
from .odds_panel import OddsPanel
from .play import Play, Prefs
from .records import RecordStore

__all__ = ["DicelabApp", "StartScreen", "SettingsDrawer", "SwitchPlayer", "Table", "create_app",
           "serve", "Controls", "DiceTray", "HintLine", "History", "ScoreCard", "Scoreboard",
           "TurnBanner", "OddsPanel", "Play", "Prefs", "RecordStore"]
