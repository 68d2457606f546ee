"""The chance-to-win estimate on the page (issue 16): an Under40 game shows each player's
chance as an estimate from play-outs, labelled, while the page stays playable."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import App

pytestmark = pytest.mark.browser


def test_under40_shows_a_labelled_estimate(page, server):
    app = App(page, server).open()
    app.choose("Under40")
    app.set_field("Target", "150")
    app.start()
    assert app.wait_person_or_over() == "you"  # the game stands still on the person's turn
    est = page.locator("[data-testid=win-estimate]").first
    expect(est).to_contain_text("simulated play-outs", timeout=60_000)
    text = est.inner_text()
    assert "Chance to win (estimate)" in text and "95% interval" in text
    assert text.count("%") >= 2 * 3  # each seat: chance, and both ends of its interval
    assert not page.errors
