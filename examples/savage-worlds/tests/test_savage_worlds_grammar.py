"""The forms of an ``sw`` line, their canonical text, and the errors."""

from __future__ import annotations

import pyparsing as pp
import pytest

from savage_helpers import check, parse_line
from savage_worlds.nodes import TraitTest


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("sw d8", TraitTest(8)),
        ("savage d8", TraitTest(8)),
        ("SW D8", TraitTest(8)),
        ("sw d8+1", TraitTest(8, (1,))),
        ("sw d8 + 1", TraitTest(8, (1,))),
        ("sw d10 -2 vs 6", TraitTest(10, (-2,), 6)),
        ("sw d10 \N{MINUS SIGN}2 vs 6", TraitTest(10, (-2,), 6)),
        ("sw d6 +1 -2 +4", TraitTest(6, (1, -2, 4))),
        ("sw d12+2", TraitTest(12, (2,))),
        ("sw extra d6", TraitTest(6, wild_card=False)),
        ("sw Extra d4-2 VS 5", TraitTest(4, (-2,), 5, wild_card=False)),
        ("sw d4 vs 0", TraitTest(4, target=0)),
    ],
)
def test_forms(line: str, expected: TraitTest) -> None:
    assert check(line) == expected


@pytest.mark.parametrize(
    "line", ["sw d8", "sw d8+1", "sw d10-2 vs 6", "sw extra d6", "sw d12+2-1 vs 8"]
)
def test_canonical_text_parses_back(line: str) -> None:
    found = check(line)
    assert str(found) == line
    assert check(str(found)) == found


def test_default_target_is_four() -> None:
    assert check("sw d8").target_number == 4
    assert check("sw d8 vs 7").target_number == 7


def test_comment() -> None:
    roll = parse_line("sw d8 vs 6 # shoot the cultist")
    assert roll.body == TraitTest(8, target=6)
    assert roll.comment == "shoot the cultist"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("sw", "trait die"),
        ("sw d7", "a trait die is d4, d6, d8, d10, d12"),
        ("sw d20", "a trait die is"),
        ("sw d8x", "trait die"),
        ("sw d8 vs", "target number"),
        ("sw d8 +", "a number"),
        ("sw d8 vs 1001", "a target number goes up to 1000"),
        ("sw d8 +1001", "a modifier goes up to 1000"),
        ("sw extra", "trait die"),
        ("sw d8 vs 4 vs 5", "end of the line"),
        ("sw 2d6", "trait die"),
    ],
)
def test_errors(line: str, message: str) -> None:
    with pytest.raises(pp.ParseBaseException) as error:
        parse_line(line)
    assert message in str(error.value)


def test_modifiers_may_not_add_up_past_the_limit() -> None:
    with pytest.raises(pp.ParseBaseException, match="add up to more than 1000"):
        parse_line("sw d8 +600 +600")
