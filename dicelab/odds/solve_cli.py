"""``dicelab solve yahtzee [--rules R] [--json]``: the optimal expected score of a rule set.

R is a preset of YahtzeeSettings (official, seed, upper_bonus_only, no_bonus), optionally with
overrides after a colon, ``official:rerolls=3,joker=false``, or overrides alone (on official):
``upper_bonus=0``. The table is solved once (a few seconds) and then loaded from the cache.
"""
from __future__ import annotations

import json
import sys
import time

import param

from ..errors import RuleError
from ..settings import YahtzeeSettings

TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}


def parse_rules(text: str) -> YahtzeeSettings:
    """``preset[:name=value,...]`` or ``name=value,...`` as YahtzeeSettings (RuleError if bad)."""
    text = str(text).strip()
    if ":" in text:
        preset, _, rest = text.partition(":")
    elif "=" in text:
        preset, rest = "", text
    else:
        preset, rest = text, ""
    preset = preset.strip().lower().replace("-", "_") or None
    if preset is not None and preset not in YahtzeeSettings.PRESETS:
        raise RuleError(f"unknown Yahtzee rules {preset!r}; the presets are "
                        f"{', '.join(YahtzeeSettings.PRESETS)}, optionally followed by "
                        f"overrides such as official:rerolls=3,joker=false")
    names = [n for n in YahtzeeSettings.names() if n != "preset"]
    overrides = {}
    for item in filter(None, (i.strip() for i in rest.split(","))):
        name, eq, raw = (x.strip() for x in item.partition("="))
        name = name.lower().replace("-", "_")
        if not eq or not raw:
            raise RuleError(f"a rules override is name=value, got {item!r}")
        if name not in names:
            raise RuleError(f"Yahtzee has no setting {name!r}; the settings are "
                            f"{', '.join(names)}")
        if name in overrides:
            raise RuleError(f"the setting {name} is given twice")
        overrides[name] = _value(name, raw)
    return YahtzeeSettings(preset=preset, **overrides)


def _value(name: str, raw: str):
    par = YahtzeeSettings.param[name]
    if isinstance(par, param.Boolean):
        if raw.lower() in TRUE:
            return True
        if raw.lower() in FALSE:
            return False
        raise RuleError(f"the setting {name} is true or false, got {raw!r}")
    try:
        return int(raw)
    except ValueError:
        raise RuleError(f"the setting {name} is a whole number, got {raw!r}") from None


def describe(s: YahtzeeSettings) -> str:
    parts = [f"{s.rerolls} re-roll{'s' if s.rerolls != 1 else ''}"]
    parts.append(f"upper bonus {s.upper_bonus} at {s.upper_bonus_threshold}"
                 if s.upper_bonus else "no upper bonus")
    parts.append(f"Yahtzee bonus {s.yahtzee_bonus}" if s.yahtzee_bonus else "no Yahtzee bonus")
    parts.append("forced joker" if s.joker else "no joker")
    return ", ".join(parts)


def solve_command(args) -> int:
    from .yahtzee import solve

    settings = parse_rules(args.rules)
    t = time.perf_counter()
    table = solve(settings, progress=not args.json and sys.stderr.isatty())
    seconds = time.perf_counter() - t
    if args.json:
        print(json.dumps({"expected_score": table.expected_score, "seconds": seconds,
                          "rules": settings.to_dict()}))
    else:
        print(f"Yahtzee, {settings.preset} rules ({describe(settings)})")
        print(f"optimal expected score: {table.expected_score:.4f}")
        print(f"in {seconds:.2f} s")
    return 0
