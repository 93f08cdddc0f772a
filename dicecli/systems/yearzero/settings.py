"""The Year Zero Engine's name and keywords: what the declaration
(:data:`dicecli.systems.yearzero.GAME`) and the rolling both need, kept apart so that
the rolling never imports the declaration."""

from __future__ import annotations

NAME = "yearzero"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("yz", "yze")
"""The first words of its lines; the first names its canonical lines."""

COUNTED = ("yz",)
"""Written after the dice, joined, as Dice Maiden writes it: ``6yz`` is ``yz 6``."""

KINDS = ("base", "skill", "gear")
"""The three kinds of dice, in the order a line gives them and rolls them."""
