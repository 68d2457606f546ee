"""Yahtzee in the terminal, as seed 004 describes it (docs/explanation/rules.md "Yahtzee").

Each round: the dice drawn with their positions; "Re-roll some dice? (y/n)"; 'y' asks which
positions to roll again, 'n' moves on to scoring; the box is typed by name; invalid input gets a
warning and the same prompt again; naming a filled box wastes the round. At the end the whole
card and the total are shown. One player.
"""
from __future__ import annotations

import re
import sys

from .. import i18n
from ..errors import RuleError
from ..games.yahtzee import YahtzeeGame
from ..rules.yahtzee import BOXES, LABELS, UPPER, box_name
from ..settings import YahtzeeSettings
from . import coach
from .console import Console
from ..i18n import _, n_, p_

# pip rows of one die face: (top, middle, bottom)
_PIPS = {
    1: ("       ", "   o   ", "       "),
    2: (" o     ", "       ", "     o "),
    3: (" o     ", "   o   ", "     o "),
    4: (" o   o ", "       ", " o   o "),
    5: (" o   o ", "   o   ", " o   o "),
    6: (" o   o ", " o   o ", " o   o "),
}
_EDGE = "+-------+"
_WIDTH = 16  # box label column (wider when a language's labels are longer)


_InputEnded = EOFError  # what Console.ask raises when the input has ended



def dice_art(dice) -> str:
    """The dice side by side, with their positions 1..5 under them."""
    rows = [" ".join(_EDGE for _d in dice)]
    for r in range(3):
        rows.append(" ".join(f"|{_PIPS[d][r]}|" for d in dice))
    rows.append(rows[0])
    rows.append(" ".join(f"{i:^9}" for i in range(1, len(dice) + 1)).rstrip())
    return "\n".join(rows)


def parse_positions(text: str) -> tuple[int, ...] | None:
    """0-based positions from "1 3 5", "1,3,5" or "135"; None if the answer is not valid."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    digits = [ch for t in tokens for ch in t]
    if not digits or any(ch not in "12345" for ch in digits) or len(set(digits)) != len(digits):
        return None
    return tuple(sorted(int(ch) - 1 for ch in digits))


def label(box: str) -> str:
    """A box's name as shown, in the current language."""
    return i18n.text(i18n.tr(LABELS[box]))


def _width() -> int:
    return max(_WIDTH, max(len(label(b)) for b in BOXES) + 2)


def _box_typed(text: str) -> str | None:
    """The box a typed name means (case and spacing ignored), or None: the name shown (in
    the current language) or the English one."""
    try:
        return box_name(text)
    except RuleError:
        squeezed = "".join(text.lower().split())
        for b in BOXES:
            for name in (label(b), i18n.text(LABELS[b])):
                if "".join(name.lower().split()) == squeezed:
                    return b
        return None


def _answer(text: str, english: str, word: str, letter: str) -> bool:
    """y/yes or n/no typed in English or in the current language."""
    return text in (english, english[0], word.lower(), letter.lower())


def describe_rules(s: YahtzeeSettings) -> str:
    parts = [n_("{n} re-roll a round", "{n} re-rolls a round", s.rerolls)]
    if s.upper_bonus:
        parts.append(_("upper bonus {bonus} at {threshold}", bonus=s.upper_bonus,
                       threshold=s.upper_bonus_threshold))
    if s.yahtzee_bonus:
        parts.append(_("Yahtzee bonus {bonus}", bonus=s.yahtzee_bonus))
    if not s.upper_bonus and not s.yahtzee_bonus:
        parts.append(_("no bonuses"))
    parts.append(_("forced joker") if s.joker else _("no joker"))
    return ", ".join(parts)


