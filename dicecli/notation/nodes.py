"""The syntax tree: frozen dataclasses for what was typed, nothing rolled.

``str(node)`` gives the canonical notation back, which parses to an equal node. Dice
modifiers are stored by kind, not by the order they were typed in, because they are
always applied in one fixed order (see ``docs/grammar.md``, "Modifier order"):

1. re-roll (``r``/``ro``) each die as it is rolled,
2. explode (``!``, ``!!``, ``!p``) the die that stands after re-rolls,
3. keep/drop (``kh kl dh dl``) over every die standing,
4. count successes (``>=5`` ...) and failures (``f1``) among the kept dice;
   mark kept dice critical (``cs``, ``cf``, or a lone ``d20``'s 20 and 1 by default).

The parts of modifiers (:class:`Condition`, :class:`Keep`, :class:`Reroll`,
:class:`Explode`) are named tuples, not dataclasses: frozen values all the same, and a
tenth of the cost to create at every start (see "Start-up" in the README). Game systems
add their own node types (subclasses of :class:`Check`) in their packages.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import sys
from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple, TypeAlias

if sys.version_info >= (3, 11):
    from typing import assert_never
else:  # pragma: no cover - Python 3.10
    from typing_extensions import assert_never

CompareOp = Literal["=", "<", "<=", ">", ">="]
KeepKind = Literal["kh", "kl", "dh", "dl"]
ExplodeKind = Literal["!", "!!", "!p", "!!p"]
BinaryOpSymbol = Literal["+", "-", "*", "/"]
CheckOp = Literal[">=", "<=", ">", "<", "=", "!="]
FunctionName = Literal["floor", "ceil", "round", "abs", "min", "max"]
ROUNDING_FUNCTIONS: tuple[FunctionName, ...] = ("floor", "ceil", "round")
FUNCTION_NAMES: tuple[FunctionName, ...] = (*ROUNDING_FUNCTIONS, "abs", "min", "max")


if TYPE_CHECKING:
    from dicecli.notation.dice import FileDie

Sides: TypeAlias = 'int | Literal["%", "F", "F.1", "3"] | DieName | FileDie'
"""What follows ``d`` in a dice term: a number, ``%``, ``F``, ``F.1``, the D3, or a die of
a dice file (its name as typed, or the die once looked up)."""


class Condition(NamedTuple):
    """A comparison against a die's face value: ``>=5``, ``<3``, ``=1``."""

    op: CompareOp
    value: int

    def matches(self, number: int) -> bool:
        op = self.op
        if op == "=":
            return number == self.value
        if op == ">=":
            return number >= self.value
        if op == "<=":
            return number <= self.value
        if op == ">":
            return number > self.value
        return number < self.value

    def __str__(self) -> str:
        return f"{self.op}{self.value}"

    def bare(self) -> str:
        """Spelling after ``r``, ``!`` and ``f``, where ``=`` may be left out."""
        return str(self.value) if self.op == "=" else str(self)


class Keep(NamedTuple):
    """Keep or drop the highest or lowest ``amount`` dice: ``kh3``, ``kl1``, ``dh1``, ``dl1``."""

    kind: KeepKind
    amount: int

    def __str__(self) -> str:
        return f"{self.kind}{self.amount}"


class Reroll(NamedTuple):
    """Re-roll a die while ``condition`` holds (``r1``), or once (``ro1``)."""

    condition: Condition
    once: bool

    def __str__(self) -> str:
        return f"{'ro' if self.once else 'r'}{self.condition.bare()}"


class Explode(NamedTuple):
    """Roll another die on ``condition``: ``!`` adds it, ``!!`` compounds it, ``!p``
    penetrates (the added die is worth one less), ``!!p`` does both."""

    kind: ExplodeKind
    condition: Condition | None  # None: the die's highest face

    def __str__(self) -> str:
        return self.kind + (self.condition.bare() if self.condition else "")


