"""Head to head (issue 16): `winning` (exact max-win tables) against `optimal` (most points per
turn), vectorised two-seat games, each policy moving first in half of them; win rate of the
first-named with its 95% Wilson interval. Also Thousand's barrel-race rule (RACE_LIKELY in
players.fivedice): `optimal` with and without it, in settings where it applies.

Thousand's default table is not built here (about 9 minutes; README "Chance to win"): its row
is played when the table is cached (``dicelab odds thousand --win --build``); the other rows use
smaller Thousand settings whose tables build in seconds, with every rule in play (opening, a pit,
the barrel with three attempts and a fall, bolts with a penalty).

    .venv/bin/python benchmarks/win_duels.py [games per matchup, default 200000] [race|bones]

``bones``: only the Bones rows, the default rules (target 10,000, min on board 600: its table
is read from the cache folder, or built once, under a minute) among them.
``race``: only the race-rule table: `optimal` with the rule forced on against `optimal`
without it, at several chances of finishing from the barrel (the rule's RACE_LIKELY threshold
turns it on from 50%).
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from _table import print_table  # noqa: E402

from dicelab.lab import wilson  # noqa: E402
from dicelab.lab import win as duels  # noqa: E402
from dicelab.odds import fivedice as fd  # noqa: E402
from dicelab.odds import win, win_thousand  # noqa: E402
from dicelab.settings import ThousandSettings  # noqa: E402

THOUSAND = {
    "T150 (barrel 100, pit 25-50)": dict(target=150, barrel=100, pits=[(25, 50)], barrel_fall=50,
                                        bolt_penalty=50),
    "T200 (barrel 150, pit 50-100)": dict(target=200, barrel=150, pits=[(50, 100)],
                                         barrel_fall=50, bolt_penalty=50),
    "T150 race (barrel 130, pit 25-50)": dict(target=150, barrel=130, pits=[(25, 50)],
                                             barrel_fall=50, bolt_penalty=50),
}


def duel(play, a, b, n, seed):
    """Win rate of policy a against b over n games, each moving first in half."""
    half = n // 2
    x = play((a, b), half, seed=seed)
    y = play((b, a), n - half, seed=seed + 1)
    k = int((x.winners == 0).sum() + (y.winners == 1).sum())
    lo, hi = wilson(k, n)
    return k / n, lo, hi


def race_table(n):
    """Does rolling on to the barrel pay, by the chance the other finishes from it?"""
    rows = []
    for barrel in (100, 110, 120, 125, 130):
        cfg = ThousandSettings(target=150, barrel=barrel, pits=[(25, 50)], barrel_fall=50,
                               bolt_penalty=50)
        r = cfg.turn_rules()
        finish = fd.reach_chance(r, r.target - r.barrel, on_barrel=True, banked=r.barrel)
        plain = duels.thousand_optimal_policy(cfg, race=False)
        forced = duels.race_policy(plain, r, likely=0.0)

        def play(pols, games, seed, r=r):
            return duels.play_thousand(pols, games, r, seed=seed)
        p, lo, hi = duel(play, forced, plain, n, 31)
        rows.append((f"T150, barrel {barrel}", f"{finish:.1%}", n, f"{p:.4f}",
                     f"[{lo:.4f}, {hi:.4f}]", "helps" if lo > 0.5 else
                     "hurts" if hi < 0.5 else "no difference seen"))
        print(rows[-1], flush=True)
    print_table("Thousand's race rule: optimal with the rule forced on vs without (win rate)",
                ["settings", "other finishes from the barrel", "games", "win rate",
                 "95% interval", "the rule"], rows)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    if sys.argv[2:] == ["race"]:
        return race_table(n)
    rows = []
    if sys.argv[2:] == ["bones"]:
        return bones_rows(n, rows)
    for name, kw in THOUSAND.items():
        cfg = ThousandSettings(**kw)
        r = cfg.turn_rules()
        c0 = time.process_time()
        t = win_thousand.table(cfg, progress=False, cache=False)
        build = time.process_time() - c0
        finish = fd.reach_chance(r, r.target - r.barrel, on_barrel=True, banked=r.barrel)
        wn = duels.thousand_table_policy(t)
        opt = duels.thousand_optimal_policy(cfg)
        plain = duels.thousand_optimal_policy(cfg, race=False)

        def play(pols, games, seed, r=r):
            return duels.play_thousand(pols, games, r, seed=seed)
        label = f"thousand {name}"
        info = (f"{t.st.n} statuses, {t.sweeps} sweeps, {build:.1f} s CPU; first player "
                f"{t.start_chance():.4f}; barrel finish {finish:.1%}")
        print(label, info, flush=True)
        matchups = [("winning vs optimal", wn, opt)]
        from dicelab.players.fivedice import RACE_LIKELY

        if finish >= RACE_LIKELY:   # the race rule applies in these settings
            matchups += [("winning vs optimal without race rule", wn, plain),
                         ("optimal vs optimal without race rule", opt, plain)]
        for what, a, b in matchups:
            p, lo, hi = duel(play, a, b, n, 11)
            rows.append((label, what, n, f"{p:.4f}", f"[{lo:.4f}, {hi:.4f}]",
                         "yes" if lo > 0.5 or hi < 0.5 else "no"))
            print(rows[-1], flush=True)
    default = win_thousand.table_if_cached(ThousandSettings())   # built: odds --win --build
    if default is not None:
        cfg = ThousandSettings()
        r = cfg.turn_rules()

        def play(pols, games, seed, r=r):
            return duels.play_thousand(pols, games, r, seed=seed)
        p, lo, hi = duel(play, duels.thousand_table_policy(default),
                         duels.thousand_optimal_policy(cfg), n, 11)
        rows.append(("thousand default (cached table)", "winning vs optimal", n, f"{p:.4f}",
                     f"[{lo:.4f}, {hi:.4f}]", "yes" if lo > 0.5 or hi < 0.5 else "no"))
        print(rows[-1], flush=True)
    bones_rows(n, rows)


BONES = [(1000, 50), (1000, 600), (10_000, 600)]   # (target, min on board); the last: default


def bones_rows(n, rows):
    for target, mob in BONES:
        default = (target, mob) == (10_000, 600)
        # the default table is kept in the cache folder (built once, under a minute)
        t = win.table("bones", progress=False, cache=default, target=target, min_on_board=mob)
        ev = duels.ev_policy(fd.FiveDiceRules("bones", min_on_board=mob))
        wn = duels.table_policy(t)

        def play(pols, games, seed, mob=mob, target=target):
            return duels.play(pols, games, target=target, min_on_board=mob, seed=seed)
        p, lo, hi = duel(play, wn, ev, n, 21)
        rows.append((f"bones {target:,}, min on board {mob}", "winning vs optimal", n,
                     f"{p:.4f}", f"[{lo:.4f}, {hi:.4f}]",
                     "yes" if lo > 0.5 or hi < 0.5 else "no"))
        print(rows[-1], flush=True)
    print_table("Head to head, two seats (win rate of the first-named, each first in half)",
                ["game", "matchup", "games", "win rate", "95% interval", "excludes 50%"], rows)


if __name__ == "__main__":
    main()
