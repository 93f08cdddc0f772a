"""The Year Zero Engine's rule data and decisions (rules Y1-Y3 of ``docs/rules.md``),
shared by the rolling and the odds. Nothing here rolls or renders.

Rule numbers (Y1, Y2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

SUCCESS = 6
"""Each 6 is a success, whatever kind of die shows it (rule Y1)."""

BANE = 1
"""A 1 on a base or gear die counts apart: damage or stress, and worn gear (rule Y2)."""

MOST_DICE = 30
"""Most dice of each kind one line may roll (an assumption, against typos)."""


def kept_on_push(kind: str, face: int) -> bool:
    """Whether a die stays when the roll is pushed: every 6, and a 1 on a base or gear
    die; every other die is rolled again (rule Y3)."""
    return face == SUCCESS or (face == BANE and kind != "skill")


def is_bane(kind: str, face: int) -> bool:
    """A 1 on a base or gear die (rule Y2); a skill die's 1 means nothing."""
    return face == BANE and kind != "skill"
