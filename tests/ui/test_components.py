"""Component tests without a browser: the views' content and the table controller."""
from __future__ import annotations

import html
import json

import panel as pn
import pytest
from bokeh.document import Document

import dicelab
from dicelab.games.base import evolve
from dicelab.ui import (Controls, DiceTray, HintLine, History, OddsPanel, Play, RecordStore,
                        Scoreboard, ScoreCard, TurnBanner, create_app)
from dicelab.ui.app import DicelabApp, StartScreen, SwitchPlayer
from dicelab.ui.components import card_description, hint_text, scoreboard_html, tray_description


def cpu(variant, name="Chicken", strategy=None):
    from dicelab.ui.app import default_strategy

    strategy = strategy or default_strategy(variant)
    return dicelab.Seat(name, player=SwitchPlayer(variant, strategy), strategy=strategy)


def set_state(game, **changes):
    game._state = game.state = evolve(game.state, **changes)


def render(viewable):
    """Build the Bokeh models as a served page would."""
    return pn.panel(viewable).get_root(Document())


def shown(root) -> str:
    """What a page would show of the Bokeh models under ``root``: HTML, labels, titles, the
    dice tray's view data (unescaped once, as the page's HTML panes are)."""
    out = []
    for model in root.references():
        values = model.properties_with_values(include_defaults=False)
        for key in ("text", "label", "view", "axis_label", "card"):
            v = values.get(key)
            if isinstance(v, str):
                out.append(html.unescape(v))
            elif key == "card" and v is not None:
                out.append(json.dumps(v, ensure_ascii=False))
    return "\n".join(out)


# what each view shows of a new game of Ann and Bob (seed 1: Bob won the roll-off)
SHOWS = {DiceTray: lambda v: [f'"mode":"{v}"', '"rolled":[]'],
         OddsPanel: lambda v: ["data-testid='odds'"],
         Scoreboard: lambda v: ["aria-label='Scoreboard'", "Ann", "Bob"],
         TurnBanner: lambda v: ["Bob&#x27;s TURN"],
         HintLine: lambda v: ['data-testid="hint"', "roll" if v != "yahtzee" else "Roll"],
         Controls: lambda v: ["Roll (", "(0)"],
         History: lambda v: ["Seating roll-off: Ann", "first turn: Bob."]}


@pytest.mark.parametrize("cls", list(SHOWS))
@pytest.mark.parametrize("variant", ["bones", "thousand", "under40", "yahtzee"])
def test_each_component_renders_alone(cls, variant):
    game = dicelab.new_game(variant, ["Ann", "Bob"], seed=1)
    text = shown(render(cls(game)))
    for part in SHOWS[cls](variant):
        assert part in text, (part, text[:500])


def test_score_card_renders_alone():
    game = dicelab.new_game("yahtzee", ["Ann"], seed=1)
    text = shown(render(ScoreCard(game)))
    assert '"label": "Aces"' in text and '"label": "Yahtzee"' in text and "Ann" in text, \
        text[:500]


def test_components_of_one_game_share_one_play():
    game = dicelab.new_game("yahtzee", ["Ann"], seed=1)
    assert DiceTray(game).play is OddsPanel(game).play is Play.of(game)


def test_bones_roll_moves_counting_dice_to_keep_area():
    game = dicelab.new_game("bones", ["Ann"], seed=5)
    play = Play(game)
    assert play.can_roll and not play.can_stand
    assert play.roll()
    st = game.state
    view = tray_description(play)
    n_counting = sum(st.counting)
    if st.phase == "decide":
        assert len(view["kept"]) == len(st.kept)
        assert all(d["mark"] == "✓" for d in view["kept"])
        assert len(view["rolled"]) == len(st.dice) - n_counting
        assert view["kept"][-1]["fresh"]
    assert play.roll_id == 1 and play.rolled_n == 5


def test_refused_action_shows_message_and_changes_nothing():
    game = dicelab.new_game("bones", ["Ann"], seed=5)
    play = Play(game)
    before = game.snapshot()
    assert not play.stand()
    assert "roll" in play.message.lower()
    assert game.snapshot() == before
    assert "⚠" in HintLine(play=play)._html()


def test_person_waits_for_computer_and_computer_steps():
    game = dicelab.new_game("bones", [cpu("bones"), "Ann"], seed=2)
    play = Play(game)
    play.computers = False
    if game.current_player == 0:
        assert not play.roll()
        assert "wait" in play.message.lower()
        play.computers = True
        assert play.step_computer()
    turns = 0
    while game.current_player == 0 and turns < 200:
        play.step_computer()
        turns += 1
    assert play.person_on_turn


