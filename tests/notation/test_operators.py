"""Operators of other rollers (issue 26): a power ``^`` (RPG Dice Roller) and ``**``
(Roll20), floor division ``//`` (d20), each beside the seed rules' forms that keep their
meaning (``10% of 51``, ``d%``, ``D6x5``, ``/`` rounding up; docs/grammar.md,
"Operators of other rollers")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from brute import brute_distribution

import dicecli
from dicecli import DiceError, DiceSyntaxError, parse
from dicecli.notation.nodes import BinaryOp, Dice, Negate, Number, PercentOf
from dicecli.render.text import result_line


@pytest.mark.parametrize(
    ("text", "node", "canonical"),
    [
        ("2^3", BinaryOp("^", Number(2), Number(3)), "2^3"),
        ("2**3", BinaryOp("^", Number(2), Number(3)), "2^3"),  # Roll20
        ("2d6**2", BinaryOp("^", Dice(2, 6), Number(2)), "2d6^2"),
        ("d6 ^ 2", BinaryOp("^", Dice(1, 6), Number(2)), "d6^2"),
        # tighter than a sign: -(2^2)
        ("-2^2", Negate(BinaryOp("^", Number(2), Number(2))), "-2^2"),
        ("(-2)^2", BinaryOp("^", Negate(Number(2)), Number(2)), "(-2)^2"),
        # to the right: 2^(3^2)
        ("2^3^2", BinaryOp("^", Number(2), BinaryOp("^", Number(3), Number(2))), "2^3^2"),
        ("(2^3)^2", BinaryOp("^", BinaryOp("^", Number(2), Number(3)), Number(2)), "(2^3)^2"),
        # tighter than * and +
        (
            "2*3^2+1",
            BinaryOp("+", BinaryOp("*", Number(2), BinaryOp("^", Number(3), Number(2))), Number(1)),
            "2*3^2 + 1",
        ),
        ("2^10% of 50", BinaryOp("^", Number(2), PercentOf(10, Number(50))), "2^10% of 50"),
        ("60 // 1d6", BinaryOp("//", Number(60), Dice(1, 6)), "60 // d6"),  # d20
        ("60//7", BinaryOp("//", Number(60), Number(7)), "60 // 7"),
        ("2 // -3", BinaryOp("//", Number(2), Negate(Number(3))), "2 // -3"),
        ("7 // (1+1)", BinaryOp("//", Number(7), BinaryOp("+", Number(1), Number(1))), None),
    ],
)
def test_operators_parse(text: str, node: object, canonical: str | None) -> None:
    assert parse(text).body == node
    if canonical is not None:
        assert str(node) == canonical
    assert parse(str(node)).body == node


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3d6 // fire", "3d6 # fire"),  # RPG Dice Roller's comment: a word follows
        ("60 // STR", "60 # STR"),  # to divide by a name: floor(60 / STR)
        ("10% of 51", "10% of 51"),  # the seed rules keep their meaning
        ("d%%(45*2)", "d% % (45*2)"),
        ("D6x5", "d6*5"),
        ("7/2", "7/2"),
    ],
)
def test_seed_forms_and_comments_keep_their_meaning(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "given", "total"),
    [
        ("2^3", "", 8),
        ("2**10", "", 1024),
        ("-2^2", "", -4),
        ("2^3^2", "", 512),
        ("2^0", "", 1),
        ("0^0", "", 1),
        ("2d6**2", "3,4", 49),
        ("d6^d4", "2,3", 8),
        ("60 // 7", "", 8),  # rounded down ...
        ("60/7", "", 9),  # ... where / rounds up (rule N3)
        ("-7 // 2", "", -4),
        ("60 // 1d6", "5", 12),
        ("d20 // d4", "19,4", 4),
    ],
)
def test_given_dice(text: str, given: str, total: int) -> None:
    assert dicecli.roll(text, given=given or None).total == total


@pytest.mark.parametrize(
    "text",
    ["d6^2", "2d4**2", "d6^d4", "-d6^2", "(d6-3)^3", "d6^(d4-1)", "2^d6", "d20 // d4"],
)
def test_exact_odds_equal_brute_force(text: str) -> None:
    found = dicecli.odds(text).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(text)


def test_floor_division_odds_by_hand() -> None:
    found = dicecli.odds("(d6-4) // d3").distribution
    assert found is not None
    # each d6 face a - 4 over each D3 value b (the D3: a d6 halved, rounded up)
    expected: dict[int, Fraction] = {}
    for a in range(1, 7):
        for face in range(1, 7):
            quotient = (a - 4) // ((face + 1) // 2)
            expected[quotient] = expected.get(quotient, Fraction(0)) + Fraction(1, 36)
    assert found.as_dict() == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2^-1", "2^-1: a negative power is a fraction, and values are whole numbers"),
        ("10^101", "value too large: more than 100 digits, the limit"),
        ("2^100000", "value too large: more than 100 digits, the limit"),
        ("5 // (d6-d6)", "division by zero"),
    ],
)
def test_arithmetic_errors_are_errors_of_the_roll(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message.replace("^", r"\^")):
        dicecli.roll(text, given="3,3")


def test_odds_refuse_a_power_that_may_be_negative() -> None:
    with pytest.raises(DiceError, match="a negative power is a fraction"):
        dicecli.odds("2^(d6-3)")


@pytest.mark.parametrize("line", ["2^", "(1d6)^", "6d6 ^"])
def test_a_power_needs_its_exponent(line: str) -> None:
    with pytest.raises(DiceSyntaxError, match="expected a number"):
        parse(line)
    # right against dice, python-dice's bare ^ keeps all but the lowest (peer_forms)
    assert parse("6d6^") == parse("6d6dl1")


def test_caret_and_floor_division_name_the_other_readings() -> None:
    line = result_line(dicecli.roll("6d6^3", given="1,2,3,4,5,6"))
    assert "python-dice reads 6d6^3 as 6d6kh3" in line
    assert "caith reads ^ 3 as rolling three times (-n 3)" in line
    line = result_line(dicecli.roll("60 // 1d6", given="5"))
    assert "RPG Dice Roller reads // as the start of a comment" in line
    assert "(" not in result_line(dicecli.roll("2**3"))  # Roll20's ** has no other reading
