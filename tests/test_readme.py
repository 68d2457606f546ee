"""Every command and output the README shows runs here, so the README cannot drift from the
program: its Python examples as doctests, its console sessions compared line by line ("..."
stands for any lines), and its make commands dry-run."""
from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent


def blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", README, re.M | re.S)


def sessions() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of every ``console`` block."""
    out: list[tuple[str, list[str]]] = []
    for block in blocks("console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            else:
                out[-1][1].append(line.rstrip())
    return out


def matches(expected: list[str], got: list[str]) -> bool:
    """Line by line; a line "..." matches any number of lines."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0] == expected[0] and matches(expected[1:], got[1:])


def test_the_readme_is_short_enough_for_a_newcomer():
    assert len(README.encode()) <= 12_500


def test_the_python_examples_run_as_shown():
    parser = doctest.DocTestParser()
    text = "\n".join(blocks("pycon"))  # one namespace, as in one session
    test = parser.get_doctest(text, {}, "README.md", str(ROOT / "README.md"), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} README example(s) failed (see the output above)"


@pytest.mark.parametrize("command,expected", sessions(), ids=lambda v: str(v)[:40])
def test_each_console_session_prints_what_the_readme_shows(command, expected, tmp_path):
    argv = shlex.split(command)
    assert argv[0] == "dicelab"
    env = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "DICELAB_LANG": ""}
    run = subprocess.run([str(BIN / "dicelab"), *argv[1:]], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=300, env=env, cwd=tmp_path)
    got = [line.rstrip() for line in run.stdout.rstrip("\n").splitlines()]
    assert run.returncode == 0, run.stderr
    assert matches(expected, got), "\n".join(got)


def test_the_console_sessions_are_found():
    assert len(sessions()) >= 4


def test_the_make_commands_exist():
    commands = [line.split("#")[0].strip() for block in blocks("sh")
                for line in block.splitlines() if line.startswith("make ")]
    assert "make run" in commands and "make test" in commands
    for command in commands:
        run = subprocess.run(["make", "-n", *shlex.split(command)[1:]], cwd=ROOT,
                             capture_output=True, text=True)
        assert run.returncode == 0, (command, run.stderr)


def test_every_link_in_the_readme_leads_to_a_file():
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
