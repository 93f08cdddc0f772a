"""D&D 5e's lines as typed: frozen checks, nothing rolled. ``str(check)`` is the
canonical line, which parses back to an equal check.

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dicecli.game import Check, frozen
from dicecli.systems.dnd.settings import KEYWORDS, NAME

if TYPE_CHECKING:
    from dicecli.game import Expr

KEYWORD = KEYWORDS[0]
"""The keyword a canonical line starts with."""


def signed(expr: Expr) -> str:
    """A modifier as written after the roll: ``+5``, ``-1``, ``+STR + 2``."""
    text = str(expr)
    return text if text.startswith("-") else f"+{text}"


@frozen
class D20Roll(Check):
    """A d20 roll: ``dnd attack +5 adv vs 15`` (rule D1), ``dnd check +2 vs 12``,
    ``dnd save +3 vs 14`` (rule D2), ``dnd death`` (rule D6).

    ``kind`` is ``attack``, ``check``, ``save`` or ``death``; ``target`` the AC of an
    attack or the DC of a check or save (None: no target, and always None for a death
    saving throw, whose DC is 10); ``advantage`` and ``disadvantage`` as typed, however
    many times (rule D3)."""

    system: ClassVar[str] = NAME
    kind: str
    modifier: Expr | None = None
    advantage: bool = False
    disadvantage: bool = False
    target: Expr | None = None

    def __str__(self) -> str:
        words = [KEYWORD, self.kind]
        if self.modifier is not None:
            words.append(signed(self.modifier))
        if self.advantage:
            words.append("adv")
        if self.disadvantage:
            words.append("dis")
        if self.target is not None:
            words += ["vs", str(self.target)]
        return " ".join(words)

    @property
    def target_name(self) -> str:
        """What the target is called: ``AC`` for an attack, else ``DC``."""
        return "AC" if self.kind == "attack" else "DC"


@frozen
class DamageRoll(Check):
    """``dnd damage 2d6 + 1d8 +3 crit``: damage dice, a modifier, and whether the hit
    was critical, which doubles the dice and not the modifier (rule D5). ``dice`` are
    ``(count, sides)`` pairs as typed."""

    system: ClassVar[str] = NAME
    dice: tuple[tuple[int, int], ...]
    modifier: Expr | None = None
    critical: bool = False

    def __str__(self) -> str:
        text = f"{KEYWORD} damage " + " + ".join(f"{n}d{s}" for n, s in self.dice)
        if self.modifier is not None:
            text += f" {signed(self.modifier)}"
        return text + (" crit" if self.critical else "")


@frozen
class StatsRoll(Check):
    """``dnd stats``: six ability scores, each 4d6 with the lowest dropped (rule D7)."""

    system: ClassVar[str] = NAME

    def __str__(self) -> str:
        return f"{KEYWORD} stats"


DndCheck = D20Roll | DamageRoll | StatsRoll
"""Every D&D 5e line."""
