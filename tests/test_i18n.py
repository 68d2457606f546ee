"""Messages in English, French and Russian (issue 18): the catalogs are complete and fresh,
every user-visible string is marked, and plurals and numbers follow each language."""
from __future__ import annotations

import ast
import textwrap

import pytest

from dicelab import i18n
from dicelab import i18n_catalogs as cat
from dicelab.i18n import L_, Ln_, _, n_, using

DOMAINS = [d for d, _p in cat.DOMAINS]


@pytest.mark.parametrize("lang", cat.TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_catalog_has_every_message_and_no_stale_one(domain, lang):
    found = cat.problems(lang, domain)
    assert not found.missing, f"{len(found.missing)} untranslated, e.g. {found.missing[:5]}"
    assert not found.stale, f"{len(found.stale)} stale, e.g. {found.stale[:5]}"
    assert not found.fuzzy, f"{len(found.fuzzy)} fuzzy, e.g. {found.fuzzy[:5]}"
    assert not found.unfresh_mo, f"run `make messages`: {found.unfresh_mo[:5]}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_shown_string_is_marked(domain):
    bad = [f"{p.relative_to(cat.PACKAGE.parent)}:{line}: {text[:60]!r}"
           for p in cat.modules(domain) for line, text in cat.unmarked(p)]
    bad += [f"{p.relative_to(cat.PACKAGE.parent)}:{line}: not a literal message"
            for p in cat.modules(domain) for line in cat.dynamic_messages(p)]
    assert not bad, f"{len(bad)} strings to mark:\n" + "\n".join(bad[:40])


def test_the_lint_finds_unmarked_strings(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(textwrap.dedent('''
        """A docstring is not shown."""
        from dicelab.i18n import _
        KINDS = ("roll", "stand")                     # keys
        def f(name):
            """Nor is this."""
            if name == "Some words":                  # compared with
                raise TypeError("for developers")
            x = _("Marked words")
            y = "Plain words a person reads"
            z = f"{name} rolls the dice"
            w = "Stand"
            v = "Shown but waived"  # i18n: not shown
            return _(f"{name} dynamic")
        '''))
    found = {text for _line, text in cat.unmarked(src)}
    assert found == {"Plain words a person reads", "{} rolls the dice", "Stand"}
    assert cat.dynamic_messages(src) == [14]


def test_the_underscore_is_never_rebound_where_it_translates():
    # `for _ in ...` in a module that imports `_` makes it a local: a crash only when shown
    bad = []
    for path in cat.modules():
        tree = ast.parse(path.read_text())
        imports = any(isinstance(n, ast.ImportFrom) and n.module and n.module.endswith("i18n")
                      and any(a.name == "_" for a in n.names) for n in ast.walk(tree))
        if not imports:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                bad.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.arg) and node.arg == "_":
                bad.append(f"{path.name}:{node.lineno}")
    assert not bad, bad


@pytest.fixture
def tiny_catalogs(tmp_path, monkeypatch):
    """French and Russian catalogs of three messages, compiled with Babel."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    words = {
        # CLDR gives French three forms: one, many (a million "de dés"), other
        "fr": {"Stand": "Rester", ("{n} die", "{n} dice"): ("{n} dé", "{n} de dés", "{n} dés"),
               "{name} scores {points}.": "{name} marque {points}."},
        "ru": {"Stand": "Хватит", ("{n} die", "{n} dice"): ("{n} кость", "{n} кости",
                                                          "{n} костей"),
               "{name} scores {points}.": "{name} набирает {points}."},
    }
    for lang, table in words.items():
        c = Catalog(locale=lang, domain="test")
        for msgid, text in table.items():
            c.add(msgid, text)
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        with open(folder / "test.mo", "wb") as f:
            write_mo(f, c)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


def test_plural_forms_follow_each_language(tiny_catalogs):
    # issue 18: "1 dé / 2 dés", "1 кость / 2 кости / 5 костей"
    with using("fr"):
        assert [n_("{n} die", "{n} dice", n) for n in (0, 1, 2, 5, 10**6)] == [
            "0 dé", "1 dé", "2 dés", "5 dés", "1\u202f000\u202f000 de dés"]
    with using("ru"):
        assert [n_("{n} die", "{n} dice", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
            "1 кость", "2 кости", "5 костей", "11 костей", "21 кость", "22 кости", "25 костей"]
    with using("en"):
        assert [n_("{n} die", "{n} dice", n) for n in (1, 2)] == ["1 die", "2 dice"]


def test_numbers_are_written_each_language_s_way(tiny_catalogs):
    # grouping: 10,000 / 10 000 (narrow no-break space) / 10 000 (no-break space)
    with using("en"):
        assert _("{name} scores {points}.", name="Ann", points=10000) == "Ann scores 10,000."
    with using("fr"):
        assert _("{name} scores {points}.", name="Ann", points=10000) == \
            "Ann marque 10\u202f000."
    with using("ru"):
        assert _("{name} scores {points}.", name="Ann", points=10000) == \
            "Ann набирает 10\xa0000."
        assert i18n.number(0.5) == "0,5"


def test_a_lazy_message_renders_in_the_reader_s_language(tiny_catalogs):
    said = L_("{name} scores {points}.", name="Фёдор <b>", points=350)
    dice = Ln_("{n} die", "{n} dice", 5)
    assert said == "Фёдор <b> scores 350."          # compares as its English text
    with using("fr"):
        assert str(said) == "Фёдор <b> marque 350."  # the name is never translated
        assert f"{dice}" == "5 dés"
    with using("ru"):
        assert str(said) == "Фёдор <b> набирает 350."
        assert str(dice) == "5 костей"
    assert str(said) == "Фёдор <b> scores 350."


def test_language_comes_from_context_resolver_then_default(monkeypatch):
    monkeypatch.setattr(i18n, "_resolvers", [lambda: "fr"])
    assert i18n.language() == "fr"
    with using("ru"):
        assert i18n.language() == "ru"
    monkeypatch.setattr(i18n, "_resolvers", [lambda: None])
    monkeypatch.setattr(i18n, "_default", "en")
    assert i18n.language() == "en"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        i18n.set_language("de")


@pytest.mark.parametrize("header, lang", [
    ("fr-FR,fr;q=0.9,en;q=0.8", "fr"), ("de-DE,ru;q=0.5,en;q=0.7", "en"),
    ("ru", "ru"), ("de, it", None), ("", None), ("en;q=0.1, fr;q=0.9", "fr")])
def test_browser_language(header, lang):
    assert i18n.from_accept_language(header) == lang


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANGUAGE": "de:ru", "LANG": "fr_FR.UTF-8"}, "ru"), ({"LC_ALL": "C", "LANG": "ru_RU"}, "en"),
    ({}, "en"), ({"LANG": "de_DE.UTF-8"}, "en")])
def test_terminal_language(env, lang):
    assert i18n.from_environment(env) == lang


@pytest.mark.parametrize("lang", cat.TRANSLATED)
def test_one_message_reads_the_same_in_every_domain(lang):
    # the domains are chained into one catalog: a message in two of them must not disagree
    seen: dict[tuple, tuple[str, object]] = {}
    clashes = []
    for domain in DOMAINS:
        for m in cat.read(lang, domain):
            if not m.id or not m.string:
                continue
            key = (m.context, m.id)
            if key in seen and seen[key][1] != m.string:
                clashes.append(f"{m.id!r}: {seen[key][0]} {seen[key][1]!r} vs "
                               f"{domain} {m.string!r}")
            seen.setdefault(key, (domain, m.string))
    assert not clashes, "\n".join(clashes[:20])
