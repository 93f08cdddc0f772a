"""The AGE forms as typed: frozen syntax-tree nodes for an ``age`` line, nothing rolled.

``str(node)`` gives the canonical line, which parses back to an equal node. The rule
data the nodes refer to (abilities, difficulties, thresholds) are in
:mod:`dicecli.systems.age.rules`.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import ClassVar

from dicecli.frozen import frozen
from dicecli.notation.nodes import Check
from dicecli.systems.age.rules import FOCUS_BONUS, spelled
from dicecli.systems.age.settings import KEYWORDS, NAME

KEYWORD = KEYWORDS[0]
"""The keyword a canonical line starts with."""


@frozen
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
    name: str | None = None
    """The side's name in an opposed test (``age Ayla: DEX+1 vs Orc: DEX+2``), as typed."""

    def __str__(self) -> str:
        text = f"{self.name}: " if self.name is not None else ""
        text += self.ability if self.ability is not None else str(self.base)
        text += "".join(f"{m:+d}" for m in self.modifiers)
        return text + ("+focus" if self.focus else "")

    def side(self, index: int) -> str:
        """How an opposed test calls this side: its name, else ``#1``, ``#2`` ..."""
        return self.name if self.name is not None else f"#{index + 1}"

    @property
    def bonus(self) -> int:
        """What the test adds besides the ability: the modifiers and the focus."""
        return sum(self.modifiers) + (FOCUS_BONUS if self.focus else 0)


@frozen
class Target:
    """A number to reach: typed as a number, or named from a table (``name``)."""

    value: int
    name: str | None = None

    def __str__(self) -> str:
        return self.name if self.name is not None else str(self.value)

    def describe(self) -> str:
        """``13 (Challenging)`` or ``13``."""
        return f"{self.value} ({spelled(self.name)})" if self.name else str(self.value)


@frozen
class AgeRoll(Check):
    """``age STR+2 vs 13`` (a basic test, rules G1-G2, G5-G6) or ``age STR+2`` (no
    target: the total, the Dragon die and doubles only)."""

    system: ClassVar[str] = NAME
    test: AgeTest
    target: Target | None = None

    def __str__(self) -> str:
        against = f" vs {self.target}" if self.target is not None else ""
        return f"{KEYWORD} {self.test}{against}"


@frozen
class AgeOpposed(Check):
    """``age DEX+1 vs age PER+2 [vs age ...]``: an opposed test (rule G4)."""

    system: ClassVar[str] = NAME
    sides: tuple[AgeTest, ...]

    def __str__(self) -> str:
        return " vs ".join(f"{KEYWORD} {side}" for side in self.sides)


@frozen
class AgeAdvanced(Check):
    """``age STR+2 vs 13 until 15``: an advanced test (rule G7)."""

    system: ClassVar[str] = NAME
    test: AgeTest
    target: Target
    threshold: Target

    def __str__(self) -> str:
        return f"{KEYWORD} {self.test} vs {self.target} until {self.threshold}"


AgeForm = AgeRoll | AgeOpposed | AgeAdvanced
"""Every form of an AGE line."""


def form_of(check: Check) -> AgeForm:
    """``check`` as an AGE form; a check of another game is a bug."""
    if not isinstance(check, AgeRoll | AgeOpposed | AgeAdvanced):
        raise TypeError(f"not an AGE check: {check!r}")
    return check
