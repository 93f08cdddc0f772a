"""d20 (Avrae)'s ``adv``/``dis`` after a roll (issue 26): the first term, a lone d20,
rolled twice and the higher (lower) kept: ``1d20+5 adv`` is ``2d20kh1 + 5``
(docs/grammar.md, "Advantage after a roll")."""

from __future__ import annotations

import pytest
from brute import brute_distribution

import dicecli
from dicecli import DiceSyntaxError, parse


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("d20 adv", "2d20kh1"),
        ("1d20+5 adv", "2d20kh1 + 5"),
        ("1d20+5 ADV # sneak attack", "2d20kh1 + 5 # sneak attack"),
        ("d20 advantage", "2d20kh1"),
        ("d20 - 1 dis", "2d20kl1 - 1"),
        ("d20 disadv", "2d20kl1"),
        ("d20 Disadvantage", "2d20kl1"),
        ("d20[attack] + 5 adv", "2d20kh1[attack] + 5"),
        ("d20ro1 + 3 adv", "2d20ro1kh1 + 3"),  # a halfling's luck stays on both dice
        ("(d20 + 5)*2 adv", "(2d20kh1 + 5)*2"),
        ("d20 + 5 vs 15 adv", "2d20kh1 + 5 >= 15"),  # a check: its left side
    ],
)
def test_advantage_keeps_the_better_of_two_d20(line: str, canonical: str) -> None:
    assert str(parse(line)) == canonical
    assert parse(canonical) == parse(line)


@pytest.mark.parametrize(
    ("line", "given", "total"),
    [
        ("d20 + 5 adv", "3,17", 22),
        ("d20 + 5 adv", "17,3", 22),
        ("d20 + 5 dis", "3,17", 8),
        ("d20 adv", "20,1", 20),
    ],
)
def test_given_dice(line: str, given: str, total: int) -> None:
    assert dicecli.roll(line, given=given).total == total


def test_a_natural_20_under_advantage_is_critical() -> None:
    # a lone d20 kept: its 20 is a critical success (docs/grammar.md, "Criticals")
    result = dicecli.roll("d20 adv", given="4,20")
    kept = [die for die in result.dice if die.kept]
    assert [die.value for die in kept] == [20]
    assert "critical-success" in kept[0].marks


@pytest.mark.parametrize("line", ["d20 + 2 adv", "d20 dis"])
def test_exact_odds_equal_brute_force(line: str) -> None:
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line)


@pytest.mark.parametrize("line", ["2d6 adv", "5 + d20 adv", "2d20kh1 adv", "d6 dis"])
def test_a_line_that_does_not_start_with_a_d20_is_refused(line: str) -> None:
    # d20 (Avrae) leaves such a line as it is, without a word: here it is an error
    with pytest.raises(DiceSyntaxError, match=r"rolls the first d20 twice"):
        parse(line)


def test_dice_maidens_numbered_advantage_is_not_this() -> None:
    # Dice Maiden's adv2 (Open Legend) adds dice to a pool: not d20 advantage
    with pytest.raises(DiceSyntaxError, match="unexpected 'adv2'"):
        parse("d20 adv2")


def test_a_games_own_advantage_is_the_games() -> None:
    assert str(parse("dnd attack +5 adv vs 15")) == "dnd attack +5 adv vs 15"