def test_keys_map_to_actions():
    game = dicelab.new_game("bones", ["Ann"], seed=5)
    play = Play(game)
    assert play.key(".")
    assert game.version == 1
    play.key("0")  # stand may be refused (minimum on board): then a message, no change
    assert game.version in (1, 2)
    assert not play.key("x")


def test_yahtzee_hold_and_reroll_by_keys():
    game = dicelab.new_game("yahtzee", ["Ann"], seed=3)
    play = Play(game)
    assert not play.key("1")  # nothing to hold before the first roll
    assert play.key("Enter")
    first = game.state.dice
    assert play.key("1") and play.key("3")
    assert play.held == (0, 2)
    view = tray_description(play)
    assert view["rolled"][0]["tag"] == "held" and "HELD" in view["rolled"][0]["mark"]
    assert play.key("Enter")
    dice = game.state.dice
    assert dice[0] == first[0] and dice[2] == first[2]
    assert game.state.rolls == 2
    card = card_description(play)
    assert card["clickable"] and card["options"]
    box = next(iter(card["options"]))
    assert play.score(box)
    assert game.card(0)[box] is not None and play.held == ()


def test_yahtzee_all_held_is_refused():
    game = dicelab.new_game("yahtzee", ["Ann"], seed=3)
    play = Play(game)
    play.roll()
    for k in "12345":
        play.key(k)
    assert not play.can_roll
    assert not play.roll() and "held" in play.message


def test_choose_keepers_click_sets_aside():
    game = dicelab.new_game("bones", ["Ann"], seed=0, choose_keepers=True)
    play = Play(game)
    for _ in range(50):
        play.roll()
        st = game.state
        if st.phase == "decide" and sum(st.counting) >= 2 and st.current == 0:
            break
    st = game.state
    counting = [i for i, c in enumerate(st.counting) if c]
    assert len(counting) >= 2
    assert play.toggle(counting[0])  # leave it in the roll
    assert play.keep_positions() == tuple(counting[1:])
    view = tray_description(play)
    assert any(d["click"] and not d["sel"] for d in view["rolled"])
    assert not play.toggle([i for i in range(len(st.dice)) if i not in counting][0]) \
        if len(counting) < len(st.dice) else True
    n_before = len(game.actions)
    play.roll()
    assert game.actions[n_before].keep == tuple(counting[1:])


def test_thousand_pit_hint_and_status_column():
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=1)
    seat = game.current_player
    totals = list(game.state.totals)
    totals[seat] = 250
    set_state(game, totals=tuple(totals), on_board=(True, True),
              bolts=tuple(2 if i != seat else 0 for i in range(2)))
    play = Play(game)
    play.roll()
    if game.current_player == seat and game.state.phase == "decide":
        assert "climb out of the pit" in hint_text(play)
    html = scoreboard_html(play)
    assert "⛏ pit 200-300" in html
    assert "⚡⚡" in html


def test_thousand_barrel_status():
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=1)
    set_state(game, totals=(880, 0), on_board=(True, True), on_barrel=(True, False),
              barrel_turns=(1, 0))
    assert "🛢 barrel 2/3 left" in scoreboard_html(Play(game))


def test_bones_hint_before_on_board():
    game = dicelab.new_game("bones", ["Ann"], seed=5)
    play = Play(game)
    assert "600 in this turn to get on the board" in hint_text(play)
    odds = OddsPanel(play=play)
    assert "Bust chance" in odds._text.object
    assert "Best play now" in odds._text.object


def test_under40_odds_and_bars():
    game = dicelab.new_game("under40", ["Ann", "Bob"], seed=1)
    play = Play(game)
    play.roll()
    panel = OddsPanel(play=play)
    text = panel._text.object
    assert "Bust chance next roll" in text and "Exactly 40" in text
    assert any(c == "#c62828" for c in panel._src.data["color"]) or \
        game.state.round_scores[game.current_player] <= 0
    assert "of 40" in scoreboard_html(play)


def test_banner_says_whose_turn():
    game = dicelab.new_game("bones", ["You", "Bob"], seed=1)
    play = Play(game)
    banner = TurnBanner(play=play)
    assert game.current_player == 1  # seed 1: Bob won the roll-off
    assert "Bob&#x27;s TURN" in banner._html() and "YOUR TURN" not in banner._html()
    set_state(game, current=0)
    play.tick += 1
    assert "YOUR TURN" in banner._html() and "Bob" not in banner._html()


