"""The server's memory after half-open sessions close (issue 33, item 6), same run.

    .venv/bin/python benchmarks/half_open.py [--sessions 300] [--keep 1]

Serves the app (``dicelab.ui.serve``, in a process of its own, the limits per address raised
so that every session is built), keeps ``--keep`` pages open the whole time, then opens
``--sessions`` half-open sessions: the page requested and its websocket connected (the session
is built then) but the page never loaded. They are closed, and the server's RSS is read until
it settles: Bokeh destroys a closed session after its unused-session lifetime (15 s, checked
every 17 s), and a batch of closed sessions brings a full collection and a trim of the heap.
Printed: RSS at the start, with the sessions open, and once they closed, the last against the
start (goal: within 20%), and the server's CPU per session built.

Before issue 33 each session whose page never loaded stayed in memory until the timer closing
such pages ran (DICELAB_LOAD_TIMEOUT, 60 s after it opened), and its objects were frozen with
the pages that loaded meanwhile: 300 took the server from 152 MB to 955 MB.

2026-12-04, this project's 2-core machine at a load average of 14-17 (other work), 30 sessions
(not 300: time), 1 page kept: 107 MB at the start, 188 MB open, 172 MB settled: 1.60x, goal
1.2x MISSED; 1.16 s of server CPU per session built. The sessions' apps are freed (the suite's
test_half_open_sessions_are_released_when_they_close); what stays is still to be found
(the heap's fragmentation, or caches filled by the first sessions: a tracemalloc comparison
in the server would say).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import rooms_load as rl  # noqa: E402  (ROOT on sys.path, rss_mb, server_cpu_s)
from _table import print_goals, print_table  # noqa: E402

SERVE = "import sys; from dicelab.ui.app import serve; serve(port=int(sys.argv[1]))"


def settle(pid: int, seconds: float, at_least: float = 0.0) -> float:
    """The server's RSS once it has not fallen for 20 s, after ``at_least`` seconds (at most
    ``seconds``)."""
    start = time.monotonic()
    end, low, low_at = start + seconds, rl.rss_mb(pid), start
    while time.monotonic() < end and (time.monotonic() - low_at < 20
                                      or time.monotonic() - start < at_least):
        time.sleep(1)
        now = rl.rss_mb(pid)
        if now < low - 1:
            low, low_at = now, time.monotonic()
    return rl.rss_mb(pid)


def measure(sessions: int = 300, keep: int = 1) -> dict:
    from tests.test_hostile_served import connect
    from tests.ui.conftest import free_port, wait_http

    work = Path(tempfile.mkdtemp(prefix="half_open-"))
    port = free_port()
    env = {**os.environ, "DICELAB_ROOMS": "memory", "DICELAB_RECORDS": str(work / "r.sqlite3"),
           "DICELAB_SESSIONS_PER_ADDRESS": "100000", "DICELAB_SESSIONS_MAX": "100000",
           "DICELAB_PAGE_RATE": "100000"}
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=(work / "log").open("w"))
    url = f"http://127.0.0.1:{port}/dicelab_app"
    out: dict = {"sessions": sessions, "keep": keep}
    try:
        wait_http(url)

        async def run():
            kept = [await connect(url) for _ in range(keep)]
            out["start"] = settle(server.pid, 60)
            cpu0 = rl.server_cpu_s(server.pid)
            half = [await connect(url) for _ in range(sessions)]
            out["cpu_per_session"] = (rl.server_cpu_s(server.pid) - cpu0) / max(1, sessions)
            out["open"] = rl.rss_mb(server.pid)
            for ws in half:
                ws.close()
            await asyncio.sleep(1)
            # Bokeh destroys them within 32 s; a batch's collection waits 5 s more
            out["closed"] = await asyncio.to_thread(settle, server.pid, 240, 45)
            for ws in kept:
                ws.close()
        asyncio.run(run())
    finally:
        server.terminate()
        server.wait(20)
    out["ratio"] = out["closed"] / out["start"]
    return out


def report(r: dict) -> None:
    print_table(f"Server RSS, {r['sessions']} half-open sessions ({r['keep']} page kept open)",
                ["moment", "RSS (MB)"],
                [("start (pages kept open)", f"{r['start']:.0f}"),
                 ("half-open sessions open", f"{r['open']:.0f}"),
                 ("after they closed, settled", f"{r['closed']:.0f}")])
    print_goals("Goals", [
        ("RSS after they closed / at the start", f"{r['ratio']:.2f}", "<= 1.20",
         r["ratio"] <= 1.2),
        ("server CPU per half-open session built (s)", f"{r['cpu_per_session']:.2f}", "", True)])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--keep", type=int, default=1)
    args = ap.parse_args(argv)
    report(measure(args.sessions, args.keep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
