"""Explode once (issue 26): ``!o`` and Foundry VTT's ``xo``/``xo10``: a die that
explodes adds one die, which does not explode in turn (docs/grammar.md, "Explode
once"). ``x`` alone still multiplies (``D6x5``, rule N2)."""

from __future__ import annotations

import pytest
from brute import brute_distribution

import dicecli
from dicecli import parse
from dicecli.notation.nodes import Condition, Dice, Explode, Modifiers


@pytest.mark.parametrize(
    ("text", "explode", "canonical"),
    [
        ("5d10xo", Explode("!", None, True), "5d10!o"),  # Foundry: once on the highest
        ("5d10xo10", Explode("!", Condition("=", 10), True), "5d10!o10"),
        ("5d10XO10", Explode("!", Condition("=", 10), True), "5d10!o10"),
        # Foundry's xo>=8 explodes once on 8 or more; it was read as xo, then a count
        ("5d10xo>=8", Explode("!", Condition(">=", 8), True), "5d10!o>=8"),
        ("2d10xo<3", Explode("!", Condition("<", 3), True), "2d10!o<3"),
        ("d6!o", Explode("!", None, True), "d6!o"),
        ("d6!o>=5", Explode("!", Condition(">=", 5), True), "d6!o>=5"),
        ("2d4!!o", Explode("!!", None, True), "2d4!!o"),
        ("2d4!po", Explode("!p", None, True), "2d4!po"),
    ],
)
def test_explode_once_spellings(text: str, explode: Explode, canonical: str) -> None:
    node = parse(text).body
    assert isinstance(node, Dice)
    assert node.modifiers == Modifiers(explode=explode)
    assert str(node) == canonical
    assert parse(canonical).body == node


def test_x_alone_still_multiplies() -> None:
    assert str(parse("D6x5")) == "d6*5"
    assert str(parse("5d10x10")) == "5d10*10"


@pytest.mark.parametrize(
    ("text", "given", "total", "kept"),
    [
        ("d6!o", "6,6", 12, [True, True]),  # the added 6 does not explode
        ("d6!o", "3", 3, [True]),
        ("2d10xo10", "10,10,4", 24, [True, True, True]),
        ("d6!!o", "6,6", 12, [True, True]),  # compounded into one die
        ("d6!po", "6,6", 11, [True, True]),  # the added die worth one less
        ("3d6!okh2", "6,1,2,5", 11, [True, False, False, True]),  # 6 (and 1 added), 2, 5
    ],
)
def test_given_dice(text: str, given: str, total: int, kept: list[bool]) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == total
    assert [die.kept for die in result.dice] == kept


@pytest.mark.parametrize(
    "text",
    [
        "2d10xo",
        "2d6!o",
        "3d4!okh2",
        "3d4!okh1kl1",
        "3d4!o>=3",
        "2d4!!o",
        "2d4!po",
        "2d4!o<=2",
        "d1!o",
        "2d4min2!o",
        "d4!pomax3",
        "2d4ro1!o",
        "3d4!!okh2",
    ],
)
def test_exact_odds_equal_brute_force(text: str) -> None:
    found = dicecli.odds(text).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(text, max_dice=12)


def test_a_die_that_always_explodes_ends_after_one_more() -> None:
    # d1! never ends and is refused; d1!o adds one die: always 2
    with pytest.raises(dicecli.DiceSyntaxError, match="every face explodes"):
        parse("d1!")
    assert dicecli.roll("d1!o").total == 2
