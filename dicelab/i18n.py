"""Every word a person reads, in their language: English, French or Russian (issue 18).

Messages are marked in the code and looked up in gettext catalogs
(``dicelab/locale/<lang>/LC_MESSAGES/<domain>.mo``, compiled from the ``.po`` files by
``make messages``; see ``dicelab/i18n_catalogs.py``). The markers, which Babel extracts:

- ``_("You stand.")``: the message now, in the current language; keyword arguments fill its
  ``{placeholders}``, numbers written the language's way ("10,000", "10 000").
- ``n_("{n} die", "{n} dice", n)``: the plural form the language needs for ``n``
  (Russian has three: "1 кость / 2 кости / 5 костей").
- ``p_("verb", "Roll")``: one word used in two senses, told apart by a context.
- ``L_(...)`` / ``Ln_(...)``: the same, but *lazy*: a :class:`Msg` that renders when it is
  shown, in the language of whoever reads it. Games keep their history this way, so a network
  room shows each person their own language.
- ``N_("Bones")``: only marks a message for extraction (tables built at import time);
  translate it with ``tr(value)`` where it is shown (or keep ``L_`` Msg objects in the table).

The current language is the one set by :func:`using` (a context), else the one a registered
resolver gives (the app registers the Panel session's language), else the process default
(:func:`set_language`; the terminal sets it from ``--lang`` or ``LANG``). Names and anything a
person typed go in as placeholder values, which are never translated.
"""
from __future__ import annotations

import contextlib
import contextvars
import gettext
import math
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from . import config

# each language's own name, the same in every language (the menu lists them so)
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "ru": "Русский"}  # i18n: not shown
DEFAULT = "en"
LOCALE_DIR = Path(__file__).with_name("locale")

_context: contextvars.ContextVar[str | None] = contextvars.ContextVar("dicelab_lang",
                                                                      default=None)
_resolvers: list[Callable[[], str | None]] = []
_default = DEFAULT


def normalize(lang: str | None) -> str | None:
    """'fr', 'fr-FR', 'fr_CA.UTF-8', 'RU' -> 'fr' / 'ru'; None for a language we do not have."""
    if not lang or not isinstance(lang, str):
        return None
    code = lang.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The first language of an HTTP Accept-Language header (or ``navigator.languages``,
    comma-joined) that dicelab speaks, by the order of preference the header gives."""
    if not header:
        return None
    ranked = []
    for i, part in enumerate(header.split(",")):
        tag, _sep, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        ranked.append((-weight, i, tag))
    for _w, _i, tag in sorted(ranked):
        if (code := normalize(tag)) is not None:
            return code
    return None


def from_environment(environ: dict | None = None) -> str:
    """The language of a terminal: LANGUAGE, LC_ALL, LC_MESSAGES, then LANG (as gettext reads
    them); English when none names a language dicelab speaks."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # i18n: not shown
        for tag in (env.get(var) or "").split(":"):
            if tag in ("C", "POSIX"):
                return DEFAULT
            if (code := normalize(tag)) is not None:
                return code
    return DEFAULT


def set_language(lang: str) -> None:
    """The process's default language (the terminal and the CLI)."""
    global _default
    _default = _checked(lang)


def default_language() -> str:
    """The process's default language (what :func:`set_language` set last)."""
    return _default


def _checked(lang: str) -> str:
    code = normalize(lang)
    if code is None:
        raise ValueError(_("unknown language {lang}: choose one of {languages}",
                           lang=repr(lang), languages=", ".join(LANGUAGES)))
    return code


def add_resolver(resolver: Callable[[], str | None]) -> None:
    """Register a function giving the language of whoever is being served now (or None)."""
    if resolver not in _resolvers:
        _resolvers.append(resolver)


def language() -> str:
    """The language messages render in right now."""
    lang = _context.get()
    if lang is not None:
        return lang
    for resolver in _resolvers:
        found = resolver()
        if found is not None:
            return found
    return _default


