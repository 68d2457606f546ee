"""Tables made from the program itself, so the docs cannot drift from it.

``{dicelab-settings}`` renders every variant's rules settings (name, default, allowed values,
help) from their param classes in ``dicelab.settings``.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList


def _allowed(p) -> str:
    objects = getattr(p, "objects", None)
    if objects:
        return ", ".join(f"`{o}`" for o in objects)
    bounds = getattr(p, "bounds", None)
    if bounds and bounds != (None, None):
        low, high = bounds
        step = getattr(p, "step", None)
        text = f"{low} to {high}"
        return text + (f", step {step}" if step not in (None, 1) else "")
    return ""


def settings_markdown() -> str:
    from dicelab import settings as s
    from dicelab.names import variant_name

    out = []
    for cls in (s.BonesSettings, s.ThousandSettings, s.Under40Settings, s.YahtzeeSettings):
        out += [f"## {variant_name(cls.variant)}", ""]
        if cls.PRESETS:
            out += ["Presets: " + ", ".join(
                f"`{name}`" + (" (default)" if i == 0 else "")
                for i, name in enumerate(cls.PRESETS)) + ".", ""]
        out += ["| setting | default | allowed | what it does |", "|---|---|---|---|"]
        for name in cls.names():
            p = cls.param[name]
            doc = " ".join(str(p.doc or "").split()).replace("|", "\\|")
            default = p.default
            out.append(f"| `{name}` | `{default!r}` | {_allowed(p)} | {doc} |")
        out.append("")
    return "\n".join(out)


class SettingsTable(Directive):
    has_content = False

    def run(self):
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(StringList(settings_markdown().splitlines()), 0, node)
        return node.children


def setup(app):
    app.add_directive("dicelab-settings", SettingsTable)
    return {"parallel_read_safe": True}
