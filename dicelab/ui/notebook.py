"""Showing dicelab in Jupyter (JupyterLab, Notebook 7, classic notebook).

Panel's front end is loaded with inline resources by default, so a classroom without internet
sees the app (``cdn=True`` or DICELAB_CDN=1 loads Bokeh and Panel from their CDN instead: a
lighter notebook file). Where the front end cannot run (its JupyterLab extension missing, an
untrusted notebook, a plain text front end) the output says so in words, not a blank cell."""
from __future__ import annotations

import base64
import contextlib
import gzip
import json
import uuid

import panel as pn
import param

from .. import config
from ..i18n import N_, tr

EXTENSIONS = ("tabulator",)  # Panel extensions dicelab's views use
NOTE = N_("This dicelab view is not live: run the cell again (Shift+Enter) to play. If this "
        "note stays after that, Panel's notebook front end is missing here: install it with "
        "pip install \"dicelab[notebook]\", restart JupyterLab, reload the page and make sure "
        "the notebook is trusted.")


def use_cdn(cdn: bool | None = None) -> bool:
    """``cdn`` if given, else the DICELAB_CDN environment variable (default: inline)."""
    if cdn is None:
        return config.value("DICELAB_CDN")
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
    with (_packed_loads() if inline else contextlib.nullcontext()):
        pn.extension(*EXTENSIONS, inline=inline)


def loaded() -> bool:
    return bool(pn.extension._loaded)


# ----- Bokeh's and Panel's own scripts (3.5 MB, twice: one copy per MIME type), gzipped ----
_UNPACK = ("const unpack=(b)=>new Response(new Blob([Uint8Array.from(atob(b),c=>c.charCodeAt(0))])"
           ".stream().pipeThrough(new DecompressionStream('gzip'))).text();")


def _pack(text: str) -> str:
    return json.dumps(base64.b64encode(gzip.compress(text.encode(), 9)).decode())


def _packed_js(js: str) -> str:
    """``js`` gzipped, run in the page's global scope once unpacked (a few ms)."""
    return "(function(){" + _UNPACK + "unpack(" + _pack(js) + ").then(s=>(0,eval)(s));})();"


@contextlib.contextmanager
def _packed_loads():
    """Panel's loader while it runs: its big inline script published packed."""
    import IPython.display as disp

    publish = disp.publish_display_data

    def packed(data, *args, **kwargs):
        js = data.get("application/javascript") if isinstance(data, dict) else None
        if isinstance(js, str) and len(js) > 100_000:
            data = {k: (_packed_js(v) if v == js else v) for k, v in data.items()}
        return publish(data, *args, **kwargs)

    disp.publish_display_data = packed
    try:
        yield
    finally:
        disp.publish_display_data = publish


def note_html(text: str) -> str:
    """The words shown when Panel's front end does not run; its script removes them when it
    does (Bokeh's JavaScript is there), so a working notebook shows only the view."""
    nid = f"dicelab-note-{uuid.uuid4().hex[:12]}"
    return (f"<div id='{nid}' class='dicelab-note' style='font:14px system-ui,sans-serif;"
            "border:2px dashed #b71c1c;border-radius:6px;padding:6px 10px;margin:4px 0'>"
            f"<b>{pn.util.escape(text)}</b><br>{pn.util.escape(tr(NOTE))}</div>"
            "<script>(function(){var n=document.getElementById('" + nid + "');"  # i18n: not shown
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
            return {"text/plain": f"{text}\n{tr(NOTE)}", "text/html": note_html(text)}, {}
        data, meta = out
        data = dict(data)
        data["text/plain"] = f"{text}\n{tr(NOTE)}"
        if "text/html" in data:
            data["text/html"] = note_html(text) + data["text/html"]
        return data, meta


class FixedDesign:
    """Mixin for a Panel component whose stylesheets are fixed at creation: a change of its
    other parameters is sent without recomputing the design's stylesheets (Panel 1.9 rebuilds
    them as new Bokeh models at every change, then uses them only if stylesheets changed)."""

    def _update_properties(self, *events, doc):
        if any(e.name == "stylesheets" for e in events):
            return super()._update_properties(*events, doc=doc)
        return self._process_param_change({e.name: e.new for e in events})


class HTML(FixedDesign, pn.pane.HTML):
    """``pn.pane.HTML`` for views that redraw often: an update sends the new text alone.

    Panel (1.9) recomputes every property of the pane at each new object, and its stylesheets
    are new Bokeh models each time (about 6 ms per update, the most of a table's redraw on the
    server), and in a notebook sends them again as CDN links (a notebook without internet then
    loses the theme's CSS). Only the object of these panes changes after the first render
    (their styles and stylesheets are fixed at creation), so the text is all there is to send."""

    # never a reference to another parameter: param need not look for one at every new text
    object = param.Parameter(default=None, allow_refs=False)

    def _update(self, ref: str, model) -> None:
        model.update(text=self._transform_object(self.object)["object"])

    def show(self, text: str) -> None:
        """``object = text``, sent to the page when the text is new. param's own round (an
        equal value checked as dearly as a new one is set, then its watchers) cost twice
        Panel's update of the pane, for every pane of every page of a room at every action:
        when Panel's update is the only watcher, the text is stored and that update called."""
        if text == self.object:
            return
        values = getattr(getattr(self, "_param__private", None), "values", None)
        if isinstance(values, dict) and self._only_panel_watches():
            values["object"] = text
            self._update_pane()
        else:
            self.object = text

    def _only_panel_watches(self) -> bool:
        ws = self._param__private.watchers.get("object", {})
        return all(w.fn == self._update_pane for ws_ in ws.values() for w in ws_)
