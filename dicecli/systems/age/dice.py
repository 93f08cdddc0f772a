"""The Dragon die of the AGE system (rule G1): a d6 of another colour, rolled with two
ordinary d6. It is its own :class:`~dicecli.rolling.sources.Die` named ``dragon``, so
``--given`` errors name it, and its roll carries the mark ``dragon``, which the terminal
shows in the game's own style.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.notation.dice import Die, Face

DRAGON_MARK = "dragon"
DRAGON = Die("dragon", tuple(Face(str(n), n) for n in range(1, 7)))
"""The Dragon die: a d6 of another colour (rule G1)."""
