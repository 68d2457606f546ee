"""Page weight (issue 38): what dicelab costs a notebook and a server, beside bare Panel pages
measured in the same run.

    .venv/bin/python benchmarks/page_weight.py [--sessions 60] [--no-notebook] [--no-served]

- Notebook (nbclient, inline resources as by default): the bytes of the cell
  ``import dicelab; dicelab.app()`` (with the front end it loads) and of a ``DiceTray`` cell
  after it, beside a bare Panel notebook cell of 30 widgets (``pn.extension(inline=True)``).
- Served (``dicelab serve`` against ``panel serve`` of a bare page of 30 Panel widgets; the
  sessions are bokeh.client sessions that report the page ready as a browser does): the
  server's memory (RSS) and CPU per opened session, from 10 sessions to ``--sessions``.
- First page: the first session opened after the server starts listening, and later pages
  (median of 5, each closed after), against ``panel serve`` of a trivial app (one line). These
  times include this client decoding the page's document in Python (a browser's JavaScript
  does that part faster), so they weigh a big page more than a browser's load time does.
Goals: 5 MB a cell, 1 MB a view, 1.5 MB and 0.15 s a session, first page 1.3x, later 3x.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from _table import met, print_table  # noqa: E402
from rooms_load import (_install_data_model_defs, rss_mb, server_cpu_s,  # noqa: E402
                        wait_quiet)

BARE_30 = """import panel as pn
pn.extension(notifications=False)
w = pn.widgets
pn.Column(*[cls(name=f"{cls.__name__} {i}") for i in range(6) for cls in (
    w.Button, w.TextInput, w.Select, w.Checkbox, w.IntSlider)]).servable(title="bare")
"""
TRIVIAL = 'import panel as pn\npn.pane.Markdown("Hello").servable(title="trivial")\n'
NB_BARE = ("import panel as pn\npn.extension(inline=True)\nw = pn.widgets\n"
           "pn.Column(*[cls(name=f'{cls.__name__} {i}') for i in range(6) for cls in ("
           "w.Button, w.TextInput, w.Select, w.Checkbox, w.IntSlider)])")
NB_APP = "import dicelab\ndicelab.app()"
NB_TRAY = "dicelab.ui.DiceTray(dicelab.new_game('bones', ['Ann', 'Bob'], seed=1))"


# ----- notebook ---------------------------------------------------------------------------------
def notebook_bytes(cells: list[str]) -> list[int]:
    """The JSON bytes of each cell's outputs, as a saved notebook holds them."""
    import nbformat
    from nbclient import NotebookClient
    from nbformat.v4 import new_code_cell, new_notebook

    nb = new_notebook(cells=[new_code_cell(c) for c in cells])
    env = os.environ.pop("DICELAB_CDN", None)
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    finally:
        if env is not None:
            os.environ["DICELAB_CDN"] = env
    nbformat.validate(nb)
    return [len(json.dumps(c.outputs)) for c in nb.cells]


# ----- served -----------------------------------------------------------------------------------
def start(cmd: list[str], port: int, env: dict) -> subprocess.Popen:
    from tests.ui.conftest import wait_port

    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port, proc)
    return proc


def open_session(url: str):
    """A session as a browser opens it: the page, its websocket, then "document ready"."""
    from bokeh.client import pull_session
    from bokeh.events import DocumentReady

    _install_data_model_defs()  # the page's own models, as a browser knows them
    s = pull_session(url=url)
    s.document.callbacks.send_event(DocumentReady())
    return s


def measure(cmd: list[str], port: int, path: str, env: dict, sessions: int) -> dict:
    """First page, later pages, and RSS/CPU from 10 to ``sessions`` open sessions."""
    from tests.ui.conftest import stop_process

    url = f"http://127.0.0.1:{port}/{path}"
    proc = start(cmd, port, env)
    out = {}
    try:
        t = time.perf_counter()
        open_session(url).close()
        out["first"] = time.perf_counter() - t
        later = []
        for _ in range(5):
            t = time.perf_counter()
            open_session(url).close()
            later.append(time.perf_counter() - t)
        out["later"] = statistics.median(later)
        if sessions:
            held = [open_session(url) for _ in range(10)]
            wait_quiet(proc.pid)
            rss0, cpu0 = rss_mb(proc.pid), server_cpu_s(proc.pid)
            held += [open_session(url) for _ in range(sessions - 10)]
            wait_quiet(proc.pid)
            rss1, cpu1 = rss_mb(proc.pid), server_cpu_s(proc.pid)
            out["mb"] = (rss1 - rss0) / (sessions - 10)
            out["cpu"] = (cpu1 - cpu0) / (sessions - 10)
            out["rss"] = (rss0, rss1)
            for s in held:
                s.close()
    finally:
        stop_process(proc)
    return out


