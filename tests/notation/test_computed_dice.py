"""Dice whose count or sides are worked out when rolled: ``(1+2)d6``, ``(STR)d6``,
``(2d4)d6``, ``d(2*3)`` (``docs/grammar.md``, "Computed dice").

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import dicecli
from dicecli import DiceError, DiceSyntaxError, parse
from dicecli.notation.nodes import BinaryOp, ComputedDice, Dice, Keep, Modifiers, Name, Number
from dicecli.render.text import result_line


@pytest.mark.parametrize(
    ("text", "node", "canonical"),
    [
        ("(1+2)d6", ComputedDice(BinaryOp("+", Number(1), Number(2)), Number(6)), "(1 + 2)d6"),
        ("(STR)d6", ComputedDice(Name("STR"), Number(6)), "(STR)d6"),
        ("(2d4)D6", ComputedDice(Dice(2, 4), Number(6)), "(2d4)d6"),
        ("d(2*3)", ComputedDice(Number(1), BinaryOp("*", Number(2), Number(3))), "d(2*3)"),
        ("3d(STR)", ComputedDice(Number(3), Name("STR")), "3d(STR)"),
        ("(STR)dF", ComputedDice(Name("STR"), "F"), "(STR)dF"),
        (
            "(STR)d6kh1",
            ComputedDice(Name("STR"), Number(6), Modifiers(keep=Keep("kh", 1))),
            "(STR)d6kh1",
        ),
        ("(3)d6kh1", Dice(3, 6, Modifiers(keep=Keep("kh", 1))), "3d6kh1"),  # both literal
    ],
)
def test_computed_dice_parse(text: str, node: object, canonical: str) -> None:
    assert parse(text).body == node
    assert str(node) == canonical
    assert parse(canonical).body == node


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(1+2) d6", "unexpected 'd6'"),  # a dice term is written without spaces
        ("(0)d6", "roll at least one die"),
        ("d(0)", "a die needs 1 to 10,000 sides"),
    ],
)
def test_malformed_computed_dice_are_refused_when_parsed(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("text", "given", "message"),
    [
        ("(d4-1)d6", "1", "(d4 - 1)d6: the dice count came out 0; it must be 1 to 10,000"),
        ("(STR)d6", None, "(STR)d6: the dice count came out -2; it must be 1 to 10,000"),
        (
            "(STR*5000)d6",
            None,
            "(STR*5000)d6: the dice count came out -10000; it must be 1 to 10,000",
        ),
        ("d(d4-3)", "2", "d(d4 - 3): the sides came out -1; a die needs 1 to 10,000"),
        ("d(STR*-6000)", None, "d(STR*-6000): the sides came out 12000; a die needs 1 to 10,000"),
        (
            "(d2)d(d2)r<3",
            "2,1",
            "(d2)d(d2)r<3: 2d1r<3: every face re-rolls, so the roll would never end",
        ),
    ],
)
def test_a_count_or_size_out_of_range_names_the_value(
    text: str, given: str | None, message: str
) -> None:
    with pytest.raises(DiceError) as caught:
        dicecli.roll(text, given=given, values={"STR": -2})
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("text", "given", "line"),
    [
        ("(1+2)d6", "1,2,3", "6\t(1+2)d6\t(1 + 2)d6 → 3d6 [1, 2, 3]"),
        ("(2d4)d6", "1,3,1,2,3,4", "10\t(2d4)d6\t([1, 3])d6 → 4d6 [1, 2, 3, 4]"),
        ("d(2*3)", "4", "4\td(2*3)\td(2*3) → 1d6 [4]"),
        ("(STR)d6kh1", "5,2,6", "6\t(STR)d6kh1\t(STR(3))d6 → 3d6 [~5~, ~2~, 6]"),
        ("3d(1+2)", "1,3,6", "6\t3d(1+2)\t3d(1 + 2) → 3d3 [1, 3→2, 6→3]"),  # rule N4
    ],
)
def test_the_count_and_sides_are_rolled_first_and_shown(text: str, given: str, line: str) -> None:
    assert result_line(dicecli.roll(text, given=given, values={"STR": 3})) == line


def test_every_die_is_listed_count_dice_first() -> None:
    dice = dicecli.roll("(d4)d6", given="2,5,6").dice
    assert [(die.die, die.face) for die in dice] == [("d4", "2"), ("d6", "5"), ("d6", "6")]


def test_odds_of_computed_dice_are_a_mixture() -> None:
    found = dicecli.odds("(d2)d6").distribution
    assert found is not None
    # one d6 half the time, two d6 the other half
    assert found.as_dict()[1] == Fraction(1, 12)
    assert found.as_dict()[12] == Fraction(1, 72)
    assert found.mean() == Fraction(21, 4)


def test_odds_refuse_a_count_that_can_come_out_zero() -> None:
    with pytest.raises(DiceError, match="the dice count came out 0"):
        dicecli.odds("(d4-1)d6")


def test_odds_leave_out_linked_criticals_and_say_so() -> None:
    found = dicecli.odds("(d20)d6")
    assert found.chances == ()
    assert any("no chance of a critical" in note for note in found.notes)