@dataclass(frozen=True)
class Modifiers:
    """The modifiers of one dice term or group, by kind."""

    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    success: Condition | None = None
    failure: Condition | None = None
    critical_success: Condition | None = None  # cs: mark a kept die critical
    critical_failure: Condition | None = None  # cf
    double: Condition | None = None  # ds: a success meeting it counts 2
    sort: Literal["a", "d"] | None = None  # s/sa, sd: the dice shown sorted

    def __str__(self) -> str:
        # In the order applied, except that a bare "!" followed by a success condition
        # goes last: "!>=5" would read as the explosion's own condition.
        explode = self.explode
        bare_before_success = explode is not None and not explode.condition and self.success
        first = None if bare_before_success else explode
        parts = [self.reroll, first, self.keep, self.success]
        text = "".join(str(part) for part in parts if part is not None)
        if self.failure is not None:
            text += "f" + self.failure.bare()
        if self.double is not None:
            text += "ds" + self.double.bare()
        if self.critical_success is not None:
            text += "cs" + self.critical_success.bare()
        if self.critical_failure is not None:
            text += "cf" + self.critical_failure.bare()
        if self.sort is not None:
            text += "s" if self.sort == "a" else "sd"
        if bare_before_success:
            text += str(explode)
        return text

    @property
    def counts_successes(self) -> bool:
        return self.success is not None or self.failure is not None


NO_MODIFIERS = Modifiers()


class FrozenFields:
    """A frozen value compared, hashed and shown by the fields ``_fields`` names, as
    ``@dataclass(frozen=True)`` would make it, without generating code at every start
    (about 3.6 million instructions a class, measured): for the nodes of the rarer
    forms. Subclasses write their fields in ``__init__`` through ``__dict__``."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(self.__dict__[name] for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__, self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class DieName(FrozenFields):
    """A die named in a dice file, as typed after ``d``: ``Boost`` in ``3dBoost``
    (``docs/dice.md``). Looked up when rolled, in the dice file in force. ``position``:
    where the dice term starts in the line typed (-1: not known), for errors; it takes
    no part in equality."""

    name: str
    position: int
    _fields = ("name",)

    def __init__(self, name: str, position: int = -1) -> None:
        self.__dict__.update(name=name, position=position)

    def __str__(self) -> str:
        return self.name


class ExprNode:
    """Base of the expression nodes: how tightly a node binds when written (9: an atom)."""

    precedence: ClassVar[int] = 9


@dataclass(frozen=True)
class Number(ExprNode):
    """An integer constant: ``5``."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice(ExprNode):
    """``NdS`` with its modifiers. ``sides`` is a number, ``"%"``, ``"F"`` or ``"3"``
    (the D3 of rule N4: a D6 halved, rounded up)."""

    count: int
    sides: Sides
    modifiers: Modifiers = NO_MODIFIERS

    def __post_init__(self) -> None:
        if self.sides == 3:  # a three-sided die is always the D3 of rule N4
            object.__setattr__(self, "sides", "3")

    def __str__(self) -> str:
        sides = self.sides
        count = "" if self.count == 1 else str(self.count)
        if not isinstance(sides, (int, str)) and self.modifiers != NO_MODIFIERS:
            return f"{count}d{sides} {self.modifiers}"  # a name would run into them
        return f"{count}d{sides}{self.modifiers}"


class ComputedDice(FrozenFields, ExprNode):
    """Dice whose count or sides are worked out when rolled: ``(1+2)d6``, ``(STR)d6``,
    ``(2d4)d6`` (roll a count, then that many dice), ``d(2*3)``.

    A literal count or size is a :class:`Number`; at least one of the two is not (the
    parser makes ``(3)d6`` a plain :class:`Dice`). ``sides`` may be ``"%"`` or ``"F"``.
    """

    count: Expr
    sides: Expr | Literal["%", "F"]
    modifiers: Modifiers
    _fields = ("count", "sides", "modifiers")

    def __init__(
        self, count: Expr, sides: Expr | Literal["%", "F"], modifiers: Modifiers = NO_MODIFIERS
    ) -> None:
        self.__dict__.update(count=count, sides=sides, modifiers=modifiers)

    def __str__(self) -> str:
        count = self.count
        if isinstance(count, Number):
            count_text = "" if count.value == 1 else str(count.value)
        else:
            count_text = f"({count})"
        sides = self.sides
        sides_text: str
        if isinstance(sides, str):
            sides_text = sides
        elif isinstance(sides, Number):
            sides_text = str(sides.value)
        else:
            sides_text = f"({sides})"
        return f"{count_text}d{sides_text}{self.modifiers}"


@dataclass(frozen=True)
class Group(ExprNode):
    """``{2d6, 1d8}kh1``: each item is one value; modifiers act on the items."""

    items: tuple[Expr, ...]
    modifiers: Modifiers = NO_MODIFIERS

    def __str__(self) -> str:
        return "{" + ", ".join(str(item) for item in self.items) + "}" + str(self.modifiers)


