"""The Year Zero Engine's lines as typed: frozen checks, nothing rolled.
``str(check)`` is the canonical line, which parses back to an equal check.

Rule numbers (Y1, Y2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.yearzero.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


@frozen
class YearZeroRoll(Check):
    """``yz 3 2 1 push``: base, skill and gear dice (rules Y1-Y3), each any expression
    (None: none of that kind); ``push`` rolls once more the dice that may be pushed."""

    system: ClassVar[str] = NAME
    base: Expr
    skill: Expr | None = None
    gear: Expr | None = None
    push: bool = False

    def __str__(self) -> str:
        words = [KEYWORD, f"base {self.base}"]
        if self.skill is not None:
            words.append(f"skill {self.skill}")
        if self.gear is not None:
            words.append(f"gear {self.gear}")
        if self.push:
            words.append("push")
        return " ".join(words)


YearZeroCheck = YearZeroRoll
"""Every Year Zero Engine line."""
