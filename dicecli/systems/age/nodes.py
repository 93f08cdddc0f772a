"""AGE system rule data and syntax-tree nodes (what was typed for an ``age`` line).

Rule data are module constants: the abilities and the project's abbreviations (rule
G8), the named difficulties of a basic test (rule G3) and the named thresholds of an
advanced test (rule G7). The nodes are frozen dataclasses; ``str(node)`` gives the
canonical line, which parses back to an equal node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dicecli.notation.nodes import Check

FOCUS_BONUS = 2
"""Rule G1: +2 when a relevant focus applies (only one focus counts)."""

ABILITIES: dict[str, tuple[str, ...]] = {
    "STR": ("Strength",),
    "DEX": ("Dexterity",),
    "CON": ("Constitution",),
    "COM": ("Communication",),
    "CUN": ("Cunning",),
    "MAG": ("Magic",),
    "PER": ("Perception",),
    "WIL": ("Willpower",),
    "ACC": ("Accuracy",),
    "FGT": ("Fighting",),
    "INT": ("Intelligence",),
}
"""Rule G8: the project's abbreviation -> the ability's full name(s) in the books."""

DIFFICULTIES: dict[str, int] = {
    "routine": 7,
    "easy": 9,
    "average": 11,
    "challenging": 13,
    "hard": 15,
    "formidable": 17,
    "imposing": 19,
    "nigh-impossible": 21,
}
"""Rule G3: named target numbers of a basic test."""

THRESHOLDS: dict[str, int] = {
    "easy": 5,
    "average": 10,
    "challenging": 15,
    "hard": 20,
    "formidable": 25,
}
"""Rule G7: named thresholds of an advanced test (the Dragon dice to collect)."""


def spelled(name: str) -> str:
    """``nigh-impossible`` -> ``Nigh Impossible``: a table name as a player reads it."""
    return name.replace("-", " ").title()


@dataclass(frozen=True)
class AgeTest:
    """One ability test: an ability (or a plain number), modifiers, and a focus.

    ``ability`` is the abbreviation (``STR``) whose value is looked up when rolled, or
    None when a number was typed in its place (``age 3 vs 13``); that number is
    ``base``. The ability (or ``base``) is what an opposed test's last tie-break
    compares (rule G4).
    """

    ability: str | None
    base: int = 0
    modifiers: tuple[int, ...] = ()
    focus: bool = False

    def __str__(self) -> str:
        text = self.ability if self.ability is not None else str(self.base)
        text += "".join(f"{m:+d}" for m in self.modifiers)
        return text + ("+focus" if self.focus else "")

    @property
    def bonus(self) -> int:
        """What the test adds besides the ability: the modifiers and the focus."""
        return sum(self.modifiers) + (FOCUS_BONUS if self.focus else 0)


@dataclass(frozen=True)
class Target:
    """A number to reach: typed as a number, or named from a table (``name``)."""

    value: int
    name: str | None = None

    def __str__(self) -> str:
        return self.name if self.name is not None else str(self.value)

    def describe(self) -> str:
        """``13 (Challenging)`` or ``13``."""
        return f"{self.value} ({spelled(self.name)})" if self.name else str(self.value)


@dataclass(frozen=True)
class AgeRoll(Check):
    """``age STR+2 vs 13`` (a basic test, rules G1-G2, G5-G6) or ``age STR+2`` (no
    target: the total, the Dragon die and doubles only)."""

    system: ClassVar[str] = "age"
    test: AgeTest
    target: Target | None = None

    def __str__(self) -> str:
        against = f" vs {self.target}" if self.target is not None else ""
        return f"age {self.test}{against}"


@dataclass(frozen=True)
class AgeOpposed(Check):
    """``age DEX+1 vs age PER+2 [vs age ...]``: an opposed test (rule G4)."""

    system: ClassVar[str] = "age"
    sides: tuple[AgeTest, ...]

    def __str__(self) -> str:
        return " vs ".join(f"age {side}" for side in self.sides)


@dataclass(frozen=True)
class AgeAdvanced(Check):
    """``age STR+2 vs 13 until 15``: an advanced test (rule G7)."""

    system: ClassVar[str] = "age"
    test: AgeTest
    target: Target
    threshold: Target

    def __str__(self) -> str:
        return f"age {self.test} vs {self.target} until {self.threshold}"
