"""The coach in the app (issue 17), in a real browser: Coach on in the settings drawer, a person
makes one deliberately bad choice and sees what it cost, finishes the game, sees the review with
that decision highlighted, and downloads the review as CSV (and the game as JSON, which loads
again). Under40 and Bones run always (short games); Yahtzee always through a room whose first
twelve rounds the test plays on the server, and as a whole game with DICELAB_SLOW=1, as
Thousand."""
from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import quote_plus

import pytest
from playwright.sync_api import expect

import dicelab

from .driver import DEEP, App, idle_work

pytestmark = pytest.mark.browser
SLOW = pytest.mark.slow
HIGHLIGHT = "rgb(253, 226, 225)"  # coach_view.COSTLY
# the review table's rows drawn now: [text, highlighted] (through Panel's shadow roots)
MARKED = DEEP + """
(() => window.__deep('.tabulator-row').map(r => {
  const c = r.querySelector('.tabulator-cell[tabulator-field=player]');
  return [r.innerText, !!c && getComputedStyle(c).backgroundColor === '%s'];
}))()
""" % HIGHLIGHT


def coach_on(app: App):
    page = app.page
    page.get_by_role("button", name="⚙ Settings").click()
    switch = page.get_by_role("switch", name="Coach")
    if not switch.count():
        switch = page.get_by_label("Coach", exact=True)
    switch.first.check()
    expect(switch.first).to_be_checked()
    page.keyboard.press("Escape")  # close the drawer (it covers the page)
    expect(switch.first).to_be_hidden()


def start(app: App, artifacts, name: str):
    """Start the game; if the table does not come, keep a picture of the page (what the start
    screen said) in test-artifacts."""
    try:
        app.start()
    except Exception:
        app.page.screenshot(path=str(artifacts / f"coach-{name}-no-start.png"), full_page=True)
        raise


def coach_line(app: App) -> str:
    loc = app.page.locator("[data-testid=coach-line]")
    return loc.first.inner_text() if loc.count() else ""


def bad_first(stand_word: str):
    """A decider: the first time standing is allowed, roll on (the deliberate mistake); after
    that, stand whenever allowed (Under40's best play: stop as soon as you lead)."""
    state = {"bad": None}

    def decide(app: App, snap: dict) -> str:
        if snap["buttons"].get(stand_word):
            if state["bad"] is None:
                state["bad"] = snap["tick"]
                return "roll"
            return "stand"
        return "roll"
    return decide, state


def check_review_and_downloads(app: App, tmp_path, bad_choice: re.Pattern, one: bool = False,
                               csv_row=None):
    """The review panel: the totals, the rows of costly decisions highlighted (all match
    ``bad_choice``; ``one``: exactly one), sortable by "lost"; a chart; the CSV (its mistakes
    of "You" are the highlighted rows; ``csv_row(row)`` holds for the one) and the game JSON,
    which loads again. Returns the loaded game."""
    page = app.page
    expect(page.get_by_text("Coach's review")).to_be_visible(timeout=20_000)
    totals = page.locator("[data-testid=coach-totals]").first.inner_text()
    assert "decisions" in totals and "You" in totals
    rows = page.locator(".tabulator-row")
    expect(rows.first).to_be_visible()
    # sortable: a click on the "lost" header puts the costliest first (descending on the 2nd
    # click); the table draws only the rows in sight, so the costly ones are looked at there
    header = page.locator(".tabulator-col[tabulator-field=lost]").first
    header.click()
    header.click()
    expect(rows.first).to_contain_text(bad_choice)
    # the costly row is highlighted (the styles arrive just after the rows: wait for them)
    expect(rows.first.locator(".tabulator-cell[tabulator-field=player]").first).to_have_css(
        "background-color", HIGHLIGHT, timeout=15_000)
    # read every row drawn, in one look; the table may redraw once more after the sort:
    # look again until the costliest (first) row is drawn highlighted
    for _ in range(40):
        marked = page.evaluate(MARKED)
        if marked and marked[0][1] and bad_choice.search(marked[0][0]):
            break
        page.wait_for_timeout(250)
    bad = [text for text, hot in marked if hot]
    assert bad and all(bad_choice.search(t) for t in bad), marked
    assert len(bad) == 1 or not one, marked
    assert not marked[-1][1], marked  # below the costly ones: rows not highlighted
    assert page.locator(".coach-review-chart, .bk-Canvas, canvas").count()
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download review (CSV)").click()
    path = tmp_path / "review.csv"
    dl.value.save_as(path)
    got = list(csv.DictReader(io.StringIO(path.read_text())))
    assert got and {"turn", "player", "choice", "best", "lost", "why"} <= set(got[0])
    costly = [r for r in got if r["player"] == "You" and r["mistake"] == "True"]
    assert len(costly) == len(bad) and all(float(r["lost"] or r["win_lost"]) > 0
                                           for r in costly)
    if csv_row is not None:
        assert csv_row(costly[0]), costly[0]
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download game (JSON)").click()
    path = tmp_path / "game.json"
    dl.value.save_as(path)
    game = dicelab.load_game(path.read_text())
    assert game.is_over
    return game


