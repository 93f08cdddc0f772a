"""The breakdown of a roll: its result tree (:mod:`dicecli.result_tree`) as segments.

``[4, 3] + 5``, ``{[6, 2] (=8), ~5~}`` and ``(STR(3))d6 → 3d6 [4, 1, 6]`` are each a
rendering of the tree a roll built: text with a role (:class:`~dicecli.results.Text`)
and groups of dice (:class:`~dicecli.results.DiceShown`). The renderers (terminal,
plain) decide how each role looks; this module decides only what is said and in what
order. A pure function of the tree, as d20's stringifiers are of its results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from dicecli.result_tree import (
    Arithmetic,
    Called,
    Compared,
    ComputedDice,
    Constant,
    Group,
    Labelled,
    NamedNumber,
    Negated,
    NodeTable,
    Parenthesised,
    Percentage,
    Pooled,
    Rolled,
    RolledDice,
    SavedRoll,
)
from dicecli.results import DiceShown, DieRoll, Role, Segment, Text

OPEN, CLOSE = Text("(", "op"), Text(")", "op")
_OPERATORS = {
    op: Text(f" {op} " if op in ("+", "-", "%", "//") else op, "op")
    for op in ("+", "-", "*", "/", "%", "//", "^")
}
_MINUS = Text("-", "op")
_COMMA = Text(", ", "op")
_GROUP_OPEN, _GROUP_CLOSE = Text("{", "op"), Text("}", "op")
_VS = Text(" vs ", "op")
_D = Text("d", "op")


def breakdown(node: Rolled) -> tuple[Segment, ...]:
    """What a player reads of the roll ``node``, as segments."""
    if type(node) is RolledDice:
        if node.order is None:  # a lone term: its dice, and its tally when it counts
            if node.tally is None:
                return (node.shown,)  # d20, 3d6: nothing else to say
            return (node.shown, tally_text(*node.tally))  # 6d6>4
    elif type(node) is Arithmetic:  # the usual 2d6 + 5, without a call per part
        left, right = node.left, node.right
        if (
            type(right) is Constant
            and type(left) is RolledDice
            and left.tally is None
            and left.order is None  # _plain, without a call
        ):
            return (left.shown, _OPERATORS[node.op], number_text(right.value))
    segments: list[Segment] = []
    _RENDERERS[type(node)](node, segments)
    return tuple(segments)


def render(node: Rolled, segments: list[Segment]) -> None:
    """Add the segments of ``node`` to ``segments``."""
    _RENDERERS[type(node)](node, segments)


# Each renderer below adds the segments of one class of node; it renders a part by
# calling that part's renderer from the table itself (``_RENDERERS[type(part)]``):
# one call per node, where going through ``render`` would make two.


def _plain(node: RolledDice) -> bool:
    """Whether a dice term shows its dice alone, as rolled (no tally, not sorted)."""
    return node.tally is None and node.order is None


def _dice(node: RolledDice, segments: list[Segment]) -> None:
    """A dice term: its dice (sorted by value when it says so), then its tally."""
    if node.order is None:
        segments.append(node.shown)
    else:
        ordered = sorted(node.shown.dice, key=_worth, reverse=node.order == "descending")
        segments.append(DiceShown(tuple(ordered)))
    if node.tally is not None:
        segments.append(tally_text(*node.tally))


def _worth(die: DieRoll) -> int:
    return die.value if die.value is not None else 0


def _arithmetic(node: Arithmetic, segments: list[Segment]) -> None:
    left, right = node.left, node.right
    if type(left) is RolledDice and _plain(left):
        segments.append(left.shown)  # the usual 2d6 + 5: no calls
    else:
        _RENDERERS[type(left)](left, segments)
    segments.append(_OPERATORS[node.op])
    if type(right) is Constant:
        segments.append(number_text(right.value))
    else:
        _RENDERERS[type(right)](right, segments)


def _constant(node: Constant, segments: list[Segment]) -> None:
    segments.append(number_text(node.value))


def _parenthesised(node: Parenthesised, segments: list[Segment]) -> None:
    segments.append(OPEN)
    inner = node.inner
    _RENDERERS[type(inner)](inner, segments)
    segments.append(CLOSE)


def _negated(node: Negated, segments: list[Segment]) -> None:
    segments.append(_MINUS)
    operand = node.operand
    _RENDERERS[type(operand)](operand, segments)


def _percentage(node: Percentage, segments: list[Segment]) -> None:
    segments.append(_percent_text(node.percent))
    operand = node.operand
    _RENDERERS[type(operand)](operand, segments)
    if node.value_shown:
        segments.append(_value_text(node.value))


def _called(node: Called, segments: list[Segment]) -> None:
    segments.append(_function_text(node.function))
    for index, arg in enumerate(node.args):
        if index:
            segments.append(_COMMA)
        _RENDERERS[type(arg)](arg, segments)
    segments.append(CLOSE)
    if node.value_shown:
        segments.append(_value_text(node.value))


def _computed(node: ComputedDice, segments: list[Segment]) -> None:
    """``(STR(3))d6 → 3d6 [4, 1, 6]``: the count and size as typed or rolled, the
    term they came to, and its dice."""
    count, sides = node.count, node.sides
    if isinstance(count, Constant):
        segments.append(_count_text(count.value))
    else:
        _RENDERERS[type(count)](count, segments)
    if isinstance(sides, str):
        segments.append(_sides_text(sides))
    elif isinstance(sides, Constant):
        segments.append(_sides_text(sides.value))
    else:
        segments.append(_D)
        _RENDERERS[type(sides)](sides, segments)
    term, dice = node.term, node.dice
    segments.append(_term_text(term.count, term.sides))
    _RENDERERS[type(dice)](dice, segments)


def _labelled(node: Labelled, segments: list[Segment]) -> None:
    inner = node.inner
    _RENDERERS[type(inner)](inner, segments)
    segments.append(_label_text(node.label))


def _named_number(node: NamedNumber, segments: list[Segment]) -> None:
    segments.append(_named_number_text(node.name, node.value))


def _saved_roll(node: SavedRoll, segments: list[Segment]) -> None:
    segments.append(_saved_roll_text(node.name))
    segments.append(OPEN)
    inner = node.inner
    _RENDERERS[type(inner)](inner, segments)
    segments.append(CLOSE)


def _group(node: Group, segments: list[Segment]) -> None:
    """``{[6, 2] (=8), ~5~}``: each item with its value, a dropped item's value and
    dice shown as not counting, then the tally of a group counting successes."""
    segments.append(_GROUP_OPEN)
    items: Iterable[tuple[Rolled, bool]] = zip(node.items, node.kept, strict=True)
    if node.order is not None:  # {4d6, 2d10}s: the items by value, in roll order if equal
        items = sorted(items, key=_item_worth, reverse=node.order == "descending")
    for shown, (item, kept) in enumerate(items):
        if shown:
            segments.append(_COMMA)
        if type(item) is Constant:  # the number is its value: no "(=5)"
            segments.append(number_text(item.value) if kept else _dropped_number_text(item.value))
            continue
        _RENDERERS[type(item)](item, segments)
        segments.append(_value_text(item.value) if kept else _dropped_value_text(item.value))
    segments.append(_GROUP_CLOSE)
    if node.tally is not None:
        segments.append(tally_text(*node.tally))


def _item_worth(item_and_kept: tuple[Rolled, bool]) -> int:
    return item_and_kept[0].value


def _pooled(node: Pooled, segments: list[Segment]) -> None:
    segments.append(_GROUP_OPEN)
    item = node.item
    _RENDERERS[type(item)](item, segments)
    if node.tally is None:
        segments.append(_value_text(node.value))
    segments.append(_GROUP_CLOSE)
    if node.tally is not None:
        segments.append(tally_text(*node.tally))


def _compared(node: Compared, segments: list[Segment]) -> None:
    left, target = node.left, node.target
    _RENDERERS[type(left)](left, segments)
    if target is not None:
        segments.append(_VS)
        _RENDERERS[type(target)](target, segments)
        segments.append(_target_text(target.value))


_RENDERERS: NodeTable[Callable[[Any, list[Segment]], None]] = NodeTable(
    {
        RolledDice: _dice,
        Arithmetic: _arithmetic,
        Constant: _constant,
        Parenthesised: _parenthesised,
        Negated: _negated,
        Percentage: _percentage,
        Called: _called,
        ComputedDice: _computed,
        Labelled: _labelled,
        NamedNumber: _named_number,
        SavedRoll: _saved_roll,
        Group: _group,
        Pooled: _pooled,
        Compared: _compared,
    }
)


# The segments that depend only on a node's numbers and words, made once for the
# values met most recently (labels and names are the player's own: the caches are
# bounded, never growing with the lines read).

SHARED_SEGMENTS = 1024
"""Most segments each kind of text below keeps, for the values met most recently."""


def _segments_of(template: str, role: Role) -> Callable[..., Text]:
    """The segment of ``role`` whose text is ``template`` filled with the values it is
    called with (``" (={})"``: `` (=8)``), made once for each set of values kept."""

    @lru_cache(maxsize=SHARED_SEGMENTS)
    def segment(*values: object) -> Text:
        return Text(template.format(*values), role)

    return segment


number_text = _segments_of("{}", "number")
"""A number typed in the expression, as a segment."""
_value_text = _segments_of(" (={})", "value")
_dropped_value_text = _segments_of(" (={})", "dropped")
_dropped_number_text = _segments_of("{}", "dropped")
_target_text = _segments_of(" (={})", "target")
_percent_text = _segments_of("{}% of ", "op")
_label_text = _segments_of("[{}]", "label")
_named_number_text = _segments_of("{}({})", "label")
_saved_roll_text = _segments_of("{}:", "label")
_function_text = _segments_of("{}(", "op")
_sides_text = _segments_of("d{}", "op")
_term_text = _segments_of(" \N{RIGHTWARDS ARROW} {}d{} ", "value")
"""The dice term a computed count and size came to: `` → 3d6 ``."""


@lru_cache(maxsize=SHARED_SEGMENTS)
def _count_text(count: int) -> Text:
    """The count of a computed dice term typed as a number (none shown for one)."""
    return Text("" if count == 1 else str(count), "op")


@lru_cache(maxsize=SHARED_SEGMENTS)
def tally_text(successes: int, failures: int) -> Text:
    """`` (3 successes, 1 failure)``: what a counted total is made of."""
    text = f" ({successes} success{'' if successes == 1 else 'es'}"
    if failures:
        text += f", {failures} failure{'' if failures == 1 else 's'}"
    return Text(text + ")", "value")
