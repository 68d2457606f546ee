"""A page's URL query values, read safely (the app's ``?room=``, ``?lang=``..., the analysis
board's ``?game=``)."""
from __future__ import annotations

import logging
import unicodedata

import panel as pn


def url_arg(name: str, most: int = 200):
    """A URL query value as text; a value that is not UTF-8 (``?room=%FF``) or longer than
    ``most`` is ignored with a log line: the page opens as if it were not there."""
    args = getattr(pn.state, "session_args", None) or {}
    v = args.get(name)
    if not v:
        return None
    try:
        text = v[0].decode()
    except UnicodeDecodeError:
        logging.getLogger("dicelab").warning("ignored URL value %s=%r: not UTF-8", name, v[0][:40])
        return None
    if len(text) > most or any(unicodedata.category(c)[0] == "C" for c in text):
        logging.getLogger("dicelab").warning("ignored URL value %s=%r", name, text[:40])
        return None
    return text