@contextlib.contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Render in ``lang`` inside the block (None: leave the language as it is)."""
    if lang is None:
        yield language()
        return
    token = _context.set(_checked(lang))
    try:
        yield _context.get()
    finally:
        _context.reset(token)


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """Every catalog (domain) of ``lang`` chained into one; English is the messages themselves."""
    found: gettext.NullTranslations = gettext.NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    if lang == DEFAULT or not folder.is_dir():
        return found
    chain = None
    for mo in sorted(folder.glob("*.mo")):
        with open(mo, "rb") as f:
            catalog = gettext.GNUTranslations(f)
        if chain is None:
            chain = catalog
        else:
            chain.add_fallback(catalog)
    return chain if chain is not None else found


def number(value: Any, lang: str | None = None) -> str:
    """A number written the language's way: 10,000 / 10 000 / 10 000; 0.5 / 0,5."""
    lang = lang or language()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return _format_decimal(value, lang)


@lru_cache(maxsize=4096)
def _format_decimal(value: int | float, lang: str) -> str:
    from babel.numbers import format_decimal

    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # nan, inf: a refusal quoting what it was given must still render
    try:
        return format_decimal(value, locale=lang)
    except (ArithmeticError, ValueError):  # (a hostile 10**400 overflows Babel's decimals)
        return str(value)


def fixed(value: float, digits: int = 2, lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals and grouped thousands, the language's way
    (1,234.50 / 1 234,50 / 1 234,50): the one fixed-decimals formatter (the coach, the
    terminal, the lab and the app's tables). Babel writes it from the float's exact value, so
    it rounds as Python's own format does: 2.675 is stored as 2.67499..., and prints "2.67"
    in every language (Babel given the shortest form "2.675" would round it up)."""
    if value != value:
        return "nan"
    return _format_fixed(float(value), digits, lang or language())


@lru_cache(maxsize=4096)
def _format_fixed(value: float, digits: int, lang: str) -> str:
    from decimal import Decimal

    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(Decimal(value), format=pattern, locale=lang)


def percent(value: float, digits: int = 0, lang: str | None = None) -> str:
    """A chance as a percentage the language's way: 41% / 41 % / 41 %."""
    return _format_percent(value, digits, lang or language())


@lru_cache(maxsize=4096)  # every page of a room shows the same chances after each action
def _format_percent(value: float, digits: int, lang: str) -> str:
    from babel.numbers import format_percent

    return format_percent(value, format=_percent_pattern(lang, digits), locale=lang)


@lru_cache(maxsize=None)
def _percent_pattern(lang: str, digits: int) -> str:
    # the language's own pattern keeps its space before % ("41 %"), with ``digits`` decimals
    from babel import Locale

    pattern = Locale.parse(lang).percent_formats[None].pattern
    return pattern.replace("#,##0", "#,##0." + "0" * digits, 1) if digits else pattern


def _fill(text: str, params: dict[str, Any], lang: str) -> str:
    if not params:
        return text
    shown = {}
    for key, value in params.items():
        if isinstance(value, Msg):
            shown[key] = value.render(lang)
        elif isinstance(value, bool):
            shown[key] = value
        elif isinstance(value, (int, float)):
            shown[key] = _format_decimal(value, lang)
        else:
            shown[key] = value
    return text.format(**shown)


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, placeholders filled."""
    lang = language()
    return _fill(translations(lang).gettext(message), params, lang)


def n_(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of a message that agrees with ``n`` (also given to it as ``{n}``)."""
    lang = language()
    params.setdefault("n", n)
    return _fill(translations(lang).ngettext(singular, plural, n), params, lang)


def p_(context: str, message: str, /, **params: Any) -> str:
    """``message`` in the sense ``context`` names."""
    lang = language()
    return _fill(translations(lang).pgettext(context, message), params, lang)


def N_(message: str, /) -> str:
    """Marks ``message`` for the catalogs without translating it (translate it where shown,
    with :func:`tr`)."""
    return message


def tr(message: str, /, **params: Any) -> str:
    """A message marked elsewhere with ``N_`` (a table's value), in the current language."""
    lang = language()
    return _fill(translations(lang).gettext(message), params, lang)


class Msg:
    """A message that renders when shown, in the reader's language (see :func:`L_`): its
    message id and parameters, never its characters.

    It compares and hashes as its English text, so code and tests that read game events in
    English keep working (``==``, ``in``, ``startswith``...; ``.english`` for the rest);
    ``str()``, ``print`` and f-strings give the current language. It is not a ``str``, so what
    would show the English characters silently fails instead: ``" ".join([m])`` and
    ``json.dumps(m)`` raise TypeError, ``html.escape(m)`` AttributeError; ``m + "..."``
    keeps the message (a :class:`Joined`, rendered where shown)."""

    __slots__ = ("message", "plural", "n", "params")

    # str methods that only read the English text (they give back no text to show)
    READING = frozenset({"startswith", "endswith", "find", "rfind", "index", "rindex", "count",
                         "isupper", "islower", "isdigit", "isspace"})

    def __init__(self, message: str, params: dict[str, Any] | None = None,
                 plural: str | None = None, n: int | None = None):
        self.message = message
        self.plural = plural
        self.n = n
        self.params = dict(params or {})
        if plural is not None:
            self.params.setdefault("n", n)

    def render(self, lang: str | None = None) -> str:
        lang = lang or language()
        catalog = translations(lang)
        if self.plural is None:
            text = catalog.gettext(self.message)
        else:
            text = catalog.ngettext(self.message, self.plural, self.n)
        return _fill(text, self.params, lang)

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:
        return format(self.render(), spec)

    def __repr__(self) -> str:
        return f"Msg({self.render(DEFAULT)!r})"  # i18n: not shown

    @property
    def english(self) -> str:
        return self.render(DEFAULT)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Msg):
            return self.english == other.english
        if isinstance(other, str):
            return self.english == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.english)

    def __add__(self, other: object) -> Msg:
        if not isinstance(other, (str, Msg)):
            return NotImplemented
        return Joined((self, other), "")

    def __radd__(self, other: object) -> Msg:
        if not isinstance(other, (str, Msg)):
            return NotImplemented
        return Joined((other, self), "")

    def __contains__(self, part: str) -> bool:
        return part in self.english

    def __getattr__(self, name: str):
        if name in Msg.READING:
            return getattr(self.english, name)
        if not name.startswith("_") and hasattr(str, name):
            raise AttributeError(
                f"Msg.{name}: a lazy message has no characters; render it where it is shown "
                f"(str(msg), msg.render(lang)) or read msg.english")  # i18n: not shown
        raise AttributeError(name)

    def __len__(self) -> int:
        return len(self.english)

    def __reduce__(self):
        return (Msg, (self.message, self.params, self.plural, self.n))


