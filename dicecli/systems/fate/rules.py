"""Fate Core's rule data and decisions (rules F1-F3 of ``docs/rules.md``), shared by
the rolling and the odds. Nothing here rolls or renders.

Rule numbers (F1, F2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

LADDER = {
    8: "Legendary",
    7: "Epic",
    6: "Fantastic",
    5: "Superb",
    4: "Great",
    3: "Good",
    2: "Fair",
    1: "Average",
    0: "Mediocre",
    -1: "Poor",
    -2: "Terrible",
}
"""The ladder: each rung's value and name (rule F2)."""

RUNG = {name.casefold(): value for value, name in LADDER.items()}
"""A rung's value by its name, any case."""

FATE_DICE = 4
"""A roll is four Fate dice (rule F1)."""

STYLE_SHIFTS = 3
"""Succeeding by this many shifts or more is succeeding with style (rule F3)."""


def rung(value: int) -> str:
    """A value as the ladder says it: ``Great (+4)``, ``+9`` beyond the ladder (rule F2)."""
    name = LADDER.get(value)
    return f"{name} ({value:+d})" if name else f"{value:+d}"


def outcome(shifts: int) -> str:
    """The outcome of a roll against a difficulty by its shifts (rule F3)."""
    if shifts < 0:
        return "fail"
    if shifts == 0:
        return "tie"
    if shifts < STYLE_SHIFTS:
        return "succeed"
    return "succeed with style"
