"""Thin adapter from dicelab.odds to what the odds panel and the hint line show.

Only lookups here; the maths is in dicelab.odds. A module that is truly missing gives None, and
the panel says "odds not available". The readouts are kept for one state of the game (the hint
and the panel share them), so they hold numbers, and their sentences are lazy (``L_``): each
renders in the language of the moment it is shown.
"""
from __future__ import annotations

import importlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ..errors import RuleError
from ..i18n import L_, Msg


def odds_module(name: str):
    """dicelab.odds.<name>, or None if it does not exist (yet)."""
    try:
        return importlib.import_module(f"dicelab.odds.{name}")
    except ImportError:
        return None


@dataclass
class FiveDiceOdds:
    readout: object                     # odds.fivedice.TurnReadout
    counting: list[float]               # chance of >= 1 counting die with 1..5 dice
    dice_now: int                       # dice the next roll throws
    reach_label: str = ""               # what reach_amount stands for, in words
    win: object | None = None           # odds.win.WinReadout (two-seat Bones), if the table is in
    win_note: str = ""                  # why there is no chance to win (yet)
    final: tuple[int, int, float] | None = None  # Bones final turn: (turn total that passes the
    #                                     leader, the leader's total, chance to reach it now)
    race: tuple[float, int, float] | None = None  # Thousand's race (players.fivedice.race_action):
    #   (the opponent's chance to finish next turn, turn total that reaches the barrel, chance now)


@dataclass
class Under40Odds:
    score: int
    beat: int
    dist: list[tuple[int, float]]       # points of the next roll -> chance
    bust: float
    exact: float
    above: float | None                 # chance to get above the best standing score
    roll_win: float | None = None       # chance to win the round by rolling (then best play)
    stop_win: float | None = None
    decision: str | None = None
    players: int = 2                    # players still in the round


@dataclass
class YahtzeeOdds:
    rows: list[dict] = field(default_factory=list)  # box, label, now, chance, value
    best: str | None = None
    start_value: float | None = None    # before the first roll: expected points to come
    advice_best: tuple | None = None    # the best play for points: ("box", b) / ("keep", dice)
    advice_value: float | None = None   # what it is worth
    holding: tuple | None = None        # the dice held now (when the advice knows them)
    holding_value: float | None = None  # (in words: ui.variants.yahtzee.points_note)


def is_sentence(odds) -> bool:
    """Is this readout a sentence saying why there are no numbers?"""
    return isinstance(odds, (str, Msg))


# Readouts of five-dice positions, shared by every page that shows one: after each action of a
# network game all the pages of its room show the same position (each on its own copy of the
# game), so the readout is computed once per room state, not once per page. Keyed by what it
# reads (rules, game state, the set-aside choice); what differs per viewer (seat, language) is
# added when drawing. Not shared: two-seat games with a chance to win, read from a table
# that may be built, or dropped from memory, meanwhile (each page reads it, as before).
_SHARED: OrderedDict = OrderedDict()
_SHARED_MAX = 256
_shared_lock = threading.Lock()


def fivedice_odds(play, win=None, race=None) -> FiveDiceOdds | str:
    """The readout of the position the person sees now (their set-aside choice included);
    ``win`` and ``race``: the variant's extra readouts (``bones_win_odds``,
    ``thousand_race``)."""
    mod = odds_module("fivedice")
    if mod is None:
        return L_("odds not available (dicelab.odds.fivedice is missing)")
    g = play.game
    key = None
    if win is None or g.n_seats != 2:
        try:
            key = (g.variant, repr(sorted(vars(g.config).items())), g.n_seats, g.state, win,
                   race, play.keep_positions() if play.choosing and play.keep is not None
                   else None)
            hash(key)
        except Exception:  # a state that cannot be a key: computed for this page alone
            key = None
    with _shared_lock:
        out = _SHARED.get(key) if key is not None else None
        if out is not None:
            _SHARED.move_to_end(key)
            return out
    out = _fivedice_odds(mod, play, win, race)
    if key is not None and isinstance(out, FiveDiceOdds) and not out.win_note:
        with _shared_lock:  # (not while a table is being built: its chance comes later)
            _SHARED[key] = out
            while len(_SHARED) > _SHARED_MAX:
                _SHARED.popitem(last=False)
    return out


