"""Legend of the Five Rings 4e rules L1-L4 with given dice, and odds against brute-force
enumeration (Hypothesis over rolled and kept dice).

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import functools
import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, RuleError
from dicecli.game import PRECISION, plain_line
from dicecli.hints import advise
from dicecli.results import JSONValue, RollResult
from dicecli.systems.l5r.rules import ten_dice_rule


def roll(text: str, given: str) -> RollResult:
    return dicecli.roll(text, given=given)


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


def test_roll_and_keep_the_highest() -> None:
    # rule L2: 3, 9, 5, 7: keep 9 and 7
    result = roll("l5r 4k2", "3,9,5,7")
    assert result.total == 16
    assert [die.kept for die in result.dice] == [False, True, False, True]


def test_10s_explode_and_add() -> None:
    # rule L1: 10, 10, 7 is one die of 27; with 4: keep 27
    result = roll("l5r 2k1", "10,10,7,4")
    assert result.total == 27


def test_unskilled_10s_do_not_explode() -> None:
    # rule L1
    assert roll("l5r 2k1 unskilled", "10,4").total == 10


@pytest.mark.parametrize(
    ("typed", "rolled", "kept", "bonus"),
    [
        ((12, 4), 10, 5, 0),  # rule L3: two rolled past ten, one kept die
        ((13, 9), 10, 10, 2),
        ((10, 12), 10, 10, 4),
        ((14, 12), 10, 10, 12),
        ((11, 4), 10, 4, 0),  # a single die left over adds nothing (assumption)
        ((6, 3), 6, 3, 0),
    ],
)
def test_the_ten_dice_rule(typed: tuple[int, int], rolled: int, kept: int, bonus: int) -> None:
    effective = ten_dice_rule(*typed)
    assert (effective.rolled, effective.kept, effective.bonus) == (rolled, kept, bonus)


def test_the_ten_dice_rule_in_a_roll() -> None:
    # rule L3: 13k9 rolls 10 dice, keeps all 10, adds 2
    result = roll("l5r 13k9", "1,2,3,4,5,6,7,8,9,9")
    assert result.total == 54 + 2


@pytest.mark.parametrize(
    ("line", "passed", "tn"),
    [
        ("l5r 3k2 vs 15", True, 15),  # rule L4: 8 + 7 = 15 meets 15
        ("l5r 3k2 vs 15 raises 1", False, 20),  # rule L4: a raise: TN 20
        ("l5r 3k2 vs 5 2 raises", True, 15),
    ],
)
def test_target_numbers_and_raises(line: str, passed: bool, tn: int) -> None:
    result = roll(line, "8,2,7")
    assert result.outcome is not None
    assert result.outcome.passed is passed
    assert fields(result)["tn"] == tn


def test_keeping_more_than_rolled_is_refused() -> None:
    # rule L2
    with pytest.raises(DiceSyntaxError, match="keep no more dice"):
        dicecli.parse("l5r 3k5")


def test_the_plain_line() -> None:
    # rules L1, L2, L4
    assert plain_line(roll("l5r 2k1 vs 15", "10,6,3")) == (
        "16\tl5r 2k1 vs 15\t[10!, 6, ~3~] vs TN 15 => success"
    )


@functools.cache  # examples repeat a pool with another TN: counted once (read-only)
def brute_force(rolled: int, kept: int, explodes: bool, depth: int = 2) -> dict[int, Fraction]:
    """Every sequence of faces, each die followed ``depth`` 10s deep (rules L1, L2): the
    totals up to 10 * depth + 9 need no deeper die (every die of such a total is at most
    the total), so those are exact; chains deeper are left out."""
    one: dict[int, Fraction] = {}

    def die(value: int, p: Fraction, left: int) -> None:
        for face in range(1, 11):
            if face == 10 and explodes and left > 0:
                die(value + 10, p / 10, left - 1)
            elif face < 10 or not explodes:
                one[value + face] = one.get(value + face, Fraction(0)) + p / 10

    die(0, Fraction(1), depth)
    totals: dict[int, Fraction] = {}
    for values in itertools.product(one, repeat=rolled):
        p = Fraction(1)
        for v in values:
            p *= one[v]
        total = sum(sorted(values, reverse=True)[:kept])
        totals[total] = totals.get(total, Fraction(0)) + p
    return totals


@settings(max_examples=examples(30))
@given(st.integers(1, 3), st.integers(1, 3), st.booleans(), st.integers(2, 21))
def test_odds_equal_the_count(rolled: int, kept: int, explodes: bool, tn: int) -> None:
    # rules L1, L2, L4: failing a TN up to 21 needs no die past two 10s
    kept = min(kept, rolled)
    counted = brute_force(rolled, kept, explodes)
    failure = sum((p for total, p in counted.items() if total < tn), Fraction(0))
    line = f"l5r {rolled}k{kept}" + ("" if explodes else " unskilled") + f" vs {tn}"
    assert dict(dicecli.odds(line).chances)["failure"] == failure


@settings(max_examples=examples(30))
@given(st.integers(1, 2), st.integers(1, 2), st.integers(2, 79))
def test_high_target_numbers_are_exact(rolled: int, kept: int, tn: int) -> None:
    # rules L1, L2, L4: TNs up to 79 against every face sequence seven 10s deep,
    # past the six 10s the odds once followed
    kept = min(kept, rolled)
    counted = brute_force(rolled, kept, True, depth=7)
    failure = sum((p for total, p in counted.items() if total < tn), Fraction(0))
    chances = dict(dicecli.odds(f"l5r {rolled}k{kept} vs {tn}").chances)
    assert chances == {"success": 1 - failure, "failure": failure}


@settings(max_examples=examples(20))
@given(st.integers(1, 3), st.integers(1, 3))
def test_every_row_is_exact_and_the_rest_is_small(rolled: int, kept: int) -> None:
    # rules L1, L2: each total up to 39 against the count three 10s deep; what the
    # table leaves out is its complement, exactly, and below the precision
    kept = min(kept, rolled)
    counted = brute_force(rolled, kept, True, depth=3)
    found = dicecli.odds(f"l5r {rolled}k{kept}")
    assert found.distribution is not None
    rows = found.distribution.as_dict()
    assert {t: p for t, p in rows.items() if t <= 39} == {
        t: p for t, p in counted.items() if t <= 39
    }
    assert 0 < found.distribution.residue < PRECISION
    assert sum(rows.values()) + found.distribution.residue == 1
    bound = re.search(r"a total above (\d+) ", found.notes[0])
    assert bound is not None
    assert 0 <= int(bound[1]) - found.distribution.max < 10


def test_a_single_die_reaches_a_high_tn_exactly() -> None:
    # rule L1: one die reaches 125 or more when its first twelve faces are 10s, then a
    # 5 or more; or its first 12 are 10s and the 13th a 10 too: (1/10)**12 * 6/10
    chances = dict(dicecli.odds("l5r 1k1 vs 125").chances)
    assert chances["success"] == Fraction(1, 10) ** 12 * Fraction(6, 10)


def test_the_ten_dice_rule_bonus_shifts_the_odds() -> None:
    # rule L3: 13k9 is 10k10 + 2: the same chances at a TN 2 higher
    assert dict(dicecli.odds("l5r 13k9 vs 72").chances) == dict(
        dicecli.odds("l5r 10k10 vs 70").chances
    )


def test_an_unreachable_tn_is_refused_for_odds() -> None:
    with pytest.raises(RuleError, match="TN above 300"):
        dicecli.odds("l5r 2k1 vs 301")


@settings(max_examples=examples(50))
@given(st.integers(1, 40), st.integers(1, 40), st.booleans(), st.integers(0, 60), st.integers(0, 4))
def test_a_line_parses_back(rolled: int, kept: int, unskilled: bool, tn: int, raises: int) -> None:
    kept = min(kept, rolled) if rolled < 10 else kept
    raises = 0 if unskilled else raises  # rule L4: an unskilled roll calls none
    line = (
        f"l5r {rolled}k{kept}" + (" unskilled" if unskilled else "") + f" vs {tn} raises {raises}"
    )
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


@pytest.mark.parametrize(
    ("line", "suggestion"), [("l5r 6d10k3", "l5r 6k3"), ("l5r 6 k3", "l5r 6k3")]
)
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint
