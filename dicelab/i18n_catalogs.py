"""The message catalogs: extract, update, compile and check them (Babel; issue 18).

``make messages`` (``python -m dicelab.i18n_catalogs update``) extracts the marked messages of
each domain, merges them into ``dicelab/locale/<lang>/LC_MESSAGES/<domain>.po`` (new messages
empty, gone ones dropped) and compiles the ``.mo`` files the app reads. ``check`` lists what a
translator still has to do; the tests fail on the same list, and on user-visible strings in
``dicelab/`` that are not marked (:func:`unmarked`).

Domains split the catalogs by part of the program, so that parts can be translated side by side;
at run time all of a language's domains are one catalog (``dicelab.i18n.translations``).
"""
# i18n: developer tool
from __future__ import annotations

import ast
from datetime import datetime, timezone
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .i18n import DEFAULT, LANGUAGES, LOCALE_DIR

PACKAGE = Path(__file__).parent
KEYWORDS = {"_": None, "N_": None, "L_": None, "n_": (1, 2), "Ln_": (1, 2),
            "p_": ((1, "c"), 2)}
MARKERS = frozenset(KEYWORDS)
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT)

# (domain, path prefixes inside dicelab/): the first that matches a module owns it
DOMAINS: list[tuple[str, tuple[str, ...]]] = [
    ("cli", ("cli.py", "commands/", "coach_cli.py", "terminal/", "lab/", "sqlite_files.py",
             "i18n_catalogs.py")),
    ("odds", ("odds/", "coach/")),
    ("table", ("ui/variants/", "ui/phrases.py", "ui/words.py", "ui/odds_view.py",
               "ui/odds_panel.py", "ui/hint.py", "ui/win_chart.py", "ui/win_estimate.py",
               "ui/coach_view.py", "ui/rules_text.py")),
    ("ui", ("ui/",)),
    ("games", ("",)),
]


def domain_of(path: Path) -> str:
    rel = path.resolve().relative_to(PACKAGE.resolve()).as_posix()
    for domain, prefixes in DOMAINS:
        if any(rel.startswith(p) for p in prefixes):
            return domain
    raise AssertionError(rel)


def modules(domain: str | None = None) -> list[Path]:
    found = sorted(p for p in PACKAGE.rglob("*.py") if ".venv" not in p.parts)
    return [p for p in found if domain is None or domain_of(p) == domain]


def template(domain: str):
    """The catalog of every message marked in ``domain``'s modules."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    catalog = Catalog(domain=domain, project="dicelab", fuzzy=False)
    for path in modules(domain):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        for lineno, message, comments, context in extract_from_file(
                "python", path, keywords=KEYWORDS, comment_tags=("Translators:",)):
            catalog.add(message, None, [(rel, lineno)], auto_comments=comments,
                        context=context)
    return catalog


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = po_path(lang, domain)
    if not path.exists():
        return Catalog(locale=lang, domain=domain, project="dicelab", fuzzy=False)
    with open(path, "rb") as f:
        return read_po(f, locale=lang, domain=domain)


def _write(catalog, lang: str, domain: str) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import write_po

    path = po_path(lang, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    # no line numbers and sorted: the files change only when messages do
    write_po(buf, catalog, sort_output=True, include_lineno=False, width=100,
             omit_header=False)
    path.write_bytes(buf.getvalue())
    with open(path.with_suffix(".mo"), "wb") as f:
        write_mo(f, catalog, use_fuzzy=False)


# fixed dates: the files change only when messages do
_FIXED_DATE = datetime(2026, 12, 1, tzinfo=timezone.utc)


def update(domains: list[str] | None = None) -> None:
    """Merge the extracted messages into every language's catalogs, then compile them."""
    for domain in domains or [d for d, _p in DOMAINS]:
        tmpl = template(domain)
        for lang in TRANSLATED:
            catalog = read(lang, domain)
            catalog.update(tmpl, no_fuzzy_matching=True, update_creation_date=False)
            catalog.obsolete.clear()
            catalog.creation_date = catalog.revision_date = _FIXED_DATE
            _write(catalog, lang, domain)


def compile_all() -> None:
    for domain, _p in DOMAINS:
        for lang in TRANSLATED:
            if po_path(lang, domain).exists():
                _write(read(lang, domain), lang, domain)


def _key(message) -> tuple:
    return (message.context, message.id)


@dataclass
class Problems:
    missing: list[str]
    stale: list[str]
    fuzzy: list[str]
    unfresh_mo: list[str]

    def __bool__(self) -> bool:
        return bool(self.missing or self.stale or self.fuzzy or self.unfresh_mo)


