"""Alkemy's name, keywords and settings: what the declaration
(:data:`dicecli.systems.alkemy.GAME`) and the rolling both need, kept apart so that the
rolling modules never import the declaration (which makes the rules)."""

from __future__ import annotations

from dicecli.game import Setting

NAME = "alkemy"
"""The game's name, which its checks give as ``Check.system``."""

KEYWORDS = ("alkemy",)
"""The first words of its lines; the first names its help topic."""


def _path_text(text: str | None) -> str | None:
    """A path as typed (``~`` is expanded when the file is read)."""
    return text


DICE_FILE = Setting(
    "alkemy.dice_file",
    "a TOML file of Alkemy dice faces and symbols (or their dice in --dice-file)",
    _path_text,
)
