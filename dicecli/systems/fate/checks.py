"""Fate Core's lines as typed: frozen checks, nothing rolled. ``str(check)`` is the
canonical line, which parses back to an equal check.

Rule numbers (F1, F2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.fate.rules import LADDER
from dicecli.systems.fate.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


@frozen
class Rung:
    """A rung of the ladder named in a line (``Good``): its value (rule F2)."""

    value: int

    def __str__(self) -> str:
        return LADDER[self.value]


def _signed(part: Expr | Rung) -> str:
    text = str(part)
    return text if isinstance(part, Rung) or text.startswith("-") else f"+{text}"


@frozen
class FateRoll(Check):
    """``fate +2 vs Good``: four Fate dice plus the skill, against an opposition or a
    difficulty (None: no difficulty) (rules F1-F3)."""

    system: ClassVar[str] = NAME
    skill: Expr | Rung | None = None
    difficulty: Expr | Rung | None = None

    def __str__(self) -> str:
        words = [KEYWORD]
        if self.skill is not None:
            words.append(_signed(self.skill))
        if self.difficulty is not None:
            words += ["vs", str(self.difficulty)]
        return " ".join(words)


FateCheck = FateRoll
"""Every Fate Core line."""
