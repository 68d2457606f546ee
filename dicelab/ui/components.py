"""The table's components, each in a module of its own and re-exported here. Each is a
``pn.viewable.Viewer`` over a game (or its Play) and can be shown on its own:
``DiceTray(game)``, ``OddsPanel(game)``, ``Scoreboard(game)``...
"""
from .banner import BANNER_CSS, TurnBanner
from .controls import CONTROLS_CSS, Controls
from .hint import HINT_CSS, HintLine, hint_text
from .history import HISTORY_CSS, History
from .score_card import CardView, ScoreCard, card_description
from .scoreboard import BOARD_CSS, Scoreboard, scoreboard_html
from .tray import DiceTray, TrayView, tray_description
from .view import TableView, current_odds, memo

__all__ = ["BANNER_CSS", "BOARD_CSS", "CONTROLS_CSS", "HINT_CSS", "HISTORY_CSS", "CardView",
           "Controls", "DiceTray", "HintLine", "History", "ScoreCard", "Scoreboard", "TableView",
           "TrayView", "TurnBanner", "card_description", "current_odds", "hint_text", "memo",
           "scoreboard_html", "tray_description"]
