"""The language of the ``dicelab`` command (issue 18): ``--lang``, else the environment; and
argparse's own words ("usage:", "options:", "error:") in that language.

argparse takes its words from the stdlib's ``gettext`` (module-level ``_`` and ``ngettext``),
which has no French or Russian catalog; :func:`argparse_speaks` routes them through dicelab's
catalogs while a parser is built and used (the msgids below are Python 3.11's).
"""
from __future__ import annotations

import argparse
import contextlib
import os
from typing import Iterator

from .. import config
from .. import i18n
from ..i18n import Ln_, N_, _


# argparse's messages that a person may read (extracted into the cli catalog)
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"), N_("unrecognized arguments: %s"),
    N_("expected one argument"), N_("expected at most one argument"),
    N_("expected at least one argument"), N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"), N_("unexpected option string: %s"),
)
ARGPARSE_PLURALS = (Ln_("expected %s argument", "expected %s arguments", 1),)


def requested(argv: list[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` in ``argv`` (as typed), or None."""
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif word.startswith("--lang="):
            found = word[len("--lang="):]
    return found


def chosen(argv: list[str], environ: dict | None = None) -> str:
    """The language to speak: a valid ``--lang``, else DICELAB_LANG, else LANGUAGE / LC_ALL /
    LC_MESSAGES / LANG, else English. (An invalid ``--lang`` is refused by the parser, in the
    environment's language.)"""
    env = dict(os.environ) if environ is None else environ
    return (i18n.normalize(requested(argv)) or i18n.normalize(config.text("DICELAB_LANG", env))
            or i18n.from_environment(env))


def language_option(value: str) -> str:
    """argparse ``type`` of ``--lang``: 'fr', 'fr_FR.UTF-8' -> 'fr'; a clear error otherwise."""
    code = i18n.normalize(value)
    if code is None:
        raise argparse.ArgumentTypeError(
            _("unknown language {lang}: choose one of {choices}", lang=repr(value),
              choices=", ".join(i18n.LANGUAGES)))
    return code


def add_language_option(parser: argparse.ArgumentParser, default=None) -> None:
    parser.add_argument("--lang", type=language_option, default=default,
                        metavar="{" + ",".join(i18n.LANGUAGES) + "}",
                        help=_("language of the messages (default: from LANG)"))


def _gettext(message):
    if not isinstance(message, str):
        return message  # argparse passes None for a missing description
    return i18n.translations(i18n.language()).gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return i18n.translations(i18n.language()).ngettext(singular, plural, n)


@contextlib.contextmanager
def argparse_speaks() -> Iterator[None]:
    """argparse's words in the current language inside the block (restored after it)."""
    # argparse's module globals from gettext, which typeshed does not list
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _gettext, _ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
