"""Is every word on a page in the page's language? (issue 18)

What a person reads on the page (visible text, through Panel's shadow roots) and what a screen
reader or a tooltip says (aria-label, title, placeholder) is cut into words; digits, symbols and
the names a test typed are dropped. A word passes when the language's catalogs (all domains)
use it in a translation, or when it is a name every language keeps (the games' own names,
dicelab, the languages' own names in the menu). Anything else is reported: an English word
left over, or a word nobody translated.
"""
from __future__ import annotations

import re
from functools import lru_cache

from dicelab import i18n_catalogs as cat

# names every language writes the same (the variants' own names, the app, the menu's
# languages in their own names)
KEPT = {"dicelab", "bones", "under40", "yahtzee", "hypercard", "english", "français",
        "русский"}
WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)

TEXTS = """
(() => {
  const out = [];
  const walk = (root) => {
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = w.nextNode())) {
      const p = n.parentElement;
      if (!p || ['SCRIPT', 'STYLE', 'TEMPLATE'].includes(p.tagName)) continue;
      if (p.checkVisibility && !p.checkVisibility({visibilityProperty: true})) continue;
      const t = n.textContent.trim();
      if (t) out.push(t);
    }
    for (const e of root.querySelectorAll('*')) {
      if (e.checkVisibility && !e.checkVisibility()) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = e.getAttribute(a);
        if (v) out.push(v);
      }
      if (e.tagName === 'INPUT' && e.type !== 'hidden' && e.value) out.push(e.value);
    }
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) walk(e.shadowRoot);
  };
  walk(document.body);
  out.push(document.title);
  return out;
})()
"""


@lru_cache(maxsize=None)
def vocabulary(lang: str) -> frozenset[str]:
    """Every word the translations of ``lang`` use (all domains), lower-cased."""
    words: set[str] = set()
    for domain, _prefixes in cat.DOMAINS:
        for m in cat.read(lang, domain):
            if not m.id:
                continue
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            for s in strings:
                words.update(w.lower() for w in WORD.findall(re.sub(r"\{[^{}]*\}", " ", s or "")))
    return frozenset(words)


def page_texts(page) -> list[str]:
    return page.evaluate(TEXTS)


def foreign_words(page, lang: str, names=()) -> dict[str, str]:
    """Words on the page that are not ``lang``'s: word -> a text it was found in."""
    known = vocabulary(lang) | KEPT
    out: dict[str, str] = {}
    for text in page_texts(page):
        bare = text
        for name in sorted(names, key=len, reverse=True):  # whole names, as typed
            bare = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", bare)
        for w in WORD.findall(bare):
            if w.lower() not in known:
                out.setdefault(w, text[:80])
    return out
