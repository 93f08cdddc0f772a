"""Shadowrun 5e's name and keywords: what the declaration
(:data:`dicecli.systems.shadowrun.GAME`) and the rolling both need, kept apart so that
the rolling never imports the declaration."""

from __future__ import annotations

NAME = "shadowrun"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("sr", "sr5", "shadowrun")
"""The first words of its lines; the first names its canonical lines."""

JOINED = ("sr",)
"""Written joined to the pool, as Dice Maiden writes it: ``sr6`` is ``sr 6``."""
