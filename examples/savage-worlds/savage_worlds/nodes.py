"""The Savage Worlds forms as typed: a frozen node for an ``sw`` line, nothing rolled.

``str(node)`` gives the canonical line, which parses back to an equal node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dicecli.game import Check

from savage_worlds.rules import DEFAULT_TARGET

GAME_NAME = "savage_worlds"
"""The game's name in the registry, which its checks give as ``Check.system``."""


@dataclass(frozen=True)
class TraitTest(Check):
    """``sw d8+1 vs 6``: a trait test with a trait die of ``sides`` sides, the modifiers
    as typed (``d12+2`` is a d12 with +2), an optional target number, and whether the
    roller is a Wild Card (with the Wild Die) or an Extra (``sw extra d6``)."""

    system: ClassVar[str] = GAME_NAME
    sides: int
    modifiers: tuple[int, ...] = ()
    target: int | None = None
    wild_card: bool = True

    @property
    def modifier(self) -> int:
        """What the modifiers add up to."""
        return sum(self.modifiers)

    @property
    def target_number(self) -> int:
        """The target number: the one given, else 4."""
        return DEFAULT_TARGET if self.target is None else self.target

    def __str__(self) -> str:
        extra = "" if self.wild_card else "extra "
        modifiers = "".join(f"{m:+d}" for m in self.modifiers)
        against = "" if self.target is None else f" vs {self.target}"
        return f"sw {extra}d{self.sides}{modifiers}{against}"


SavageForm = TraitTest
"""Every form of a Savage Worlds line (one, so far)."""


def form_of(check: Check) -> SavageForm:
    """``check`` as a Savage Worlds form; a check of another game is a bug."""
    if not isinstance(check, TraitTest):
        raise TypeError(f"not a Savage Worlds check: {check!r}")
    return check
