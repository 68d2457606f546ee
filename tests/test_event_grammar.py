"""Every event text for a person seat shown as "You" and for a named seat (issue 13.3): "You
stand / You win / You bust", "Ann stands / Ann wins / Ann busts".

The same seeded game is played twice, the first seat named "You" and then "Ann": the dice and
the computers' choices do not depend on names, so the histories pair up event by event, and the
"You" text must be the "Ann" text with the verbs of its subject in the plural form (written out
here by hand, independently of the games' own word list)."""
from __future__ import annotations

import re

import pytest

from dicelab import Roll, Score
from dicelab.games import Seat, new_game
from dicelab.games import yahtzee as yahtzee_game
from dicelab.i18n import english
from dicelab.players import make_player

from .conftest import set_state

PLURAL = {"stands": "stand", "banks": "bank", "wins": "win", "busts": "bust", "rolls": "roll",
          "scores": "score", "falls": "fall", "gets": "get", "loses": "lose", "hits": "hit",
          "stops": "stop", "reaches": "reach", "starts": "start", "earns": "earn", "is": "are",
          "has": "have"}
THIRD = "|".join(PLURAL)


def as_you(text: str) -> str:
    """Ann's text as it must read for "You"."""
    text = re.sub(r"^Ann's", "Your", text)
    text = re.sub(r"\bAnn's", "your", text)
    text = re.sub(r"\bAnn\b", "You", text)
    return re.sub(rf"\b(You|and) ({THIRD})\b", lambda m: f"{m[1]} {PLURAL[m[2]]}", text)


def histories(variant, strategy, seed, **settings):
    out = []
    for name in ("You", "Ann"):
        g = new_game(variant, [Seat(name, make_player(variant, strategy), strategy=strategy),
                               Seat("Bob", make_player(variant, strategy), strategy=strategy)],
                     seed=seed, **settings)
        g.play_computers(max_actions=50_000)
        out.append(g.history)
    return out


CASES = [("bones", "chicken", s, {"target": 2000}) for s in range(3)] + \
        [("thousand", "aggressive", s, {"target": 400, "barrel": 340, "bolts_per_penalty": 2,
                                         "barrel_attempts": 1 + 2 * (s % 2)})
         for s in range(6)] + \
        [("under40", "threshold", s, {"target": 200}) for s in range(4)] + \
        [("yahtzee", "optimal", s, {}) for s in range(4)]


def test_every_event_text_agrees_with_you_and_a_name():
    kinds: dict[str, set] = {}
    for variant, strategy, seed, settings in CASES:
        you, ann = histories(variant, strategy, seed, **settings)
        assert len(you) == len(ann)
        for e_you, e_ann in zip(you, ann):
            assert e_you.kind == e_ann.kind
            if e_ann.seat == 0 or "Ann" in e_ann.text:
                assert e_you.text == as_you(english(e_ann.text)), (variant, e_ann.text)
                if e_ann.seat == 0:
                    kinds.setdefault(variant, set()).add(e_ann.kind)
                    assert not re.search(rf"\bYou ({THIRD})\b", english(e_you.text)), e_you.text
    # the kinds that carry a verb of their own were all seen
    assert {"stand", "roll", "bust"} <= kinds["bones"]
    assert {"stand", "win", "barrel", "barrel_attempt", "fall", "bolt", "penalty",
            "roll"} <= kinds["thousand"], kinds["thousand"]
    assert {"roll", "bust", "stop", "round_won", "win", "round"} <= kinds["under40"]
    assert {"roll", "reroll", "score", "upper_bonus", "win"} <= kinds["yahtzee"]


@pytest.mark.parametrize("name, earns, whose", [("You", "You earn", "Your"),
                                                ("Ann", "Ann earns", "Ann's")])
def test_yahtzee_bonus_and_a_full_card(rig, name, earns, whose):
    from dicelab.rules.yahtzee import BOXES

    g = new_game("yahtzee", [name], seed=1)
    # every box filled but Sixes, the Yahtzee box holding 50: five sixes score Sixes and a bonus
    card = tuple(None if b == "sixes" else (50 if b == "yahtzee" else 0) for b in BOXES)
    set_state(g, cards=(card,))
    rig(yahtzee_game).add((6, 6, 6, 6, 6))
    g.apply(Roll())
    text = " ".join(english(e.text) for e in g.apply(Score("sixes")))
    assert f"{earns} a Yahtzee bonus of 100" in text, text
    assert f"{whose} card is full" in text, text
