"""Command-line options of Thousand's settings (dicelab odds and simulate)."""
from __future__ import annotations

from ..errors import RuleError
from ..i18n import L_, _


def thousand_options(s) -> None:
    """Thousand settings the win table and the lab take on the command line."""
    s.add_argument("--barrel", type=int, default=None, help=_("thousand: the barrel's total"))
    s.add_argument("--pits", default=None,
                   help=_("thousand: e.g. 200-300,600-700 ('none': no pit)"))
    s.add_argument("--barrel-fall", type=int, default=None,
                   help=_("thousand: points lost on falling"))
    s.add_argument("--bolt-penalty", type=int, default=None,
                   help=_("thousand: 0, 50, 100, ..."))


def thousand_settings(args) -> dict:
    """The Thousand settings given by ``thousand_options`` (only those given)."""
    out = {k: getattr(args, k) for k in ("barrel", "barrel_fall", "bolt_penalty")
           if getattr(args, k, None) is not None}
    if getattr(args, "pits", None) is not None:
        out["pits"] = [] if args.pits == "none" else [_pit(p) for p in args.pits.split(",")]
    return out


def _pit(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split("-"))
    except ValueError:
        raise RuleError(L_("--pits: a pit is low-high, e.g. 200-300, got {text}",
                           text=repr(text))) from None
    return lo, hi
