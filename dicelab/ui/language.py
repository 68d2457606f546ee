"""The language of each page (issue 18): every ``_()`` called while a served session renders
or runs a callback uses that session's language; a notebook's app uses its own.

Precedence: ``?lang=`` in the address > the choice kept in this browser (localStorage) > the
browser's languages (Accept-Language, else ``navigator.languages``) > English. The menu in
the header changes it; the choice goes to the address bar and to the browser's storage.
"""
from __future__ import annotations

import weakref

import panel as pn
import param
from panel.custom import JSComponent

from .. import i18n
from ..i18n import LANGUAGES, N_, _, normalize, tr
from .session import served_doc

_pages: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # Bokeh Document -> lang
_unserved: list[str | None] = [None]  # the language of views outside a server (a notebook)


def _resolve() -> str | None:
    doc = pn.state.curdoc
    if doc is not None:
        found = _pages.get(doc)
        if found is not None:
            return found
    return _unserved[0]


i18n.add_resolver(_resolve)


def set_page_language(lang: str) -> str:
    """This session's language (outside a server: the language of views shown here)."""
    code = normalize(lang)
    if code is None:
        raise ValueError(_("Unknown language {lang}: choose one of {choices}.", lang=lang,
                           choices=", ".join(LANGUAGES)))
    doc = served_doc()
    if doc is not None:
        _pages[doc] = code
    else:
        _unserved[0] = code
    return code


def reset_unserved() -> None:
    """Forget the language of views outside a server (tests)."""
    _unserved[0] = None


def url_language() -> str | None:
    """``?lang=`` of this session's address (a language dicelab speaks, else None)."""
    args = getattr(pn.state, "session_args", None) or {}
    values = args.get("lang") or []
    try:
        return normalize(values[0].decode()) if values else None
    except (UnicodeDecodeError, AttributeError):
        return None


def header_language() -> str | None:
    """The first language of the browser's Accept-Language header dicelab speaks."""
    try:
        headers = pn.state.curdoc.session_context.request.headers
    except AttributeError:
        return None
    return i18n.from_accept_language(headers.get("Accept-Language") if headers else None)


def first_language(url=None, stored=None, browser=None) -> str:
    """The language a page opens in, by the precedence above."""
    for lang in (url, stored, browser):
        if (code := normalize(lang)) is not None:
            return code
    return i18n.DEFAULT


class LanguageKeeper(JSComponent):
    """Reads this browser's kept choice and languages; keeps a new choice in localStorage and
    in the address bar (``?lang=``), and sets the page's ``lang`` attribute."""

    stored = param.String(default=None, allow_None=True, doc="The choice kept in this browser.")
    browser = param.String(default=None, allow_None=True, doc="navigator.languages, joined.")
    read = param.Boolean(default=False, doc="The browser has reported.")
    lang = param.String(default="en", doc="The page's language (its lang attribute).")
    words = param.Dict(default={}, doc="Panel's own labels in any language -> in this one.")

    _esm = """
export function render({ model, el }) {
  const KEY = "dicelab.lang";
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (e) {}
  const langs = (navigator.languages && navigator.languages.length) ? navigator.languages
    : [navigator.language || ""];
  const mark = () => { document.documentElement.lang = model.lang; };
  model.stored = stored;
  model.browser = langs.join(",");
  model.read = true;
  mark();
  model.on("lang", mark);
  // Panel's and Material UI's own labels (the theme toggle, the drawers' buttons and their
  // tooltips) are written in English by their components: said again in the page's language
  const patch = (root) => {
    const words = model.words || {};
    for (const e of root.querySelectorAll("[aria-label], [title]")) {
      for (const a of ["aria-label", "title"]) {
        const v = e.getAttribute(a);
        if (v && words[v] !== undefined && words[v] !== v) e.setAttribute(a, words[v]);
      }
    }
    for (const e of root.querySelectorAll(".MuiTooltip-tooltip")) {
      const v = e.textContent;
      if (words[v] !== undefined && words[v] !== v) e.textContent = words[v];
    }
  };
  const roots = [document.body];
  for (const e of document.querySelectorAll("*")) if (e.shadowRoot) roots.push(e.shadowRoot);
  const seen = new MutationObserver(() => roots.forEach(patch));
  for (const r of roots) {
    seen.observe(r, {subtree: true, childList: true, attributes: true,
                     attributeFilter: ["aria-label", "title"]});
    patch(r);
  }
  model.on("words", () => roots.forEach(patch));
  model.on("remove", () => seen.disconnect());
  model.on("msg:custom", (msg) => {
    if (typeof msg.keep !== "string") return;
    try { localStorage.setItem(KEY, msg.keep); } catch (e) {}
    const u = new URL(window.location.href);
    u.searchParams.set("lang", msg.keep);
    window.history.replaceState(null, "", u);
  });
  el.style.display = "none";
}
"""

    def keep(self, lang: str) -> None:
        """Remember ``lang`` in this browser and in the address."""
        self._send_msg({"keep": lang})


# what Panel's and Material UI's components write in English themselves
BUILT_IN = (N_("Toggle theme"), N_("Open contextbar"), N_("Close contextbar"),
            N_("Open drawer"), N_("Close drawer"), N_("Resize sidebar"),
            N_("Drag to resize sidebar"), N_("Resize contextbar"),
            N_("Drag to resize contextbar"))


def built_in_words() -> dict[str, str]:
    """Each built-in label, as any language writes it -> as the page's language does."""
    out = {}
    for text in BUILT_IN:
        now = tr(text)
        for lang in LANGUAGES:
            with i18n.using(lang):
                out[tr(text)] = now
    return out


def language_menu(value: str, on_change, header: bool = True, **params) -> pn.widgets.Select:
    """A language menu (the header's, or the settings drawer's): each language in its own
    name."""
    from .look import WIDGET_CSS
    from .page import HEAD_MENU_CSS

    options = {name: code for code, name in LANGUAGES.items()}
    css = [WIDGET_CSS, HEAD_MENU_CSS] if header else [WIDGET_CSS]
    menu = pn.widgets.Select(label=_("Language"), options=options, value=value,
                             width=130 if header else 200, stylesheets=css,
                             **({"margin": 0} if header else {}), **params)
    menu.param.watch(lambda e: on_change(e.new), "value")
    return menu
