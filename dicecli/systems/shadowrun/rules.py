"""Shadowrun 5e's rule data and decisions (rules S1-S5 of ``docs/rules.md``), shared by
the rolling and the odds. Nothing here rolls or renders.

Rule numbers (S1, S2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

HIT_AT = 5
"""A die of 5 or 6 is a hit (rule S1)."""

MOST_DICE = 50
"""The largest pool one line may roll (an assumption, against typos)."""


def is_hit(face: int) -> bool:
    return face >= HIT_AT


def glitch(ones: int, pool: int) -> bool:
    """More than half the pool's dice show 1 (rule S2)."""
    return 2 * ones > pool


def counted_hits(hits: int, limit: int | None, edge: bool) -> int:
    """The hits that count: no more than the limit, unless Edge was used (rule S5)."""
    if limit is None or edge:
        return hits
    return min(hits, limit)


def verdict(hits: int, ones: int, pool: int, threshold: int | None) -> tuple[str, bool | None]:
    """The result in the game's words and whether it passed (rules S1-S3)."""
    glitched = glitch(ones, pool)
    if glitched and hits == 0:
        return "critical glitch", False if threshold is not None else None
    said = f"{hits} hit{'s' if hits != 1 else ''}"
    passed: bool | None = None
    if threshold is not None:
        passed = hits >= threshold
        net = hits - threshold
        said = f"success, {net} net hit{'s' if net != 1 else ''}" if passed else f"failure, {said}"
    return (f"{said}, glitch" if glitched else said), passed
