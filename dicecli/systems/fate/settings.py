"""Fate Core's name and keywords: what the declaration (:data:`dicecli.systems.fate.GAME`)
and the rolling both need, kept apart so that the rolling never imports the
declaration."""

from __future__ import annotations

NAME = "fate"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("fate",)
"""The first words of its lines."""
