"""Blades in the Dark's lines as typed: frozen checks, nothing rolled. ``str(check)`` is
the canonical line, which parses back to an equal check.

Rule numbers (B1, B2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.blades.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


@frozen
class BladesRoll(Check):
    """``blades 2`` (an action roll, rules B1-B2) or ``blades resist 3`` (a resistance
    roll, rule B3). ``pool`` is the number of dice, any expression (``Prowl+1``)."""

    system: ClassVar[str] = NAME
    pool: Expr
    resist: bool = False

    def __str__(self) -> str:
        return f"{KEYWORD} {'resist ' if self.resist else ''}{self.pool}"


BladesCheck = BladesRoll
"""Every Blades in the Dark line."""
