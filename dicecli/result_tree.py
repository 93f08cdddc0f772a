"""What each part of an expression rolled: the result tree of one roll.

Rolling an expression (:mod:`dicecli.rolling.evaluate`) builds one node per part of it,
each with its value: the dice of a term as they landed and were marked, the two sides
of a sum, a group's items and which of them count. The tree is the roll's whole story;
what a player reads of it (the breakdown, ``[4, 3] + 5``) is a rendering of it,
:func:`dicecli.breakdown.breakdown`, and the dice of the result, in roll order,
are :func:`dice_in` it. A part changed after it was rolled (dice dropped by a group's
keep/drop, marked critical, counted) is a new node, never an edit of the old one.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeVar

from dicecli.frozen import frozen
from dicecli.results import DiceShown, DieRoll, NumberedDice

if TYPE_CHECKING:
    from dicecli.notation.nodes import BinaryOpSymbol, Dice, FunctionName


Order = Literal["ascending", "descending"]
"""How a sorted dice term shows its dice (``s``/``sa``, ``sd``)."""


@frozen
class Constant:
    """A number typed in the expression: ``5``."""

    value: int


@frozen
class RolledDice:
    """A dice term as rolled: its dice in roll order with their marks, discarded ones
    included; ``tally`` (successes, failures) when it counts successes (its value is
    then successes minus failures); ``order`` when it is shown sorted (``s``, ``sd``)."""

    value: int
    shown: DiceShown
    tally: tuple[int, int] | None = None
    order: Order | None = None


@frozen
class Arithmetic:
    """``left op right``: ``2d6 + 5``, ``(1d4+1) * 2``."""

    left: Rolled
    op: BinaryOpSymbol
    right: Rolled
    value: int


@frozen
class Parenthesised:
    """A part written in parentheses (it binds less tightly than where it stands)."""

    inner: Rolled
    value: int


@frozen
class Negated:
    """``-operand``."""

    operand: Rolled
    value: int


@frozen
class Percentage:
    """``N% of operand``; ``value_shown`` is False inside a rounding function (which
    shows the rounded value itself)."""

    percent: int
    operand: Rolled
    value: int
    value_shown: bool = True


@frozen
class Called:
    """``floor(...)``, ``max(..., ...)``: the arguments as rolled, then the value
    (shown unless a rounding function holds only its argument: ``floor(7/2)``)."""

    function: FunctionName
    args: tuple[Rolled, ...]
    value: int
    value_shown: bool


@frozen
class ComputedDice:
    """A dice term whose count or size is rolled: ``(1d4)d6``. ``count`` and ``sides``
    are a :class:`Constant` (or a word such as ``F``) when typed as such, else
    :class:`Parenthesised`; ``term`` is the dice term they came to, ``dice`` its roll."""

    count: Rolled
    sides: Rolled | str
    term: Dice
    dice: Rolled
    value: int


@frozen
class Labelled:
    """A part with a label after it: ``2d6[fire]``."""

    inner: Rolled
    label: str
    value: int


@frozen
class NamedNumber:
    """A name standing for a number: ``STR`` worth 3."""

    name: str
    value: int


@frozen
class SavedRoll:
    """A name standing for a saved roll, rolled where it stands: ``attack: (d20 + 5)``."""

    name: str
    inner: Rolled
    value: int


@frozen
class Group:
    """``{a, b, c}`` with keep/drop over its items: each item's roll and whether it
    counts; ``tally`` (successes, failures) when the group counts successes; ``order``
    when it is shown sorted (``{4d6, 2d10}s``: the items by value, and the dice in
    each), the items staying in roll order."""

    items: tuple[Rolled, ...]
    kept: tuple[bool, ...]
    value: int
    tally: tuple[int, int] | None = None
    order: Order | None = None


@frozen
class Pooled:
    """A group of one item of dice added together, keep/drop picking among its dice
    one by one: ``{4d6+3d8}k4``; ``tally`` as for :class:`Group`."""

    item: Rolled
    value: int
    tally: tuple[int, int] | None = None
    order: Order | None = None


@frozen
class Compared:
    """A check on an expression, ``d20 + 5 >= 15``: the left side's roll, and the
    target's when it is more than a number (``d20 >= 2d6``)."""

    left: Rolled
    target: Rolled | None
    value: int


