"""Exalted 3e rules X1-X3 with given dice, and exact odds against brute-force
enumeration (Hypothesis over pool and difficulty).

Rule numbers (X1, X2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, RuleError
from dicecli.game import plain_line
from dicecli.hints import advise
from dicecli.results import RollResult


def roll(text: str, given: str, **values: int) -> RollResult:
    return dicecli.roll(text, given=given, values=values)


def verdict(result: RollResult) -> str:
    assert result.outcome is not None
    return result.outcome.verdict


def test_7_or_more_succeeds_and_10_counts_twice() -> None:
    # rule X1: 7, 9 one each; 10 two; 6, 1 none
    result = roll("ex 5", "7,9,10,6,1")
    assert result.total == 4
    assert verdict(result) == "4 successes"


@pytest.mark.parametrize(
    ("faces", "said", "passed"),
    [
        ("10,10,2", "success, 1 threshold success", True),  # rule X2: 4 vs 3
        ("10,7,2", "success, 0 threshold successes", True),  # rule X2: 3 vs 3
        ("8,7,2", "failure, 2 successes", False),
        ("1,5,2", "botch", False),  # rule X3
    ],
)
def test_difficulty(faces: str, said: str, passed: bool) -> None:
    result = roll("ex 3 vs 3", faces)
    assert verdict(result) == said
    assert result.outcome is not None
    assert result.outcome.passed is passed


def test_no_success_without_a_1_is_no_botch() -> None:
    # rule X3
    assert verdict(roll("ex 3", "2,5,6")) == "0 successes"
    assert verdict(roll("ex 3", "2,5,1")) == "botch"


def test_a_pool_out_of_range_is_refused() -> None:
    # rule X1
    with pytest.raises(RuleError, match="1 to 60 dice"):
        roll("ex 0", "")
    with pytest.raises(DiceSyntaxError, match="not 6d10"):
        dicecli.parse("ex 6d10")


def test_the_plain_line() -> None:
    # rules X1, X2
    assert plain_line(roll("ex 2 vs 1", "10,3")) == (
        "2\tex 2 vs 1\t[10, 3] vs 1 => success, 1 threshold success"
    )


def by_count(pool: int, difficulty: int) -> dict[str, Fraction]:
    """All 10**pool rolls (rules X1-X3)."""
    success = botch = 0
    rolls = list(itertools.product(range(1, 11), repeat=pool))
    for faces in rolls:
        total = sum(2 if f == 10 else int(f >= 7) for f in faces)
        botched = total == 0 and 1 in faces
        botch += botched
        success += total >= difficulty and not botched
    return {"success": Fraction(success, len(rolls)), "botch": Fraction(botch, len(rolls))}


@settings(max_examples=examples(40))
@given(st.integers(1, 4), st.integers(0, 6))
def test_odds_equal_the_count(pool: int, difficulty: int) -> None:
    # rules X1-X3
    assert dict(dicecli.odds(f"ex {pool} vs {difficulty}").chances) == by_count(pool, difficulty)


@settings(max_examples=examples(50))
@given(st.integers(1, 60), st.one_of(st.none(), st.integers(0, 9)))
def test_a_line_parses_back(pool: int, difficulty: int | None) -> None:
    line = f"ex {pool}" + (f" vs {difficulty}" if difficulty is not None else "")
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


def test_the_pool_as_dice_gets_a_hint() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse("ex 6d10 vs 2")
    hint = advise(caught.value).hint
    assert hint is not None
    assert "ex 6 vs 2" in hint


def test_dice_maidens_joined_spelling() -> None:
    # rule X1: ex5 is ex 5
    assert dicecli.parse("ex5 vs 2").body == dicecli.parse("ex 5 vs 2").body
    # docs/rules.md, X: so ex3 is a pool of three, not the edition's name
    assert dicecli.parse("ex3").body == dicecli.parse("ex 3").body
    assert roll("ex2", "10,7").total == 3
