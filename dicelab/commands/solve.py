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
from ..i18n import _, n_
from ..settings import YahtzeeSettings

TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}


def parse_rules(text: str) -> YahtzeeSettings:
    """``preset[:name=value,...]`` or ``name=value,...`` as YahtzeeSettings (RuleError if bad)."""
    text = str(text).strip()
    if ":" in text:
        preset, _colon, rest = text.partition(":")
    elif "=" in text:
        preset, rest = "", text
    else:
        preset, rest = text, ""
    preset = preset.strip().lower().replace("-", "_") or None
    if preset is not None and preset not in YahtzeeSettings.PRESETS:
        raise RuleError(_("unknown Yahtzee rules {rules}; the presets are {presets}, optionally "
                          "followed by overrides such as official:rerolls=3,joker=false",
                          rules=repr(preset), presets=", ".join(YahtzeeSettings.PRESETS)))
    names = [n for n in YahtzeeSettings.names() if n != "preset"]
    overrides = {}
    for item in filter(None, (i.strip() for i in rest.split(","))):
        name, eq, raw = (x.strip() for x in item.partition("="))
        name = name.lower().replace("-", "_")
        if not eq or not raw:
            raise RuleError(_("a rules override is name=value, got {item}", item=repr(item)))
        if name not in names:
            raise RuleError(_("Yahtzee has no setting {name}; the settings are {names}",
                              name=repr(name), names=", ".join(names)))
        if name in overrides:
            raise RuleError(_("the setting {name} is given twice", name=name))
        overrides[name] = _value(name, raw)
    return YahtzeeSettings(preset=preset, **overrides)


def _value(name: str, raw: str):
    par = YahtzeeSettings.param[name]
    if isinstance(par, param.Boolean):
        if raw.lower() in TRUE:
            return True
        if raw.lower() in FALSE:
            return False
        raise RuleError(_("the setting {name} is true or false, got {value}", name=name,
                          value=repr(raw)))
    try:
        return int(raw)
    except ValueError:
        raise RuleError(_("the setting {name} is a whole number, got {value}", name=name,
                          value=repr(raw))) from None


def describe(s: YahtzeeSettings) -> str:
    parts = [n_("{n} re-roll", "{n} re-rolls", s.rerolls)]
    parts.append(_("upper bonus {bonus} at {threshold}", bonus=s.upper_bonus,
                   threshold=s.upper_bonus_threshold) if s.upper_bonus else _("no upper bonus"))
    parts.append(_("Yahtzee bonus {bonus}", bonus=s.yahtzee_bonus) if s.yahtzee_bonus
                 else _("no Yahtzee bonus"))
    parts.append(_("forced joker") if s.joker else _("no joker"))
    return ", ".join(parts)


def solve_command(args) -> int:
    from ..odds.yahtzee import solve

    settings = parse_rules(args.rules)
    t = time.perf_counter()
    table = solve(settings, progress=not args.json and sys.stderr.isatty())
    seconds = time.perf_counter() - t
    if args.json:
        print(json.dumps({"expected_score": table.expected_score, "seconds": seconds,
                          "rules": settings.to_dict()}))
    else:
        from ..i18n import fixed

        print(_("Yahtzee, {preset} rules ({rules})", preset=settings.preset,
                rules=describe(settings)))
        print(_("optimal expected score: {score}", score=fixed(table.expected_score, 4)))
        print(_("in {seconds} s", seconds=fixed(seconds, 2)))
    return 0