Rolled: TypeAlias = (
    RolledDice
    | Constant
    | Arithmetic
    | Parenthesised
    | Negated
    | Percentage
    | Called
    | ComputedDice
    | Labelled
    | NamedNumber
    | SavedRoll
    | Group
    | Pooled
    | Compared
)
"""A node of the result tree."""

Handler = TypeVar("Handler")


class NodeTable(dict[type, Handler], Generic[Handler]):
    """A handler for each class of the result tree, looked up by a node's exact class
    (``table[type(node)]``): one look-up, where a ``match`` would try each class in
    turn. A subclass of a node's class (a game's own) is handled as its class is, as a
    ``match`` would; any other class is an error, as an unmatched case is."""

    def __missing__(self, kind: type) -> Handler:
        for base in kind.__mro__[1:]:
            handler = self.get(base)
            if handler is not None:
                return handler
        raise AssertionError(f"not a node of the result tree: {kind.__qualname__}")


def numbers_alone(node: Rolled) -> NumberedDice | None:
    """The dice of ``node`` when they are all those of one term of computed faces
    (:class:`~dicecli.results.NumberedDice`): the term alone, or with numbers put to it
    (``17d743 + 12``, ``(17d743 + 12) * 2``); else None."""
    while True:
        if type(node) is Arithmetic and type(node.right) is Constant:
            node = node.left
        elif type(node) is Parenthesised:
            node = node.inner
        else:
            break
    if type(node) is RolledDice and type(node.shown) is NumberedDice:
        return node.shown
    return None


def dice_in(node: Rolled) -> tuple[DieRoll, ...]:
    """Every die rolled under ``node``, in roll order."""
    if type(node) is RolledDice:  # a lone term (d20, 3d6): its dice as they are
        return node.shown.dice
    if type(node) is Arithmetic:
        left, right = node.left, node.right
        if type(right) is Constant and type(left) is RolledDice:
            return left.shown.dice  # the usual 2d6 + 5
    found: list[DieRoll] = []
    _COLLECTORS[type(node)](node, found)
    return tuple(found)


# Each collector below adds the dice under one class of node; it walks a part by
# calling that part's collector from the table itself (``_COLLECTORS[type(part)]``):
# one call per node.


def _collect_dice(node: RolledDice, found: list[DieRoll]) -> None:
    found.extend(node.shown.dice)


def _collect_nothing(node: Constant | NamedNumber, found: list[DieRoll]) -> None:
    pass


def _collect_arithmetic(node: Arithmetic, found: list[DieRoll]) -> None:
    left, right = node.left, node.right
    if type(left) is RolledDice:  # 1d8 + 1d6 + 3: no call per term
        found.extend(left.shown.dice)
    else:
        _COLLECTORS[type(left)](left, found)
    if type(right) is RolledDice:
        found.extend(right.shown.dice)
    elif type(right) is not Constant:
        _COLLECTORS[type(right)](right, found)


def _collect_inner(node: Parenthesised | Labelled | SavedRoll, found: list[DieRoll]) -> None:
    inner = node.inner
    _COLLECTORS[type(inner)](inner, found)


def _collect_operand(node: Negated | Percentage, found: list[DieRoll]) -> None:
    operand = node.operand
    _COLLECTORS[type(operand)](operand, found)


def _collect_args(node: Called, found: list[DieRoll]) -> None:
    for arg in node.args:
        _COLLECTORS[type(arg)](arg, found)


def _collect_computed(node: ComputedDice, found: list[DieRoll]) -> None:
    count, sides, dice = node.count, node.sides, node.dice
    _COLLECTORS[type(count)](count, found)
    if not isinstance(sides, str):
        _COLLECTORS[type(sides)](sides, found)
    _COLLECTORS[type(dice)](dice, found)


def _collect_items(node: Group, found: list[DieRoll]) -> None:
    for item in node.items:
        _COLLECTORS[type(item)](item, found)


def _collect_item(node: Pooled, found: list[DieRoll]) -> None:
    item = node.item
    _COLLECTORS[type(item)](item, found)


def _collect_compared(node: Compared, found: list[DieRoll]) -> None:
    left, target = node.left, node.target
    _COLLECTORS[type(left)](left, found)
    if target is not None:
        _COLLECTORS[type(target)](target, found)


