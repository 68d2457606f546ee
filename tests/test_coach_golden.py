"""The coach's values and the review's outputs, pinned (issue 34: the coach restructured with
its behaviour unchanged).

Seeded games between computer players, every variant (and the sources each one adds: two-seat
Bones' win column, Under40's last stretch, Yahtzee's last round); for each game the review's
text (en, fr, ru), CSV, JSON (every option's value, full precision), HTML, every entry's line
and the hint before each decision are hashed and compared with ``tests/data/coach_golden.json``.
By default the first 2 games of each case run (seconds); DICELAB_SLOW=1 runs all 220.
A deliberate change of what the coach says (a sentence, a translation) is recorded again with
``--write`` (say so in the commit); any other difference is a regression.

    python -m tests.test_coach_golden --write        # record the hashes again
    python -m tests.test_coach_golden --dump DIR     # the full outputs, to diff two versions
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import dicelab
from dicelab import i18n
from dicelab.games import Seat
from dicelab.players import make_player

GOLDEN = Path(__file__).parent / "data" / "coach_golden.json"
GAMES = 50
QUICK = 2
# case -> (variant, computers, settings): targets small enough that the exact win tables build
# on the spot (the review's columns do not depend on what the user's cache holds)
CASES = {
    "bones": ("bones", ["chicken", "gambler"], {"target": 2000}),
    "bones3": ("bones", ["chicken", "gambler", "aggressive"], {"target": 2000}),
    "bones_keepers": ("bones", ["threshold", "gambler"],
                      {"target": 2000, "choose_keepers": True}),
    "thousand": ("thousand", ["threshold", "aggressive"], {}),
    "under40": ("under40", ["cautious", "threshold"], {}),
    "yahtzee": ("yahtzee", ["greedy", "skill"], {"preset": "no_bonus"}),
}
GAMES_OF = {"bones": GAMES, "bones3": 10, "bones_keepers": 10, "thousand": GAMES,
            "under40": GAMES, "yahtzee": GAMES}


def game(case: str, seed: int):
    variant, specs, settings = CASES[case]
    seats = [Seat(f"{s} {i + 1}", make_player(variant, s), strategy=s)
             for i, s in enumerate(specs)]
    g = dicelab.new_game(variant, seats, seed=seed, **settings)
    return g


def outputs(case: str, seed: int) -> dict[str, str]:
    """Everything the coach says about one seeded game, as text."""
    from dicelab import coach

    g = game(case, seed)
    hints = []
    while not g.is_over and g.version < 2000:
        hints.append(coach.hint_text(g) or "")
        g.apply(g.computer_action())
    r = coach.review(g, luck=False)  # the decisions' outputs (the luck: test_coach_luck.py)
    out = {"csv": r.to_csv(), "json": r.to_json(sort_keys=True), "html": r._repr_html_(),
           "lines": "\n".join(e.line() for e in r), "hints": "\n".join(hints),
           "repr": repr(r)}
    for lang in ("en", "fr", "ru"):
        with i18n.using(lang):
            out[f"text_{lang}"] = r.text()
    return out


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def _win_cache(tmp_path_factory):
    from dicelab.odds import win

    # test_coach_win.py's folder and targets: one build of each table per test run
    saved = win.cache_dir
    win.cache_dir = lambda: tmp_path_factory.getbasetemp() / "win-cache"
    yield
    win.cache_dir = saved


SEEDS = [pytest.param(c, s, marks=[pytest.mark.slow] if s > QUICK else [])
         for c in CASES for s in range(1, 1 + GAMES_OF[c])]


@pytest.mark.parametrize("case,seed", SEEDS)
def test_review_outputs_unchanged(case, seed, _win_cache):
    want = json.loads(GOLDEN.read_text())[case][str(seed)]
    got = {k: digest(v) for k, v in outputs(case, seed).items()}
    assert got == want, "changed on purpose? python -m tests.test_coach_golden --write"


def _main(argv: list[str]) -> None:
    import tempfile

    from dicelab.odds import win

    tmp = tempfile.mkdtemp()
    win.cache_dir = lambda: Path(tmp)
    dump = Path(argv[argv.index("--dump") + 1]) if "--dump" in argv else None
    golden: dict = {}
    for case in CASES:
        golden[case] = {}
        for seed in range(1, GAMES_OF[case] + 1):
            out = outputs(case, seed)
            golden[case][str(seed)] = {k: digest(v) for k, v in out.items()}
            if dump:
                folder = dump / case / str(seed)
                folder.mkdir(parents=True, exist_ok=True)
                for k, v in out.items():
                    (folder / k).write_text(v)
        print(case, len(golden[case]), flush=True)
    if "--write" in argv:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    _main(sys.argv[1:])
