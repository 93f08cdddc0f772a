"""Chronicles of Darkness's name and keywords: what the declaration
(:data:`dicecli.systems.cod.GAME`) and the rolling both need, kept apart so that the
rolling never imports the declaration."""

from __future__ import annotations

NAME = "cod"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("cod", "nwod")
"""The first words of its lines (``nwod``: the game's first edition, the new World of
Darkness)."""

COUNTED = ("cod",)
"""Written after the pool, joined, as Dice Maiden writes it: ``4cod`` is ``cod 4``."""

AGAIN_WORDS = ("10-again", "9-again", "8-again", "no-again")
"""How a line names its re-roll quality (rule K2)."""