class TerminalYahtzee(Console):
    """One console game; reads lines from ``stdin`` and writes to ``stdout``."""

    def __init__(self, game: YahtzeeGame, stdin, stdout, coached: bool = False):
        super().__init__(stdin, stdout)
        self.game = game
        self.coached = coached

    def apply(self, action: str):
        """Apply a typed action; with --coach say first what it cost."""
        line = coach.judged(self.game, action) if self.coached else None
        events = self.game.apply(action)
        if line:
            self.say(line)
        return events

    def warn(self, text: str) -> None:
        self.say(_("Warning: {problem}", problem=text))

    # ----- one round -----------------------------------------------------------------------
    def play_round(self, number: int) -> None:
        g = self.game
        left = len(g.open_boxes())
        self.say()
        self.say(n_("=== Round {round}: {name}, {n} box to fill ===",
                    "=== Round {round}: {name}, {n} boxes to fill ===", left, round=number,
                    name=g.names[g.current_player]))
        g.apply("roll")
        while self.want_reroll():
            self.apply(self.ask_reroll())
        self.score()

    def want_reroll(self) -> bool:
        """Show the dice; True if the player chooses to re-roll some of them."""
        g = self.game
        self.say()
        self.say(dice_art(g.dice))
        left = g.rerolls_left
        if not left:
            self.say(_("No re-rolls left: choose a box to score these dice."))
            return False
        while True:
            # y / n, or the letters the prompt shows in the user's language (o/n, д/н)
            answer = self.ask(n_("Re-roll some dice? (y/n) [{n} re-roll left]: ",
                                 "Re-roll some dice? (y/n) [{n} re-rolls left]: ", left)).lower()
            if _answer(answer, "yes", p_("answer", "yes"), p_("answer", "y")):
                return True
            if _answer(answer, "no", p_("answer", "no"), p_("answer", "n")):
                return False
            if answer == "h":
                self.say(coach.hint(g))
                continue
            self.warn(_("{answer} is not a valid answer: type y to choose dice to re-roll, "
                        "or n to keep these dice and score them.", answer=repr(answer)))

    def ask_reroll(self) -> str:
        while True:
            answer = self.ask(_("Which dice to re-roll? Positions 1 to 5 (e.g. 1 3 5): "))
            positions = parse_positions(answer)
            if positions is not None:
                return "reroll " + " ".join(str(p + 1) for p in positions)
            self.warn(_("{answer} is not a valid choice: type die positions from 1 to 5, "
                        "each once, like 1 3 5, 1,3,5 or 135.", answer=repr(answer)))

    def show_card(self) -> None:
        g = self.game
        options = g.options_now()
        w = _width()
        self.say()
        box_, card_, dice_ = _("Box"), _("Card"), _("These dice")
        cw, dw = max(5, len(card_)), max(10, len(dice_))
        self.say(f"  {box_:<{w}}{card_:>{cw}}  {dice_:>{dw}}")
        for box, value in g.card().items():
            card = "-" if value is None else str(value)
            now = str(options[box]) if box in options else ""
            self.say(f"  {label(box):<{w}}{card:>{cw}}  {now:>{dw}}".rstrip())
            if box == UPPER[-1] and g.settings.upper_bonus:
                upper = _("Upper total")
                self.say(f"  {upper:<{w}}{g.upper_total():>{cw}}  "
                         + _("(bonus {bonus} at {threshold})", bonus=g.settings.upper_bonus,
                             threshold=g.settings.upper_bonus_threshold))
        forced = [b for b in g.open_boxes() if b not in options]
        if forced:
            allowed = ", ".join(label(b) for b in options)
            self.say(_("Forced joker rule: this Yahtzee may go only in {boxes}.",
                       boxes=allowed))

    def score(self) -> None:
        g = self.game
        self.show_card()
        while True:
            answer = self.ask(_("Score in which box? Type its name as shown (e.g. {box}): ",
                                box=label("full_house")))
            if answer.lower() == "h":
                self.say(coach.hint(g))
                continue
            box = _box_typed(answer)
            if box is None:
                self.warn(_("{answer} is not a box: type one of the names in the list, "
                            "e.g. {chance} or {full_house}.", answer=repr(answer),
                            chance=label("chance"), full_house=label("full_house")))
                continue
            try:
                events = self.apply(f"score {box}")
            except RuleError as exc:  # a box the forced joker rule does not allow
                self.warn(f"{exc}.")
                continue
            for e in events:
                if e.kind == "wasted":
                    self.say(_("*** The {box} box is already filled: no score this round, the "
                               "round is wasted. ***", box=label(box)))
                elif e.kind not in ("win", "tie"):
                    self.say(e.text)
            return

    # ----- the game ------------------------------------------------------------------------
    def final_card(self) -> None:
        g = self.game
        seat = 0
        self.say()
        w = _width()
        self.say(_("Final card for {name}:", name=g.names[seat]))
        for box, value in g.card(seat).items():
            self.say(f"  {label(box):<{w}}{value:>5}")
            if box == UPPER[-1]:
                upper, bonus = _("Upper total"), _("Upper bonus")
                self.say(f"  {upper:<{w}}{g.upper_total(seat):>5}")
                self.say(f"  {bonus:<{w}}{g.upper_bonus(seat):>5}")
        yahtzee_bonus, total = _("Yahtzee bonus"), _("Total")
        self.say(f"  {yahtzee_bonus:<{w}}{g.yahtzee_bonus(seat):>5}")
        self.say(f"  {total:<{w}}{g.total(seat):>5}")
        wasted = g.state.wasted[seat]
        if wasted:
            self.say(n_("{n} round played, {wasted} wasted on a filled box.",
                        "{n} rounds played, {wasted} wasted on a filled box.", g.state.turn,
                        wasted=wasted))
        else:
            self.say(n_("{n} round played.", "{n} rounds played.", g.state.turn))

    def run(self) -> int:
        number = 0
        try:
            while not self.game.is_over:
                number += 1
                self.play_round(number)
        except _InputEnded:
            g = self.game
            self.say()
            self.say(_("Input ended: game abandoned with {filled} of 13 boxes filled, total "
                       "{total}. Replay it with --seed {seed}.",
                       filled=13 - len(g.open_boxes()), total=g.total(), seed=str(g.seed)))
            return 0
        self.final_card()
        if self.coached:
            self.say()
            self.say(coach.review_text(self.game))
        return 0


def play(args, stdin=None, stdout=None) -> int:
    """``dicelab play yahtzee [--rules official|seed] [--seed N] [--players NAME]``.

    ``stdin``/``stdout`` default to the process's own; returns the exit status.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    names = [n.strip() for n in (getattr(args, "players", None) or "").split(",") if n.strip()]
    if len(names) > 1:
        raise RuleError(_("terminal Yahtzee is for one player; got {n} names", n=len(names)))
    given = YahtzeeSettings.given(args)  # the rules options (cli.py)
    preset = given.pop("preset", None) or getattr(args, "rules", None) or "official"
    given.setdefault("filled_box_wastes_round", True)  # seed 004's console
    settings = YahtzeeSettings(preset=preset, **given)
    game = YahtzeeGame(names or [_("Player")], settings, getattr(args, "seed", None))
    ui = TerminalYahtzee(game, stdin, stdout, coached=getattr(args, "coach", False))
    ui.say(_("Yahtzee, {preset} rules ({rules}); seed {seed}.", preset=preset,
             rules=describe_rules(settings), seed=str(game.seed)))
    ui.say(_("Fill all 13 boxes; naming a box already filled wastes the round; h asks the "
             "coach. Ctrl-D quits."))
    return ui.run()
