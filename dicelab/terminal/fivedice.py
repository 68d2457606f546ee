"""Hot-seat terminal play of Bones and Thousand (``dicelab play bones|thousand``)."""
from __future__ import annotations

from .. import i18n
from ..actions import Roll, Stand
from ..errors import RuleError
from ..games import new_game
from ..games.base import Seat
from ..settings import SETTINGS
from . import coach
from .console import Console
from ..i18n import L_, _, n_

# the keys stay r s h q in every language; the words around them are translated
HELP = L_("r or . rolls, s or 0 stands, h asks the coach, q quits. With choose_keepers add "
          "the positions of the counting dice to set aside: 'r 1 3'.")


def default_names() -> list[str]:
    """"Player 1", "Player 2" in the current language (names from then on)."""
    return [_("Player {n}", n=1), _("Player {n}", n=2)]


def parse_seats(text: str | None, variant: str, default=None) -> list[Seat]:
    """"Ann,Bob,Cpu=chicken": people by name, computers as name=strategy."""
    from ..players import make_player

    default = default_names() if default is None else default
    names = [n.strip() for n in (text.split(",") if text else default) if n.strip()]
    seats = []
    for n in names:
        if "=" in n:
            name, strategy = (x.strip() for x in n.split("=", 1))
            seats.append(Seat(name, player=make_player(variant, strategy), strategy=strategy))
        else:
            seats.append(Seat(n))
    return seats


def dice_line(dice, mask) -> str:
    top = "  ".join(f"[{d}]" for d in dice)
    marks = "  ".join(" ✓ " if m else "   " for m in mask)
    return f"  {top}\n  {marks.rstrip()}"


