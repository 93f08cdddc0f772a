"""The Warhammer forms as typed: frozen syntax-tree nodes, nothing rolled.

``str(node)`` is the canonical line (``wfb ld 8``), which parses back to an equal node.
Values (characteristics, Leadership, combat result, distances) are generic expressions
from :mod:`dicecli.notation.grammar`, so named values and rounding up (rule N3) come for free.
The artillery die inside an expression is the word ``artillery``; the generic grammar
reads it as a :class:`~dicecli.notation.nodes.Name`, and the Warhammer evaluator rolls it.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import ClassVar, cast

from dicecli.frozen import frozen
from dicecli.notation.nodes import Check, Expr, Name
from dicecli.results import JSONValue
from dicecli.systems.warhammer.settings import KEYWORDS, NAME

KEYWORD = KEYWORDS[0]
"""The keyword a canonical line starts with (the game's first)."""
ARTILLERY_WORD = "artillery"


def is_artillery(expr: Expr) -> bool:
    """True for the word ``artillery`` (any case): the artillery die."""
    return isinstance(expr, Name) and expr.name.casefold() == ARTILLERY_WORD


def _values(values: tuple[Expr, ...]) -> str:
    return ", ".join(str(value) for value in values)


class WarhammerCheck(Check):
    system: ClassVar[str] = NAME


@frozen
class WarhammerRoll(WarhammerCheck):
    """``wfb artillery + 2``, ``wfb 2D6/2``: an expression that may hold the artillery
    die (rules W1, N3)."""

    expr: Expr

    def __str__(self) -> str:
        return f"{KEYWORD} {self.expr}"


@frozen
class ScatterRoll(WarhammerCheck):
    """``wfb scatter``, ``wfb scatter 2D6``, ``wfb scatter artillery`` (rules W2, W3)."""

    distance: Expr | None = None

    def __str__(self) -> str:
        text = f"{KEYWORD} scatter"
        return f"{text} {self.distance}" if self.distance is not None else text


@frozen
class CharacteristicTest(WarhammerCheck):
    """``wfb test 4``; ``wfb test 3, 4`` tests the highest value (rule W8)."""

    values: tuple[Expr, ...]

    def __str__(self) -> str:
        return f"{KEYWORD} test {_values(self.values)}"


@frozen
class LeadershipTest(WarhammerCheck):
    """``wfb ld 8``; ``wfb ld 7, 8`` tests the highest value (rule W9)."""

    values: tuple[Expr, ...]

    def __str__(self) -> str:
        return f"{KEYWORD} ld {_values(self.values)}"


@frozen
class BreakTest(WarhammerCheck):
    """``wfb break 8 lost by 3``: Leadership minus the combat result (rule W10)."""

    values: tuple[Expr, ...]
    lost_by: Expr

    def __str__(self) -> str:
        return f"{KEYWORD} break {_values(self.values)} lost by {self.lost_by}"


@frozen
class Contenders:
    """Players of a roll-off or candidates of an allocation: names as typed, or just
    a count (numbered 1..count)."""

    count: int
    names: tuple[str, ...] = ()

    @classmethod
    def named(cls, names: tuple[str, ...]) -> Contenders:
        return cls(len(names), names)

    def identity(self, index: int) -> JSONValue:
        """What JSON reports: the name as typed, or the 1-based number."""
        return self.names[index] if self.names else index + 1

    def __str__(self) -> str:
        return " ".join(self.names) if self.names else str(self.count)


@frozen
class RollOff(WarhammerCheck):
    """``wfb rolloff Alice Bob`` or ``wfb rolloff 3`` (rule W6)."""

    players: Contenders

    def __str__(self) -> str:
        return f"{KEYWORD} rolloff {self.players}"


@frozen
class Allocate(WarhammerCheck):
    """``wfb allocate 5`` or ``wfb allocate Champion Musician Banner`` (rule W7);
    ``wfb allocate 3 among 5`` hands out 3 items, one D6 (or set of dice) each."""

    candidates: Contenders
    items: int = 1

    def __str__(self) -> str:
        among = f"{self.items} among " if self.items > 1 else ""
        return f"{KEYWORD} allocate {among}{self.candidates}"


WarhammerForm = (
    WarhammerRoll
    | ScatterRoll
    | CharacteristicTest
    | LeadershipTest
    | BreakTest
    | RollOff
    | Allocate
)
"""Every form of a Warhammer line."""


def form_of(check: Check) -> WarhammerForm:
    """``check`` as a Warhammer form; a check of another game is a bug."""
    if not isinstance(check, WarhammerCheck):
        raise TypeError(f"not a Warhammer check: {check!r}")
    return cast(WarhammerForm, check)