def _fivedice_odds(mod, play, win, race) -> FiveDiceOdds | str:
    g = play.game
    st = g.state
    if g.is_over:
        return L_("the game is over")
    try:
        counting = [mod.counting_chance(g.config, n) for n in range(1, 6)]
        state = st
        if play.choosing and play.keep is not None:
            try:
                state = g.state_after_keep(play.keep_positions())
            except RuleError as exc:  # a choice the rules refuse: say why, show no numbers
                return L_("no odds for this choice: {why}",
                          why=str(exc).split(': ', 1)[-1])
        ro = mod.readout_for(g.config, state)
        win_now, note, final = win(g, state, ro, mod) if win else (None, "", None)
    except Exception as exc:  # an unusual position the tables do not cover
        return L_("odds not available here ({why})", why=str(exc))
    # the barrel race is a rule of thumb: where the exact chance to win is there, it speaks
    racing = race(g, state, ro, mod) if race and win_now is None else None
    return FiveDiceOdds(ro, counting, ro.dice_left, g.stand_goal(), win_now, note, final,
                        racing)


def thousand_race(g, state, ro, mod):
    """Thousand: an opponent on the barrel who probably wins next turn makes a stand short of
    the barrel worthless; what reaching the barrel needs and its chance this turn."""
    from ..players.fivedice import RACE_LIKELY, opponent_finish_chance

    if state.on_barrel[state.current]:
        return None
    p = opponent_finish_chance(g.view())
    if p < RACE_LIKELY:
        return None
    seat = state.current
    must = max(g.config.barrel - state.totals[seat], ro.need)
    chance = mod.reach_chance(g.config, must, state.turn_total, state.dice_left,
                              on_board=state.on_board[seat], banked=state.totals[seat])
    return p, must, chance


def bones_win_odds(g, state, ro, mod):
    """Bones: the chance to win (two seats, exact, when the table is built: its build runs in
    another process the first time) and, in a final turn, what must be reached."""
    seat = state.current
    final = None
    if getattr(state, "final_from", None) is not None:
        leader = max(t for i, t in enumerate(state.totals) if i != seat)
        must = max(leader - state.totals[seat] + 50, ro.need, 50)
        chance = mod.reach_chance(g.config, must, state.turn_total, state.dice_left,
                                  on_board=state.on_board[seat])
        final = (must, leader, chance)
    if g.n_seats != 2:
        return None, "", final
    wg = odds_module("win_game")
    if wg is None:
        return None, "", final
    try:
        table = wg.table_for(g)
    except RuleError:  # rules the solver takes not (a target below the minimum on board)
        return None, "", final
    if table is None:
        note = L_("chance to win: the exact table is being built") if wg.is_exact(g) else ""
        return None, note, final
    return wg.readout(g, state, table), "", final


def thousand_win_odds(g, state, ro, mod):
    """Thousand: the exact chance to win of a two-seat game whose table is cached (it is
    never built for a page: odds.win_game); else nothing (the page shows the estimate)."""
    wg = odds_module("win_game")
    table = wg.table_for(g) if wg is not None else None
    if table is None:
        return None, "", None
    return wg.readout(g, state, table), "", None


def under40_odds(game) -> Under40Odds | str:
    mod = odds_module("under40")
    if mod is None:
        return L_("odds not available (dicelab.odds.under40 is missing)")
    if game.is_over:
        return L_("the game is over")
    st = game.state
    seat = st.current
    score = st.round_scores[seat]
    beat = game.must_beat()
    try:
        dist = [(x, float(p)) for x, p in mod.roll_distribution().items()]
        out = Under40Odds(score, beat, dist, float(mod.bust_chance(score)),
                          float(mod.exact_40_chance(score)),
                          float(mod.above_chance(score, beat)) if beat < 40 else None)
        ro = mod.readout(score, game.round_others())
        out.roll_win = float(ro.roll_win)
        out.stop_win = None if ro.stop_win is None else float(ro.stop_win)
        out.decision = ro.decision
        out.players = len(ro.others) + 1
    except Exception as exc:
        return L_("odds not available here ({why})", why=str(exc))
    return out


