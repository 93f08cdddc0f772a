"""D&D 5e's rule data and decisions (rules D1-D7 of ``docs/rules.md``), shared by the
rolling and the odds so that the two cannot drift apart. Nothing here rolls or renders.

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction

D20_SIDES = 20
NATURAL_20 = 20
NATURAL_1 = 1
DEATH_SAVE_DC = 10
"""A death saving throw succeeds on 10 or more (rule D6)."""

STAT_DICE = 4
STAT_KEPT = 3
STAT_COUNT = 6
"""Ability scores: 4d6, the lowest dropped, six times (rule D7)."""


def edge(advantage: bool, disadvantage: bool) -> str | None:
    """``"advantage"``, ``"disadvantage"`` or None: several of one count once, and one
    of each cancels (rule D3)."""
    if advantage == disadvantage:
        return None
    return "advantage" if advantage else "disadvantage"


def kept_face(first: int, second: int | None, which: str | None) -> int:
    """The d20 that counts: the higher of two with advantage, the lower with
    disadvantage, else the only one (rule D3)."""
    if second is None or which is None:
        return first
    return max(first, second) if which == "advantage" else min(first, second)


def d20_chances(which: str | None) -> dict[int, Fraction]:
    """The chance of each face of the d20 that counts (rule D3)."""
    square = D20_SIDES * D20_SIDES
    if which == "advantage":  # the higher of two is f: (f, <=f) or (<f, f)
        return {f: Fraction(2 * f - 1, square) for f in range(1, D20_SIDES + 1)}
    if which == "disadvantage":
        return {f: Fraction(2 * (D20_SIDES - f) + 1, square) for f in range(1, D20_SIDES + 1)}
    return {f: Fraction(1, D20_SIDES) for f in range(1, D20_SIDES + 1)}


def attack_verdict(natural: int, total: int, armour_class: int | None) -> tuple[str, bool | None]:
    """An attack roll's verdict and whether it hits: a natural 20 always hits and is a
    critical hit, a natural 1 always misses, else a total of the AC or more hits (rule
    D1). Without an AC only the naturals decide anything."""
    if natural == NATURAL_20:
        return "critical hit", True
    if natural == NATURAL_1:
        return "miss (natural 1)", False
    if armour_class is None:
        return "", None
    if total >= armour_class:
        return "hit", True
    return "miss", False


def check_verdict(total: int, difficulty: int) -> tuple[str, bool]:
    """An ability check's or saving throw's verdict: the total against the DC; a
    natural 20 or 1 is no automatic success or failure (rule D2)."""
    return ("success", True) if total >= difficulty else ("failure", False)


def death_verdict(natural: int, total: int) -> tuple[str, bool]:
    """A death saving throw: a natural 20 regains 1 hit point, a natural 1 is two
    failures, else 10 or more is a success (rule D6)."""
    if natural == NATURAL_20:
        return "regains 1 hit point", True
    if natural == NATURAL_1:
        return "two failures", False
    if total >= DEATH_SAVE_DC:
        return "success", True
    return "failure", False


def stat_score(faces: tuple[int, ...]) -> tuple[int, int]:
    """An ability score from 4d6: the sum of the highest three, and the index of the die
    dropped (the first of the lowest) (rule D7)."""
    dropped = faces.index(min(faces))
    return sum(faces) - faces[dropped], dropped