@dataclass(frozen=True)
class Name(ExprNode):
    """A named value (``STR``) or saved roll (``attack``), resolved when rolled."""

    name: str
    position: int = field(default=-1, compare=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Labelled(ExprNode):
    """``2d6[fire]``: a term with a label shown beside its dice."""

    expr: Expr
    label: str

    def __str__(self) -> str:
        inner = f"({self.expr})" if isinstance(self.expr, Labelled) else _wrap(self.expr, 9)
        return f"{inner}[{self.label}]"


@dataclass(frozen=True)
class Negate(ExprNode):
    """Unary minus: ``-d6``."""

    operand: Expr
    precedence: ClassVar[int] = 7

    def __str__(self) -> str:
        return f"-{_wrap(self.operand, 8)}"


@dataclass(frozen=True)
class PercentOf(ExprNode):
    """``10% of 51``: the percentage of a value, rounded up (rule N3)."""

    percent: int
    operand: Expr
    precedence: ClassVar[int] = 7

    def __str__(self) -> str:
        return f"{self.percent}% of {_wrap(self.operand, 7)}"


class Call(FrozenFields, ExprNode):
    """A function of expressions: ``floor(2d6 / 2)``, ``max(d20, d20)``, ``abs(d6 - d6)``.

    A division (or ``N% of``) that is the whole argument of ``floor``, ``ceil`` or
    ``round`` is exact, and the function rounds it; everywhere else ``/`` rounds up
    (rule N3).
    """

    function: FunctionName
    args: tuple[Expr, ...]
    _fields = ("function", "args")

    def __init__(self, function: FunctionName, args: tuple[Expr, ...]) -> None:
        self.__dict__.update(function=function, args=args)

    def __str__(self) -> str:
        return f"{self.function}({', '.join(str(arg) for arg in self.args)})"


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


@dataclass(frozen=True)
class BinaryOp(ExprNode):
    """Left-associative arithmetic. ``/`` rounds up (rule N3)."""

    op: BinaryOpSymbol
    left: Expr
    right: Expr

    @property
    def level(self) -> int:
        return _PRECEDENCE[self.op]

    def __str__(self) -> str:
        level = self.level
        spaced = level == 1
        symbol = f" {self.op} " if spaced else self.op
        return f"{_wrap(self.left, level)}{symbol}{_wrap(self.right, level + 1)}"


Expr = Number | Dice | ComputedDice | Group | Name | Labelled | Negate | PercentOf | BinaryOp | Call
"""Every expression node: walkers ``match`` on it and end in :func:`assert_never`, so
mypy reports any walker a new node type would break."""


def binding(expr: Expr) -> int:
    """How tightly ``expr`` binds: 1 for ``+ -``, 2 for ``* /``, 7 unary, 9 atoms."""
    return expr.level if isinstance(expr, BinaryOp) else expr.precedence


def _wrap(expr: Expr, at_least: int) -> str:
    """``expr`` as text, in parentheses when it binds less tightly than ``at_least``."""
    return str(expr) if binding(expr) >= at_least else f"({expr})"


def children(expr: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside ``expr`` (none for numbers, dice and names)."""
    match expr:
        case BinaryOp():
            return (expr.left, expr.right)
        case Negate() | PercentOf():
            return (expr.operand,)
        case Labelled():
            return (expr.expr,)
        case Group():
            return expr.items
        case Call():
            return expr.args
        case ComputedDice():
            return (expr.count,) if isinstance(expr.sides, str) else (expr.count, expr.sides)
        case Number() | Dice() | Name():
            return ()
        case _:
            return assert_never(expr)


class Check:
    """Base of a game's top-level forms (a test, an opposed roll ...).

    ``system`` is the name of the game that resolves it (its declaration's ``name``).
    """

    system: ClassVar[str]


class Comparison(FrozenFields):
    """A check on any expression: ``d20 + 5 >= 15``, ``3d6 <= 11``, ``d20 vs 15``.

    ``vs`` (meets or beats) is read as ``>=``. Written with spaces around the
    comparison, so that it never reads as a success condition on dice (``d6>=5``).
    """

    left: Expr
    op: CheckOp
    right: Expr
    _fields = ("left", "op", "right")

    def __init__(self, left: Expr, op: CheckOp, right: Expr) -> None:
        self.__dict__.update(left=left, op=op, right=right)

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class Roll:
    """One line typed by the user: an expression, a check on one, or a game check, and
    a comment."""

    body: Expr | Comparison | Check
    comment: str | None = None

    def __str__(self) -> str:
        text = str(self.body)
        return f"{text} # {self.comment}" if self.comment else text


__all__ = ["assert_never"]  # re-exported for the walkers: every match over nodes ends in it