def problems(lang: str, domain: str) -> Problems:
    """What ``lang``'s catalog of ``domain`` lacks (untranslated), carries (stale), guesses
    (fuzzy), or what its compiled ``.mo`` differs in from the ``.po``."""
    import gettext

    tmpl = template(domain)
    catalog = read(lang, domain)
    wanted = {_key(m) for m in tmpl if m.id}
    have = {_key(m): m for m in catalog if m.id}
    missing, fuzzy = [], []
    for key in sorted(wanted, key=str):
        m = have.get(key)
        strings = m.string if m is not None and isinstance(m.string, tuple) else (
            (m.string,) if m is not None else ("",))
        if m is None or not all(strings):
            missing.append(_shown(key))
        elif m.fuzzy:
            fuzzy.append(_shown(key))
    stale = sorted(_shown(k) for k in have.keys() - wanted)
    stale += sorted(_shown(_key(m)) for m in catalog.obsolete.values())
    unfresh = []
    mo = po_path(lang, domain).with_suffix(".mo")
    if have:
        if not mo.exists():
            unfresh.append(f"{mo.name} missing")
        else:
            with open(mo, "rb") as f:
                compiled = gettext.GNUTranslations(f)
            for key, m in have.items():
                if m.fuzzy or not m.string:
                    continue
                msgid = m.id[0] if isinstance(m.id, tuple) else m.id
                ctx = key[0]
                got = (compiled.pgettext(ctx, msgid) if ctx else compiled.gettext(msgid))
                want = m.string[0] if isinstance(m.string, tuple) else m.string
                if got != want:
                    unfresh.append(_shown(key))
    return Problems(missing, stale, fuzzy, unfresh)


def _shown(key: tuple) -> str:
    context, msgid = key
    text = msgid[0] if isinstance(msgid, tuple) else msgid
    return f"[{context}] {text}" if context else text


# --- user-visible strings that are not marked -------------------------------------------

PRAGMA = "# i18n: not shown"
MODULE_PRAGMA = "# i18n: developer tool"  # near the top: no string of the module is shown
_CAMEL = re.compile(r"^_?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")
_DEV_ERRORS = {"TypeError", "AttributeError", "KeyError", "NotImplementedError",
               "AssertionError", "RuntimeError", "IndexError", "ImportError", "LookupError",
               "OSError", "SystemExit"}
_QUIET_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "warn",
                "getLogger", "getenv", "get", "setdefault", "pop", "startswith", "endswith",
                "split", "rsplit", "join", "replace", "strip", "rstrip", "lstrip", "encode",
                "decode", "execute", "executemany", "executescript", "compile", "match",
                "search", "sub", "fullmatch", "findall", "finditer", "getattr", "hasattr",
                "setattr", "isinstance", "strftime", "strptime", "add_argument_group"}
_QUIET_KEYWORDS = {"doc", "css_classes", "stylesheets", "styles", "sizing_mode", "tags",
                   "code", "js_code", "stylesheet", "_template", "format", "dtype", "key",
                   "encoding", "mode", "sep", "end", "metavar", "dest", "action", "type",
                   "align", "button_type", "button_style", "icon", "color", "variant",
                   "theme", "design", "margin", "width", "height", "css"}
_WORD = re.compile(r"[A-Za-zА-Яа-яЁё]{2,}")
_TAG = re.compile(r"<[^>]*>|&[a-z#0-9]+;|\{[^{}]*\}|%\(?\w*\)?[sdfr]")
_IDENT = re.compile(r"^[a-z0-9_.:/#@\-\[\]*=,+()]*$")
_CSS_PROP = (r"(?:[a-z]+-[a-z-]+|color|margin|padding|display|width|height|font|background|"
             r"border|gap|flex|grid|position|top|left|right|bottom|opacity|cursor|overflow|"
             r"transform|transition|animation|content|outline|filter)")
# SQL keywords in capitals, JavaScript, CSS selectors and declarations: code, not words
_CODE = re.compile(r"^\s*(SELECT|INSERT|CREATE|UPDATE|DELETE|PRAGMA|BEGIN|COMMIT|WITH|DROP|"
                   r"ALTER|REPLACE)\b|=>|\bfunction\s*\(|\b(const|let|var)\s+\w+\s*=|"
                   r"\bdocument\.|^\s*[.#:@][\w-]|(?:^|[\s{;])" + _CSS_PROP
                   + r"\s*:\s*[^;]+(?:;|$)")


def looks_shown(text: str) -> bool:
    """Whether a string constant reads as words a person would see."""
    bare = _TAG.sub(" ", text)
    if not _WORD.search(bare) or _CODE.search(text):
        return False
    stripped = bare.strip()
    if _IDENT.match(_TAG.sub("", text).strip()) or _CAMEL.match(stripped):
        return False  # keys, kinds, css classes, paths, class names
    if " " not in stripped and not stripped[:1].isupper():
        return False  # one lower-case word: a key or an identifier
    if " " not in stripped and stripped.isupper() and len(stripped) > 1 and "_" in stripped:
        return False  # CONSTANT_NAMES
    return True


