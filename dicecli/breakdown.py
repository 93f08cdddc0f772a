"""The breakdown of a roll: its result tree (:mod:`dicecli.result_tree`) as segments.

``[4, 3] + 5``, ``{[6, 2] (=8), ~5~}`` and ``(STR(3))d6 → 3d6 [4, 1, 6]`` are each a
rendering of the tree a roll built: text with a role (:class:`~dicecli.results.Text`)
and groups of dice (:class:`~dicecli.results.DiceShown`). The renderers (terminal,
plain) decide how each role looks; this module decides only what is said and in what
order. A pure function of the tree, as d20's stringifiers are of its results.
"""

from __future__ import annotations

from functools import lru_cache

from dicecli.notation.nodes import assert_never
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
    Parenthesised,
    Percentage,
    Pooled,
    Rolled,
    RolledDice,
    SavedRoll,
)
from dicecli.results import DiceShown, DieRoll, Segment, Text

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
    if isinstance(node, RolledDice):
        if node.tally is None and node.order is None:
            return (node.shown,)  # a lone term (d20, 3d6): nothing else to say
    elif isinstance(node, Arithmetic):  # the usual 2d6 + 5, without a call per part
        left, right = node.left, node.right
        if (
            isinstance(right, Constant)
            and isinstance(left, RolledDice)
            and left.tally is None
            and left.order is None  # _plain, and number_text's look-up, without a call
        ):
            number = _NUMBER_TEXTS.get(right.value) or number_text(right.value)
            return (left.shown, _OPERATORS[node.op], number)
    segments: list[Segment] = []
    render(node, segments)
    return tuple(segments)


def render(node: Rolled, segments: list[Segment]) -> None:
    """Add the segments of ``node`` to ``segments``."""
    match node:
        case RolledDice():
            _dice(node, segments)
        case Arithmetic():
            left, right = node.left, node.right
            if isinstance(left, RolledDice) and _plain(left):
                segments.append(left.shown)  # the usual 2d6 + 5: no calls
            else:
                render(left, segments)
            segments.append(_OPERATORS[node.op])
            if isinstance(right, Constant):
                segments.append(number_text(right.value))
            else:
                render(right, segments)
        case Constant():
            segments.append(number_text(node.value))
        case Parenthesised():
            segments.append(OPEN)
            render(node.inner, segments)
            segments.append(CLOSE)
        case Negated():
            segments.append(_MINUS)
            render(node.operand, segments)
        case Percentage():
            segments.append(Text(f"{node.percent}% of ", "op"))
            render(node.operand, segments)
            if node.value_shown:
                segments.append(_value_text(node.value))
        case Called():
            _called(node, segments)
        case ComputedDice():
            _computed(node, segments)
        case Labelled():
            render(node.inner, segments)
            segments.append(Text(f"[{node.label}]", "label"))
        case NamedNumber():
            segments.append(Text(f"{node.name}({node.value})", "label"))
        case SavedRoll():
            segments.append(Text(f"{node.name}:", "label"))
            segments.append(OPEN)
            render(node.inner, segments)
            segments.append(CLOSE)
        case Group():
            _group(node, segments)
        case Pooled():
            segments.append(_GROUP_OPEN)
            render(node.item, segments)
            if node.tally is None:
                segments.append(_value_text(node.value))
            segments.append(_GROUP_CLOSE)
            if node.tally is not None:
                segments.append(tally_text(*node.tally))
        case Compared():
            render(node.left, segments)
            if node.target is not None:
                segments.append(_VS)
                render(node.target, segments)
                segments.append(Text(f" (={node.target.value})", "target"))
        case _:
            assert_never(node)


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


def _called(node: Called, segments: list[Segment]) -> None:
    segments.append(Text(f"{node.function}(", "op"))
    for index, arg in enumerate(node.args):
        if index:
            segments.append(_COMMA)
        render(arg, segments)
    segments.append(CLOSE)
    if node.value_shown:
        segments.append(_value_text(node.value))


def _computed(node: ComputedDice, segments: list[Segment]) -> None:
    """``(STR(3))d6 → 3d6 [4, 1, 6]``: the count and size as typed or rolled, the
    term they came to, and its dice."""
    count, sides = node.count, node.sides
    if isinstance(count, Constant):
        segments.append(Text("" if count.value == 1 else str(count.value), "op"))
    else:
        render(count, segments)
    if isinstance(sides, str):
        segments.append(Text(f"d{sides}", "op"))
    elif isinstance(sides, Constant):
        segments.append(Text(f"d{sides.value}", "op"))
    else:
        segments.append(_D)
        render(sides, segments)
    term = node.term
    segments.append(Text(f" \N{RIGHTWARDS ARROW} {term.count}d{term.sides} ", "value"))
    render(node.dice, segments)


def _group(node: Group, segments: list[Segment]) -> None:
    """``{[6, 2] (=8), ~5~}``: each item with its value, a dropped item's value and
    dice shown as not counting, then the tally of a group counting successes."""
    segments.append(_GROUP_OPEN)
    places = list(range(len(node.items)))
    if node.order is not None:  # {4d6, 2d10}s: the items by value, in roll order if equal
        values = [item.value for item in node.items]
        places.sort(key=values.__getitem__, reverse=node.order == "descending")
    for shown, index in enumerate(places):
        item = node.items[index]
        if shown:
            segments.append(_COMMA)
        kept = node.kept[index]
        if isinstance(item, Constant):  # the number is its value: no "(=5)"
            segments.append(number_text(item.value) if kept else _dropped_text(str(item.value)))
            continue
        render(item, segments)
        value = f" (={item.value})"
        segments.append(Text(value, "value") if kept else _dropped_text(value))
    segments.append(_GROUP_CLOSE)
    if node.tally is not None:
        segments.append(tally_text(*node.tally))


def _dropped_text(text: str) -> Text:
    return Text(text, "dropped")


def _value_text(value: int) -> Text:
    return Text(f" (={value})", "value")


_NUMBER_TEXTS: dict[int, Text] = {}


def number_text(value: int) -> Text:
    """A number typed in the expression, as a segment (the usual ones made once)."""
    text = _NUMBER_TEXTS.get(value)
    if text is None:
        text = Text(str(value), "number")
        if len(_NUMBER_TEXTS) < 1024:
            _NUMBER_TEXTS[value] = text
    return text


@lru_cache(maxsize=1024)
def tally_text(successes: int, failures: int) -> Text:
    """`` (3 successes, 1 failure)``: what a counted total is made of."""
    text = f" ({successes} success{'' if successes == 1 else 'es'}"
    if failures:
        text += f", {failures} failure{'' if failures == 1 else 's'}"
    return Text(text + ")", "value")
