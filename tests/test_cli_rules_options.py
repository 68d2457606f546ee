"""The rules options of ``dicelab play``, ``simulate`` and ``odds`` come from the Settings
parameters (dicelab.commands.rules_options): every setting of every variant is an option of
each command, with its help; values give the same Settings as Python; bad values are a clear
error (exit 2), not a traceback."""
from __future__ import annotations

import io
import sys

import pytest

from dicelab import cli
from dicelab.commands.rules_options import option, settings_from_args
from dicelab.settings import SETTINGS

COMMANDS = {"play": ("bones", "thousand", "under40", "yahtzee"),
            "simulate": ("bones", "thousand", "under40", "yahtzee"),
            "odds": ("bones", "thousand", "under40")}

# a value other than the default for every setting (a new setting fails here until added)
GIVEN = {
    "bones": ({"preset": "french", "choose_keepers": True, "min_on_board": 600, "target": 2000},
              ["--preset", "french", "--choose-keepers", "--min-on-board", "600",
               "--target", "2000"]),
    "thousand": ({"opening": 100, "pits": [(100, 150)], "barrel": 800, "target": 1500,
                  "barrel_attempts": 2, "barrel_fall": 50, "bolts_per_penalty": 2,
                  "bolt_penalty": 50},
                 ["--opening", "100", "--pits", "100-150", "--barrel", "800", "--target", "1500",
                  "--barrel-attempts", "2", "--barrel-fall", "50", "--bolts-per-penalty", "2",
                  "--bolt-penalty", "50"]),
    "under40": ({"target": 200}, ["--target", "200"]),
    "yahtzee": ({"preset": "seed", "rerolls": 2, "upper_bonus": 10, "upper_bonus_threshold": 60,
                 "yahtzee_bonus": 50, "joker": True, "filled_box_wastes_round": True},
                ["--preset", "seed", "--rerolls", "2", "--upper-bonus", "10",
                 "--upper-bonus-threshold", "60", "--yahtzee-bonus", "50", "--joker",
                 "--filled-box-wastes-round"]),
}


def _help(command: str) -> str:
    sub = cli._parser()._subparsers._group_actions[0].choices[command]  # noqa: SLF001
    return sub.format_help()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_lists_every_setting_of_every_variant(command):
    text = _help(command)
    for variant in COMMANDS[command]:
        for name in SETTINGS[variant].names():
            assert option(name) in text, (command, variant, name)
            doc = SETTINGS[variant].param[name].doc
            if doc:  # the parameter's own words, as the help wraps them
                assert " ".join(doc.split()[:4]) in " ".join(text.split()), (variant, name)


def test_every_setting_is_given_above():
    for variant, (values, _) in GIVEN.items():
        assert set(values) == set(SETTINGS[variant].names()), variant


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("variant", list(GIVEN))
def test_options_give_the_settings_python_gives(command, variant):
    if variant not in COMMANDS[command]:
        return
    values, argv = GIVEN[variant]
    more = ["--players", "chicken"] if command == "simulate" else []
    args = cli._parser().parse_args([command, variant, *more, *argv])
    preset = values.get("preset")
    expected = SETTINGS[variant](preset=preset, **{k: v for k, v in values.items()
                                                   if k != "preset"})
    assert settings_from_args(variant, args) == expected
    assert settings_from_args(variant, cli._parser().parse_args(
        [command, variant, *more])) == SETTINGS[variant]()


def test_play_thousand_with_pits_and_barrel(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(["play", "thousand", "--players", "Ann,Bob", "--pits", "100-150",
                     "--barrel", "800", "--opening", "100", "--seed", "1"]) == 0
    assert "opening 100 · pits 100-150 · barrel 800" in capsys.readouterr().out


def test_simulate_sets_the_opening(capsys):
    from dicelab.lab import simulate

    assert cli.main(["simulate", "thousand", "--players", "chicken,gambler", "--games", "20",
                     "--opening", "100", "--seed", "3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    kw = dict(games=20, seed=3, progress=False)
    assert out.strip() == simulate("thousand", "chicken,gambler", opening=100, **kw).table().strip()
    assert out.strip() != simulate("thousand", "chicken,gambler", **kw).table().strip()


@pytest.mark.parametrize("argv, words", [
    (["simulate", "thousand", "--players", "chicken", "--barrel", "x"],
     "--barrel is a whole number, got 'x'"),
    (["simulate", "thousand", "--players", "chicken", "--barrel", "99999"],
     "barrel must be at most 5000"),
    (["simulate", "thousand", "--players", "chicken", "--pits", "100-x"],
     "--pits: a pit is low-high"),
    (["simulate", "bones", "--players", "chicken", "--opening", "100"],
     "--opening is not a setting of Bones"),
    (["play", "bones", "--preset", "nope"], "unknown preset 'nope'"),
    (["odds", "under40", "--target", "200"], "under40 odds take --score and --leader, not "
                                             "--target"),
])
def test_bad_values_are_a_clear_error(argv, words, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err, err
