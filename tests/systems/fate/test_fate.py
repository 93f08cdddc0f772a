"""Fate Core rules F1-F3 with given dice, and exact odds against brute-force
enumeration (Hypothesis over skill and difficulty).

Rule numbers (F1, F2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError
from dicecli.game import plain_line
from dicecli.hints import advise
from dicecli.results import JSONValue, RollResult


def roll(text: str, given: str, **values: int) -> RollResult:
    return dicecli.roll(text, given=given, values=values)


def verdict(result: RollResult) -> str:
    assert result.outcome is not None
    return result.outcome.verdict


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


def test_four_fate_dice_add_to_the_skill() -> None:
    # rule F1: + + 0 - is +1; skill +2: 3
    result = roll("fate +2", "+,+,0,-")
    assert result.total == 3
    assert [die.value for die in result.dice] == [1, 1, 0, -1]
    assert roll("fate +2", "1,+1,blank,-1").total == 3  # rule F1: other spellings


@pytest.mark.parametrize(
    ("total_faces", "said"),
    [("+,+,+,+", "Legendary (+8)"), ("0,0,0,0", "Great (+4)"), ("-,-,-,-", "+0")],
)
def test_the_result_on_the_ladder(total_faces: str, said: str) -> None:
    # rule F2: +4 +4 = Legendary; +4 = Great; 0 is Mediocre (+0)
    result = roll("fate +4", total_faces)
    expected = said if said != "+0" else "Mediocre (+0)"
    assert verdict(result) == expected


def test_beyond_the_ladder_is_a_number() -> None:
    # rule F2: 4 + 5 = +9
    assert verdict(roll("fate +5", "+,+,+,+")) == "+9"


def test_ladder_words_for_skill_and_difficulty() -> None:
    # rule F2: Good (+3) + 0 vs Fair (+2): 1 shift
    result = roll("fate Good vs fair", "0,0,0,0")
    assert fields(result)["shifts"] == 1
    assert str(dicecli.parse("fate good vs FAIR").body) == "fate Good vs Fair"


@pytest.mark.parametrize(
    ("faces", "found", "shifts", "passed"),
    [
        ("-,0,0,0", "fail", -1, False),  # rule F3: +2 - 1 = 1 vs 2
        ("0,0,0,0", "tie", 0, None),  # rule F3
        ("+,+,0,0", "succeed", 2, True),  # rule F3
        ("+,+,+,0", "succeed with style", 3, True),  # rule F3: 3 shifts
    ],
)
def test_outcomes_by_shifts(faces: str, found: str, shifts: int, passed: bool | None) -> None:
    result = roll("fate +2 vs 2", faces)
    assert fields(result)["outcome"] == found
    assert fields(result)["shifts"] == shifts
    assert verdict(result).startswith(found)
    assert result.outcome is not None
    assert result.outcome.passed is passed


def test_the_plain_line() -> None:
    # rules F1-F3
    result = roll("fate +2 vs 3", "+,+,+,0")
    assert plain_line(result) == (
        "5\tfate +2 vs 3\t[+, +, +, 0] + 2 vs 3 => succeed (Superb (+5), 2 shifts)"
    )


def by_count(skill: int, difficulty: int) -> dict[str, Fraction]:
    """All 81 rolls of four Fate dice (rules F1, F3)."""
    count: Counter[str] = Counter()
    for faces in itertools.product((-1, 0, 1), repeat=4):
        shifts = sum(faces) + skill - difficulty
        if shifts < 0:
            count["fail"] += 1
        elif shifts == 0:
            count["tie"] += 1
        elif shifts < 3:
            count["succeed"] += 1
        else:
            count["succeed_with_style"] += 1
    found = {
        name: Fraction(count[name], 81) for name in ("fail", "tie", "succeed", "succeed_with_style")
    }
    return {"success": found["succeed"] + found["succeed_with_style"], **found}


@settings(max_examples=examples(100))
@given(st.integers(-4, 10), st.integers(-4, 10))
def test_odds_equal_the_count(skill: int, difficulty: int) -> None:
    # rules F1, F3
    assert dict(dicecli.odds(f"fate {skill:+d} vs {difficulty}").chances) == by_count(
        skill, difficulty
    )


def test_the_ladder_in_odds_is_its_value() -> None:
    # rule F2
    assert dict(dicecli.odds("fate Good vs Great").chances) == by_count(3, 4)


@settings(max_examples=examples(50))
@given(
    st.one_of(st.integers(-5, 9).map(lambda n: f"{n:+d}"), st.sampled_from(["Good", "Poor"])),
    st.one_of(st.none(), st.integers(-3, 9).map(str), st.sampled_from(["Epic", "Terrible"])),
)
def test_a_line_parses_back(skill: str, difficulty: str | None) -> None:
    line = f"fate {skill}" + (f" vs {difficulty}" if difficulty is not None else "")
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


def test_the_fate_dice_typed_are_refused_with_a_hint() -> None:
    # rule F1
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse("fate 4dF+2 vs 3")
    assert "rolled for you" in caught.value.message
    hint = advise(caught.value).hint
    assert hint is not None
    assert "fate 2 vs 3" in hint
