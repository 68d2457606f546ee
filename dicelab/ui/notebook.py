"""Showing dicelab in Jupyter (JupyterLab, Notebook 7, classic notebook).

Panel's front end is loaded with inline resources by default, so a classroom without internet
sees the app (``cdn=True`` or DICELAB_CDN=1 loads Bokeh and Panel from their CDN instead: a
lighter notebook file). Where the front end cannot run (its JupyterLab extension missing, an
untrusted notebook, a plain text front end) the output says so in words, not a blank cell."""
from __future__ import annotations

import os
import uuid

import panel as pn

TRUE = ("1", "true", "yes", "on")
EXTENSIONS = ("tabulator",)  # Panel extensions dicelab's views use
NOTE = ("This dicelab view needs Panel's notebook front end, which is not running here. "
        "Install it with: pip install \"dicelab[notebook]\" (it brings JupyterLab and Panel's "
        "extension), restart JupyterLab, reload the page, make sure the notebook is trusted, "
        "and run the cell again (with dicelab.notebook() or pn.extension() above it).")


def use_cdn(cdn: bool | None = None) -> bool:
    """``cdn`` if given, else the DICELAB_CDN environment variable (default: inline)."""
    if cdn is None:
        return os.environ.get("DICELAB_CDN", "").strip().lower() in TRUE
    return bool(cdn)


def in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


def notebook(cdn: bool | None = None) -> None:
    """Load Panel's notebook front end for dicelab: Bokeh and Panel inline (works offline),
    or from the CDN with ``cdn=True`` / DICELAB_CDN=1. Run once per notebook, before showing
    anything (``dicelab.app()`` and the components do it themselves when needed)."""
    inline = not use_cdn(cdn)
    pn.config.inline = inline  # also what each cell's output uses for its own resources
    # the coach's review table is a Tabulator: its front end must load with Panel's, or the
    # table stays blank in a notebook (and Panel warns when the app is made)
    pn.extension(*EXTENSIONS, inline=inline)


def loaded() -> bool:
    return bool(pn.extension._loaded)


def note_html(text: str) -> str:
    """The words shown when Panel's front end does not run; its script removes them when it
    does (Bokeh's JavaScript is there), so a working notebook shows only the view."""
    nid = f"dicelab-note-{uuid.uuid4().hex[:12]}"
    return (f"<div id='{nid}' class='dicelab-note' style='font:14px system-ui,sans-serif;"
            "border:2px dashed #b71c1c;border-radius:6px;padding:6px 10px;margin:4px 0'>"
            f"<b>{pn.util.escape(text)}</b><br>{pn.util.escape(NOTE)}</div>"
            "<script>(function(){var n=document.getElementById('" + nid + "');"
            "if(n&&window.Bokeh){n.remove();}})();</script>")


class NotebookShow:
    """Mixin for dicelab's viewers: their Jupyter output loads the front end if needed and
    carries words (text/plain, and an HTML note the front end removes) beside Panel's view."""

    def _notebook_text(self) -> str:
        return f"dicelab {type(self).__name__}"

    def _repr_mimebundle_(self, include=None, exclude=None):
        if in_kernel() and not loaded():
            notebook()
        text = self._notebook_text()
        out = super()._repr_mimebundle_(include, exclude)
        if out is None:  # Panel could not render here (no kernel or no front end)
            return {"text/plain": f"{text}\n{NOTE}", "text/html": note_html(text)}, {}
        data, meta = out
        data = dict(data)
        data["text/plain"] = f"{text}\n{NOTE}"
        if "text/html" in data:
            data["text/html"] = note_html(text) + data["text/html"]
        return data, meta


class HTML(pn.pane.HTML):
    """``pn.pane.HTML`` for views that redraw often. In a notebook Panel (1.9) sends every
    stylesheet of an HTML pane again at each update, as CDN links (only the first render
    inlines them): a notebook without internet would ask the CDN at every move and lose the
    theme's CSS. A view's stylesheets never change after its first render, so a notebook
    update sends only the rest (a served page is unchanged)."""

    def _update(self, ref: str, model) -> None:
        view = pn.state._views.get(ref)
        if view is None or view[3] is None or not model.stylesheets:  # not a notebook comm
            return super()._update(ref, model)
        props = self._get_properties(model.document)
        props.pop("stylesheets", None)
        model.update(**props)
