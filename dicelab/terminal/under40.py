"""Hot-seat Under40 in the terminal: ``dicelab play under40 [--players "Ann,Bob"] [--seed N]``."""
from __future__ import annotations

import sys

from ..actions import Roll, Stand
from ..errors import RuleError
from ..games.under40 import GOAL, Under40Game
from ..settings import Under40Settings
from . import coach

DEFAULT_PLAYERS = "Player 1,Player 2"
COMMANDS = {"r": "roll", "roll": "roll", "s": "stop", "stop": "stop", "stand": "stop",
            "q": "quit", "quit": "quit", "h": "coach", "help": "help", "?": "help"}
HELP = ("Type r (or roll) to roll both dice, s (or stop) to stop with your round score, "
        "h for the coach's advice, q to quit.")


def players(text: str | None) -> list[str]:
    """The names of a --players value ("Ann,Bob"); a name may not appear twice."""
    names = [n.strip() for n in (text or DEFAULT_PLAYERS).split(",") if n.strip()]
    seen = set()
    for n in names:
        key = " ".join(n.split()).lower()
        if key in seen:
            raise RuleError(f"two players are named {n!r}: hot-seat play needs different names")
        seen.add(key)
    return names


def make_game(args) -> Under40Game:
    target = getattr(args, "target", None)
    settings = Under40Settings() if target is None else Under40Settings(target=target)
    return Under40Game(players(getattr(args, "players", None)), settings,
                       getattr(args, "seed", None))


def play(args, stdin=None, stdout=None) -> int:
    """Play one game; 0 when it was played to the end, quit or the input ran out (as the
    other terminal games).
    ``stdin``/``stdout`` default to sys.stdin/sys.stdout at call time."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game = make_game(args)
    coached = getattr(args, "coach", False)

    def say(text: str = "") -> None:
        print(text, file=stdout)

    say(f"Under40: roll two dice to get as close to {GOAL} as you can without going over. "
        f"First to {game.settings.target:,} at the end of a round wins.")
    say(rolloff_text(game))
    say(HELP)
    new_turn = True
    while not game.is_over:
        st = game.state
        name = game.names[st.current]
        if new_turn:
            say()
            say(table(game))
            say(standing_line(game))
            new_turn = False
        prompt = (f"{name} ({st.round_scores[st.current]}/{GOAL}), "
                  + ("r roll / s stop" if game.may_stop else "r to roll") + " > ")
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            say()
            say("Input ended: game abandoned.")
            say(totals_line(game))
            return 0
        command = COMMANDS.get(line.strip().lower())
        if command is None:
            typed = line.strip()
            say(f"Warning: {f'{typed!r} is not a move' if typed else 'no move typed'}. {HELP}")
            continue
        if command == "help":
            say(HELP)
            say(game.hint())
            continue
        if command == "coach":
            say(coach.hint(game))
            continue
        if command == "quit":
            say("Game abandoned.")
            say(totals_line(game))
            return 0
        action = Roll() if command == "roll" else Stand()
        line = coach.judged(game, action) if coached else None
        try:
            events = game.apply(action)
        except RuleError as exc:
            say(f"You may not {command} now. {exc}.")
            continue
        if line:
            say(line)
        for e in events:
            say(e.text)
            if e.kind == "round_won" and not game.is_over:
                say(totals_line(game))
        if game.state.phase == "roll":
            new_turn = True
        elif not game.is_over:
            say(game.hint())
    say(totals_line(game))
    say()
    say(f"{game.names[game.winner]} wins the game after {game.state.round} "
        f"round{'s' if game.state.round != 1 else ''}.")
    if coached:
        say()
        say(coach.review_text(game))
    return 0


def rolloff_text(game: Under40Game) -> str:
    parts = []
    for i, rolls in enumerate(game.rolloff):
        shown = ", ".join(f"{game.names[s]} {a}+{b} = {a + b}" for s, (a, b) in rolls.items())
        parts.append(("Seating roll-off: " if i == 0 else "Tie for highest, they roll again: ")
                     + shown + ".")
    return " ".join(parts) + f" {game.names[game.state.starter]} starts."


def table(game: Under40Game) -> str:
    st = game.state
    width = max(len("player"), *(len(n) for n in game.names))
    rows = [f"Round {st.round} (started by {game.names[st.starter]})",
            f"  {'player':<{width}}  {'round':>6}  {'status':<8}  {'total':>7}"]
    for i, name in enumerate(game.names):
        mark = ">" if i == st.current else " "
        rows.append(f"{mark} {name:<{width}}  {st.round_scores[i]:>3}/{GOAL}  {st.status[i]:<8}  "
                    f"{st.totals[i]:>7,}")
    if st.pot:
        rows.append(f"  Busted scores so far, for the last player left: {st.pot}")
    return "\n".join(rows)


def standing_line(game: Under40Game) -> str:
    """Who leads the round and what the player on turn must beat to stop."""
    st = game.state
    name = game.names[st.current]
    leader = game.leader()
    if leader is None:
        return f"Nobody has stopped yet: {name} may stop after any roll under {GOAL}."
    return (f"{game.names[leader]} leads the round with {st.round_scores[leader]}: "
            f"{name} must beat {game.must_beat()} to stop.")


def totals_line(game: Under40Game) -> str:
    shown = ", ".join(f"{n} {t:,}" for n, t in zip(game.names, game.state.totals))
    return f"Totals: {shown} (target {game.settings.target:,})."
