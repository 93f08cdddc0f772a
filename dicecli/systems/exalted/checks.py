"""Exalted 3e's lines as typed: frozen checks, nothing rolled. ``str(check)`` is the
canonical line, which parses back to an equal check.

Rule numbers (X1, X2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.exalted.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


@frozen
class ExaltedRoll(Check):
    """``ex 6 vs 3``: a pool of d10 against a difficulty (None: none) (rules X1-X3)."""

    system: ClassVar[str] = NAME
    pool: Expr
    difficulty: Expr | None = None

    def __str__(self) -> str:
        against = f" vs {self.difficulty}" if self.difficulty is not None else ""
        return f"{KEYWORD} {self.pool}{against}"


ExaltedCheck = ExaltedRoll
"""Every Exalted line."""