def test_under40_coach_line_review_and_csv(page, server, artifacts, tmp_path):
    app = App(page, server).open()
    app.choose("Under40")
    app.set_field("Target", "120")
    app.set_field("Seed (optional)", "11")
    coach_on(app)
    app.start()
    decide, state = bad_first("Stop")
    saw_cost = saw_best = False
    for _ in range(2000):
        kind = app.wait_person_or_over()
        if kind == "over":
            break
        snap = app.snap()
        action = decide(app, snap)
        app.act("click", action, snap["tick"])
        line = coach_line(app)
        if state["bad"] == snap["tick"]:
            expect(page.locator("[data-testid=coach-line]").first).to_contain_text(
                re.compile(r"You, round \d+: Rolling on cost [\d.]+ points of round-win chance: "
                           r"stopping was worth [\d.]+%, rolling on [\d.]+%\."))
            saw_cost = True
        elif "Best play: stopping" in line:
            saw_best = True
    assert saw_cost and saw_best
    game = check_review_and_downloads(app, tmp_path, re.compile(r"rolling on"))
    page.screenshot(path=str(artifacts / "coach-under40-end.png"), full_page=True)
    review = dicelab.review(game, seat="You")
    assert review.seats["You"].mistakes >= 1
    assert not page.errors


BEST = re.compile(r"Best play: (roll|stand)")


def hint_follower():
    """A Bones decider: plays the hint's best play (the points' best in a regular turn, passing
    the leader in a final turn), except once: the first time the hint says rolling is worth
    clearly more than standing, it stands (the deliberate mistake)."""
    state = {"bad": None, "line": None}

    def decide(app: App, snap: dict) -> str:
        m = BEST.search(snap["hint"])
        if not snap["buttons"].get("Stand") or not m:
            return "roll"
        worth = re.search(r"rolling is worth ([\d,.]+) vs ([\d,.]+) standing", snap["hint"])
        if (state["bad"] is None and m.group(1) == "roll" and worth
                and float(worth.group(1).replace(",", "")) > float(
                    worth.group(2).replace(",", "")) + 5):
            state["bad"] = snap["tick"]
            return "stand"
        return m.group(1)
    return decide, state


def test_bones_coach_line_review_and_csv(page, server, artifacts, tmp_path):
    """A short game (to 500, any score gets on the board) against the computer with a seed:
    one deliberate stand where rolling is worth more; its cost line, then the review with that
    one decision highlighted, and the CSV with that one mistake. With seed 21 the computer
    reaches 500 first: the person's final turn is judged by the chance to win (its row shows
    chances, its loss in the win column; following the hint there loses nothing), and wins."""
    app = App(page, server).open()
    app.set_field("Target", "500")
    app.set_field("Min on board", "50")
    app.set_field("Seed (optional)", "21")
    coach_on(app)
    start(app, artifacts, "bones")
    decide, state = hint_follower()
    cost = None
    for _ in range(400):
        if app.wait_person_or_over() == "over":
            break
        snap = app.snap()
        app.act("click", decide(app, snap), snap["tick"])
        if state["bad"] == snap["tick"]:
            line = page.locator("[data-testid=coach-line]").first
            expect(line).to_contain_text(re.compile(
                r"You, turn \d+: Standing cost [\d.,]+ points: rolling was worth [\d.,]+, standing "
                r"[\d,]+\."))
            m = re.search(r"Standing cost ([\d.,]+) points: rolling was worth ([\d.,]+), "
                          r"standing ([\d,]+)\.", line.inner_text())
            cost, stand = float(m.group(1).replace(",", "")), int(m.group(3).replace(",", ""))
            expect(line).to_have_class(re.compile(r"\bcostly\b"))
    assert cost is not None, "no chance for the deliberate mistake"
    game = check_review_and_downloads(
        app, tmp_path, re.compile(rf"standing \({stand:,}\)"), one=True,
        csv_row=lambda r: (r["choice"] == "standing" and float(r["choice_value"]) == stand
                           and abs(float(r["lost"]) - cost) < 0.06))
    page.screenshot(path=str(artifacts / "coach-bones-end.png"), full_page=True)
    final = page.locator(".tabulator-row").filter(has_text="final turn: Computer has 500")
    expect(final.first).to_contain_text(re.compile(r"(rolling|standing) \([\d.]+%\)"))
    r = dicelab.review(game, seat="You")
    assert r.seats["You"].mistakes == 1 and r.seats["You"].decisions > 1
    finals = [e for e in r if e.unit == "chance to win the game"]
    assert finals and all(e.lost == 0 for e in finals)
    phone_width_review(page, artifacts)
    # the review's table does no work while shown and idle, nor once a new game hides it
    assert idle_work(page) < 0.5, "the review keeps the page working while idle"
    page.get_by_role("button", name="New game", exact=True).click()
    app.start()
    app.wait_person_or_over()  # (not while the computer plays its turn)
    assert idle_work(page) < 0.5, "the hidden review keeps the page working"
    assert not page.errors


