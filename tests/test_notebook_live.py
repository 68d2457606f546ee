"""dicelab in a real Jupyter kernel (nbclient, no browser): the front end loads inline (no CDN
link in what the notebook receives), views shown in one cell follow actions applied in later
cells, and ``g.play_computers()`` returns at once and plays in the background at the views'
pace. The browser side (JupyterLab, network blocked) is tests/ui/test_jupyterlab.py."""
from __future__ import annotations

import json
import re
import sys

import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

# what a notebook would fetch: Bokeh's and Panel's CDNs, or any tag that loads from the web
# (the inline JavaScript itself mentions other addresses in strings it never fetches here;
# tests/ui/test_jupyterlab.py records the requests a browser really makes)
# Panel's loader lists the CDN copies of what it inlines, so that they are never fetched
SKIP = re.compile(r"var urls = \[[^\]]*\];\s*for \(var i = 0; i < urls\.length; i\+\+\) "
                  r"\{\s*skip\.push")
CDN = re.compile(r"https?://(cdn\.holoviz\.org|cdn\.bokeh\.org)|<(script|link)[^>]*\s(src|href)="
                 r"\\?[\"']https?://")

CELLS = [
    # 0: the front end, inline by default
    f"import sys\nassert sys.prefix == {sys.prefix!r}\n"
    "import dicelab, json\nfrom dicelab.ui import DiceTray, OddsPanel, Scoreboard\n"
    "dicelab.notebook()\n"
    # the coach's review table is a Tabulator: shown without its extension, Panel warns
    "import panel as pn\n_ = pn.widgets.Tabulator()._repr_mimebundle_()",
    # 1: three views of a new game
    "g = dicelab.new_game('bones', ['Ann', 'Bob'], seed=1)\n"
    "tray, odds, board = DiceTray(g), OddsPanel(g), Scoreboard(g)\n"
    "display(tray, odds, board)",
    # 2: a later cell moves the game
    "before = odds._text.object\n"
    "g.apply('roll')\n"
    "ref = next(iter(tray._view._models))\n"
    "shown = json.loads(tray._view._models[ref][0].data.view)\n"
    "print(json.dumps({'dice': sorted(g.state.dice), 'shown': sorted(d['v'] for d in "
    "shown['rolled'] + shown['kept']), 'odds_changed': odds._text.object != before}))",
    # 3: computers at the views' pace, in the background
    "from dicelab.players import make_player\n"
    "def game(s):\n"
    "    return dicelab.new_game('under40', [('Cpu', make_player('under40', 'threshold:30')),"
    " 'Ann'], seed=s)\n"
    "h = game(next(s for s in range(100) if game(s).current_player == 0))\n"
    "t2 = DiceTray(h)\n"
    "from dicelab.ui import Play\n"
    "Play.of(h).computers = False\n"
    "Play.of(h).prefs.pace = 0.05\n"
    "task = h.play_computers()\n"
    "print(json.dumps({'task': type(task).__name__, 'version_at_once': h.version}))",
    "events = await task\n"
    "print(json.dumps({'played': h.version, 'person_or_over': h.is_over or h.current_player"
    " == 1, 'tray_roll_id': t2._view.shown['roll_id'], 'rolls': sum(1 for e in events"
    " if e.data.get('dice') is not None)}))",
    # 5: the whole app
    "dicelab.app()",
]


APP_CELL = (
    "import dicelab, json, re\n"
    "data, meta = dicelab.app()._repr_mimebundle_()\n"
    "h = data['text/html']\n"
    "print(json.dumps({'size': len(h), 'plain': data['text/plain'][:40], 'cdn': sorted(set("
    "re.findall(r'https?://(?:cdn\\.holoviz\\.org|cdn\\.bokeh\\.org)[^\\s\"\\'<>]*', h)))[:5]}))")


def execute(cells):
    nb = new_notebook(cells=[new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    return nb


@pytest.fixture(scope="module")
def executed():
    return execute(CELLS)


def printed(cell) -> dict:
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    return json.loads(text.strip().splitlines()[-1])


def outputs_text(cell) -> str:
    return json.dumps([o.get("data", {}) for o in cell.outputs])


def test_front_end_loads_inline(executed):
    load = [o.get("data", {}).get("application/javascript", "")
            for o in executed.cells[0].outputs]
    assert sum(map(len, load)) > 1_000_000  # Bokeh and Panel inline
    assert not [CDN.search(SKIP.sub("", js)) for js in load if CDN.search(SKIP.sub("", js))]


def test_app_loads_the_extensions_it_uses(executed):
    """Panel warns (and the review table stays blank) when a Tabulator is made before its
    extension is loaded; dicelab.notebook() loads it with the front end."""
    streams = [o.get("text", "") for o in executed.cells[0].outputs if o.output_type == "stream"]
    assert not [s for s in streams if "not imported" in s or "may not render" in s], streams


def test_views_render_without_cdn_links(executed):
    shown = [o for o in executed.cells[1].outputs
             if "dicelab" in o.get("data", {}).get("text/plain", "")]
    assert len(shown) == 3
    for o in shown:
        assert "application/vnd.holoviews_exec.v0+json" in o["data"]
        assert "Panel's notebook front end" in o["data"]["text/plain"]  # words if it is missing
        assert not CDN.search(o["data"]["text/html"])


def test_a_view_follows_a_later_cell(executed):
    out = printed(executed.cells[2])
    assert out["shown"] == out["dice"] and len(out["dice"]) == 5
    assert out["odds_changed"]


def test_play_computers_in_the_background(executed):
    first = printed(executed.cells[3])
    assert first == {"task": "Task", "version_at_once": 0}
    done = printed(executed.cells[4])
    assert done["played"] > 0 and done["person_or_over"]
    assert done["tray_roll_id"] == done["rolls"] > 0


def test_notebook_weight(executed):
    """Issue 38: ``dicelab.app()``'s cell, with the front end it loads, at most 5 MB of a saved
    notebook (inline, offline), each view shown after the front end at most 1 MB
    (panel-material-ui's bundle travels once, not in each of its components: 50 MB and 1.7 MB
    before)."""
    size = [len(json.dumps(c.outputs)) for c in executed.cells]
    assert size[5] <= 5_000_000, size
    views = [len(json.dumps(o)) for o in executed.cells[1].outputs
             if "dicelab" in o.get("data", {}).get("text/plain", "")]
    assert len(views) == 3 and max(views) <= 1_000_000, views
    assert "dicelab app" in outputs_text(executed.cells[5])


@pytest.mark.slow
def test_app_output_has_no_cdn_link():
    """The whole app inline is ~65 MB of output: rendered in the kernel, not sent here."""
    out = printed(execute([APP_CELL]).cells[0])
    assert out["cdn"] == [] and out["size"] > 1000
    assert out["plain"].startswith("dicelab app")
