"""The private internals of Panel, Bokeh, param and panel-material-ui that dicelab uses are
listed in dicelab/_thirdparty.py with the versions they were checked against: each is still
there, the installed versions are in the checked range, and the code uses no other (issue 39)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from dicelab import _thirdparty as tp

ROOT = Path(__file__).resolve().parent.parent


def test_every_listed_internal_is_still_there():
    bad = tp.check()
    assert bad == [], "a library moved what dicelab relies on:\n" + "\n".join(bad)


def test_installed_versions_are_in_the_checked_range():
    bad = tp.outside_checked()
    assert bad == [], ("check dicelab/_thirdparty.py's entries against these versions, then "
                       "widen CHECKED:\n" + "\n".join(bad))


def test_a_moved_internal_or_a_new_release_is_caught(monkeypatch):
    monkeypatch.setattr(tp, "INTERNALS", tp.INTERNALS + (
        tp.Internal("bokeh", "Receiver._gone", "ui/gate.py", "a test",
                    tp._sets("bokeh.protocol.receiver:Receiver", "_gone")),
        tp.Internal("panel", "panel.io.nowhere", "ui/gate.py", "a test",
                    tp._has("panel.io.nowhere", "x"))))
    bad = tp.check()
    assert len(bad) == 2 and "Receiver._gone (not found)" in bad[0]
    assert "ModuleNotFoundError" in bad[1] and "dicelab/ui/gate.py" in bad[1]
    monkeypatch.setitem(tp.CHECKED, "bokeh", ("3.0", "3.1"))
    assert [m for m in tp.outside_checked() if m.startswith("bokeh ")]
    assert tp._parts("1.10.0rc1") == (1, 10, 0) and tp._parts("3.9.2") > tp._parts("3.9")


# the private names the code reaches on other libraries' objects (tests/test_imports.py's
# PRIVATE_ATTRIBUTES lists them by module), each with the entry above that covers it
COVERED = {
    "o._param__private": "Parameterized()._param__private",
    "self._param__private": "Parameterized()._param__private",
    "pn.extension._loaded": "panel.extension._loaded",
    "connection._socket": "ServerConnection._socket",
    "protocol._messages": "Protocol._messages",
    "receiver._current_consumer": "Receiver._current_consumer",
    "receiver._HEADER": "Receiver._HEADER",
    "models._new_models": "DocumentModelManager._new_models",
    "self._references": "Serializer._references",
    "doc._template_variables": "Document._template_variables",
}


@pytest.mark.parametrize("use,entry", sorted(COVERED.items()))
def test_each_private_use_in_the_code_is_listed(use, entry):
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "dicelab" / "ui").glob("*.py"))
    names = " ".join(e.name for e in tp.INTERNALS)
    assert entry.split(".")[-1].split(" ")[0] in names, entry
    if use.startswith("self."):
        return  # on dicelab's own subclasses: not visible as a name in the code by itself
    assert re.search(re.escape(use) + r"\b", code), f"{use} no longer used: drop its entry"


def test_every_imported_package_is_declared():
    """Each third-party package dicelab/ imports is a dependency in pyproject.toml (IPython:
    the notebook extra, imported inside a kernel only)."""
    import ast
    import sys
    import tomllib
    from importlib.metadata import packages_distributions

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = re.compile(r"[A-Za-z0-9_.-]+")
    norm = lambda d: re.sub(r"[-_.]+", "-", d).lower()  # noqa: E731
    declared = {norm(name.match(r).group()) for r in project["dependencies"]}
    notebook = {norm(name.match(r).group())
                for r in project["optional-dependencies"]["notebook"]}
    imported = set()
    for path in (ROOT / "dicelab").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                imported.add(node.module.split(".")[0])
    third = sorted(m for m in imported if m not in sys.stdlib_module_names and m != "dicelab")
    dists = packages_distributions()
    assert "numpy" in third and "panel" in third, third
    missing = [(m, dists.get(m)) for m in third
               if not {norm(d) for d in dists.get(m, [m])} & (declared | notebook)]
    assert missing == [], f"imported but not declared in pyproject.toml: {missing}"
    assert {norm(d) for d in dists["IPython"]} & notebook
