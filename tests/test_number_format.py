"""One fixed-decimals formatter (issue 34 item 3): ``i18n.fixed``, Babel's per language, used by
the coach, the terminal, the lab and odds commands and the app's tables.
Before, the coach printed 2.675 as "2.67" and the terminal as "2.68"."""
from __future__ import annotations

import random

import pytest

from dicelab import i18n
from dicelab.coach import values
from dicelab.i18n import using
from dicelab.ui import phrases

NNBSP, NBSP = "\u202f", "\xa0"


@pytest.mark.parametrize("lang,two,one,grouped", [
    ("en", "2.67", "2.7", "1,234.50"),
    ("fr", "2,67", "2,7", f"1{NNBSP}234,50"),
    ("ru", "2,67", "2,7", f"1{NBSP}234,50"),
])
def test_2_675_prints_alike_everywhere(lang, two, one, grouped):
    # 2.675 is stored as 2.67499999999999982236431605997495353221893310546875: the correctly
    # rounded two decimals are 2.67 (Babel given the text "2.675" rounds it to 2.68)
    with using(lang):
        assert i18n.fixed(2.675) == two
        assert phrases.decimal(2.675, 2) == two   # the app's
        assert values.ValueSource().fmt(2.675) == one  # the coach's (one decimal)
        assert i18n.fixed(1234.5) == grouped
        assert i18n.fixed(2.675, 0) == "3"


def test_one_function():
    assert values.fixed is i18n.fixed


def test_rounds_as_python_formats_the_float():
    """Exact ties (0.125 is exact in binary) go to the even digit, as Python's format does;
    negative values keep their sign; nan says so."""
    rng = random.Random(7)
    xs = [0.125, 0.375, -0.04, -2.675, 1e6 + 0.05, 99.95] + [
        rng.randint(-10**7, 10**7) / rng.choice([8, 36, 216, 1000, 1296]) for _ in range(2000)]
    with using("en"):
        for x in xs:
            for d in (0, 1, 2, 3):
                assert i18n.fixed(x, d) == f"{x:,.{d}f}", (x, d)
        assert i18n.fixed(float("nan")) == "nan"
