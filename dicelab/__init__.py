"""dicelab: play and understand dice games (Bones, Thousand, Under40, Yahtzee)."""
from __future__ import annotations

from .actions import Reroll, Roll, Score, Stand, parse_action
from .errors import RuleError
from .i18n import L_
from .games import GAMES, Game, Seat, load_game, new_game
from .rules.common import RollScore

__version__ = "0.1.0"
VARIANTS = ("bones", "thousand", "under40", "yahtzee")


def score(variant: str, dice, **settings) -> RollScore:
    """Points of one roll and how many dice counted (``.points``, ``.counting``).

    ``score("bones", [1, 1, 1, 5, 2])`` -> RollScore(points=1050, counting=4, ...).
    Settings: Bones ``preset="hypercard"|"french"``; Thousand and Under40 take none.
    """
    from .rules import bones, thousand, under40

    if variant == "bones":
        preset = settings.pop("preset", "hypercard")
        _no_more(variant, settings)
        return bones.score(dice, preset)
    if variant in ("thousand", "under40"):
        _no_more(variant, settings)
        return (thousand if variant == "thousand" else under40).score(dice)
    if variant == "yahtzee":
        raise RuleError(L_("a Yahtzee roll scores per box: use dicelab.yahtzee_boxes(dice)"))
    raise RuleError(L_("unknown variant {variant}; score() knows bones, thousand, under40",
                       variant=repr(variant)[:60]))


def _no_more(variant: str, settings: dict) -> None:
    if settings:
        raise RuleError(L_("{variant} scoring takes no setting {settings}", variant=variant,
                           settings=", ".join(sorted(map(str, settings)))[:100]))


def yahtzee_boxes(dice, preset: str = "official") -> dict[str, int]:
    """Box name -> points of five dice in every Yahtzee box (as printed on the card)."""
    from .rules import yahtzee
    from .settings import YahtzeeSettings

    YahtzeeSettings(preset=preset)  # checks the preset name
    return yahtzee.boxes(dice)


__all__ = ["score", "yahtzee_boxes", "RollScore", "RuleError", "Roll", "Stand", "Reroll",
           "Score", "parse_action", "review", "new_game", "load_game", "Game", "Seat", "GAMES",
           "VARIANTS", "app", "notebook"]


def __getattr__(name: str):
    """``dicelab.ui`` (the Panel views) is imported on first use: ``import dicelab`` stays
    light for the command line, and ``dicelab.ui.DiceTray(game)`` works after it."""
    if name == "ui":
        import importlib

        return importlib.import_module(".ui", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def review(game, seat: str | None = None, luck: bool = True):
    """What each decision of ``game`` (a Game or a saved game's JSON) cost, and with ``luck``
    what each roll's dice were worth: a ``dicelab.coach.Review`` (a table in a notebook)."""
    from .coach import review as _review

    return _review(game, seat, luck)


def app(records_path=None, cdn: bool | None = None, lang: str | None = None):
    """The dicelab app: show it in Jupyter (the last line of a cell), or serve it.
    ``lang``: "en", "fr" or "ru" (its language menu changes it later).

    In a notebook Bokeh and Panel load inline, so it works without internet; ``cdn=True`` (or
    DICELAB_CDN=1) loads them from their CDN instead. ``app.start_game(game)`` shows a game
    made in Python; ``app.page`` is the panel-material-ui Page."""
    from .ui import DicelabApp
    from .ui.notebook import in_kernel, notebook

    if in_kernel():
        notebook(cdn)
    return DicelabApp(records_path=records_path, lang=lang)


def notebook(cdn: bool | None = None) -> None:
    """Load Panel's notebook front end for dicelab (inline resources; ``cdn=True``: the CDN)."""
    from .ui.notebook import notebook as load

    load(cdn)
