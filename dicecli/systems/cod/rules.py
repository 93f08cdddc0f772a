"""Chronicles of Darkness's rule data and decisions (rules K1-K5 of ``docs/rules.md``),
shared by the rolling and the odds. Nothing here rolls or renders.

Rule numbers (K1, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction

SUCCESS_AT = 8
"""A die of 8 or more is a success (rule K1)."""

EXCEPTIONAL_AT = 5
"""Five successes or more are an exceptional success (rule K4)."""

MOST_DICE = 30
"""The largest pool one line may roll (an assumption: pools are rarely over 15, and the
exact odds of a larger one take long)."""

AGAIN = {"10-again": 10, "9-again": 9, "8-again": 8, "no-again": None}
"""Each re-roll quality and the least face that rolls another die (rule K2)."""


def is_success(face: int) -> bool:
    """Whether a die is a success (rule K1)."""
    return face >= SUCCESS_AT


def explodes(face: int, again: int | None) -> bool:
    """Whether a die rolls another one (rule K2)."""
    return again is not None and face >= again


def verdict(successes: int) -> str:
    """A pool's result in the game's words (rules K1, K4)."""
    if successes == 0:
        return "failure"
    if successes >= EXCEPTIONAL_AT:
        return f"exceptional success ({successes} successes)"
    return f"success ({successes} success{'es' if successes > 1 else ''})"


def chance_verdict(face: int) -> str:
    """A chance die's result: 10 a success, 1 a dramatic failure (rule K5)."""
    if face == 10:
        return "success (1 success)"
    if face == 1:
        return "dramatic failure"
    return "failure"


def die_chances(again: int | None) -> tuple[Fraction, Fraction, Fraction]:
    """One d10's chances of no success, a success that does not roll again, and one
    that does (rules K1, K2)."""
    tenth = Fraction(1, 10)
    rolls_again = 0 if again is None else 11 - again
    plain = 10 - SUCCESS_AT + 1 - rolls_again
    return tenth * (SUCCESS_AT - 1), tenth * plain, tenth * rolls_again
