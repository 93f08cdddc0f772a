"""The result tree's walkers (dicecli/result_tree.py: ``dice_in``, ``with_dice``) and
its rendering (dicecli/breakdown.py): a handler for every class of node, looked up by
a node's class, and a tree holding every class walked and rendered in order."""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping

import pytest

import dicecli.breakdown
import dicecli.result_tree
from dicecli.breakdown import _RENDERERS, breakdown, render
from dicecli.frozen import frozen
from dicecli.notation.nodes import Dice
from dicecli.result_tree import (
    _COLLECTORS,
    _REBUILDERS,
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
    dice_in,
    with_dice,
)
from dicecli.results import DiceShown, DieRoll, Segment, Text

NODE_CLASSES = set(typing.get_args(Rolled))

TABLES: dict[str, Mapping[type, object]] = {
    "dice_in": _COLLECTORS,
    "with_dice": _REBUILDERS,
    "breakdown": _RENDERERS,
}


def test_every_class_of_the_module_is_a_node_of_the_union() -> None:
    module = dicecli.result_tree
    classes = {
        value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and value.__module__ == module.__name__
        and name[:1].isupper()
        and name != "NodeTable"
    }
    assert classes == NODE_CLASSES


@pytest.mark.parametrize("walker", TABLES)
def test_every_class_of_node_has_a_handler(walker: str) -> None:
    assert set(TABLES[walker]) == NODE_CLASSES


@frozen
class Stray:
    """A value of no class of the result tree."""

    value: int


@pytest.mark.parametrize(
    "walk",
    [
        breakdown,
        lambda node: render(node, []),
        dice_in,
        lambda node: with_dice(node, _marked),
        # inside a tree, under a node the fast paths do not take
        lambda node: breakdown(Parenthesised(node, 1)),
        lambda node: dice_in(Parenthesised(node, 1)),
        lambda node: with_dice(Parenthesised(node, 1), _marked),
    ],
)
def test_a_value_of_no_class_of_node_is_an_error(walk: Callable[[Rolled], object]) -> None:
    with pytest.raises(AssertionError, match="not a node of the result tree: Stray"):
        walk(Stray(1))  # type: ignore[arg-type]


@frozen
class OwnDice(RolledDice):
    """A game's own kind of dice term, as a plug-in might subclass one."""


def test_a_subclass_of_a_node_class_is_walked_as_its_class() -> None:
    die = DieRoll("d6", "4", 4)
    own = Arithmetic(OwnDice(4, DiceShown((die,))), "+", Constant(1), 5)
    assert dice_in(own) == (die,)
    assert breakdown(Parenthesised(own, 5))[1] == DiceShown((die,))
    assert dice_in(with_dice(own, _marked)) == (_marked(die),)


def test_every_cache_of_segments_is_bounded() -> None:
    # labels and names are the player's: an unbounded cache would grow with each line
    caches = [
        value for value in vars(dicecli.breakdown).values() if hasattr(value, "cache_parameters")
    ]
    assert len(caches) >= 10
    assert [cache for cache in caches if cache.cache_parameters()["maxsize"] is None] == []


def _die(die: str, face: int) -> DieRoll:
    return DieRoll(die, str(face), face)


def _dice(die: str, face: int) -> RolledDice:
    return RolledDice(face, DiceShown((_die(die, face),)))


def _marked(die: DieRoll) -> DieRoll:
    return die.marked("x")


# ``2d6[fire] + {(-d4), 50% of d8, 5}kh2 vs max(atk: ({d10}k1), STR, (d6)d5)``, by hand:
# one node of each class, each die a different face in roll order (1 to 6)
EVERY_CLASS = Compared(
    Arithmetic(
        Labelled(_dice("d6", 1), "fire", 1),
        "+",
        Group(
            (
                Parenthesised(Negated(_dice("d4", 2), -2), -2),
                Percentage(50, _dice("d8", 3), 1),
                Constant(5),
            ),
            (False, True, True),
            6,
        ),
        7,
    ),
    Called(
        "max",
        (
            SavedRoll("atk", Pooled(_dice("d10", 4), 4), 4),
            NamedNumber("STR", 3),
            ComputedDice(
                Constant(1), Parenthesised(_dice("d6", 5), 5), Dice(1, 5), _dice("d5", 6), 6
            ),
        ),
        6,
        True,
    ),
    7,
)


def test_a_tree_of_every_class_gives_its_dice_in_roll_order() -> None:
    assert [(die.die, die.value) for die in dice_in(EVERY_CLASS)] == [
        ("d6", 1),
        ("d4", 2),
        ("d8", 3),
        ("d10", 4),
        ("d6", 5),
        ("d5", 6),
    ]


def test_a_tree_of_every_class_has_each_die_changed_in_roll_order() -> None:
    seen: list[DieRoll] = []

    def change(die: DieRoll) -> DieRoll:
        seen.append(die)
        return _marked(die)

    changed = with_dice(EVERY_CLASS, change)
    assert seen == list(dice_in(EVERY_CLASS))
    assert dice_in(changed) == tuple([_marked(die) for die in seen])
    assert with_dice(EVERY_CLASS, lambda die: die) == EVERY_CLASS


def _op(text: str) -> Text:
    return Text(text, "op")


def _shown(die: str, face: int) -> DiceShown:
    return DiceShown((_die(die, face),))


def test_a_tree_of_every_class_renders_each_part_in_order() -> None:
    expected: list[Segment] = [
        _shown("d6", 1),
        Text("[fire]", "label"),
        _op(" + "),
        _op("{"),
        *(_op("("), _op("-"), _shown("d4", 2), _op(")"), Text(" (=-2)", "dropped")),
        _op(", "),
        *(_op("50% of "), _shown("d8", 3), Text(" (=1)", "value"), Text(" (=1)", "value")),
        _op(", "),
        Text("5", "number"),
        _op("}"),
        _op(" vs "),
        _op("max("),
        *(Text("atk:", "label"), _op("("), _op("{"), _shown("d10", 4)),
        *(Text(" (=4)", "value"), _op("}"), _op(")")),
        _op(", "),
        Text("STR(3)", "label"),
        _op(", "),
        *(_op(""), _op("d"), _op("("), _shown("d6", 5), _op(")")),
        *(Text(" \N{RIGHTWARDS ARROW} 1d5 ", "value"), _shown("d5", 6)),
        _op(")"),
        Text(" (=6)", "value"),
        Text(" (=6)", "target"),
    ]
    assert breakdown(EVERY_CLASS) == tuple(expected)
    assert breakdown(EVERY_CLASS) == tuple(expected)  # the shared segments alike
