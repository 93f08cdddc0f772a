"""Legend of the Five Rings 4e's name and keywords: what the declaration
(:data:`dicecli.systems.l5r.GAME`) and the rolling both need, kept apart so that the
rolling never imports the declaration."""

from __future__ import annotations

NAME = "l5r"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("l5r",)
"""The first words of its lines."""