class Joined(Msg):
    """Parts (Msg or plain text) joined by a separator with no words (", ", " "), rendered
    part by part in the reader's language: a list of names where one is "You"."""

    def __init__(self, parts, sep: str = ", "):
        super().__init__(sep)
        self.params = {"parts": tuple(parts)}

    def render(self, lang: str | None = None) -> str:
        lang = lang or language()
        return self.message.join(p.render(lang) if isinstance(p, Msg) else str(p)
                                 for p in self.params["parts"])

    def __reduce__(self):
        return (Joined, (self.params["parts"], self.message))


def L_(message: str, /, **params: Any) -> Msg:
    """A lazy message: rendered when shown, in the language of the reader."""
    return Msg(message, params)


def Ln_(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A lazy message with plural forms."""
    return Msg(singular, params, plural, n)


def text(value: Any) -> str:
    """What a person reads for ``value``: a Msg rendered, anything else as ``str``."""
    return value.render() if isinstance(value, Msg) else str(value)


def english(value: Any) -> str:
    """The English text of ``value`` (a Msg, or plain text as it is): what code and tests read
    (regular expressions, joins), never what is shown to a person."""
    return value.english if isinstance(value, Msg) else str(value)


if env_lang := normalize(config.text("DICELAB_LANG")):
    _default = env_lang
