"""The Warhammer line grammar: forms, canonical text, and errors that point."""

from __future__ import annotations

import pytest

import dicecli
from dicecli import DiceSyntaxError
from dicecli.notation.nodes import BinaryOp, Dice, Name, Number
from dicecli.systems.warhammer.nodes import (
    Allocate,
    BreakTest,
    CharacteristicTest,
    Contenders,
    LeadershipTest,
    RollOff,
    ScatterRoll,
    WarhammerRoll,
)


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("wfb artillery", WarhammerRoll(Name("artillery"))),
        ("WFB Artillery + 2", WarhammerRoll(BinaryOp("+", Name("Artillery"), Number(2)))),
        ("wfb scatter", ScatterRoll()),
        ("whfb scatter 2D6", ScatterRoll(Dice(2, 6))),
        ("wfb test 4", CharacteristicTest((Number(4),))),
        ("wfb test 3, 4", CharacteristicTest((Number(3), Number(4)))),
        ("warhammer ld 8", LeadershipTest((Number(8),))),
        ("wfb leadership 8", LeadershipTest((Number(8),))),
        ("wfb break 8 lost by 3", BreakTest((Number(8),), Number(3))),
        ("wfb break 8 by 3", BreakTest((Number(8),), Number(3))),
        ("wfb rolloff Alice Bob", RollOff(Contenders(2, ("Alice", "Bob")))),
        ("wfb roll-off Alice, Bob", RollOff(Contenders(2, ("Alice", "Bob")))),
        ("wfb rolloff 3", RollOff(Contenders(3))),
        ("wfb allocate 5", Allocate(Contenders(5))),
        ("wfb allocate Ольга Иван", Allocate(Contenders(2, ("Ольга", "Иван")))),
    ],
)
def test_forms_parse(text: str, node: object) -> None:
    assert dicecli.parse(text).body == node


@pytest.mark.parametrize(
    "text",
    [
        "wfb artillery",
        "wfb 2d6 + artillery",
        "wfb artillery/2",
        "wfb scatter",
        "wfb scatter 2d6",
        "wfb scatter artillery",
        "wfb test 4",
        "wfb test 3, S + 1",
        "wfb ld 8",
        "wfb break 7 + 1 lost by 3",
        "wfb rolloff Alice Bob",
        "wfb rolloff 4",
        "wfb allocate 7",
        "wfb allocate Champion Musician",
    ],
)
def test_canonical_text_parses_back(text: str) -> None:
    node = dicecli.parse(text).body
    assert str(node) == text
    assert dicecli.parse(str(node)).body == node


def test_comment_is_kept() -> None:
    roll = dicecli.parse("wfb ld 8 # rallying")
    assert roll.comment == "rallying"
    assert roll.body == LeadershipTest((Number(8),))


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("wfb test", 8, "expected a value"),
        ("wfb ld 8 9", 9, "unexpected '9'"),
        ("wfb break 8 3", 12, "'lost by'"),
        ("wfb rolloff 1", 12, "2 to 100 players"),
        ("wfb rolloff Alice", 12, "at least 2 players"),
        ("wfb rolloff Alice alice", 12, "named twice"),
        ("wfb allocate 0", 13, "1 to 10000 candidates"),
        ("wfb", 3, "expected scatter, test, ld"),
    ],
)
def test_errors_point_at_the_fault(text: str, position: int, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(text)
    assert message in caught.value.message
    assert caught.value.position == position