class FiveDiceTerminal(Console):
    def __init__(self, game, stdin=None, stdout=None, coached: bool = False):
        super().__init__(stdin, stdout)
        self.game = game
        self.coached = coached

    def title(self) -> str:
        g, c = self.game, self.game.config
        if g.variant == "bones":
            if c.choose_keepers:
                return _("Bones · {preset} rules · on the board at {min} · target {target} · "
                         "you choose the dice to keep", preset=c.preset, min=c.min_on_board,
                         target=c.target)
            return _("Bones · {preset} rules · on the board at {min} · target {target}",
                     preset=c.preset, min=c.min_on_board, target=c.target)
        pits = ", ".join(f"{a}-{b}" for a, b in c.pits) or _("none")
        if not c.barrel:
            return _("Thousand · opening {opening} · pits {pits} · barrel off · target {target}",
                     opening=c.opening, pits=pits, target=str(c.target))
        return _("Thousand · opening {opening} · pits {pits} · barrel {barrel} · "
                 "target {target}", opening=c.opening, pits=pits, barrel=c.barrel,
                 target=str(c.target))

    def status(self, seat: int) -> str:
        g, st = self.game, self.game.state
        if g.variant == "bones":
            return _("on the board") if st.on_board[seat] else _("not on the board")
        s = g.status(seat)
        parts = [_("opened") if s["opened"] else _("not opened")]
        if s["pit"]:
            pit = f"{s['pit'][0]}-{s['pit'][1]}"
            parts.append(_("in the pit {pit} (shovel)", pit=pit))
        if s["on_barrel"]:
            parts.append(n_("on the barrel, {n} attempt left", "on the barrel, {n} attempts left",
                            s["barrel_attempts_left"]))
        if s["bolts"]:
            parts.append(_("bolts {marks} ({n})", marks="⚡" * s["bolts"], n=s["bolts"]))
        return ", ".join(parts)

    def scoreboard(self):
        st = self.game.state
        for i, seat in enumerate(self.game.seats):
            mark = "▶" if i == st.current and not self.game.is_over else " "
            who = _("{name} (computer)", name=seat.name) if seat.is_computer else seat.name
            self.say(f" {mark} {who:<24}{i18n.number(st.totals[i]):>8}   {self.status(i)}")

    def hint(self) -> str:
        g, st = self.game, self.game.state
        need, rule = g.need_to_stand()
        text = "  " + n_("turn total {total} · {n} die to roll",
                         "turn total {total} · {n} dice to roll", st.dice_left,
                         total=st.turn_total)
        if st.hot_dice:
            text += " " + (_("(hot dice: all five again, compulsory)") if g.hot_dice_compulsory
                           else _("(hot dice: all five again)"))
        if st.turn_total < need:
            text += "\n  " + _("To stand you need {need} this turn ({rule}).", need=need,
                               rule=i18n.text(rule).split(": ", 1)[-1])
        elif not (st.hot_dice and g.hot_dice_compulsory):
            text += "\n  " + _("You may stand.")
        return text

    def show_events(self, events):
        for e in events:
            if e.kind in ("roll", "bust"):
                self.say(dice_line(e.data["dice"], e.data["mask"]))
            self.say(e.text)

    def person_turn(self):
        g = self.game
        while True:
            st = g.state
            if st.phase == "decide":
                self.say(self.hint())
            name = g.seats[st.current].name
            if st.phase != "decide":
                prompt = _("{name}, [r]oll? > ", name=name)
            elif any(isinstance(a, Stand) for a in g.legal_actions()):
                prompt = _("{name}, [r]oll again or [s]tand? > ", name=name)
            else:  # offer only what is legal: standing is not allowed yet
                prompt = _("{name}, [r]oll again? > ", name=name)
            answer = self.ask(prompt).lower()
            words = answer.split()
            if not words:
                continue
            head, rest = words[0], words[1:]
            if head in ("q", "quit"):
                raise KeyboardInterrupt
            if head in ("help", "?"):
                self.say(HELP)
                continue
            if head == "h":
                self.say(coach.hint(g))
                continue
            if head in ("r", ".", "roll"):
                kind = Roll
            elif head in ("s", "0", "stand"):
                kind = Stand
            else:
                self.say(_("Please type r to roll or s to stand ({help})", help=HELP))
                continue
            try:
                keep = None
                if rest:
                    digits = [c for w in rest for c in w.replace(",", "") if c != "keep"]
                    if any(not c.isdigit() for c in digits):
                        raise RuleError(_("positions are digits 1 to 5, e.g. 'r 1 3'"))
                    keep = tuple(int(c) - 1 for c in digits)
                action = kind(keep=keep)
                line = coach.judged(g, action) if self.coached else None
                events = g.apply(action)
                if line:
                    self.say(line)
            except RuleError as exc:
                self.say(_("Not allowed: {reason}", reason=str(exc)))
                continue
            return events

    def run(self) -> int:
        g = self.game
        self.say(f"== {self.title()} ==")
        self.say(g.history[0].text)
        turn_seen = -1
        while not g.is_over:
            st = g.state
            if st.turn != turn_seen:
                turn_seen = st.turn
                self.say("")
                self.scoreboard()
                if getattr(st, "final_from", None) is not None:
                    self.say("  " + _("Final turns: this is the last turn for this player."))
                self.say(_("--- {name}'s turn ---", name=g.seats[st.current].name))
            if g.seats[st.current].is_computer:
                events = g.apply(g.computer_action())
            else:
                events = self.person_turn()
            self.show_events(events)
        self.say("")
        self.scoreboard()
        self.say(_("{name} wins with {total}!", name=g.seats[g.winner].name,
                   total=g.state.totals[g.winner]))
        if self.coached:
            self.say("")
            self.say(coach.review_text(g))
        return 0


def play(args, stdin=None, stdout=None) -> int:
    settings = SETTINGS[args.variant].given(args)  # the rules options (cli.py)
    game = new_game(args.variant, parse_seats(args.players, args.variant), seed=args.seed,
                    **settings)
    term = FiveDiceTerminal(game, stdin, stdout, coached=getattr(args, "coach", False))
    try:
        return term.run()
    except (EOFError, KeyboardInterrupt):
        term.say("\n" + _("Game left unfinished. Bye!"))
        return 0
