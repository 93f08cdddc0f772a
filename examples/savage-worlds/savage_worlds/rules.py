"""Savage Worlds (SWADE) trait-test rule data and decisions, on totals and natural dice.

Pure functions shared by the rolling and the odds, so the two cannot disagree:

- the trait dice (d4 to d12) and the Wild Die (a d6);
- a die *aces* on its highest face: it is rolled again and the new roll added, without
  limit;
- the better of the trait die and the Wild Die counts, plus the modifier;
- the roll succeeds at the target number (4 unless another is given) or more; each full
  4 above the target is a raise;
- a Wild Card whose trait die and Wild Die both land on a natural 1 critically fails,
  whatever the modifier.
"""

from __future__ import annotations

from typing import NamedTuple

TRAIT_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12)
"""The trait dice. A trait above d12 is written d12+1, d12+2 ...: a bonus to the roll."""

WILD_SIDES = 6
"""The Wild Die is a d6."""

DEFAULT_TARGET = 4
"""The target number when none is given."""

RAISE_STEP = 4
"""Each full 4 points above the target number is a raise."""

MAX_NUMBER = 1000
"""The largest target number and the largest modifier (in size) a line may give: far
beyond any table, small enough for exact odds at once."""


class Judgement(NamedTuple):
    """What a trait test came to."""

    success: bool
    raises: int
    margin: int
    critical_failure: bool

    @property
    def verdict(self) -> str:
        """``success``, ``success with 2 raises``, ``failure`` or ``critical failure``."""
        if self.critical_failure:
            return "critical failure"
        if not self.success:
            return "failure"
        if not self.raises:
            return "success"
        return f"success with {self.raises} raise{'s' if self.raises > 1 else ''}"


def aces(value: int, sides: int) -> bool:
    """A die aces when it lands on its highest face."""
    return value == sides


def critical_failure(trait_first: int, wild_first: int | None) -> bool:
    """Both natural first dice show 1: a Wild Card's critical failure. An Extra (no Wild
    Die, ``wild_first`` None) is never reported as one."""
    return wild_first is not None and trait_first == 1 and wild_first == 1


def raises(total: int, target: int) -> int:
    """The raises of a successful total: each full 4 above the target."""
    return max(total - target, 0) // RAISE_STEP


def judge(total: int, target: int, critical: bool) -> Judgement:
    """The judgement of a total (the better die plus the modifier) against ``target``.
    A critical failure fails whatever the total."""
    success = total >= target and not critical
    return Judgement(success, raises(total, target) if success else 0, total - target, critical)
