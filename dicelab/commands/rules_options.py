"""The rules options of ``dicelab play``, ``simulate`` and ``odds``, generated from each variant's
Settings parameters (dicelab.settings): one ``--name`` per parameter, its help from the
parameter's doc, bounds, step, choices and default, so a new setting is on the command line
without a line here. Values are checked by the Settings class itself: a bad value is the same
RuleError as from Python."""
from __future__ import annotations

import argparse
from typing import Any

import param

from ..errors import RuleError
from ..i18n import L_, _, tr
from ..names import variant_name
from ..settings import SETTINGS, Settings

DEST = "rules_options"  # the parsed namespace's list of the options generated here


def option(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_rules_options(parser: argparse.ArgumentParser, variants) -> None:
    """One option per setting of these variants (a name shared by several, such as
    ``--target``, is one option; each variant's help is in it)."""
    by_name: dict[str, list[type[Settings]]] = {}
    for v in variants:
        for name in SETTINGS[v].names():
            by_name.setdefault(name, []).append(SETTINGS[v])
    group = parser.add_argument_group(_("rules (settings of the variant)"))
    for name, classes in by_name.items():
        par = classes[0].param[name]
        helps = "; ".join(f"{c.variant}: {_describe(c.param[name])}" for c in classes)
        helps = helps.replace("%", "%%")  # argparse formats help with %
        if isinstance(par, param.Boolean):
            group.add_argument(option(name), dest=name, default=None,
                               action=argparse.BooleanOptionalAction, help=helps)
        else:
            group.add_argument(option(name), dest=name, default=None, metavar=_metavar(par),
                               help=helps)
    parser.set_defaults(**{DEST: tuple(by_name)})


def _describe(par) -> str:
    text = tr(par.doc) if par.doc else ""
    if isinstance(par, param.Selector):
        text += " " + _("({choices}; default {default})", choices="|".join(map(str, par.objects)),
                        default=str(par.default))
    elif isinstance(par, param.Boolean):
        text += " " + _("(default {default})", default=_("yes") if par.default else _("no"))
    elif isinstance(par, param.List):
        text += " " + _("(e.g. {example}; 'none': no pit; default {default})",
                        example="200-300,600-700", default=_pits_text(par.default))
    elif isinstance(par, param.Integer):
        low, high = par.bounds or (None, None)
        step = getattr(par, "step", None) or 1
        text += " " + (_("({low}..{high} in steps of {step}; default {default})", low=str(low),
                         high=str(high), step=str(step), default=str(par.default))
                       if step > 1 else
                       _("({low}..{high}; default {default})", low=str(low), high=str(high),
                         default=str(par.default)))
    return text.strip()


def _metavar(par) -> str:
    if isinstance(par, param.Selector):
        return "{" + ",".join(map(str, par.objects)) + "}"
    if isinstance(par, param.List):
        return _("LOW-HIGH,...")
    return "N"


def _pits_text(pits) -> str:
    return ",".join(f"{lo}-{hi}" for lo, hi in pits) or "none"


def given(args) -> dict[str, Any]:
    """The rules options given on the command line, by setting name (text as typed)."""
    return {n: getattr(args, n) for n in getattr(args, DEST, ()) if getattr(args, n) is not None}


def rules_settings(variant: str, args) -> dict[str, Any]:
    """The settings of ``variant`` given on the command line, as values its Settings class
    takes (only those given). An option of another variant, or a value that is not a number,
    is a RuleError naming the option."""
    cls = SETTINGS[variant]
    out: dict[str, Any] = {}
    for name, text in given(args).items():
        if name not in cls.param:
            raise RuleError(L_("{option} is not a setting of {game}; its settings are "
                               "{settings}", option=option(name), game=variant_name(variant),
                               settings=", ".join(option(n) for n in cls.names())))
        out[name] = _value(option(name), cls.param[name], text)
    return out


def settings_from_args(variant: str, args) -> Settings:
    """The Settings object these options describe (checked as Python checks it)."""
    values = rules_settings(variant, args)
    return SETTINGS[variant](preset=values.pop("preset", None), **values)


def _value(opt: str, par, text):
    if isinstance(par, param.Boolean):
        return bool(text)
    if isinstance(par, param.Selector):
        return text
    if isinstance(par, param.List):
        return [] if text.strip().lower() == "none" else [_pit(opt, p) for p in text.split(",")]
    try:
        return int(text)
    except ValueError:
        raise RuleError(L_("{option} is a whole number, got {value}", option=opt,
                           value=repr(text)[:60])) from None


def _pit(opt: str, text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split("-"))
    except ValueError:
        raise RuleError(L_("{option}: a pit is low-high, e.g. 200-300, got {text}", option=opt,
                           text=repr(text)[:60])) from None
    return lo, hi
