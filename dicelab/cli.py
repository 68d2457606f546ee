"""The ``dicelab`` command: score, play, odds, simulate, review, serve, solve, lessons."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__, config, i18n
from .errors import RuleError
from .i18n import _, n_

VARIANTS = ("bones", "thousand", "under40", "yahtzee")


def _parser() -> argparse.ArgumentParser:
    from .commands.rules_options import add_rules_options as _rules_options
    from .terminal.language import add_language_option

    p = argparse.ArgumentParser(prog="dicelab", description=_("Play and understand dice games."))
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_language_option(p)
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("score", help=_("score one roll"))
    s.add_argument("variant", choices=VARIANTS)
    s.add_argument("dice", nargs="+", help=_("die values 1..6"))
    s.add_argument("--preset", help=_("bones: hypercard|french; yahtzee: official|seed"))
    s.add_argument("--json", action="store_true", help=_("print JSON"))

    s = sub.add_parser("play", help=_("play in the terminal"))
    s.add_argument("variant", choices=VARIANTS)
    s.add_argument("--players", default=None,
                   help=_('comma-separated names, e.g. "Ann,Bob" (bones, thousand, under40)'))
    s.add_argument("--rules", default=None, help=_("yahtzee: the preset (same as --preset)"))
    _rules_options(s, VARIANTS)
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--coach", action="store_true",
                   help=_("say what each decision cost, and review the game at the end"))

    s = sub.add_parser("odds", help=_("exact odds tables"))
    s.add_argument("variant", choices=("bones", "thousand", "under40"))
    s.add_argument("--dice", type=int, default=None)
    s.add_argument("--turn-total", type=int, default=0)
    s.add_argument("--banked", type=int, default=0)
    s.add_argument("--strategy", default=None)
    s.add_argument("--score", type=int, default=0)
    s.add_argument("--leader", type=int, default=None)
    s.add_argument("--win", action="store_true",
                   help=_("bones, thousand: chance to win a two-seat game (with --opponent)"))
    s.add_argument("--opponent", type=int, default=None, help=_("--win: the other's banked total"))
    _rules_options(s, ("bones", "thousand", "under40"))
    s.add_argument("--bolts", type=int, default=0, help=_("thousand --win: my bolts in a row"))
    s.add_argument("--opponent-bolts", type=int, default=0,
                   help=_("thousand --win: the other's bolts in a row"))
    s.add_argument("--barrel-turns", type=int, default=0,
                   help=_("thousand --win: my failed turns on the barrel"))
    s.add_argument("--opponent-barrel-turns", type=int, default=0,
                   help=_("thousand --win: the other's failed turns on the barrel"))
    s.add_argument("--build", action="store_true",
                   help=_("thousand --win: build a large exact table (many minutes) instead "
                             "of estimating by play-outs"))
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("simulate", help=_("the strategy lab: computer players against each other"))
    s.add_argument("variant", choices=VARIANTS)
    s.add_argument("--players", required=True, help=_("e.g. chicken,aggressive,gambler,optimal"))
    n = s.add_mutually_exclusive_group()
    n.add_argument("--games", type=int, default=None)
    n.add_argument("--turns", type=int, default=None,
                   help=_("bones/thousand: independent turns on the board per player"))
    s.add_argument("--seed", type=int, default=0)
    _rules_options(s, VARIANTS)
    s.add_argument("--json", action="store_true")
    s.add_argument("--no-progress", action="store_true")

    s = sub.add_parser("serve", help=_("serve the web app"))
    s.add_argument("--port", type=int, default=5006)
    s.add_argument("--show", action="store_true", help=_("open a browser"))
    s.add_argument("--address", default="127.0.0.1",
                   help=_("address to listen on (0.0.0.0: every network, for a classroom)"))
    s.add_argument("--origin", action="append", default=[], metavar="HOST:PORT",
                   help=_("another address browsers use to reach the server (repeatable)"))
    s.add_argument("--behind-proxy", action="store_true",
                   help=_("behind nginx (deploy/nginx-dicelab.conf): take each client's address "
                          "from the proxy's X-Real-IP / X-Forwarded-For"))

    from .coach_cli import add_parser as add_review_parser

    add_review_parser(sub)

    s = sub.add_parser("lessons", help=_("copy the teaching notebooks into a folder"))
    s.add_argument("dir", nargs="?", default="dicelab-lessons",
                   help=_("the folder to copy them into (made if missing)"))
    s.add_argument("--force", action="store_true",
                   help=_("replace notebooks already in the folder"))

    s = sub.add_parser("solve", help=_("solve a game exactly"))
    s.add_argument("variant", choices=("yahtzee",))
    s.add_argument("--rules", default="official")
    s.add_argument("--json", action="store_true")
    for s in sub.choices.values():  # --lang after the command too (it keeps one given before)
        add_language_option(s, default=argparse.SUPPRESS)
    return p


def cmd_score(args) -> int:
    from . import score, yahtzee_boxes

    dice = args.dice
    try:
        dice = [int(d) for d in dice]
    except ValueError:
        raise RuleError(_("dice are whole numbers from 1 to 6, got {dice}",
                          dice=" ".join(args.dice))) from None
    if args.variant == "yahtzee":
        boxes = yahtzee_boxes(dice, preset=args.preset or "official")
        if args.json:
            print(json.dumps({"boxes": boxes}))
        else:
            from .rules.yahtzee import LABELS

            for box, pts in boxes.items():
                print(f"{i18n.tr(LABELS[box]):<16}{pts:>4}")
        return 0
    settings = {"preset": args.preset} if args.preset else {}
    if args.preset and args.variant != "bones":
        raise RuleError(_("{variant} has no presets", variant=args.variant))
    sc = score(args.variant, dice, **settings)
    if args.json:
        print(json.dumps({"points": sc.points, "counting": sc.counting}))
    else:
        marks = " ".join(f"{d}{'*' if c else ''}" for d, c in zip(dice, sc.mask))
        if sc.bust:
            print(_("{marks}  ->  {points} points, {counting} counting dice  (bust)",
                    marks=marks, points=sc.points, counting=sc.counting))
        else:
            print(n_("{marks}  ->  {points} points, {n} counting die",
                     "{marks}  ->  {points} points, {n} counting dice", sc.counting,
                     marks=marks, points=sc.points))
    return 0


def cmd_play(args) -> int:
    from .commands.rules_options import rules_settings

    if args.rules is not None:
        if args.variant != "yahtzee":
            raise RuleError(_("--rules is Yahtzee's preset; {variant} takes --preset and the "
                              "other settings", variant=args.variant))
        if args.preset is None:
            args.preset = args.rules
    for name, value in rules_settings(args.variant, args).items():  # as values, checked
        setattr(args, name, value)
    if args.variant == "yahtzee":
        from .terminal.yahtzee import play
    elif args.variant == "under40":
        from .terminal.under40 import play
    else:
        from .terminal.fivedice import play
    return play(args)


def cmd_odds(args) -> int:
    from .commands.odds import odds_command

    return odds_command(args)


def cmd_solve(args) -> int:
    from .commands.solve import solve_command

    return solve_command(args)


def cmd_lessons(args) -> int:
    from .commands.lessons import lessons_command

    return lessons_command(args)


def cmd_simulate(args) -> int:
    from .lab import simulate

    from .commands.rules_options import rules_settings

    settings = rules_settings(args.variant, args)
    games = args.games if args.games is not None or args.turns is not None else 1000
    result = simulate(args.variant, args.players, games=games, turns=args.turns, seed=args.seed,
                      progress=not (args.json or args.no_progress) and sys.stderr.isatty(),
                      **settings)
    if args.json:
        from .coach_cli import add_to_simulate_json

        print(add_to_simulate_json(json.dumps(result.to_dict()), args))
    else:
        print(result.table())
    return 0


def cmd_review(args) -> int:
    from .coach_cli import review_command

    return review_command(args)


def cmd_serve(args) -> int:
    if not 0 <= args.port <= 65535:
        raise RuleError(_("--port is 1 to 65535 (0: any free port), got {port}",
                          port=str(args.port)))
    for warning in _file_checks():
        print(_("dicelab: warning: {warning}", warning=warning), file=sys.stderr)
    from .ui import serve

    try:
        serve(port=args.port, show=args.show, address=args.address, origins=args.origin,
              **({"use_xheaders": True} if args.behind_proxy else {}))
    except OSError as exc:  # the port is taken, or the address is not this machine's
        where = f"{args.address}:{args.port}"
        raise RuleError(_("cannot listen on {address}: {reason}", address=where,
                          reason=exc.strerror or str(exc))) from None
    return 0


def _file_checks() -> list[str]:
    """Check the records and rooms files before serving: damaged ones are set aside now (and
    every page says so), so the classroom hears of it at the start."""
    from .rooms.stores import ENV, SQLiteStore, default_spec, sqlite_spec_path
    from .sqlite_files import FileTrouble, check_sqlite
    from .ui.records import COLUMNS, default_path

    checks: list[tuple[Path, dict[str, tuple[str, ...]], str]] = [
        (default_path(), {"records": COLUMNS}, "records")]
    try:
        rooms = sqlite_spec_path(config.text(ENV) or default_spec())
    except RuleError:
        rooms = None  # said when the rooms are opened
    if rooms is not None:
        checks.append((rooms, SQLiteStore.TABLES, "rooms"))
    out = []
    for path, tables, what in checks:
        try:
            out.append(check_sqlite(path, tables, what))
        except FileTrouble as exc:  # cannot be opened: said now, and on the pages
            out.append(str(exc))
    return [w for w in out if w]


COMMANDS = {"score": cmd_score, "play": cmd_play, "odds": cmd_odds, "solve": cmd_solve,
            "simulate": cmd_simulate, "serve": cmd_serve, "review": cmd_review,
            "lessons": cmd_lessons}


def main(argv: list[str] | None = None) -> int:
    from .terminal.language import argparse_speaks, chosen

    argv = sys.argv[1:] if argv is None else list(argv)
    before = i18n.default_language()  # (restored below)
    # the language first: the parser's help texts are written when it is built
    i18n.set_language(chosen(argv))
    try:
        with argparse_speaks():
            args = _parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except RuleError as exc:
        print(f"dicelab: {exc}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\n" + _("bye"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. head
        return 0
    finally:
        i18n.set_language(before)  # main() called in-process (tests) leaves no trace


if __name__ == "__main__":
    sys.exit(main())
