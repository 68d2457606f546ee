"""The registry of computer players: (variant or "*", name) -> factory(spec), and the spec
parser the factories share. Its own module so that the modules defining players register them
without importing the package that loads those modules."""
from __future__ import annotations

from typing import Callable

import param

from ..errors import RuleError
from ..i18n import L_, Joined

# (variant or "*", name) -> factory(spec); a spec is "name" or "name:options"
REGISTRY: dict[tuple[str, str], Callable[[str], object]] = {}


def register(variant: str, name: str):
    def deco(factory):
        REGISTRY[(variant, name)] = factory
        return factory
    return deco


def spec_value(spec: str, cls, pname: str, flags: tuple[str, ...] = ()):
    """The number after the name in a spec such as "threshold:300" or "skill:0.5" (the param's
    default when absent), checked against ``cls``'s param ``pname`` (bounds; step for whole
    numbers); further ":flag" parts must be among ``flags``. Returns (value, set of flags)."""
    par = cls.param[pname]
    low, high = par.bounds
    step = getattr(par, "step", None)
    whole = isinstance(par, param.Integer)
    name, *rest = str(spec).split(":")
    given = set(rest[1:])
    try:
        value = (int if whole else float)(rest[0]) if rest else par.default
    except ValueError:
        value = None
    ok = (value is not None and low <= value <= high and given <= set(flags)
          and len(given) == len(rest[1:]) and not (whole and step and (value - low) % step))
    if not ok:
        what = {"spec": f"{name}:{pname[0].upper()}", "setting": pname, "low": low,
                "high": high, "got": repr(spec)[:100]}
        if whole and step and step > 1:
            text = L_("{spec} takes {setting} from {low} to {high} in steps of {step}{options}, "
                      "got {got}", step=step, options=Joined(
                          [L_(" (and optionally :{flag})", flag=f) for f in flags], ""), **what)
        else:
            text = L_("{spec} takes {setting} from {low} to {high}{options}, got {got}",
                      options=Joined([L_(" (and optionally :{flag})", flag=f) for f in flags],
                                     ""), **what)
        raise RuleError(text)
    return value, given
