"""Legend of the Five Rings 4e's lines as typed: frozen checks, nothing rolled.
``str(check)`` is the canonical line, which parses back to an equal check.

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.l5r.settings import KEYWORDS, NAME

KEYWORD = KEYWORDS[0]


@frozen
class RollAndKeep(Check):
    """``l5r 6k3 vs 20 raises 1``: roll ``rolled`` d10, keep the ``kept`` highest, 10s
    exploding unless ``unskilled`` (rules L1-L4); ``target`` the TN (None: none)."""

    system: ClassVar[str] = NAME
    rolled: int
    kept: int
    target: int | None = None
    raises: int = 0
    unskilled: bool = False

    def __str__(self) -> str:
        words = [KEYWORD, f"{self.rolled}k{self.kept}"]
        if self.unskilled:
            words.append("unskilled")
        if self.target is not None:
            words += ["vs", str(self.target)]
            if self.raises:
                words += ["raises", str(self.raises)]
        return " ".join(words)


L5rCheck = RollAndKeep
"""Every Legend of the Five Rings line."""
