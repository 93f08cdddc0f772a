"""Chronicles of Darkness's lines as typed: frozen checks, nothing rolled.
``str(check)`` is the canonical line, which parses back to an equal check.

Rule numbers (K1, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.cod.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


@frozen
class PoolRoll(Check):
    """``cod 5 9-again rote``: a pool of d10 (rules K1-K5). ``pool`` is any expression;
    ``again`` one of ``10-again`` (the default), ``9-again``, ``8-again``,
    ``no-again``; a pool of 0 or less is a chance die."""

    system: ClassVar[str] = NAME
    pool: Expr
    again: str = "10-again"
    rote: bool = False

    def __str__(self) -> str:
        words = [KEYWORD, str(self.pool)]
        if self.again != "10-again":
            words.append(self.again)
        if self.rote:
            words.append("rote")
        return " ".join(words)


CodCheck = PoolRoll
"""Every Chronicles of Darkness line."""
