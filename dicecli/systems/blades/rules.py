"""Blades in the Dark's rule data and decisions (rules B1-B3 of ``docs/rules.md``),
shared by the rolling and the odds. Nothing here rolls or renders.

Rule numbers (B1, B2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

MOST_DICE = 50
"""The largest pool one line may roll (an assumption: pools are rarely over 6)."""

ZERO_POOL_DICE = 2
"""A pool of zero dice rolls two and keeps the lower (rule B2)."""


def dice_rolled(pool: int) -> int:
    """How many d6 a pool rolls (rule B2)."""
    return ZERO_POOL_DICE if pool == 0 else pool


def counted(pool: int, faces: tuple[int, ...]) -> tuple[int, bool]:
    """The die that counts and whether the roll is critical: the highest die, and two
    or more 6s (rule B1); for a pool of zero the lowest of two, never critical (rule
    B2)."""
    if pool == 0:
        return min(faces), False
    return max(faces), faces.count(6) >= 2


def action_verdict(highest: int, critical: bool) -> str:
    """An action roll's result in the game's words (rule B1)."""
    if critical:
        return "critical success"
    if highest == 6:
        return "full success"
    if highest >= 4:
        return "partial success"
    return "bad outcome"


def stress(highest: int, critical: bool) -> int:
    """The stress a resistance roll costs: 6 minus the die that counts; a critical
    clears 1 stress instead (rule B3)."""
    return -1 if critical else 6 - highest