def _yahtzee_table(mod, game, play):
    """The solved table of this game's rules, or None while the server's shared worker solves
    it (the first time for these rules; then a disk cache makes it quick), or the exception
    that stopped it. The tables live in the solver's bounded cache, not here."""
    table = mod.cached(game.settings)
    if table is not None:
        return table
    import panel as pn

    from ..odds.worker import WORKER

    doc = pn.state.curdoc
    settings = game.settings.copy()

    def done(result):
        play.solve_done(result if isinstance(result, Exception) else None)
        if doc is not None and getattr(doc, "session_context", None) is not None:
            doc.add_next_tick_callback(play.odds_ready)
        else:
            play.odds_ready()
    error = play.solve_error
    if error is not None:  # the solve failed: say so (a new game of these rules tries again)
        return error
    key = mod.rules_key(settings)
    if WORKER.position(key) is None or play.solve_asked != key:
        try:
            WORKER.submit(key, lambda: mod.solve(settings, progress=False, elsewhere=True),
                          done)
        except RuleError as exc:
            return exc
        play.ask_solve(key)
    return None


def yahtzee_odds(play) -> YahtzeeOdds | str:
    """Per-box chances and option values from dicelab.odds.yahtzee (solitaire optimal play)."""
    mod = odds_module("yahtzee")
    if mod is None or not hasattr(mod, "solve"):
        return L_("odds not available (dicelab.odds.yahtzee is missing)")
    g = play.game
    if g.is_over:
        return L_("the game is over")
    table = _yahtzee_table(mod, g, play)
    if table is None:
        from ..odds.worker import WORKER

        ahead = WORKER.position(mod.rules_key(g.settings))
        if ahead:
            return L_("computing the optimal Yahtzee table (first time for these rules; {n} "
                      "ahead in the queue)…", n=ahead)
        return L_("computing the optimal Yahtzee table (first time for these rules)…")
    if isinstance(table, Exception):
        return L_("odds not available ({why})", why=str(table))
    try:
        return _yahtzee_rows(table, g, play.held)
    except Exception as exc:
        return L_("odds not available here ({why})", why=str(exc))


def _yahtzee_rows(table, game, held) -> YahtzeeOdds:
    seat = game.current_player
    st = game.state
    card = game.card(seat)
    open_boxes = game.open_boxes(seat)
    upper = game.upper_total(seat)
    ybox = card["yahtzee"]
    if not st.rolls:
        v = table.value((frozenset(open_boxes), upper, ybox))
        rows = [{"box": b, "now": "", "chance": None, "value": None} for b in open_boxes]
        return YahtzeeOdds(rows, None, start_value=v)
    adv = table.advise(open_boxes, upper, ybox, st.dice, game.rerolls_left)
    rows = [{"box": b, "now": adv.points.get(b, ""), "chance": adv.chances.get(b),
             "value": adv.boxes.get(b)} for b in open_boxes]
    kind, what = adv.best
    best = what if kind == "box" else None
    out = YahtzeeOdds(rows, best, advice_best=adv.best, advice_value=adv.value)
    if adv.keeps and held is not None:
        mine = tuple(sorted(st.dice[i] for i in held))
        if mine in adv.keeps:
            out.holding, out.holding_value = mine, adv.keeps[mine]
    r = _yahtzee_race(game)  # the last box against others: the play to win (words.yahtzee_note)
    if r is not None and r.differs:
        kind, what = r.choice
        out.best = what if kind == "box" else None
    out.advice = adv
    out.race = r
    return out


def _yahtzee_race(game):
    """The last-box win readout (dicelab.odds.yahtzee_race), None where it does not apply."""
    mod = odds_module("yahtzee_race")
    try:
        return mod.race(game) if mod is not None else None
    except Exception:  # a card the race does not cover: the points advice stands alone
        return None
