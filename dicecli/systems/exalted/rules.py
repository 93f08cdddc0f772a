"""Exalted 3e's rule data and decisions (rules X1-X3 of ``docs/rules.md``), shared by
the rolling and the odds. Nothing here rolls or renders.

Rule numbers (X1, X2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

MOST_DICE = 60
"""The largest pool one line may roll (an assumption, against typos)."""


def successes(face: int) -> int:
    """A die's successes: 7 to 9 one, 10 two, else none (rule X1)."""
    if face == 10:
        return 2
    return 1 if face >= 7 else 0


def verdict(total: int, ones: int, difficulty: int | None) -> tuple[str, bool | None]:
    """The result in the game's words, and whether it passed (rules X1-X3)."""
    if total == 0 and ones > 0:
        return "botch", False
    said = f"{total} success{'es' if total != 1 else ''}"
    if difficulty is None:
        return said, None
    if total >= difficulty:
        extra = total - difficulty
        return f"success, {extra} threshold success{'es' if extra != 1 else ''}", True
    return f"failure, {said}", False
