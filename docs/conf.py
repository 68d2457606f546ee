"""Sphinx configuration of dicelab's documentation (``make docs``)."""
from __future__ import annotations

import datetime
import sys
from importlib.metadata import version as _version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "dicelab"
author = "the dicelab developers"
copyright = f"{datetime.date.today().year}, {author}"
release = _version("dicelab")
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",
    "dicelab_tables",
]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "screenshots/*.md"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
# Panel and param objects carry long parameter reprs; a class's own docstring is what we document
autoclass_content = "class"

html_theme = "pydata_sphinx_theme"
html_title = "dicelab"
html_theme_options = {
    "navigation_with_keys": True,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
}
# offline: no fonts or scripts from elsewhere (a classroom may have no internet)
html_theme_options["analytics"] = {}
