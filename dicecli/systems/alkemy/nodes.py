"""What a player types for Alkemy: the syntax-tree nodes of an ``alkemy`` line.

One side of a roll is ``alkemy [LABEL] CHARACTERISTIC [STATE] [+N bonus] [+N penalty]
[keep I,J]``; a line is one side alone (no difficulty: a total), one side ``vs
DIFFICULTY`` (a test, rule A1), or one side ``vs`` another ``alkemy`` side (an opposed
test, rule A2). ``str(node)`` is the canonical line, which parses back to an equal node;
it keeps the bonus and penalty terms as typed (netting and the cap, rules A6 and A7, are
applied when rolling). The grammar is in :mod:`dicecli.systems.alkemy.grammar`.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import ClassVar

from dicecli.frozen import field, frozen
from dicecli.notation.nodes import Check, Name
from dicecli.systems.alkemy.dice import Colour
from dicecli.systems.alkemy.settings import KEYWORDS, NAME

STATE_WORDS: dict[str, Colour] = {
    "white": "white",
    "unhurt": "white",
    "yellow": "yellow",
    "wounded": "yellow",
    "serious": "yellow",
    "red": "red",
    "critical": "red",
}
"""Health-state words (rule A8) -> the colour of the dice rolled."""

RESERVED = (*KEYWORDS, "vs", "keep", "bonus", "bonuses", "penalty", "penalties", *STATE_WORDS)


@frozen
class KeepChoice:
    """``keep 1,3``: keep the 1st and 3rd dice rolled (1-based, in roll order), rule A4."""

    first: int
    second: int
    position: int = field(default=-1, compare=False)

    def __str__(self) -> str:
        return f"keep {self.first},{self.second}"

    @property
    def indices(self) -> tuple[int, int]:
        """The 0-based positions, in roll order."""
        low, high = sorted((self.first, self.second))
        return low - 1, high - 1


@frozen
class AlkemySide:
    """One miniature's roll: its characteristic, health state and extra dice."""

    characteristic: int | Name
    label: str | None = None
    colour: Colour = "white"
    bonus: int = 0
    penalty: int = 0
    keep: KeepChoice | None = None

    def __str__(self) -> str:
        return " ".join(filter(None, (self.head(), self.tail())))

    def head(self) -> str:
        """``alkemy Mind 8``: the keyword, the label and the characteristic."""
        label = [] if self.label is None else [self.label]
        return " ".join([KEYWORDS[0], *label, str(self.characteristic)])

    def tail(self) -> str:
        """``yellow +1bonus keep 1,2``: the state and extra dice, '' when none."""
        parts: list[str] = [] if self.colour == "white" else [self.colour]
        if self.bonus:
            parts.append(f"+{self.bonus}bonus")
        if self.penalty:
            parts.append(f"+{self.penalty}penalty")
        if self.keep is not None:
            parts.append(str(self.keep))
        return " ".join(parts)


@frozen
class AlkemyCheck(Check):
    """A characteristic test (rule A1); ``difficulty`` None: just the total."""

    side: AlkemySide
    difficulty: int | Name | None = None
    system: ClassVar[str] = NAME

    def __str__(self) -> str:
        """The canonical order: ``alkemy Mind 8 vs 15 yellow +1bonus``."""
        if self.difficulty is None:
            return str(self.side)
        text = f"{self.side.head()} vs {self.difficulty}"
        return " ".join(filter(None, (text, self.side.tail())))


@frozen
class AlkemyOpposed(Check):
    """An opposed test (rule A2): ``first`` is side 1, ``second`` side 2."""

    first: AlkemySide
    second: AlkemySide
    system: ClassVar[str] = NAME

    def __str__(self) -> str:
        return f"{self.first} vs {self.second}"


AlkemyForm = AlkemyCheck | AlkemyOpposed
"""Every form of an Alkemy line."""


def form_of(check: Check) -> AlkemyForm:
    """``check`` as an Alkemy form; a check of another game is a bug."""
    if not isinstance(check, AlkemyCheck | AlkemyOpposed):
        raise TypeError(f"not an Alkemy check: {check!r}")
    return check
