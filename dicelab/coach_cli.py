"""``dicelab review GAME.json [--seat NAME] [--json]``, and the coach's numbers that
``dicelab simulate --json`` adds (kept out of cli.py, which other commands share)."""
from __future__ import annotations

import json
from pathlib import Path

from .errors import RuleError
from .i18n import _

USAGE = "dicelab review GAME.json [--seat NAME] [--json]"  # i18n: not shown (a command line)
MAX_BYTES = 20_000_000  # a saved game is a few kilobytes; refuse to read anything huge


def add_parser(sub) -> None:
    s = sub.add_parser("review", help=_("what each decision of a saved game cost (the coach)"),
                       description=_("Replay a saved game (the app's Download game, or "
                                     "Game.to_json()) and value every decision exactly."))
    s.add_argument("game", metavar="GAME.json", help=_("a saved dicelab game"))
    s.add_argument("--seat", default=None, metavar="NAME",
                   help=_("only this player's decisions"))
    s.add_argument("--json", action="store_true", help=_("print JSON"))


def _bad(text: str) -> RuleError:
    return RuleError(_("{problem}\nusage: {usage}", problem=text, usage=USAGE))


def read_game(path: str):
    """The game saved in the file at ``path``; RuleError (with the usage) if it is not one."""
    from .coach import as_game

    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise _bad(_("{path}: too large for a saved game", path=path))
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _bad(_("{path}: no such file", path=path)) from None
    except IsADirectoryError:
        raise _bad(_("{path}: is a folder, not a saved game", path=path)) from None
    except UnicodeDecodeError:
        raise _bad(_("{path}: not a saved dicelab game (not text)", path=path)) from None
    except OSError as exc:
        raise _bad(_("{path}: cannot be read ({reason})", path=path,
                     reason=exc.strerror or str(exc))) from None
    try:
        return as_game(text)
    except RuleError as exc:
        raise _bad(f"{path}: {exc}") from None
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        # a damaged file: whatever the replay trips on, the user sees one line
        raise _bad(_("{path}: not a valid saved dicelab game ({reason})", path=path,
                     reason=str(exc))) from None


def review_command(args) -> int:
    from .coach import review

    game = read_game(args.game)
    try:
        r = review(game, args.seat)
    except RuleError as exc:
        raise _bad(str(exc)) from None
    print(r.to_json() if args.json else r.text())
    return 0


def simulate_extra(args, players) -> dict:
    """The coach's part of ``dicelab simulate --json``: mean value lost per decision."""
    from .lab.review import SAMPLE, coach_losses

    from .commands.rules_options import rules_settings

    settings = rules_settings(args.variant, args)
    n = min(args.games or SAMPLE, SAMPLE)
    return coach_losses(args.variant, players, n, args.seed, settings)


def add_to_simulate_json(text: str, args) -> str:
    """The simulate JSON with "coach" added, and each player's mean_lost_per_decision (and,
    where the chance to win is known, mean_win_lost_per_decision) and "luck": per unit its
    mean luck per game with the 95% interval (about 0) beside its decisions' changes."""
    data = json.loads(text)
    players = [r["player"] for r in data["players"]]
    extra = simulate_extra(args, players)
    for row, c in zip(data["players"], extra["players"]):
        row.update({k: v for k, v in c.items() if k.startswith("mean_") or k == "luck"})
    data["coach"] = extra
    return json.dumps(data)
