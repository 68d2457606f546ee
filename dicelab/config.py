"""Every ``DICELAB_*`` environment variable dicelab reads, in one place (issue 34): its type,
default, bounds and help. Modules read them through ``value`` (or ``text`` for the few that
check the text themselves and refuse it with an error of their own); an invalid value gives
one clear warning and the default. The docs' table of them (docs/reference/environment.md) is
``markdown_table()`` (tests/test_config.py fails when the two differ)."""
from __future__ import annotations

# i18n: developer tool (the docs' table and log lines)

import logging
import math
import os
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True)
class Var:
    """One environment variable: ``kind`` is "text", "bool", "int", "float" or "choice"."""

    name: str
    kind: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> Any:
        """``text`` as this variable's value; ValueError (saying why) when it is not one."""
        t = text.strip()
        if self.kind == "text":
            return t
        if self.kind == "bool":
            if t.lower() in TRUE:
                return True
            if t.lower() in FALSE:
                return False
            raise ValueError(f"is not one of {', '.join(TRUE + FALSE)}")
        if self.kind == "choice":
            if t.lower() in self.choices:
                return t.lower()
            raise ValueError(f"is not one of {', '.join(self.choices)}")
        v = float(t) if self.kind == "float" else int(t)  # ValueError when not a number
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("is not a finite number")
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            raise ValueError(f"is not from {_number(self.low)} to {_number(self.high)}")
        return v

    def bounds(self) -> str:
        if self.choices:
            return " / ".join(c for c in self.choices if c)
        if self.kind == "bool":
            return "1 / 0"
        if self.low is not None:
            return f"{_number(self.low)} to {_number(self.high)}"
        return ""


def _number(x: float | None) -> str:
    if x is None:  # no bound on that side (every bounded variable has both today)
        return "any"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


_S = 86400.0  # a day, in seconds
VARS: dict[str, Var] = {v.name: v for v in (
    # where things are kept
    Var("DICELAB_ROOMS", "text", "",
        "the network games' store: `memory`, `sqlite:///path/rooms.db` or "
        "`redis://host:port/db` (default: SQLite in the user data folder)"),
    Var("DICELAB_RECORDS", "text", "",
        "the records file (default: `records.sqlite3` in the user data folder)"),
    # what a page looks like
    Var("DICELAB_CDN", "bool", False,
        "a notebook loads Bokeh and Panel from their CDN instead of inline"),
    Var("DICELAB_SOUND", "bool", None,
        "sound on or off in every page (default: each page's own setting; `?sound=` wins)"),
    Var("DICELAB_LANG", "text", "",
        "the language of the command line and the default of pages (`en`, `fr`, `ru`; "
        "default: the environment's, then the browser's)"),
    # network games
    Var("DICELAB_JOIN_URL", "text", "",
        "the address students' browsers reach the server at, for the rooms' links to join "
        "(e.g. `http://192.168.1.20:5006`; `dicelab serve --origin` sets it; default: the "
        "page's own address, or this machine's network address when the page is `localhost`)"),
    Var("DICELAB_ROOM_PACE", "float", 0.8, "seconds per computer action in a room", 0, 60),
    Var("DICELAB_ROOM_GRACE", "float", 120.0,
        "seconds a seat may be away on turn before a computer takes it over", 0, _S),
    Var("DICELAB_MAX_ROOMS", "int", 500, "games in the lobby at most", 1, 10**6),
    Var("DICELAB_MAX_ROOMS_PER_CLIENT", "int", 20, "games created from one address at most",
        1, 10**6),
    Var("DICELAB_KEEP_FINISHED", "float", 3600.0,
        "seconds a finished game stays in the lobby", 1, 366 * _S),
    Var("DICELAB_IDLE", "float", 21600.0,
        "seconds a game nobody changed stays in the lobby", 1, 366 * _S),
    # classes (issue 36)
    Var("DICELAB_CLASS_STUDENTS", "int", 60, "students in one class at most", 1, 10_000),
    Var("DICELAB_MAX_CLASSES", "int", 50,
        "classes a server holds at most (ended or idle ones do not count)", 1, 10**6),
    Var("DICELAB_CLASS_CODE_TRIES", "int", 10,
        "wrong class codes a minute from one address (ten times as many from all); more are "
        "refused until the minute is up", 1, 10**6),
    # limits of a served app: one client must not take the server (issue 33)
    Var("DICELAB_PAGE_RATE", "int", 120,
        "page requests a minute from one address (as many at once); more wait a second and "
        "get a short refusal", 1, 10**6),
    Var("DICELAB_SESSIONS_PER_ADDRESS", "int", 100,
        "open pages from one address at most; more get a page saying so", 1, 10**6),
    Var("DICELAB_SESSIONS_MAX", "int", 400, "open pages in all at most", 1, 10**6),
    Var("DICELAB_LOAD_TIMEOUT", "float", 60.0,
        "seconds a page may take to finish loading; then its session is closed", 5, 3600),
    Var("DICELAB_MESSAGE_RATE", "int", 60,
        "messages a second from one page (twice as many at once); more are dropped and "
        "counted in the log once a minute", 1, 10**6),
    Var("DICELAB_ROOM_MAX_ACTIONS", "int", 5000,
        "actions in one room's log at most: more are refused (a one-seat game of Bones "
        "never ends)", 10, 10**7),
    # odds and estimates
    Var("DICELAB_ESTIMATE_SHARE", "float", 0.25,
        "the part of one core live win estimates may take (0: none; at least 0.05, at most 1)"),
    Var("DICELAB_ESTIMATE_WORKER", "choice", "",
        "where play-outs run: `process` (default on POSIX) or `thread`",
        choices=("", "process", "thread")),
    Var("DICELAB_WIN_BUILD", "choice", "",
        "`off`: never start building a win table in the background", choices=("", "off")),
    # tests
    Var("DICELAB_SLOW", "bool", False, "`make test` runs the slow tests too"),
)}


def text(name: str, environ=None) -> str | None:
    """The variable's text as set (None when unset); ``name`` must be one of ``VARS``."""
    VARS[name]  # KeyError for a name nobody documented
    return (os.environ if environ is None else environ).get(name)


_warned: set[tuple[str, str]] = set()


def value(name: str, environ=None) -> Any:
    """The variable's value: its default when unset or empty, and when invalid (with one
    warning per name and text)."""
    var = VARS[name]
    raw = text(name, environ)
    if raw is None or (not raw.strip() and var.kind != "text"):
        return var.default
    try:
        return var.parse(raw)
    except ValueError as exc:
        if (name, raw) not in _warned:
            _warned.add((name, raw))
            why = str(exc) if not str(exc).startswith(("could not", "invalid")) \
                else "is not a number"
            log.warning("%s=%r %s; using %r", name, raw[:60], why, var.default)
        return var.default


TABLE_MARKS = ("<!-- environment variables: dicelab.config.markdown_table() -->",
               "<!-- end of the environment variables -->")


def markdown_table() -> str:
    """The docs' table of the environment variables (between its ``TABLE_MARKS``)."""
    rows = ["| Variable | Type | Default | Range | What it sets |",
            "|---|---|---|---|---|"]
    for v in VARS.values():
        default = "" if v.default in ("", None) else (
            ("1" if v.default else "0") if v.kind == "bool" else _number(v.default)
            if isinstance(v.default, (int, float)) else str(v.default))
        rows.append(f"| `{v.name}` | {v.kind} | {default} | {v.bounds()} | {v.help} |")
    return "\n".join(rows) + "\n"
