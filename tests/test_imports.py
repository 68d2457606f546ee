"""The package's imports run one way (DESIGN.md: rules -> odds and players -> games -> ui,
terminal, rooms): no module imports, even lazily inside a function, a module that imports it
back, and no rooms module takes another's private names. Every module imports on its own in a
fresh interpreter, in more than one order.
"""
from __future__ import annotations

import ast
import functools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import dicelab

ROOT = Path(dicelab.__file__).parent


def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package)."""
    out = {}
    for f in sorted(ROOT.rglob("*.py")):
        parts = list(f.relative_to(ROOT.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (f, is_pkg)
    return out


MODULES = modules()


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once per test process (the scans below only read it)."""
    return ast.parse(path.read_text(), str(path))


def imported(name: str, node: ast.Import | ast.ImportFrom) -> list[tuple[str, list[str]]]:
    """The dicelab modules an import statement of module ``name`` loads, each with the names it
    takes from them."""
    if isinstance(node, ast.Import):
        out = []
        for alias in node.names:
            mod = alias.name
            while mod and mod not in MODULES:
                mod = mod.rpartition(".")[0]
            if mod:
                out.append((mod, []))
        return out
    if node.level:
        base = name.split(".")
        if not MODULES[name][1]:
            base = base[:-1]
        base = base[:len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if target not in MODULES:
        return []
    out = []
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        out.append((sub, []) if sub in MODULES else (target, [alias.name]))
    return out


def graph() -> dict[str, dict[str, list[str]]]:
    """Module -> {module it imports (at the top or inside a function): names taken}."""
    g: dict[str, dict[str, list[str]]] = {}
    for name, (path, _pkg) in MODULES.items():
        edges: dict[str, list[str]] = {}
        for node in ast.walk(parsed(path)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for mod, names in imported(name, node):
                    if mod != name:
                        edges.setdefault(mod, []).extend(names)
        g[name] = edges
    return g


def cycles(g: dict[str, dict]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_the_walk_sees_the_imports():
    g = graph()
    assert len(MODULES) > 50 and "dicelab.rules.fivedice" in MODULES
    assert "dicelab.rules.fivedice" in g["dicelab.games.thousand"]      # top-level import
    assert "dicelab.odds.fivedice" in g["dicelab.players.fivedice"]     # inside a method
    assert "dicelab.rooms.redis_store" in g["dicelab.rooms.stores"]     # inside open_store
    assert cycles({"a": {"b": []}, "b": {"c": []}, "c": {"a": []}, "d": {"a": []}}) \
        == [["a", "b", "c"]]


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_rooms_take_no_private_names_from_each_other():
    g = graph()
    taken = [(mod, dep, n) for mod, deps in g.items() if mod.startswith("dicelab.rooms")
             for dep, names in deps.items() if dep.startswith("dicelab.rooms")
             for n in names if n.startswith("_")]
    assert taken == []


def import_in_fresh_python(names: list[str]) -> subprocess.CompletedProcess:
    code = "import importlib, sys\nfor n in sys.argv[1:]:\n    importlib.import_module(n)\n"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True,
                          env=env, timeout=300)


# one order in the everyday suite (each takes a fresh interpreter importing all of Panel)
@pytest.mark.parametrize("order", ["shuffled", pytest.param("sorted", marks=pytest.mark.slow),
                                   pytest.param("reversed", marks=pytest.mark.slow)])
def test_every_module_imports_in_a_fresh_interpreter(order):
    names = sorted(MODULES)
    names = {"sorted": names, "reversed": names[::-1],
             "shuffled": random.Random(14).sample(names, len(names))}[order]
    done = import_in_fresh_python(names)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow
def test_each_module_imports_first_in_a_fresh_interpreter():
    """No module relies on another having been imported before it (about a minute)."""
    for name in sorted(MODULES):
        done = import_in_fresh_python([name])
        assert done.returncode == 0, (name, done.stderr[-2000:])


# ----- the layer contract (DESIGN.md; issue 34) --------------------------------------------------
# Lowest first: a module may import its own layer and the ones before it, never a later one.
LAYERS = [
    ("base", ("dicelab.config", "dicelab.errors", "dicelab.i18n", "dicelab.i18n_catalogs",
              "dicelab.names", "dicelab.dice", "dicelab.sqlite_files", "dicelab._thirdparty")),
    ("rules", ("dicelab.rules",)),
    ("settings", ("dicelab.settings", "dicelab.actions")),
    ("odds", ("dicelab.odds",)),
    ("players", ("dicelab.players",)),
    ("games", ("dicelab.games",)),
    ("coach", ("dicelab.coach",)),
    ("lab", ("dicelab.lab",)),
    ("rooms", ("dicelab.rooms",)),
    ("views", ("dicelab.terminal", "dicelab.ui")),
    ("commands", ("dicelab.cli", "dicelab.coach_cli", "dicelab.commands")),
]
PACKAGE = "commands"  # dicelab/__init__.py: the Python API, beside the command line

# known upward imports, each with where it goes away (no new entry without a reason)
UPWARD: dict[tuple[str, str], str] = {}


def layer_of(module: str) -> int:
    if module == "dicelab":
        return [n for n, _p in LAYERS].index(PACKAGE)
    best = None
    for i, (_name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and \
                    (best is None or len(p) > best[1]):
                best = (i, len(p))
    assert best is not None, module
    return best[0]


def test_every_module_has_a_layer():
    for name in MODULES:
        layer_of(name)
    assert LAYERS[layer_of("dicelab.coach_cli")][0] == "commands"
    assert LAYERS[layer_of("dicelab.coach")][0] == "coach"
    assert LAYERS[layer_of("dicelab.odds.win")][0] == "odds"


def test_no_module_imports_a_later_layer():
    """Lazily inside a function too: an upward import is a loop in the design even where
    Python does not see one."""
    up = sorted((mod, dep) for mod, deps in graph().items() for dep in deps
                if layer_of(dep) > layer_of(mod))
    assert [e for e in up if e not in UPWARD] == []
    assert [e for e in UPWARD if e not in up] == []  # a fixed one leaves the list


def private_uses() -> list[tuple[str, str, str]]:
    """(module, other dicelab module, private name) for every ``from other import _name`` and
    every ``alias._name`` where ``alias`` is another dicelab module imported by this one
    (gettext's ``_`` is public)."""
    out = []
    for name, (path, _pkg) in MODULES.items():
        tree = parsed(path)
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for (mod, names), alias in zip(imported(name, node), node.names):
                    if not names and mod in MODULES and mod != name:  # a module itself
                        aliases[alias.asname or alias.name] = mod
                    for n in names:
                        if n.startswith("_") and n != "_" and not n.startswith("__"):
                            out.append((name, mod, n))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in MODULES and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in aliases and node.attr.startswith("_") and \
                    node.attr != "_" and not node.attr.startswith("__"):
                out.append((name, aliases[node.value.id], node.attr))
    return sorted(set(out))


# the private names one module may use from another, each with the reason it must
PRIVATE = {
    # the solver's optional C extension: a private module of odds/, used by yahtzee.py alone
    ("dicelab.odds.yahtzee", "dicelab.odds", "_yahtzee_kernel"),
}


def test_no_private_name_is_used_across_modules():
    uses = private_uses()
    assert ("dicelab.commands.odds", "dicelab.odds.fivedice", "check_n") not in uses
    assert [u for u in uses if u not in PRIVATE] == []
    assert [u for u in PRIVATE if u not in uses] == []  # a fixed one leaves the list


def private_attributes() -> list[tuple[str, str]]:
    """(module, ``obj._name``) where ``obj`` is not ``self``/``cls`` and no code of the module
    defines ``_name``: another object's private attribute (a view reading or writing another
    view's state)."""
    out = []
    for name, (path, _pkg) in MODULES.items():
        tree = parsed(path)
        own = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in ("self", "cls"):
                own.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                    node.attr != "_" and not node.attr.startswith("__") and \
                    node.attr not in own and not (isinstance(node.value, ast.Name) and
                                                  node.value.id in ("self", "cls")):
                out.append((name, ast.unparse(node)))
    return sorted(set(out))


# another object's underscored attributes dicelab reads on purpose, each with the reason
PRIVATE_ATTRIBUTES = {
    # param, Panel, Bokeh and Tornado internals with no public equivalent (third-party APIs)
    ("dicelab.ui.notebook", "pn.extension._loaded"), ("dicelab.ui.wire", "protocol._messages"),
    ("dicelab.ui.wire", "connection._socket"), ("dicelab.ui.wire", "models._new_models"),
    ("dicelab.ui.table", "o._param__private"),  # a view's watchers removed when it goes
    # namedtuple's public API is underscored so that it cannot clash with a field's name
    ("dicelab.lab.win", "turn.Standing._fields"), ("dicelab.rules.fivedice", "p._replace"),
    # not yet: made public, the live play-outs stopped publishing (issue 34's report)
    ("dicelab.lab.playout_worker", "shared._seed"), ("dicelab.lab.win_live", "game._state"),
    # the message gate reads Bokeh's receiver state to drop a flood before it is parsed
    ("dicelab.ui.gate", "connection._socket"), ("dicelab.ui.gate", "receiver._HEADER"),
    ("dicelab.ui.gate", "receiver._current_consumer"),
    # a session built from its websocket gets the local stylesheet address Panel's page gives
    ("dicelab.ui.gate", "doc._template_variables"),
    # the list of other libraries' internals looks each one up (tests/test_thirdparty.py)
    ("dicelab._thirdparty", "param.Parameterized()._param__private"),
    # view.py's ``follows`` marks a method with an attribute of its own and reads it back
    ("dicelab.ui.view", "method._follows"), ("dicelab.ui.view", "fn._follows"),
}


def test_no_object_private_attribute_is_used_from_outside():
    """No view writes another's attributes (``play._solve_error``, ``play.__dict__``): Play
    has the public calls they need (memo, followers, solve_done, shared...)."""
    uses = private_attributes()  # once: it parses every module
    found = [a for a in uses
             if a not in PRIVATE_ATTRIBUTES and not a[1].startswith("fd._")
             and not a[1].startswith("turn._")]
    assert found == []
    assert [a for a in PRIVATE_ATTRIBUTES if a not in uses] == []
    dicts = [name for name, (path, _pkg) in MODULES.items() if name.startswith("dicelab.ui")
             and "play.__dict__" in path.read_text()]
    assert dicts == []
def test_ui_is_a_lazy_attribute():
    """``import dicelab`` loads no Panel (the CLI stays quick), and ``dicelab.ui.DiceTray(g)``
    works after it, as the README writes it."""
    code = ("import sys, dicelab\n"
            "heavy = sorted(m for m in ('panel', 'bokeh', 'dicelab.ui') if m in sys.modules)\n"
            "assert heavy == [], heavy\n"
            "tray = dicelab.ui.DiceTray(dicelab.new_game('bones', ['Ann', 'Bob'], seed=1))\n"
            "assert type(tray).__name__ == 'DiceTray' and 'panel' in sys.modules\n"
            "try:\n    dicelab.no_such_name\nexcept AttributeError:\n    pass\n"
            "else:\n    raise AssertionError('dicelab.no_such_name')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