def served(sessions: int) -> tuple[dict, dict, dict]:
    from tests.ui.conftest import free_port

    tmp = Path(tempfile.mkdtemp(prefix="page_weight-"))
    (tmp / "bare.py").write_text(BARE_30)
    (tmp / "trivial.py").write_text(TRIVIAL)
    env = {"DICELAB_RECORDS": str(tmp / "records.sqlite3"),
           "DICELAB_ROOMS": f"sqlite://{tmp / 'rooms.sqlite3'}", "DICELAB_SOUND": "off"}
    dicelab = str(Path(sys.executable).parent / "dicelab")

    def panel_serve(app: Path, port: int) -> list[str]:
        return [sys.executable, "-m", "panel", "serve", str(app), "--port", str(port),
                "--address", "127.0.0.1", f"--allow-websocket-origin=127.0.0.1:{port}"]

    p = free_port()
    app = measure([dicelab, "serve", "--port", str(p)], p, "dicelab_app", env, sessions)
    p = free_port()
    bare = measure(panel_serve(tmp / "bare.py", p), p, "bare", env, sessions)
    p = free_port()
    trivial = measure(panel_serve(tmp / "trivial.py", p), p, "trivial", env, 0)
    return app, bare, trivial


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=60)
    ap.add_argument("--no-notebook", action="store_true")
    ap.add_argument("--no-served", action="store_true")
    args = ap.parse_args(argv)
    rows, missed = [], []

    def row(label, value, ref, goal, ok):
        rows.append((label, value, ref, goal, met(ok)))
        if not ok:
            missed.append(label)

    if not args.no_notebook:
        app_cell, tray_cell = notebook_bytes([NB_APP, NB_TRAY])
        (bare_cell,) = notebook_bytes([NB_BARE])
        row("notebook: dicelab.app() cell, MB", f"{app_cell / 1e6:.2f}",
            f"{bare_cell / 1e6:.2f}", "<= 5", app_cell <= 5e6)
        row("notebook: a DiceTray cell after it, MB", f"{tray_cell / 1e6:.2f}", "",
            "<= 1", tray_cell <= 1e6)
    if not args.no_served:
        app, bare, trivial = served(args.sessions)
        n = args.sessions
        row(f"served: memory per session (10->{n}), MB", f"{app['mb']:.2f}",
            f"{bare['mb']:.2f}", "<= 1.5", app["mb"] <= 1.5)
        row(f"served: server CPU per session (10->{n}), s", f"{app['cpu']:.3f}",
            f"{bare['cpu']:.3f}", "<= 0.15", app["cpu"] <= 0.15)
        row("served: RSS at 10 / at %d sessions, MB" % n,
            "%.0f / %.0f" % app["rss"], "%.0f / %.0f" % bare["rss"], "", True)
        row("first page after a start, s", f"{app['first']:.2f}", f"{trivial['first']:.2f}",
            f"<= 1.3x ({app['first'] / trivial['first']:.1f}x)",
            app["first"] <= 1.3 * trivial["first"])
        row("later page loads (median of 5), s", f"{app['later']:.3f}",
            f"{trivial['later']:.3f}", f"<= 3x ({app['later'] / trivial['later']:.1f}x)",
            app["later"] <= 3 * trivial["later"])
    print_table("Page weight: dicelab beside bare Panel pages (same run; load average "
                f"{os.getloadavg()[0]:.1f})", ["figure", "dicelab", "bare Panel", "goal",
                                               "result"], rows)
    if missed:
        print("missed: " + ", ".join(missed))
    return 0  # a missed goal is a finding, not a failure (as every benchmark)


if __name__ == "__main__":
    sys.exit(main())