def unmarked(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module a person would read that are not marked."""
    source = path.read_text()
    tree = ast.parse(source)
    lines = source.splitlines()
    if any(MODULE_PRAGMA in line for line in lines[:15]):
        return []
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings or id(parents.get(id(node))) in docstrings:
                continue
            if isinstance(parents.get(id(node)), ast.JoinedStr):
                continue  # judged as a whole f-string below
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}"
                           for v in node.values)
        else:
            continue
        if not looks_shown(text) or _quiet(node, parents):
            continue
        stmt = _statement(node, parents)
        span = lines[stmt.lineno - 1:(stmt.end_lineno or stmt.lineno)]
        span += lines[node.lineno - 1:(node.end_lineno or node.lineno)]
        if any(PRAGMA in line for line in span):
            continue
        found.append((node.lineno, text))
    return found


def dynamic_messages(path: Path) -> list[int]:
    """Lines where a marker is given something other than string literals, or is called
    inside an f-string (Babel cannot extract either, so it would never be translated)."""
    bad = []
    tree = ast.parse(path.read_text())
    inside = [n for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)
              if isinstance(n, ast.Call) and _name(n.func) in MARKERS]
    if inside:  # Babel reads some f-strings, not all (an HTML attribute's quotes stop it)
        from babel.messages.extract import extract_from_file

        found = {m[1] if isinstance(m[1], str) else m[1][0]
                 for m in extract_from_file("python", path, keywords=KEYWORDS)}
        for n in inside:
            args = [a.value for a in n.args if isinstance(a, ast.Constant)]
            text = args[1] if _name(n.func) == "p_" and len(args) > 1 else (args or [None])[0]
            if text not in found:
                bad.append(n.lineno)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in MARKERS:
            need = {"n_": 2, "Ln_": 2, "p_": 2}.get(_name(node.func) or "", 1)
            if len(node.args) < need or not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str)
                    for a in node.args[:need]):
                bad.append(node.lineno)
    return bad


def _name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _statement(node: ast.expr, parents: dict) -> ast.stmt | ast.expr:
    found: ast.stmt | ast.expr = node
    while not isinstance(found, ast.stmt) and id(found) in parents:
        found = parents[id(found)]
    return found


def _quiet(node: ast.AST, parents: dict) -> bool:
    """Marked, or in a place no person reads (logs, developer errors, styles, comparisons)."""
    child = node
    while id(child) in parents:
        parent = parents[id(child)]
        if isinstance(parent, ast.Call):
            name = _name(parent.func)
            if name in MARKERS or name in _QUIET_CALLS or name in _DEV_ERRORS:
                return True
            if any((kw is child or kw.value is child) and kw.arg in _QUIET_KEYWORDS
                   for kw in parent.keywords):
                return True
        if isinstance(parent, (ast.Assign, ast.AugAssign)) and any(
                isinstance(t, ast.Name) and t.id == "__all__"
                for t in getattr(parent, "targets", [getattr(parent, "target", None)])):
            return True
        if isinstance(parent, ast.Compare):
            return True  # text compared with, not shown
        if isinstance(parent, ast.Subscript) and parent.slice is child:
            return True  # a key
        if isinstance(parent, ast.Raise) and parent.exc is not None:
            exc = parent.exc.func if isinstance(parent.exc, ast.Call) else parent.exc
            if _name(exc) in _DEV_ERRORS:
                return True
        if isinstance(parent, ast.stmt):
            return False
        child = parent
    return False


def _main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    domains = argv[1:] or None
    if command == "update":
        update(domains)
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command != "check":
        print("usage: python -m dicelab.i18n_catalogs update|compile|check [domain ...]")
        return 2
    bad = 0
    for domain in domains or [d for d, _p in DOMAINS]:
        for path in modules(domain):
            for lineno, text in unmarked(path):
                bad += 1
                print(f"{path.relative_to(PACKAGE.parent)}:{lineno}: not marked: {text[:70]!r}")
            for lineno in dynamic_messages(path):
                bad += 1
                print(f"{path.relative_to(PACKAGE.parent)}:{lineno}: message is not a literal "
                      "(or a marker inside an f-string, which Babel does not extract)")
        for lang in TRANSLATED:
            p = problems(lang, domain)
            for kind in ("missing", "stale", "fuzzy", "unfresh_mo"):
                for item in getattr(p, kind):
                    bad += 1
                    print(f"{lang}/{domain}: {kind}: {item[:70]!r}")
    print(f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
