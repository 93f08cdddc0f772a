"""Call of Cthulhu 7e's lines as typed: frozen checks, nothing rolled. ``str(check)`` is
the canonical line, which parses back to an equal check.

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.coc.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]


def _dice_words(count: int, word: str) -> list[str]:
    if count == 0:
        return []
    return [word] if count == 1 else [str(count), word]


@frozen
class SkillRoll(Check):
    """``coc 45``, ``coc Spot 2 bonus hard``: a d100 under a skill (rules C1-C4).
    ``bonus`` and ``penalty`` count the dice as typed; ``difficulty`` is ``regular``,
    ``hard`` or ``extreme`` (None: regular, not named)."""

    system: ClassVar[str] = NAME
    skill: Expr
    bonus: int = 0
    penalty: int = 0
    difficulty: str | None = None

    def __str__(self) -> str:
        words = [KEYWORD, str(self.skill)]
        words += _dice_words(self.bonus, "bonus") + _dice_words(self.penalty, "penalty")
        if self.difficulty is not None:
            words.append(self.difficulty)
        return " ".join(words)


@frozen
class OpposedRoll(Check):
    """``coc 45 vs coc 60``: two skill rolls compared by level, then skill (rule C5)."""

    system: ClassVar[str] = NAME
    sides: tuple[SkillRoll, SkillRoll]

    def __str__(self) -> str:
        return " vs ".join(map(str, self.sides))


CocCheck = SkillRoll | OpposedRoll
"""Every Call of Cthulhu line."""
