"""What a player types for Alkemy: the syntax-tree nodes of an ``alkemy`` line.

One side of a roll is ``alkemy [LABEL] CHARACTERISTIC [STATE] [+N bonus] [+N penalty]
[keep I,J]``; a line is one side alone (no difficulty: a total), one side ``vs
DIFFICULTY`` (a test, rule A1), or one side ``vs`` another ``alkemy`` side (an opposed
test, rule A2). ``str(node)`` is the canonical line, which parses back to an equal node;
it keeps the bonus and penalty terms as typed (netting and the cap, rules A6 and A7, are
applied when rolling). The grammar is in :mod:`dicecli.systems.alkemy.grammar`.

The nodes are :class:`~dicecli.notation.nodes.FrozenFields` values (compared, hashed
and shown by their fields, as frozen dataclasses are) rather than dataclasses: an
Alkemy line's start-up builds these classes, and a dataclass generates its code at
every start.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import ClassVar

from dicecli.notation.nodes import Check, FrozenFields, Name
from dicecli.systems.alkemy import GAME
from dicecli.systems.alkemy.dice import Colour

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

RESERVED = (*GAME.keywords, "vs", "keep", "bonus", "bonuses", "penalty", "penalties", *STATE_WORDS)


class KeepChoice(FrozenFields):
    """``keep 1,3``: keep the 1st and 3rd dice rolled (1-based, in roll order), rule A4.
    ``position`` (where it was typed, for errors) is not compared."""

    first: int
    second: int
    position: int
    _fields = ("first", "second")

    def __init__(self, first: int, second: int, position: int = -1) -> None:
        self.__dict__.update(first=first, second=second, position=position)

    def __str__(self) -> str:
        return f"keep {self.first},{self.second}"

    @property
    def indices(self) -> tuple[int, int]:
        """The 0-based positions, in roll order."""
        low, high = sorted((self.first, self.second))
        return low - 1, high - 1


class AlkemySide(FrozenFields):
    """One miniature's roll: its characteristic, health state and extra dice."""

    characteristic: int | Name
    label: str | None
    colour: Colour
    bonus: int
    penalty: int
    keep: KeepChoice | None
    _fields = ("characteristic", "label", "colour", "bonus", "penalty", "keep")

    def __init__(
        self,
        characteristic: int | Name,
        label: str | None = None,
        colour: Colour = "white",
        bonus: int = 0,
        penalty: int = 0,
        keep: KeepChoice | None = None,
    ) -> None:
        self.__dict__.update(
            characteristic=characteristic,
            label=label,
            colour=colour,
            bonus=bonus,
            penalty=penalty,
            keep=keep,
        )

    def with_keep(self, keep: KeepChoice) -> AlkemySide:
        """This side with the keep choice ``keep``."""
        return AlkemySide(
            self.characteristic, self.label, self.colour, self.bonus, self.penalty, keep
        )

    def __str__(self) -> str:
        return " ".join(filter(None, (self.head(), self.tail())))

    def head(self) -> str:
        """``alkemy Mind 8``: the keyword, the label and the characteristic."""
        label = [] if self.label is None else [self.label]
        return " ".join([GAME.topic, *label, str(self.characteristic)])

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


class AlkemyCheck(FrozenFields, Check):
    """A characteristic test (rule A1); ``difficulty`` None: just the total."""

    side: AlkemySide
    difficulty: int | Name | None
    system: ClassVar[str] = GAME.name
    _fields = ("side", "difficulty")

    def __init__(self, side: AlkemySide, difficulty: int | Name | None = None) -> None:
        self.__dict__.update(side=side, difficulty=difficulty)

    def __str__(self) -> str:
        """The canonical order: ``alkemy Mind 8 vs 15 yellow +1bonus``."""
        if self.difficulty is None:
            return str(self.side)
        text = f"{self.side.head()} vs {self.difficulty}"
        return " ".join(filter(None, (text, self.side.tail())))


class AlkemyOpposed(FrozenFields, Check):
    """An opposed test (rule A2): ``first`` is side 1, ``second`` side 2."""

    first: AlkemySide
    second: AlkemySide
    system: ClassVar[str] = GAME.name
    _fields = ("first", "second")

    def __init__(self, first: AlkemySide, second: AlkemySide) -> None:
        self.__dict__.update(first=first, second=second)

    def __str__(self) -> str:
        return f"{self.first} vs {self.second}"


AlkemyForm = AlkemyCheck | AlkemyOpposed
"""Every form of an Alkemy line."""


def form_of(check: Check) -> AlkemyForm:
    """``check`` as an Alkemy form; a check of another game is a bug."""
    if not isinstance(check, AlkemyCheck | AlkemyOpposed):
        raise TypeError(f"not an Alkemy check: {check!r}")
    return check
