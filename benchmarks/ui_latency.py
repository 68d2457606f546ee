"""Click-to-dice-updated latency of the served app, next to a bare Panel page (same run).

    .venv/bin/python benchmarks/ui_latency.py [--rolls 60] [--port P]

Serves ``apps/dicelab_app.py`` and this file (as the bare page: a Panel button that
rewrites one line of HTML) from one ``panel serve``, opens both in headless Chromium and, taking
turns, clicks Roll / the bare button. Each latency is measured inside the page: from the click
to the first DOM change of the dice tray (or of the line of text), by a MutationObserver. Prints
median and p95 of each and their ratio (goal <= 1.3x, must stay under 2x).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _table import met, pct

ROOT = Path(__file__).resolve().parents[1]

# --- the bare page (this file served by `panel serve`) ---------------------------------------
if __name__.startswith("bokeh_app"):
    import panel as pn

    pn.extension()
    line = pn.pane.HTML("<p class='line'>not clicked</p>")
    count = {"n": 0}

    def clicked(event):
        count["n"] += 1
        line.object = f"<p class='line'>clicked {count['n']}</p>"

    pn.Column(pn.widgets.Button(label="Bare", button_type="primary", on_click=clicked),
              line).servable()

# --- the measurement -------------------------------------------------------------------------
MEASURE = """
([buttonText, targetSel]) => new Promise((resolve, reject) => {
  const btn = window.__deep('button').find(b => (b.innerText || '').trim().startsWith(buttonText)
                                                && !b.disabled);
  const target = window.__deep(targetSel)[0];
  if (!btn || !target) { reject(new Error('button or target not found')); return; }
  const root = target.getRootNode() instanceof ShadowRoot ? target.getRootNode() : target;
  const obs = new MutationObserver(() => { obs.disconnect(); resolve(performance.now() - t0); });
  obs.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  const t0 = performance.now();
  btn.click();
  setTimeout(() => { obs.disconnect(); reject(new Error('no update within 5 s')); }, 5000);
})
"""


def ready(page, deep: str):
    page.wait_for_function(
        "() => window.Bokeh && Bokeh.documents.length && Bokeh.documents[0]._notified_idle",
        timeout=30_000)
    page.evaluate(deep)


def main(argv=None) -> int:
    # the UI tests' own helpers: a free port, waiting for the server, Chromium, shadow-DOM finder
    sys.path.insert(0, str(ROOT))
    from tests.ui.conftest import CHROMIUM, CHROMIUM_ARGS, free_port, wait_http
    from tests.ui.driver import DEEP

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rolls", type=int, default=60)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--chromium", default=CHROMIUM)
    args = ap.parse_args(argv)
    port = args.port or free_port()
    records = Path(tempfile.mkdtemp()) / "records.sqlite3"
    env = {**os.environ, "DICELAB_RECORDS": str(records), "DICELAB_SOUND": "off"}
    cmd = [sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "dicelab_app.py"),
           str(Path(__file__).resolve()), "--port", str(port), "--address", "127.0.0.1",
           f"--allow-websocket-origin=127.0.0.1:{port}"]
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(f"{base}/dicelab_app")
        wait_http(f"{base}/ui_latency")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            app = browser.new_page(viewport={"width": 1280, "height": 900})
            bare = browser.new_page(viewport={"width": 1280, "height": 900})
            app.goto(f"{base}/dicelab_app")
            ready(app, DEEP)
            # one person, a target out of reach: Roll is always legal
            app.get_by_role("button", name="Remove seat 2").click()
            box = app.get_by_label("Target", exact=True).first
            box.click()
            box.press("Control+A")
            box.type("100000")
            box.press("Tab")
            app.get_by_role("button", name="Start new game", exact=True).click()
            app.locator(".banner").first.wait_for()
            app.evaluate(DEEP)
            bare.goto(f"{base}/ui_latency")
            ready(bare, DEEP)
            times = {"dicelab": [], "bare": []}
            pages = {"dicelab": (app, ["Roll", ".tray"]), "bare": (bare, ["Bare", ".line"])}
            for i in range(args.rolls + 5):  # the first 5 of each warm up
                for name, (page, spec) in pages.items():
                    page.bring_to_front()
                    ms = page.evaluate(MEASURE, spec)
                    if i >= 5:
                        times[name].append(ms)
                    page.wait_for_timeout(150)  # let the rest of the update settle
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    rows = []
    for name, xs in times.items():
        rows.append((name, statistics.median(xs), pct(xs, 0.95), len(xs)))
    print(f"{'page':<10}{'median ms':>12}{'p95 ms':>10}{'n':>6}")
    for name, med, p95, n in rows:
        print(f"{name:<10}{med:>12.1f}{p95:>10.1f}{n:>6}")
    ratio_med = rows[0][1] / rows[1][1]
    ratio_p95 = rows[0][2] / rows[1][2]
    print(f"{'ratio':<10}{ratio_med:>11.2f}x{ratio_p95:>9.2f}x   (goal <= 1.3x: "
          f"{met(ratio_med <= 1.3)}; limit 2x: {met(ratio_med <= 2)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
