"""Hot-seat Under40 in the terminal: ``dicelab play under40 [--players "Ann,Bob"] [--seed N]``."""
from __future__ import annotations

import sys

from .. import i18n
from ..actions import Roll, Stand
from ..errors import RuleError
from ..games.under40 import GOAL, Under40Game
from ..settings import Under40Settings
from ..i18n import L_, N_, _, n_
from . import coach
from .fivedice import default_names

COMMANDS = {"r": "roll", "roll": "roll", "s": "stop", "stop": "stop", "stand": "stop",
            "q": "quit", "quit": "quit", "h": "coach", "help": "help", "?": "help"}
# the keys stay r s h q in every language; the words around them are translated
HELP = L_("Type r (or roll) to roll both dice, s (or stop) to stop with your round score, "
          "h for the coach's advice, q to quit.")
STATUS = {"waiting": N_("waiting"), "rolling": N_("rolling"), "stopped": N_("stopped"),
          "busted": N_("busted")}


def players(text: str | None) -> list[str]:
    """The names of a --players value ("Ann,Bob"); a name may not appear twice."""
    names = [n.strip() for n in (text.split(",") if text else default_names()) if n.strip()]
    seen = set()
    for n in names:
        key = " ".join(n.split()).lower()
        if key in seen:
            raise RuleError(_("two players are named {name}: hot-seat play needs different "
                              "names", name=repr(n)))
        seen.add(key)
    return names


def make_game(args) -> Under40Game:
    settings = Under40Settings(**Under40Settings.given(args))  # the rules options (cli.py)
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

    def say(text="") -> None:
        print(i18n.text(text), file=stdout)

    say(_("Under40: roll two dice to get as close to {goal} as you can without going over. "
          "First to {target} at the end of a round wins.", goal=GOAL,
          target=game.settings.target))
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
        score = f"{st.round_scores[st.current]}/{GOAL}"
        prompt = (_("{name} ({score}), r roll / s stop > ", name=name, score=score)
                  if game.may_stop else _("{name} ({score}), r to roll > ", name=name,
                                          score=score))
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            say()
            say(_("Input ended: game abandoned."))
            say(totals_line(game))
            return 0
        command = COMMANDS.get(line.strip().lower())
        if command is None:
            typed = line.strip()
            say(_("Warning: {typed} is not a move. {help}", typed=repr(typed), help=HELP)
                if typed else _("Warning: no move typed. {help}", help=HELP))
            continue
        if command == "help":
            say(HELP)
            say(game.hint())
            continue
        if command == "coach":
            say(coach.hint(game))
            continue
        if command == "quit":
            say(_("Game abandoned."))
            say(totals_line(game))
            return 0
        action = Roll() if command == "roll" else Stand()
        line = coach.judged(game, action) if coached else None
        try:
            events = game.apply(action)
        except RuleError as exc:
            say((_("You may not roll now. {reason}.", reason=str(exc)) if command == "roll"
                 else _("You may not stop now. {reason}.", reason=str(exc))))
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
    say(n_("{name} wins the game after {n} round.", "{name} wins the game after {n} rounds.",
           game.state.round, name=game.names[game.winner]))
    if coached:
        say()
        say(coach.review_text(game))
    return 0


def rolloff_text(game: Under40Game) -> str:
    parts = []
    for i, rolls in enumerate(game.rolloff):
        shown = ", ".join(f"{game.names[s]} {a}+{b} = {a + b}" for s, (a, b) in rolls.items())
        parts.append(_("Seating roll-off: {rolls}.", rolls=shown) if i == 0
                     else _("Tie for highest, they roll again: {rolls}.", rolls=shown))
    return " ".join(parts + [_("{name} starts.", name=game.names[game.state.starter])])


def table(game: Under40Game) -> str:
    st = game.state
    player, round_, status, total = _("player"), _("round"), _("status"), _("total")
    shown = [i18n.tr(STATUS.get(x, x)) for x in st.status]
    width = max(len(player), *(len(n) for n in game.names))
    swidth = max(8, len(status), *(len(x) for x in shown))
    rows = [_("Round {round} (started by {name})", round=st.round, name=game.names[st.starter]),
            f"  {player:<{width}}  {round_:>6}  {status:<{swidth}}  {total:>7}"]
    for i, name in enumerate(game.names):
        mark = ">" if i == st.current else " "
        rows.append(f"{mark} {name:<{width}}  {st.round_scores[i]:>3}/{GOAL}  "
                    f"{shown[i]:<{swidth}}  {i18n.number(st.totals[i]):>7}")
    if st.pot:
        rows.append("  " + _("Busted scores so far, for the last player left: {pot}",
                             pot=st.pot))
    return "\n".join(rows)


def standing_line(game: Under40Game) -> str:
    """Who leads the round and what the player on turn must beat to stop."""
    st = game.state
    name = game.names[st.current]
    leader = game.leader()
    if leader is None:
        return _("Nobody has stopped yet: {name} may stop after any roll under {goal}.",
                 name=name, goal=GOAL)
    return _("{leader} leads the round with {score}: {name} must beat {beat} to stop.",
             leader=game.names[leader], score=st.round_scores[leader], name=name,
             beat=game.must_beat())


def totals_line(game: Under40Game) -> str:
    shown = ", ".join(f"{n} {i18n.number(t)}" for n, t in zip(game.names, game.state.totals))
    return _("Totals: {totals} (target {target}).", totals=shown, target=game.settings.target)