def test_records_persist_and_reset(tmp_path):
    path = tmp_path / "r.sqlite3"
    store = RecordStore(path)
    assert store.offer("bones", "single_turn", 450, "Ann")
    assert not store.offer("bones", "single_turn", 300, "Bob")
    store.add_win("bones", people=True)
    again = RecordStore(path)
    r = again.get("bones")
    assert r["single_turn"]["value"] == 450 and r["single_turn"]["who"] == "Ann"
    assert r["wins"]["value"] == 1 and r["wins"]["value2"] == 0
    again.reset("bones", "single_turn")
    assert again.get("bones")["single_turn"]["value"] is None
    assert again.get("bones")["wins"]["value"] == 1


def test_records_from_a_whole_game(tmp_path):
    store = RecordStore(tmp_path / "r.sqlite3")
    game = dicelab.new_game("bones", ["Ann", cpu("bones")], seed=4, target=1000)
    play = Play(game, records=store)
    play.computers = False
    for _ in range(5000):
        if game.is_over:
            break
        if play.person_on_turn:
            play.stand() if play.can_stand else play.roll()
        else:
            play.computers = True
            play.step_computer()
    assert game.is_over
    r = store.get("bones")
    assert r["game_total"]["value"] == max(game.totals())
    assert r["single_turn"]["value"] >= 600
    assert r["wins"]["value"] + r["wins"]["value2"] == 1


def test_env_var_sets_records_path(tmp_path, monkeypatch):
    monkeypatch.setenv("DICELAB_RECORDS", str(tmp_path / "x.sqlite3"))
    assert RecordStore().path == tmp_path / "x.sqlite3"


def test_start_screen_builds_games():
    s = StartScreen()
    s.choose("under40")
    assert s.variant == "under40"
    g = s.build_game()
    assert g.variant == "under40" and g.seats[1].is_computer
    s.choose("yahtzee")
    s.settings["yahtzee"].preset = "seed"
    assert s.settings["yahtzee"].rerolls == 3  # the preset's values apply
    s.remove_seat(1)
    assert s.build_game().n_seats == 1
    s.choose("under40")
    assert s.start() is None and "2" in s.message  # Under40 needs two players


def test_switch_player_changes_strategy_mid_game():
    sw = SwitchPlayer("bones", "chicken")
    assert sw.knobs.threshold == 100
    sw.strategy = "gambler"
    assert sw.knobs.threshold == 300 and sw.spec == "gambler"


def test_create_app_gives_a_page(tmp_path, monkeypatch):
    monkeypatch.setenv("DICELAB_RECORDS", str(tmp_path / "x.sqlite3"))
    page = create_app()
    import panel as pn

    # Panel's own layouts (issue 38): a header, the screen, the drawer
    assert isinstance(page, pn.Column) and "dl-page" in page.css_classes
    assert "header" in page.objects[0].css_classes
    assert "main-content" in page.objects[1].css_classes
    app = dicelab.app()  # the app object: a notebook shows it, Python can start its games
    assert isinstance(app, DicelabApp) and app.__panel__() is app.page.root


def test_pages_do_not_follow_the_servers_busy_flag(tmp_path, monkeypatch):
    """pn.state.busy is the whole server's: a Page left watching it costs every session work
    at every click anywhere (the rooms load test's latency) and flashes everyone's busy bar."""
    import panel as pn

    monkeypatch.setenv("DICELAB_RECORDS", str(tmp_path / "x.sqlite3"))

    def watchers():
        return len(pn.state._param__private.watchers.get("busy", {}).get("value", []))

    before = watchers()
    pages = [create_app() for _ in range(3)]
    assert watchers() == before
    assert all("busy" not in p.param for p in pages)


# ----- issue 13: settings that say why, words, the end of a game -------------------------------
def test_thousand_win_leaves_no_barrel_attempts_on_the_board():
    game = dicelab.new_game("thousand", ["Ann", "Bob"], seed=1)
    set_state(game, totals=(1000, 0), on_board=(True, True), on_barrel=(True, False),
              barrel_turns=(1, 0), winner=0, phase="over")
    html = scoreboard_html(Play(game))
    assert "★ winner" in html and "barrel" not in html


def test_odds_chart_is_hidden_when_there_are_no_odds():
    game = dicelab.new_game("bones", ["Ann"], seed=1)
    play = Play(game)
    odds = OddsPanel(play=play)
    assert odds._chart.visible
    set_state(game, phase="over", winner=0)
    play.tick += 1
    assert not odds._chart.visible


