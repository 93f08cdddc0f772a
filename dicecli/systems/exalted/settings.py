"""Exalted 3e's name and keywords: what the declaration
(:data:`dicecli.systems.exalted.GAME`) and the rolling both need, kept apart so that
the rolling never imports the declaration."""

from __future__ import annotations

NAME = "exalted"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("ex", "exalted")
"""The first words of its lines; the first names its canonical lines."""

JOINED = ("ex",)
"""Written joined to the pool, as Dice Maiden writes it: ``ex5`` is ``ex 5``."""
