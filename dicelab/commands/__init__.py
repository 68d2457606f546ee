"""The ``dicelab`` command's own code: options and command bodies (the top layer, above the
games, odds, lab and terminal modules it calls)."""
