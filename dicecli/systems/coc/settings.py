"""Call of Cthulhu 7e's name and words: what the declaration
(:data:`dicecli.systems.coc.GAME`) and the rolling both need, kept apart so that the
rolling never imports the declaration."""

from __future__ import annotations

NAME = "coc"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("coc", "coc7", "coc7e")
"""The first words of its lines; the first names its help topic and canonical lines."""

DIFFICULTIES = ("regular", "hard", "extreme")
"""The difficulty words a roll may name (rule C3)."""
