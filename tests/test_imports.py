"""The package's imports run one way (DESIGN.md: rules -> odds and players -> games -> ui,
terminal, rooms): no module imports, even lazily inside a function, a module that imports it
back, and no rooms module takes another's private names. Every module imports on its own in a
fresh interpreter, in more than one order.
"""
from __future__ import annotations

import ast
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
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
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


def test_every_module_imports_in_a_fresh_interpreter_in_three_orders():
    names = sorted(MODULES)
    for order in (names, names[::-1], random.Random(14).sample(names, len(names))):
        done = import_in_fresh_python(order)
        assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(not os.environ.get("DICELAB_SLOW"), reason="slow: set DICELAB_SLOW=1")
def test_each_module_imports_first_in_a_fresh_interpreter():
    """No module relies on another having been imported before it (about a minute)."""
    for name in sorted(MODULES):
        done = import_in_fresh_python([name])
        assert done.returncode == 0, (name, done.stderr[-2000:])


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
