"""Blades in the Dark's name and keywords: what the declaration
(:data:`dicecli.systems.blades.GAME`) and the rolling both need, kept apart so that the
rolling never imports the declaration."""

from __future__ import annotations

NAME = "blades"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("blades", "bitd", "fitd")
"""The first words of its lines; the first names its help topic and canonical lines.
``fitd`` (Forged in the Dark, the engine's name) is Dice Maiden's."""

JOINED = ("fitd",)
"""Keywords that may be written joined to the pool, as Dice Maiden writes ``fitd2``."""