def phone_width_review(page, artifacts):
    """On a phone (390 px) the review table scrolls sideways inside its panel, and the page
    itself gets no wider than the window (nor do the download buttons run off it)."""
    page.set_viewport_size({"width": 390, "height": 844})
    table = page.locator(".tabulator").first
    table.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = table.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    holder = table.locator(".tabulator-tableholder").first
    wide, shown, overflow = holder.evaluate(
        "h => [h.scrollWidth, h.clientWidth, getComputedStyle(h).overflowX]")
    assert wide > shown + 200 and overflow in ("auto", "scroll"), (wide, shown, overflow)
    assert holder.evaluate("h => { h.scrollLeft = 300; return h.scrollLeft; }") > 0
    for name in ("Download review (CSV)", "Download game (JSON)"):
        b = page.get_by_role("button", name=name).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390, (name, b)
    page.screenshot(path=str(artifacts / "coach-review-phone.png"))


@SLOW
def test_thousand_coach(page, server, artifacts, tmp_path):
    app = App(page, server).open()
    app.choose("Thousand")
    app.set_field("Target", "400")  # a short game: the barrel (340) below it, the pit 200-300
    app.set_field("Barrel", "340")
    app.set_field("Seed (optional)", "5")
    coach_on(app)
    app.start()
    decide, state = bad_first("Stand")
    app.play_to_end(decide, "click")
    check_review_and_downloads(app, tmp_path, re.compile(r"rolling"))
    page.screenshot(path=str(artifacts / "coach-thousand-end.png"), full_page=True)


# ----- Yahtzee: the last round in the browser --------------------------------------------------
def yahtzee_do(app: App, game, key: tuple, held: set) -> None:
    """Play the option ``key`` of the coach (("keep", dice) or ("box", name)) by keys: hold
    the kept dice (1-5 toggle a die; ``held``: the positions held now, which stay held after
    a re-roll), then Enter; or click the box on the score card (round 13: the only one)."""
    page = app.page
    old = app.tick()
    if key[0] == "box":
        box = f'button.box[data-box="{key[1]}"]' if len(key) > 1 else "button.box"
        page.locator(box).first.click()
        app.wait_tick(old)
        return
    want, keep = list(key[1]), set()
    for i, d in enumerate(game.dice):
        if d in want:
            want.remove(d)
            keep.add(i)
    for i in sorted(keep ^ held):
        t = app.tick()
        page.keyboard.press(str(i + 1))
        app.wait_tick(t)
    held.clear()
    held.update(keep)
    t = app.tick()
    page.keyboard.press("Enter")
    app.wait_tick(t)


