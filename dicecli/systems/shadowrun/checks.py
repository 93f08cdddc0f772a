"""Shadowrun 5e's lines as typed: frozen checks, nothing rolled. ``str(check)`` is the
canonical line, which parses back to an equal check.

Rule numbers (S1, S2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.shadowrun.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


@frozen
class PoolTest(Check):
    """``sr 8 vs 3 edge``: a pool of d6 (rules S1-S5). ``pool`` any expression;
    ``threshold`` the hits needed (None: no threshold); ``limit`` the most hits that
    count; ``edge``: the pool's 6s roll again and the limit is ignored."""

    system: ClassVar[str] = NAME
    pool: Expr
    threshold: Expr | None = None
    limit: Expr | None = None
    edge: bool = False

    def __str__(self) -> str:
        words = [KEYWORD, str(self.pool)]
        if self.limit is not None:
            words += ["limit", str(self.limit)]
        if self.edge:
            words.append("edge")
        if self.threshold is not None:
            words += ["vs", str(self.threshold)]
        return " ".join(words)


ShadowrunCheck = PoolTest
"""Every Shadowrun line."""
