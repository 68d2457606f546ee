"""Errors raised by dicelab."""


class RuleError(ValueError):
    """An action or input that the rules do not allow.

    The message names the rule. Raising it never changes a game's state.
    """
