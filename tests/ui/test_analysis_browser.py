"""The analysis board and the set-up form in a real browser (issue 35): a finished Bones game
opened from its link steps with ← → Home and the buttons, a click on the chart moves the board
to that action; the form's Bones position shows the odds ``dicelab odds`` prints for it."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from dicelab.cli import main
from dicelab.games import new_game
from dicelab.players import make_player
from dicelab.ui.analysis import encode_game

T = 30_000  # ms: the machine is shared, a step may wait for a busy core

pytestmark = pytest.mark.browser


def _step(page) -> str:
    return page.locator("[data-testid=board-step]").inner_text()


def test_board_steps_with_keys_buttons_and_the_chart(server, page, artifacts):
    g = new_game("bones", [("Ann", make_player("bones", "optimal")),
                           ("Bob", make_player("bones", "chicken"))], seed=3, target=2000)
    g.play_computers()
    last = len(g.actions)
    page.set_default_timeout(60_000)
    page.goto(server.url + "?game=" + encode_game(g))
    step = page.locator("[data-testid=board-step]")
    expect(step).to_have_text(f"Position {last} of {last}", timeout=60_000)
    page.locator("html[data-dl-step-keys=on]").wait_for(state="attached")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Position {last - 1} of {last}", timeout=T)
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Position {last} of {last}", timeout=T)
    page.keyboard.press("Home")
    expect(step).to_have_text(f"Position 0 of {last}", timeout=T)
    page.get_by_role("button", name="Next ›").click()
    expect(step).to_have_text(f"Position 1 of {last}", timeout=T)
    # the table shows that position: the first roll's dice in the history's last line
    expect(page.locator("li.roll", has_text="Ann rolled 2 2 2 5 6")).to_be_visible(timeout=T)
    # a click in the chart's plot, half way along: that action's position
    chart = page.locator(".bk-Figure").first  # the win chart, under the scoreboard
    expect(chart).to_be_visible(timeout=T)
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.55, box["y"] + box["height"] * 0.3)
    expect(step).not_to_have_text(f"Position 1 of {last}", timeout=T)
    n = int(re.match(r"Position (\d+)", _step(page)).group(1))
    assert 1 < n < last, n
    page.screenshot(path=str(artifacts / "analysis-board.png"))
    assert not page.errors


def test_set_up_form_gives_the_cli_readout(server, page, artifacts, capsys):
    assert main(["odds", "bones", "--banked", "2000", "--turn-total", "250", "--dice", "2",
                 "--json"]) == 0
    ts = json.loads(capsys.readouterr().out)["turn_state"]
    page.set_default_timeout(60_000)
    page.goto(server.url)
    page.get_by_role("button", name="Analyse").click()
    page.get_by_label("Every seat's total").fill("2000 3500")
    page.get_by_role("button", name="Show this position").click()
    odds = page.locator("[data-testid=odds]").first
    # on the board the seat on turn is named ("if Player 1 rolls"): nobody plays from here
    expect(odds).to_contain_text(re.compile(r"Expected points if (you roll|Player 1 rolls)"),
                                 timeout=60_000)
    text = odds.inner_text()
    assert f"{ts['stand_value']:.0f} ★" in text and ts["decision"] == "stand"
    assert f"\n{ts['roll_value']:.0f}\n" in text
    assert f"{round(100 * ts['bust_chance'])}%" in text
    page.get_by_label("Every seat's total").fill("2010 0")
    page.get_by_role("button", name="Show this position").click()
    expect(page.locator("[data-testid=setup-refusal]")).to_have_text(
        re.compile("totals: Bones totals are multiples of 50"), timeout=T)
    assert not page.errors
