"""One home for the environment variables (issue 34): every DICELAB_* name the code reads is
in dicelab.config, the docs' table (docs/reference/environment.md) is generated from it, and a
bad value gives one warning and the default."""
from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from dicelab import config

ROOT = Path(__file__).resolve().parents[1]


def test_every_dicelab_name_in_the_source_is_in_the_config():
    names = set()
    for path in [*ROOT.joinpath("dicelab").rglob("*.py"), *ROOT.joinpath("apps").rglob("*.py"),
                 ROOT / "Makefile"]:
        names |= set(re.findall(r"\bDICELAB_[A-Z_]*[A-Z]\b", path.read_text()))
    assert names, "the scan found nothing"
    assert names - set(config.VARS) == set()


def test_the_readme_table_is_the_configs():
    text = (ROOT / "docs" / "reference" / "environment.md").read_text()
    start, end = (text.index(mark) for mark in config.TABLE_MARKS)
    assert text[start + len(config.TABLE_MARKS[0]):end].strip() == \
        config.markdown_table().strip(), \
        "docs/reference/environment.md's table differs: paste config.markdown_table()"


@pytest.mark.parametrize("name,raw,expected", [
    ("DICELAB_ROOM_PACE", "0.3", 0.3), ("DICELAB_ROOM_PACE", "soon", 0.8),
    ("DICELAB_ROOM_PACE", "nan", 0.8), ("DICELAB_ROOM_PACE", "-1", 0.8),
    ("DICELAB_CDN", "yes", True), ("DICELAB_CDN", "maybe", False), ("DICELAB_CDN", "", False),
    ("DICELAB_SOUND", "off", False), ("DICELAB_SOUND", "", None),
    ("DICELAB_MESSAGE_RATE", "2.5", 60), ("DICELAB_MESSAGE_RATE", "20", 20),
    ("DICELAB_ESTIMATE_WORKER", " Thread ", "thread"), ("DICELAB_WIN_BUILD", "of", ""),
])
def test_values_and_bad_values(monkeypatch, caplog, name, raw, expected):
    monkeypatch.setenv(name, raw)
    with caplog.at_level(logging.WARNING, logger="dicelab.config"):
        assert config.value(name) == expected
        config.value(name)
    default = config.VARS[name].default
    bad = expected == default and raw.strip() not in ("", str(default))
    assert len([r for r in caplog.records if name in r.getMessage()]) == (1 if bad else 0)


def test_unknown_names_are_refused():
    with pytest.raises(KeyError):
        config.value("DICELAB_NOPE")
