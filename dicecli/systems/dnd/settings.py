"""D&D 5e's name and keywords: what the declaration (:data:`dicecli.systems.dnd.GAME`)
and the rolling both need, kept apart so that the rolling never imports the
declaration."""

from __future__ import annotations

NAME = "dnd"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("dnd", "dnd5e")
"""The first words of its lines; the first names its help topic and canonical lines."""

KINDS = ("attack", "check", "save", "death", "damage", "stats")
"""The words after the keyword: what kind of roll the line is."""

ADVANTAGE_WORDS = ("adv", "advantage", "dis", "disadvantage")
"""How a line says it has advantage or disadvantage (rule D3)."""