def test_yahtzee_coach_last_round_in_a_room(browser, server, artifacts, tmp_path):
    """A network game (a room) is the one way into a game already under way (its log): the
    test plays its first twelve rounds through the rooms service, with the `optimal`
    computer's choices for the person "You", on the store the served app uses; the browser
    (holding You's seat) turns Coach on and plays round 13: the worst
    option after the first roll (the deliberate mistake), then the best ones. The cost line,
    the review with exactly that decision highlighted, the CSV with that one mistake."""
    from dicelab import coach
    from dicelab.players import make_player
    from dicelab.rooms import RoomService

    service = RoomService(server.rooms)
    room, token = service.create("coach yahtzee", "yahtzee", {"preset": "no_bonus"}, "You")
    service.start(room.name, token)
    optimal = make_player("yahtzee", "optimal")
    g = service.state(room.name)
    while sum(v is None for v in g.card().values()) > 1 or g.state.rolls:
        service.act(room.name, token, optimal.act(g))
        g = service.state(room.name)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('dicelab.seats', "
                        f"{json.dumps(json.dumps({room.key: token}))})")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    try:
        app = App(page, server)
        page.goto(f"{server.url}?room={quote_plus(room.name)}&anim=0&sound=off")
        app.wait_ready()
        page.locator(".banner").first.wait_for()
        coach_on(app)
        app.wait_person_or_over()
        t = app.tick()
        page.keyboard.press("Enter")  # round 13's first roll (forced: no decision)
        app.wait_tick(t)
        g = service.state(room.name)
        d = coach.decision(g)
        worst = min(d.options, key=lambda o: o.value)
        lost = d.best.value - worst.value
        assert lost > d.source.tolerance
        held: set = set()
        yahtzee_do(app, g, worst.key, held)
        line = page.locator("[data-testid=coach-line]").first
        expect(line).to_contain_text(re.compile(
            rf"You, turn \d+: {re.escape(worst.label[0].upper() + worst.label[1:])} cost "
            + re.escape(f"{lost:,.1f} points: {d.best.label} was worth")))
        expect(line).to_have_class(re.compile(r"\bcostly\b"))
        for _ in range(3):  # then the best play to the end
            g = service.state(room.name)
            if g.is_over:
                break
            d = coach.decision(g)
            if d is None:  # no re-roll left: the one open box (forced, not a decision)
                yahtzee_do(app, g, ("box",), held)
                continue
            yahtzee_do(app, g, d.best.key, held)
            expect(line).to_contain_text(re.compile(r"You, turn \d+: Best play:"))
        game = check_review_and_downloads(
            app, tmp_path, re.compile(re.escape(worst.label)), one=True,
            csv_row=lambda r: (r["choice"] == worst.label and r["turn"] == "13"
                               and abs(float(r["lost"]) - lost) < 1e-6))
        page.screenshot(path=str(artifacts / "coach-yahtzee-end.png"), full_page=True)
        r = dicelab.review(game)
        assert r.seats["You"].mistakes == 1 and r.seats["You"].decisions > 13
        assert not page.errors
    finally:
        ctx.close()


@SLOW
def test_yahtzee_coach_whole_game(page, server, artifacts, tmp_path):
    """A whole game alone, in the single-screen app: the test follows it on a copy of its own
    (same seed, same actions: the same dice) to know each option's value; round 2's first
    choice is the worst option, every other the best."""
    from dicelab import coach
    from dicelab.actions import Reroll, Roll, Score

    app = App(page, server).open()
    app.choose("Yahtzee")
    page.get_by_role("button", name="Remove seat 2").click()
    expect(page.get_by_role("button", name="Remove seat 2")).to_have_count(0)
    app.set_field("Seed (optional)", "7")
    coach_on(app)
    start(app, artifacts, "yahtzee")
    mirror = dicelab.new_game("yahtzee", ["You"], seed=7)
    held: set = set()
    worst = lost = None
    for _ in range(200):
        if app.wait_person_or_over() == "over":
            break
        if not mirror.state.rolls:  # the round's first roll: forced
            t = app.tick()
            page.keyboard.press("Enter")
            app.wait_tick(t)
            mirror.apply(Roll())
            held.clear()
            continue
        d = coach.decision(mirror)
        bad = worst is None and d is not None and sum(
            v is not None for v in mirror.card().values()) == 1  # round 2
        if d is None:  # one option left: the last open box
            key = ("box", next(b for b, v in mirror.card().items() if v is None))
        elif bad:
            worst = min(d.options, key=lambda o: o.value)
            lost = d.best.value - worst.value
            key = worst.key
        else:
            key = d.best.key
        yahtzee_do(app, mirror, key, held)
        if key[0] == "box":
            mirror.apply(Score(key[1]))
            held.clear()
        else:
            mirror.apply(Reroll(tuple(i for i in range(5) if i not in held)))
        if bad:
            expect(page.locator("[data-testid=coach-line]").first).to_contain_text(
                f"cost {lost:,.1f} points")
    assert mirror.is_over and worst is not None and lost > 0.01
    game = check_review_and_downloads(
        app, tmp_path, re.compile(re.escape(worst.label)), one=True,
        csv_row=lambda r: r["choice"] == worst.label and r["turn"] == "2")
    assert list(game.actions) == list(mirror.actions)  # the copy followed the same game
    page.screenshot(path=str(artifacts / "coach-yahtzee-whole.png"), full_page=True)
