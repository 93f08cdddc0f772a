"""Math functions over expressions: floor, ceil, round, abs, min, max, and how an exact
quotient reaches the rounding functions (``docs/grammar.md``, "Functions").

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.notation.nodes import BinaryOp, Call, Dice, Name, Number
from dicecli.render.text import result_line


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("floor(2d6/2)", Call("floor", (BinaryOp("/", Dice(2, 6), Number(2)),))),
        ("MAX(d20, d20) + 5", BinaryOp("+", Call("max", (Dice(1, 20), Dice(1, 20))), Number(5))),
        ("abs (d6 - d6)", Call("abs", (BinaryOp("-", Dice(1, 6), Dice(1, 6)),))),
        ("min(STR, 3)", Call("min", (Name("STR"), Number(3)))),
        ("max", Name("max")),  # without "(" a function's name is an ordinary name
    ],
)
def test_functions_parse(text: str, node: object) -> None:
    assert parse(text).body == node
    assert parse(str(node)).body == node


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("floor(1, 2)", "floor() takes one value, not 2", 0),
        ("1 + abs(d6, d4)", "abs() takes one value, not 2", 4),
        ("max(", "expected a number, dice such as 2d6, '(' or a name at the end", 4),
        ("max(d6", "expected ',' or ')' at the end", 6),
    ],
)
def test_malformed_calls_are_refused(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)


@pytest.mark.parametrize(
    ("text", "given", "total"),
    [
        ("2d6/2", "3,4", 4),  # rule N3: "/" rounds up
        ("floor(2d6/2)", "3,4", 3),  # the exact 7/2, rounded down
        ("ceil(2d6/2)", "3,4", 4),
        ("round(2d6/2)", "3,4", 4),  # halves go up
        ("round(2d6/3)", "3,4", 2),  # 7/3 is nearer 2
        ("round(-7/2)", None, -3),  # halves up, towards the larger number
        ("floor(-7/2)", None, -4),
        ("floor(50% of 3d6)", "1,2,4", 3),  # 3.5 down; "50% of" alone rounds up (rule N3)
        ("floor(2d6/2 + 1)", "3,4", 5),  # not the whole argument: 7/2 rounds up, then + 1
        ("max(d20, d20) + 5", "3,14", 19),
        ("min(d20, d20)", "3,14", 3),
        ("min(4, d6, 2)", "1", 1),
        ("abs(d6 - d6)", "2,5", 3),
    ],
)
def test_function_values(text: str, given: str | None, total: int) -> None:
    assert dicecli.roll(text, given=given).total == total


def test_the_breakdown_shows_the_dice_inside_and_the_value() -> None:
    line = result_line(dicecli.roll("floor(2d6/2) + max(d4, 2)", given="3,4,1"))
    assert line == "5\tfloor(2d6/2) + max(d4, 2)\tfloor([3, 4]/2) (=3) + max([1], 2) (=2)"


def test_division_by_zero_inside_floor_is_an_error() -> None:
    with pytest.raises(dicecli.DiceError, match="division by zero in d6/0"):
        dicecli.roll("floor(d6/0)", given="3")


def test_odds_follow_the_exact_quotient() -> None:
    found = dicecli.odds("floor(d6/2)").distribution
    assert found is not None
    sixth = Fraction(1, 6)
    assert found.as_dict() == {0: sixth, 1: 2 * sixth, 2: 2 * sixth, 3: sixth}


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("1.5d6", "decimals are not supported: dice and values are whole numbers", 1),
        ("2d6*1.5", "decimals are not supported: dice and values are whole numbers", 5),
        ("2d6 %% 3", "'%' is percent of (10% of 51) or the remainder (1d100 % 10)", 5),
        ("(2d6)^", "expected a number, dice such as 2d6, '(' or a name at the end", 6),
    ],
)
def test_forms_still_refused_name_the_feature(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)


@pytest.mark.parametrize(
    ("line", "word", "position"),
    [("sqrt(4d6)", "sqrt", 0), ("pow(2,3)", "pow", 0), ("1 + sign(1d6-3)", "sign", 4)],
)
def test_an_unknown_function_is_named(line: str, word: str, position: int) -> None:
    # RPG Dice Roller's sqrt, pow and sign: once "unexpected '(4d6)'" at the bracket
    with pytest.raises(dicecli.DiceSyntaxError) as caught:
        dicecli.parse(line)
    assert caught.value.message.startswith(f"unknown function '{word}' (functions: floor,")
    assert caught.value.position == position


def test_a_bracket_after_dice_is_no_function() -> None:
    with pytest.raises(dicecli.DiceSyntaxError, match=r"unexpected '\(fire\)'"):
        dicecli.parse("d6(fire)")