_COLLECTORS: NodeTable[Callable[[Any, list[DieRoll]], None]] = NodeTable(
    {
        RolledDice: _collect_dice,
        Constant: _collect_nothing,
        NamedNumber: _collect_nothing,
        Arithmetic: _collect_arithmetic,
        Parenthesised: _collect_inner,
        Labelled: _collect_inner,
        SavedRoll: _collect_inner,
        Negated: _collect_operand,
        Percentage: _collect_operand,
        Called: _collect_args,
        ComputedDice: _collect_computed,
        Group: _collect_items,
        Pooled: _collect_item,
        Compared: _collect_compared,
    }
)


Change: TypeAlias = Callable[[DieRoll], DieRoll]


def with_dice(node: Rolled, change: Change, order: Order | None = None) -> Rolled:
    """``node`` with every die under it changed by ``change``, called in roll order;
    with ``order``, every dice term under it shown sorted so (a sorted group)."""
    return _REBUILDERS[type(node)](node, change, order)


def _dice_with(node: RolledDice, change: Change, order: Order | None) -> Rolled:
    return RolledDice(
        node.value,
        DiceShown(tuple([change(die) for die in node.shown.dice])),
        node.tally,
        node.order if order is None else order,
    )


def _unchanged(node: Constant | NamedNumber, change: Change, order: Order | None) -> Rolled:
    return node


def _arithmetic_with(node: Arithmetic, change: Change, order: Order | None) -> Rolled:
    left = with_dice(node.left, change, order)
    return Arithmetic(left, node.op, with_dice(node.right, change, order), node.value)


def _parenthesised_with(node: Parenthesised, change: Change, order: Order | None) -> Rolled:
    return Parenthesised(with_dice(node.inner, change, order), node.value)


def _labelled_with(node: Labelled, change: Change, order: Order | None) -> Rolled:
    return Labelled(with_dice(node.inner, change, order), node.label, node.value)


def _saved_roll_with(node: SavedRoll, change: Change, order: Order | None) -> Rolled:
    return SavedRoll(node.name, with_dice(node.inner, change, order), node.value)


def _negated_with(node: Negated, change: Change, order: Order | None) -> Rolled:
    return Negated(with_dice(node.operand, change, order), node.value)


def _percentage_with(node: Percentage, change: Change, order: Order | None) -> Rolled:
    operand = with_dice(node.operand, change, order)
    return Percentage(node.percent, operand, node.value, node.value_shown)


def _called_with(node: Called, change: Change, order: Order | None) -> Rolled:
    args = tuple([with_dice(arg, change, order) for arg in node.args])
    return Called(node.function, args, node.value, node.value_shown)


def _computed_with(node: ComputedDice, change: Change, order: Order | None) -> Rolled:
    count = with_dice(node.count, change, order)
    sides = node.sides if isinstance(node.sides, str) else with_dice(node.sides, change, order)
    dice = with_dice(node.dice, change, order)
    return ComputedDice(count, sides, node.term, dice, node.value)


def _group_with(node: Group, change: Change, order: Order | None) -> Rolled:
    items = tuple([with_dice(item, change, order) for item in node.items])
    return Group(items, node.kept, node.value, node.tally, order or node.order)


def _pooled_with(node: Pooled, change: Change, order: Order | None) -> Rolled:
    item = with_dice(node.item, change, order)
    return Pooled(item, node.value, node.tally, order or node.order)


def _compared_with(node: Compared, change: Change, order: Order | None) -> Rolled:
    left = with_dice(node.left, change, order)
    target = None if node.target is None else with_dice(node.target, change, order)
    return Compared(left, target, node.value)


_REBUILDERS: NodeTable[Callable[[Any, Change, Order | None], Rolled]] = NodeTable(
    {
        RolledDice: _dice_with,
        Constant: _unchanged,
        NamedNumber: _unchanged,
        Arithmetic: _arithmetic_with,
        Parenthesised: _parenthesised_with,
        Labelled: _labelled_with,
        SavedRoll: _saved_roll_with,
        Negated: _negated_with,
        Percentage: _percentage_with,
        Called: _called_with,
        ComputedDice: _computed_with,
        Group: _group_with,
        Pooled: _pooled_with,
        Compared: _compared_with,
    }
)


def replaced_in_order(dice: Iterable[DieRoll]) -> Change:
    """A change for :func:`with_dice` that puts ``dice`` in place of the dice it meets,
    one by one."""
    remaining: Iterator[DieRoll] = iter(dice)
    return lambda _: next(remaining)
