"""The dice of a trait test: the trait die is the core's numbered die (``d8``); the Wild
Die is its own :class:`~dicecli.game.Die` named ``wild``, so ``--given`` errors
name it, and each of its rolls carries the mark ``wild``, shown in the game's style."""

from __future__ import annotations

from dicecli.game import Die, Face, die_for_sides

from savage_worlds.rules import WILD_SIDES

WILD_MARK = "wild"
WILD = Die("wild", tuple(Face(str(n), n) for n in range(1, WILD_SIDES + 1)))
"""The Wild Die: a d6 of another colour."""


def trait_die(sides: int) -> Die:
    """The trait die ``d<sides>``, the core's own."""
    return die_for_sides(sides)
