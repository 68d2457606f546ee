"""axe-core, the accessibility checker browsers' developer tools ship, run inside a test's page
(issue 40). The script comes from the npm registry once (pinned version, checked by its
SHA-256) and is kept in the test environment's ``share`` folder."""
from __future__ import annotations

import hashlib
import sys
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
SHA256 = "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"  # of the .tgz
URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
SCRIPT = Path(sys.prefix) / "share" / f"axe-core-{VERSION}.min.js"
SERIOUS = ("critical", "serious")


def script() -> str:
    """axe.min.js, fetched and checked on first use."""
    if not SCRIPT.exists():
        import io
        import tarfile

        with urllib.request.urlopen(URL, timeout=60) as r:
            data = r.read()
        got = hashlib.sha256(data).hexdigest()
        if got != SHA256:
            raise AssertionError(f"{URL}: SHA-256 {got}, expected {SHA256}")
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            text = tar.extractfile("package/axe.min.js").read()
        SCRIPT.parent.mkdir(parents=True, exist_ok=True)
        tmp = SCRIPT.with_suffix(".part")
        tmp.write_bytes(text)
        tmp.replace(SCRIPT)
    return SCRIPT.read_text(encoding="utf-8")


def violations(page, impacts=SERIOUS, context=None) -> list[dict]:
    """axe-core's violations of the page as it is now, of the given impacts: each a dict of
    id, impact, help and the offending nodes' selectors and HTML (Panel's shadow roots
    included: axe walks open shadow DOM)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(script())
    found = page.evaluate(
        """async (context) => {
            const r = await axe.run(context || document, {resultTypes: ["violations"]});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target, html: n.html.slice(0, 200),
                                          summary: n.failureSummary}))}));
        }""", context)
    return [v for v in found if v["impact"] in impacts]


def describe(found: list[dict]) -> str:
    """The violations as lines a failing test prints."""
    lines = []
    for v in found:
        lines.append(f"{v['impact']}: {v['id']} ({v['help']}), {len(v['nodes'])} node(s)")
        for n in v["nodes"][:4]:
            lines.append(f"    {n['target']}: {n['html']}")
    return "\n".join(lines)