def test_history_shows_the_latest_whole_and_folds_the_rest():
    game = dicelab.new_game("bones", ["Ann", "Bob"], seed=3)
    for _ in range(12):
        game.apply(dicelab.Roll() if game.state.phase == "roll" or not game.legal_actions()
                   else game.legal_actions()[-1])
    h = History(play=Play(game))
    html = h._html()
    assert "max-height" not in html
    shown = html.split("<details")[0]
    assert shown.count("<li") == h.shown
    assert f"Earlier ({len(game.history) - h.shown})" in html


def test_settings_form_refuses_with_a_message_and_keeps_the_game():
    from dicelab.ui.settings_form import SettingsForm

    s = StartScreen()
    s._draw_settings()
    form = s.forms["bones"]
    form._fields["target"].value = 300          # below the bounds: a message, no traceback
    help_ = form._helps["target"]  # the line under the field, and its red border
    assert help_.visible and "Target must be at least 500" in help_.object
    assert "dl-error" in form._fields["target"].css_classes
    assert s.settings["bones"].target == 10_000
    assert s.start() is None and "Target must be at least 500" in s.message
    form._fields["target"].value = 1500
    assert not form.problem and s.build_game().config.target == 1500
    assert not help_.visible and "dl-error" not in form._fields["target"].css_classes
    # Thousand's pits: ranges with their own fields; a barrel inside a pit is refused
    t = dicelab.settings.ThousandSettings()
    f = SettingsForm(t)
    low, high = f._pit_rows[1]
    high.value = 900
    assert "barrel (880) may not be inside the pit 600-900" in f.problem
    assert t.pits == [(200, 300), (600, 700)]
    high.value = 750
    assert not f.problem and t.pits == [(200, 300), (600, 750)]
    f.remove_pit(0)
    assert t.pits == [(600, 750)] and len(f._pit_rows) == 1
    f.add_pit()                                 # 850-950 would hold the barrel
    assert "barrel" in f.problem and t.pits == [(600, 750)]
    f._fields["barrel"].value = 970
    f.add_pit()
    assert t.pits == [(600, 750), (850, 950)] and not f.problem


def test_drawer_says_the_rules_in_words(tmp_path):
    from dicelab.ui.app import SettingsDrawer
    from dicelab.ui.play import Prefs

    game = dicelab.new_game("bones", ["Ann"], seed=1)
    drawer = SettingsDrawer(Prefs(), RecordStore(tmp_path / "r.sqlite3"), play=Play(game))
    text = " ".join(str(getattr(o, "object", "")) for o in drawer._game_box.objects)
    assert "Choose keepers: no" in text and "Min on board: 600" in text
    assert "choose_keepers" not in text
    records = " ".join(str(getattr(o, "object", "")) for o in drawer._records_box.objects)
    assert str(tmp_path) not in records


def test_a_finished_game_keeps_nothing_yet():
    """Issue 40: the game-over tray said "Keep ✓ none yet"; nothing is to come."""
    from dicelab.actions import Stand

    game = dicelab.new_game("bones", ["Ann", "Cy"], seed=2, target=500, min_on_board=50)
    play = Play(game)
    assert tray_description(play)["words"]["none"] == "none yet"
    while not game.is_over:  # stand whenever allowed
        legal = game.legal_actions()
        game.apply(next((a for a in legal if isinstance(a, Stand)), legal[0]))
    assert tray_description(Play(game))["words"]["none"] == ""


def test_default_names_are_stored_in_english_and_shown_in_each_readers_language():
    """Issue 40: records and other pages showed a game's seat names in the language of whoever
    made it ("Ordinateur" on a Russian page); the app's default names are stored as keys."""
    from dicelab.i18n import using
    from dicelab.ui.phrases import shown_name

    with using("fr"):
        s = StartScreen()
        s.relabel()
        s.add_seat()
        assert [x.player_name for x in s.seats] == ["Vous", "Ordinateur", "Ordinateur 2"]
        g = s.build_game()
    assert [x.name for x in g.seats] == ["You", "Computer", "Computer 2"]
    play = Play(g)
    with using("ru"):
        assert [shown_name(play, i) for i in range(3)] == ["Вы", "Компьютер", "Компьютер 2"]
    with using("fr"):
        s.seats[1].player_name = "Zoé"  # a typed name stays as typed
        assert [x.name for x in s.build_game().seats][:2] == ["You", "Zoé"]
