"""The syntax tree: frozen values for what was typed, nothing rolled.

``str(node)`` gives the canonical notation back, which parses to an equal node. Dice
modifiers are stored by kind, not by the order they were typed in, because they are
always applied in one fixed order (see ``docs/grammar.md``, "Modifier order"):

1. re-roll (``r``/``ro``) each die as it is rolled; then re-roll a die whose value an
   earlier die stands on (unique dice, ``u``/``uo``),
2. explode (``!``, ``!!``, ``!p``) the die that stands after re-rolls; clamp what each
   die is worth (``min3``, ``max6``; conditions judge the face),
   implode (``i2``, Dice Maiden's): each die first rolled that stands at 2 or less
   rolls one more die, subtracted from the total and never kept, dropped or counted,
3. keep/drop (``kh kl dh dl``) over every die standing,
4. count successes (``>=5`` ...) and failures (``f1``) among the kept dice;
   mark kept dice critical (``cs``, ``cf``, or a lone ``d20``'s 20 and 1 by default).

The nodes and the parts of modifiers (:class:`Condition`, :class:`Keep`,
:class:`Reroll`, :class:`Unique`, :class:`Explode`) are :func:`dicecli.frozen.frozen`
classes. Game systems add their own node types
(subclasses of :class:`Check`) in their packages.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re as _re
import sys
from typing import TYPE_CHECKING, ClassVar, Literal, NoReturn, TypeAlias

from dicecli.frozen import field, frozen
from dicecli.notation.sides import DieName, FaceList

if sys.version_info >= (3, 11):
    from typing import assert_never
else:  # pragma: no cover - Python 3.10

    def assert_never(arg: NoReturn, /) -> NoReturn:
        """typing's ``assert_never`` of 3.11 (typing_extensions' would import inspect,
        which a plain roll does not load)."""
        raise AssertionError(f"Expected code to be unreachable, but got: {arg!r}")


CompareOp = Literal["=", "<", "<=", ">", ">=", "<>"]
KeepKind = Literal["kh", "kl", "dh", "dl", "km"]
ExplodeKind = Literal["!", "!!", "!p", "!!p"]
BinaryOpSymbol = Literal["+", "-", "*", "/", "%", "//", "^"]
CheckOp = Literal[">=", "<=", ">", "<", "=", "!="]
FunctionName = Literal["floor", "ceil", "round", "abs", "min", "max"]
ROUNDING_FUNCTIONS: tuple[FunctionName, ...] = ("floor", "ceil", "round")
FUNCTION_NAMES: tuple[FunctionName, ...] = (*ROUNDING_FUNCTIONS, "abs", "min", "max")


if TYPE_CHECKING:
    from dicecli.notation.dice import FileDie

Sides: TypeAlias = 'int | Literal["%", "F", "F.1", "3"] | FaceList | DieName | FileDie'
"""What follows ``d`` in a dice term: a number, ``%``, ``F``, ``F.1``, the D3, custom
faces (:class:`FaceList`), or a die of a dice file (its name as typed, or the die once
looked up)."""


@frozen
class Condition:
    """A comparison against a die's face value: ``>=5``, ``<3``, ``=1``, ``<>3`` (any
    face but 3; typed ``!=3`` too where that cannot read as an explosion, see
    ``docs/grammar.md``, "Conditions")."""

    op: CompareOp
    value: int

    def matches(self, number: int) -> bool:
        op = self.op
        if op == "=":
            return number == self.value
        if op == ">=":
            return number >= self.value
        if op == "<>":
            return number != self.value
        if op == "<=":
            return number <= self.value
        if op == ">":
            return number > self.value
        return number < self.value

    def __str__(self) -> str:
        return f"{self.op}{self.value}"

    def bare(self) -> str:
        """Spelling after ``r``, ``!`` and ``f``, where ``=`` may be left out (but not
        before a negative number: ``r-1`` reads as a re-roll minus one)."""
        return str(self.value) if self.op == "=" and self.value >= 0 else str(self)


@frozen
class Keep:
    """Keep or drop the highest or lowest ``amount`` dice: ``kh3``, ``kl1``, ``dh1``,
    ``dl1``; or keep the middle ``amount`` (``km1``, as Dice Maiden writes it: of the
    dice left out, half from the bottom rounded down, the rest from the top).

    ``then``: the next keep or drop written on the same term (``4d6dl1kh3``), applied to
    the dice this one keeps, in the order written."""

    kind: KeepKind
    amount: int
    then: Keep | None = None

    def __str__(self) -> str:
        return f"{self.kind}{self.amount}{'' if self.then is None else self.then}"

    def followed_by(self, keep: Keep) -> Keep:
        """This keep with ``keep`` applied after the last of its chain."""
        then = keep if self.then is None else self.then.followed_by(keep)
        return Keep(self.kind, self.amount, then)


@frozen
class Reroll:
    """Re-roll a die while ``condition`` holds (``r1``), or once (``ro1``).

    ``lowest``: a bare ``r`` on a die of a dice file, whose faces are known only when
    the die is looked up; ``condition`` is then settled to its lowest face
    (:func:`dicecli.dicefiles.load.file_dice`), and the text stays bare.

    ``then``: another re-roll written on the same term (Roll20's ``2d8r1r3``, Dice
    Maiden's ``r1 ir1``). Together: a die is re-rolled while it meets the condition of
    any repeated one (``r``), and at most once more when it meets a once (``ro``)
    condition and no repeated one."""

    condition: Condition
    once: bool
    lowest: bool = False
    then: Reroll | None = None

    def __str__(self) -> str:
        text = f"{'ro' if self.once else 'r'}{'' if self.lowest else self.condition.bare()}"
        return text if self.then is None else text + str(self.then)

    def followed_by(self, reroll: Reroll) -> Reroll:
        """This re-roll with ``reroll`` written after the last of its chain."""
        then = reroll if self.then is None else self.then.followed_by(reroll)
        return Reroll(self.condition, self.once, self.lowest, then)

    def conditions(self, once: bool) -> tuple[Condition, ...]:
        """The conditions of the re-rolls of the chain that are once (or repeated)."""
        found: list[Condition] = []
        step: Reroll | None = self
        while step is not None:
            if step.once == once:
                found.append(step.condition)
            step = step.then
        return tuple(found)

    def repeats(self, value: int) -> bool:
        """Whether a die showing ``value`` is re-rolled by a repeated re-roll."""
        return any(condition.matches(value) for condition in self.conditions(False))

    def once_only(self, value: int) -> bool:
        """Whether a die showing ``value`` is re-rolled once and no more: a once
        condition holds and no repeated one does."""
        once = any(condition.matches(value) for condition in self.conditions(True))
        return once and not self.repeats(value)


@frozen
class Unique:
    """Re-roll a die showing a value an earlier die of the term shows: until it is
    unique (``u``) or once (``uo``); with a condition (``u=5``, ``u>4``), only a
    duplicate meeting it is re-rolled."""

    condition: Condition | None
    once: bool

    def __str__(self) -> str:
        return ("uo" if self.once else "u") + (self.condition.bare() if self.condition else "")


@frozen
class Explode:
    """Roll another die on ``condition``: ``!`` adds it, ``!!`` compounds it, ``!p``
    penetrates (the added die is worth one less), ``!!p`` does both.

    ``once``: the added die never explodes in turn (``!o``; Foundry VTT's ``xo``)."""

    kind: ExplodeKind
    condition: Condition | None  # None: the die's highest face
    once: bool = False

    def __str__(self) -> str:
        return (
            self.kind
            + ("o" if self.once else "")
            + (self.condition.bare() if self.condition else "")
        )


@frozen
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
    unique: Unique | None = None  # u, uo: re-roll duplicates (after r/ro)
    clamp_low: int | None = None  # min3: a die worth less is worth 3
    clamp_high: int | None = None  # max6: a die worth more is worth 6
    implode: int | None = None  # i2: a die first standing at 2 or less subtracts a die

    def __str__(self) -> str:
        if self is NO_MODIFIERS:  # most dice terms, as the readers build them
            return ""
        # In the order applied, except that a bare "!" followed by a success condition
        # goes last: "!>=5" would read as the explosion's own condition.
        explode, unique = self.explode, self.unique
        bare_before_success = explode is not None and not explode.condition and self.success
        first = None if bare_before_success else explode
        # Likewise a bare "u": "u>=5" would read as the unique dice's own condition.
        bare_unique = unique is not None and not unique.condition and self.success
        parts = [self.reroll, None if bare_unique else unique, first]
        text = "".join(str(part) for part in parts if part is not None)
        if self.implode is not None:
            text += f"i{self.implode}"
        if self.clamp_low is not None or self.clamp_high is not None:
            text += self._clamps()
        text += "".join(str(part) for part in (self.keep, self.success) if part is not None)
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
        if bare_unique:
            text += str(unique)
        return text

    def _clamps(self) -> str:
        low = "" if self.clamp_low is None else f"min{self.clamp_low}"
        return low + ("" if self.clamp_high is None else f"max{self.clamp_high}")

    @property
    def clamps(self) -> bool:
        return self.clamp_low is not None or self.clamp_high is not None

    def clamped(self, value: int) -> int:
        """``value`` within the clamps (``min3``, ``max6``)."""
        low, high = self.clamp_low, self.clamp_high
        if low is not None and value < low:
            return low
        if high is not None and value > high:
            return high
        return value

    @property
    def counts_successes(self) -> bool:
        return self.success is not None or self.failure is not None


NO_MODIFIERS = Modifiers()


class ExprNode:
    """Base of the expression nodes: how tightly a node binds when written (9: an atom)."""

    precedence: ClassVar[int] = 9


@frozen
class Number(ExprNode):
    """An integer constant: ``5``."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@frozen
class Dice(ExprNode):
    """``NdS`` with its modifiers. ``sides`` is a number, ``"%"``, ``"F"``, ``"3"``
    (the D3 of rule N4: a D6 halved, rounded up) or a :class:`FaceList` (``d{-1,0,1}``)."""

    count: int
    sides: Sides
    modifiers: Modifiers = NO_MODIFIERS

    def __post_init__(self) -> None:
        if self.sides == 3:  # a three-sided die is always the D3 of rule N4
            object.__setattr__(self, "sides", "3")

    def __str__(self) -> str:
        sides = self.sides
        if type(sides) is int and self.modifiers is NO_MODIFIERS:  # most terms: 17d743
            return f"d{sides}" if self.count == 1 else f"{self.count}d{sides}"
        # A die name in lower case reads as a die only after a count (1dability): without
        # it, dability would be a name.
        lower_name = isinstance(sides, DieName) and not sides.name[:1].isupper()
        count = "" if self.count == 1 and not lower_name else str(self.count)
        if not isinstance(sides, (int, str)) and self.modifiers != NO_MODIFIERS:
            return f"{count}d{sides} {self.modifiers}"  # a name would run into them
        return f"{count}d{sides}{self.modifiers}"


@frozen
class ComputedDice(ExprNode):
    """Dice whose count or sides are worked out when rolled: ``(1+2)d6``, ``(STR)d6``,
    ``(2d4)d6`` (roll a count, then that many dice), ``d(2*3)``.

    A literal count or size is a :class:`Number`; at least one of the two is not (the
    parser makes ``(3)d6`` a plain :class:`Dice`). ``sides`` may be ``"%"``, ``"F"`` or
    a :class:`FaceList` (``(1d4)d{0,1}``).
    """

    count: Expr
    sides: Expr | Literal["%", "F"] | FaceList
    modifiers: Modifiers = NO_MODIFIERS

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


@frozen
class Group(ExprNode):
    """``{2d6, 1d8}kh1``: each item is one value; modifiers act on the items."""

    items: tuple[Expr, ...]
    modifiers: Modifiers = NO_MODIFIERS

    def __str__(self) -> str:
        return "{" + ", ".join(str(item) for item in self.items) + "}" + str(self.modifiers)


@frozen
class Name(ExprNode):
    """A named value (``STR``) or saved roll (``attack``), resolved when rolled."""

    name: str
    position: int = field(default=-1, compare=False)

    def __str__(self) -> str:
        return self.name


@frozen
class Labelled(ExprNode):
    """``2d6[fire]``: a term with a label shown beside its dice."""

    expr: Expr
    label: str

    def __str__(self) -> str:
        inner = f"({self.expr})" if isinstance(self.expr, Labelled) else _wrap(self.expr, 9)
        return f"{inner}[{self.label}]"


@frozen
class Negate(ExprNode):
    """Unary minus: ``-d6``."""

    operand: Expr
    precedence: ClassVar[int] = 7

    def __str__(self) -> str:
        return f"-{_wrap(self.operand, 8)}"


@frozen
class PercentOf(ExprNode):
    """``10% of 51``: the percentage of a value, rounded up (rule N3)."""

    percent: int
    operand: Expr
    precedence: ClassVar[int] = 7

    def __str__(self) -> str:
        return f"{self.percent}% of {_wrap(self.operand, 7)}"


@frozen
class Call(ExprNode):
    """A function of expressions: ``floor(2d6 / 2)``, ``max(d20, d20)``, ``abs(d6 - d6)``.

    A division (or ``N% of``) that is the whole argument of ``floor``, ``ceil`` or
    ``round`` is exact, and the function rounds it; everywhere else ``/`` rounds up
    (rule N3).
    """

    function: FunctionName
    args: tuple[Expr, ...]

    def __str__(self) -> str:
        return f"{self.function}({', '.join(str(arg) for arg in self.args)})"


FLOOR_DIVISOR_START = (
    r"[ \t]*(?:[\d(\-{]|\u2212|[dD][\d%({fF]|(?i:floor|ceil|round|abs|min|max)\s*\()"
)
"""What may follow ``//`` for it to divide (d20's ``60 // 1d6``): a number, a bracket,
a sign, dice, a function. Anything else (a word) makes ``//`` a comment (RPG Dice
Roller's ``3d6 // fire``), so a divisor starting otherwise is written in brackets."""

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "//": 2, "^": 8}
POWER_LEVEL = 8
"""How tightly ``^`` binds: more than a sign (7), less than an atom (9)."""


@frozen
class BinaryOp(ExprNode):
    """Left-associative arithmetic. ``/`` rounds up (rule N3); ``%`` is the remainder
    of the division rounded down (Python's and d20's: ``-7 % 3`` is 2); ``//`` divides
    rounding down (d20's floor division). ``^`` is a power (``**`` in Roll20): it binds
    tighter than a sign and groups to the right, as in arithmetic (``-2^2`` is -4,
    ``2^3^2`` is 2^9)."""

    op: BinaryOpSymbol
    left: Expr
    right: Expr

    @property
    def level(self) -> int:
        return _PRECEDENCE[self.op]

    # Equality and hashing walk the chain of left operands (``1+1+...+1``, up to
    # MAX_TERMS long) in a loop: the generic ones recurse through C, which Python 3.12
    # limits below a line of 1,000 flat terms (docs/limits.md).
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine: object = self
        theirs: object = other
        while isinstance(mine, BinaryOp) and isinstance(theirs, BinaryOp):
            if mine is theirs:
                return True
            if mine.op != theirs.op or mine.right != theirs.right:
                return False
            mine, theirs = mine.left, theirs.left
        return mine == theirs

    def __hash__(self) -> int:
        parts: list[object] = []
        node: Expr = self
        while isinstance(node, BinaryOp):
            parts += (node.op, node.right)
            node = node.left
        parts.append(node)
        return hash(tuple(parts))

    def __str__(self) -> str:
        level = self.level
        if level == POWER_LEVEL:  # the base an atom, the exponent any signed value
            return f"{_wrap(self.left, level + 1)}^{_wrap(self.right, Negate.precedence)}"
        # 7 % 3: 7%3 looks like a percentage; 60 // 2: 60//2 like a comment
        spaced = level == 1 or self.op in ("%", "//")
        symbol = f" {self.op} " if spaced else self.op
        right = _wrap(self.right, level + 1)
        if self.op == "//" and not _re.match(FLOOR_DIVISOR_START, right):
            right = f"({right})"  # 60 // (STR): before a word, // is a comment
        return f"{_wrap(self.left, level)}{symbol}{right}"


Expr = Number | Dice | ComputedDice | Group | Name | Labelled | Negate | PercentOf | BinaryOp | Call
"""Every expression node: walkers ``match`` on it and end in :func:`assert_never`, so
mypy reports any walker a new node type would break."""


def binding(expr: Expr) -> int:
    """How tightly ``expr`` binds: 1 for ``+ -``, 2 for ``* /``, 7 unary, 9 atoms."""
    return expr.level if isinstance(expr, BinaryOp) else expr.precedence


def _wrap(expr: Expr, at_least: int) -> str:
    """``expr`` as text, in parentheses when it binds less tightly than ``at_least``.

    ``__str__`` is called directly: ``str()`` and f-strings go through C, and Python 3.12
    limits C recursion far below :data:`dicecli.limits.RECURSION_LIMIT`, which a line of
    1,000 flat terms needs (docs/limits.md)."""
    text = expr.__str__()
    return text if binding(expr) >= at_least else f"({text})"


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


@frozen
class Comparison:
    """A check on any expression: ``d20 + 5 >= 15``, ``3d6 <= 11``, ``d20 vs 15``.

    ``vs`` (meets or beats) is read as ``>=``. Written with spaces around the
    comparison, so that it never reads as a success condition on dice (``d6>=5``).
    """

    left: Expr
    op: CheckOp
    right: Expr

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@frozen
class Roll:
    """One line typed by the user: an expression, a check on one, or a game check, and
    a comment."""

    body: Expr | Comparison | Check
    comment: str | None = None

    def __str__(self) -> str:
        text = str(self.body)
        return f"{text} # {self.comment}" if self.comment else text


__all__ = ["assert_never"]  # re-exported for the walkers: every match over nodes ends in it
