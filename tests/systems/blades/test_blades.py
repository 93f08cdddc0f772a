"""Blades in the Dark rules B1-B3 with given dice, and exact odds against brute-force
enumeration (Hypothesis over the pool).

Rule numbers (B1, B2 ...) cite ``docs/rules.md``.
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
from dicecli import DiceSyntaxError, RuleError
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


@pytest.mark.parametrize(
    ("faces", "said", "passed"),
    [
        ("6,2", "full success", True),  # rule B1: the highest is 6
        ("5,4", "partial success", True),  # rule B1: 4-5
        ("3,1", "bad outcome", False),  # rule B1: 1-3
        ("6,6", "critical success", True),  # rule B1: two 6s
    ],
)
def test_action_rolls(faces: str, said: str, passed: bool) -> None:
    result = roll("blades 2", faces)
    assert verdict(result) == said
    assert result.outcome is not None
    assert result.outcome.passed is passed


def test_the_highest_die_counts_whatever_its_place() -> None:
    # rule B1: 2, 6, 1: the 6 counts
    result = roll("blades 3", "2,6,1")
    assert result.total == 6
    assert fields(result) == {"highest": 6, "critical": False}


def test_zero_dice_keep_the_lower_of_two_and_never_crit() -> None:
    # rule B2: 6 and 6 with zero dice: a full success, no critical; 6 and 2: bad
    assert verdict(roll("blades 0", "6,6")) == "full success"
    result = roll("blades 0", "6,2")
    assert verdict(result) == "bad outcome"
    assert [die.kept for die in result.dice] == [False, True]


def test_a_named_pool_with_a_bonus_die() -> None:
    # rule B1: Prowl 2 + 1 = three dice
    result = roll("blades Prowl+1", "1,2,4", Prowl=2)
    assert len(result.dice) == 3
    assert verdict(result) == "partial success"


def test_a_pool_out_of_range_is_refused() -> None:
    # rule B2
    with pytest.raises(RuleError, match="0 to 50 dice"):
        roll("blades 1-2", "")
    with pytest.raises(DiceSyntaxError, match="not 3d6"):
        dicecli.parse("blades 3d6")


@pytest.mark.parametrize(
    ("faces", "stress", "said"),
    [
        ("4,2,1", 2, "take 2 stress"),  # rule B3: 6 - 4
        ("6,1,1", 0, "take 0 stress"),
        ("1,1,1", 5, "take 5 stress"),
        ("6,3,6", -1, "critical: clear 1 stress"),  # rule B3: a critical
    ],
)
def test_resistance_rolls(faces: str, stress: int, said: str) -> None:
    result = roll("blades resist 3", faces)
    assert result.total == stress
    assert verdict(result) == said
    assert fields(result)["stress"] == stress


def test_zero_dice_resistance_keeps_the_lower() -> None:
    # rules B2, B3: 6 and 3, the lower: 3 stress
    assert roll("blades resist 0", "6,3").total == 3


def test_the_plain_line() -> None:
    # rule B1
    result = roll("bitd 2", "6,3")
    assert plain_line(result) == "6\tbitd 2\t[6, 3] => full success"


def by_count(pool: int, resist: bool) -> dict[str, Fraction]:
    """Every face of every die, counted (rules B1-B3)."""
    count: Counter[str] = Counter()
    rolls = list(itertools.product(range(1, 7), repeat=max(pool, 2) if pool == 0 else pool))
    for faces in rolls:
        counts = min(faces) if pool == 0 else max(faces)
        critical = pool > 0 and faces.count(6) >= 2
        if resist:
            count["clear_1_stress" if critical else f"stress_{6 - counts}"] += 1
        elif critical:
            count["critical_success"] += 1
        elif counts == 6:
            count["full_success"] += 1
        elif counts >= 4:
            count["partial_success"] += 1
        else:
            count["bad_outcome"] += 1
    found = {name: Fraction(n, len(rolls)) for name, n in count.items()}
    if not resist:
        found["success"] = 1 - found.get("bad_outcome", Fraction(0))
    return found


@settings(max_examples=examples(30))
@given(st.integers(0, 6), st.booleans())
def test_odds_equal_the_count(pool: int, resist: bool) -> None:
    # rules B1-B3
    line = f"blades {'resist ' if resist else ''}{pool}"
    found = {name: p for name, p in dicecli.odds(line).chances if p}
    assert found == by_count(pool, resist)


def test_a_rolled_pool_mixes_over_its_sizes() -> None:
    # rule B1: 1 + d2 dice is one or two... two or three dice, half the time each
    found = dict(dicecli.odds("blades 1+d2").chances)
    two, three = by_count(2, False), by_count(3, False)
    assert found["critical_success"] == (two["critical_success"] + three["critical_success"]) / 2


@settings(max_examples=examples(50))
@given(st.integers(0, 50), st.booleans())
def test_a_line_parses_back(pool: int, resist: bool) -> None:
    check = dicecli.parse(f"blades {'resistance ' if resist else ''}{pool}").body
    assert dicecli.parse(str(check)).body == check


@pytest.mark.parametrize(("line", "suggestion"), [("blades 3d", "blades 3")])
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint
