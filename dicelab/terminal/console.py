"""Line-based input and output shared by the terminal games."""
from __future__ import annotations

import sys

from .. import i18n


class Console:
    """``say`` prints a line; ``ask`` prompts and returns the stripped answer, or raises
    EOFError when the input has ended."""

    def __init__(self, stdin=None, stdout=None):
        # resolved at call time, so redirection and pytest's capture work
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout

    def say(self, text="") -> None:
        self.stdout.write(i18n.text(text) + "\n")  # a lazy message renders here
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        if not line.endswith("\n"):
            self.stdout.write("\n")  # piped input without a final newline
        return line.strip()
