"""Year Zero Engine rules Y1-Y3 with given dice, and exact odds against brute-force
enumeration (Hypothesis over the counts of each kind and the push).

Rule numbers (Y1, Y2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, RuleError
from dicecli.game import plain_line
from dicecli.hints import advise
from dicecli.results import JSONValue, RollResult


def roll(text: str, given: str, **values: int) -> RollResult:
    return dicecli.roll(text, given=given, values=values)


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


def test_each_6_is_a_success_whatever_the_kind() -> None:
    # rule Y1: base 6, 2; skill 6; gear 6
    result = roll("yz 2 1 1", "6,2,6,6")
    assert result.total == 3
    assert [die.die for die in result.dice] == ["base d6", "base d6", "skill d6", "gear d6"]


def test_no_6_is_a_failure() -> None:
    # rule Y1
    result = roll("yz 2 1", "5,4,3")
    assert result.outcome is not None
    assert result.outcome.verdict == "failure"
    assert result.outcome.passed is False


def test_1s_on_base_and_gear_count_apart_not_on_skill() -> None:
    # rule Y2: base 1, 1; skill 1; gear 1
    result = roll("yz base 2 skill 1 gear 1", "1,1,1,1")
    assert fields(result)["base_ones"] == 2
    assert fields(result)["gear_ones"] == 1


def test_pushing_rolls_again_all_but_6s_and_base_and_gear_1s() -> None:
    # rule Y3: base 6, 1 stay; skill 3 and 1 are rolled again (6, 2); gear 4 (5)
    result = roll("yz 2 2 1 push", "6,1,3,1,4,6,2,5")
    assert result.total == 2
    assert [die.value for die in result.dice if die.kept] == [6, 1, 6, 2, 5]
    assert fields(result)["pushed"] is True
    assert result.outcome is not None
    assert result.outcome.notes == ("1 on base dice: damage or stress",)


def test_a_push_is_once() -> None:
    # rule Y3: the re-rolled 3 shows 2 and stays
    result = roll("yz 1 push", "3,2")
    assert len(result.dice) == 2
    assert result.total == 0


def test_the_kinds_named_or_in_order_are_the_same() -> None:
    # rule Y1
    assert dicecli.parse("yz 3 2 1").body == dicecli.parse("yz gear 1 base 3 skill 2").body


def test_a_named_line_needs_its_base_dice() -> None:
    with pytest.raises(DiceSyntaxError, match="name the base dice"):
        dicecli.parse("yz skill 2")


def test_too_many_dice_are_refused() -> None:
    # rule Y1
    with pytest.raises(RuleError, match="0 to 30"):
        roll("yz 31", "")


def test_the_plain_line() -> None:
    # rule Y1
    assert plain_line(roll("yz 1 1", "6,2")) == "1\tyz 1 1\tbase [6] skill [2] => 1 success"


def by_count(base: int, skill: int, gear: int, push: bool) -> dict[str, Fraction]:
    """Every face of every die, and every face of every die pushed (rules Y1-Y3)."""
    kinds = ["base"] * base + ["skill"] * skill + ["gear"] * gear
    total = Fraction(0)
    success = base_one = gear_one = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=len(kinds)):
        pushed = [
            i
            for i, (kind, f) in enumerate(zip(kinds, faces, strict=True))
            if push and not (f == 6 or (f == 1 and kind != "skill"))
        ]
        for again in itertools.product(range(1, 7), repeat=len(pushed)):
            final = list(faces)
            for i, f in zip(pushed, again, strict=True):
                final[i] = f
            p = Fraction(1, 6 ** (len(kinds) + len(pushed)))
            total += p
            success += p * (6 in final)
            base_one += p * any(k == "base" and f == 1 for k, f in zip(kinds, final, strict=True))
            gear_one += p * any(k == "gear" and f == 1 for k, f in zip(kinds, final, strict=True))
    assert total == 1
    return {"success": success, "base_one": base_one, "gear_one": gear_one}


@settings(max_examples=examples(40))
@given(st.integers(1, 2), st.integers(0, 1), st.integers(0, 1), st.booleans())
def test_odds_equal_the_count(base: int, skill: int, gear: int, push: bool) -> None:
    # rules Y1-Y3 (three dice at most: the count walks 6**6 pushed rolls)
    assume(base + skill + gear <= 3)
    line = f"yz base {base} skill {skill} gear {gear}" + (" push" if push else "")
    assert dict(dicecli.odds(line).chances) == by_count(base, skill, gear, push)


@settings(max_examples=examples(50))
@given(st.integers(0, 30), st.one_of(st.none(), st.integers(0, 9)), st.booleans())
def test_a_line_parses_back(base: int, skill: int | None, push: bool) -> None:
    line = f"yz {base}" + (f" {skill}" if skill is not None else "") + (" push" if push else "")
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


@pytest.mark.parametrize(("line", "suggestion"), [("yz 3d6", "yz 3"), ("yz 3 base", "yz base 3")])
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint


@pytest.mark.parametrize(
    ("line", "same_as"),
    [("6yz", "yz 6"), ("6YZE push", "yz 6 push"), ("10yz", "yz 10")],
)
def test_dice_maidens_counted_spelling(line: str, same_as: str) -> None:
    # rule Y1: Dice Maiden's 6yz, a count of 6s, is six base dice (an assumption)
    assert dicecli.parse(line).body == dicecli.parse(same_as).body


def test_a_counted_line_rolls_as_base_dice() -> None:
    # rule Y1: two 6s of three dice
    assert plain_line(roll("3yz", "6,2,6")) == "2\t3yz\tbase [6, 2, 6] => 2 successes"
