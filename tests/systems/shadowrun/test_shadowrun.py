"""Shadowrun 5e rules S1-S5 with given dice, and exact odds against brute-force
enumeration (Hypothesis over pool, threshold and limit).

Rule numbers (S1, S2 ...) cite ``docs/rules.md``.
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
from dicecli.game import PRECISION, plain_line
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


def test_5s_and_6s_are_hits() -> None:
    # rule S1
    result = roll("sr 5", "5,6,4,1,2")
    assert result.total == 2
    assert verdict(result) == "2 hits"


def test_more_than_half_ones_is_a_glitch() -> None:
    # rule S2: 3 ones of 4 dice with a hit: a glitch; 2 of 4: none
    assert verdict(roll("sr 4", "1,1,1,5")) == "1 hit, glitch"
    assert fields(roll("sr 4", "1,1,5,5"))["glitch"] is False


def test_a_glitch_without_a_hit_is_critical() -> None:
    # rule S2
    result = roll("sr 4", "1,1,1,2")
    assert verdict(result) == "critical glitch"
    assert fields(result)["critical_glitch"] is True


@pytest.mark.parametrize(
    ("faces", "said", "passed"),
    [
        ("5,6,5,1", "success, 1 net hit", True),  # rule S3: 3 hits vs 2
        ("5,6,2,1", "success, 0 net hits", True),  # rule S3: the threshold met
        ("5,2,2,3", "failure, 1 hit", False),
        ("1,1,1,2", "critical glitch", False),
    ],
)
def test_thresholds(faces: str, said: str, passed: bool) -> None:
    result = roll("sr 4 vs 2", faces)
    assert verdict(result) == said
    assert result.outcome is not None
    assert result.outcome.passed is passed


def test_edge_rolls_6s_again() -> None:
    # rule S4: 6 -> 6 -> 3 is two hits; then 5: three hits
    result = roll("sr 2 edge", "6,6,3,5")
    assert result.total == 3
    assert len(result.dice) == 4


def test_edge_dice_do_not_count_towards_a_glitch() -> None:
    # rule S2 (dicecli's reading): pool 2: 6 -> 1, then 1: one 1 of the pool's 2 dice
    assert fields(roll("sr 2 edge", "6,1,1"))["glitch"] is False


def test_a_limit_caps_hits_unless_edge() -> None:
    # rule S5: 4 hits, limit 2
    assert roll("sr 4 limit 2", "5,5,6,6").total == 2
    assert roll("sr 4 limit 2 edge", "5,5,5,5").total == 4


@pytest.mark.parametrize("line", ["sr 4 limit 0 vs 1", "sr 4 limit -1", "sr 4 limit 1-1"])
def test_a_limit_below_one_is_refused(line: str) -> None:
    # rule S5: once, limit -1 gave -1 hits, and limit 0 a critical glitch beside a 5
    with pytest.raises(RuleError, match="a limit is at least 1"):
        roll(line, "1,1,1,5")
    with pytest.raises(RuleError, match="a limit is at least 1"):
        dicecli.odds(line)


def test_a_pool_out_of_range_is_refused() -> None:
    # rule S1
    with pytest.raises(RuleError, match="1 to 50 dice"):
        roll("sr 0", "")
    with pytest.raises(DiceSyntaxError, match="not 8d6"):
        dicecli.parse("sr 8d6")


def test_the_plain_line() -> None:
    # rules S1, S3
    assert (
        plain_line(roll("sr 3 vs 1", "5,1,2"))
        == "1\tsr 3 vs 1\t[5, 1, 2] vs 1 => success, 0 net hits"
    )


def by_count(pool: int, threshold: int, limit: int | None) -> dict[str, Fraction]:
    """All 6**pool rolls (rules S1-S3, S5)."""
    count: Counter[str] = Counter()
    rolls = list(itertools.product(range(1, 7), repeat=pool))
    for faces in rolls:
        hits = sum(f >= 5 for f in faces)
        if limit is not None:
            hits = min(hits, limit)
        glitched = 2 * faces.count(1) > pool
        count["success"] += hits >= threshold
        count["glitch"] += glitched
        count["critical_glitch"] += glitched and hits == 0
    return {
        name: Fraction(count[name], len(rolls)) for name in ("success", "glitch", "critical_glitch")
    }


@settings(max_examples=examples(60))
@given(st.integers(1, 5), st.integers(0, 4), st.one_of(st.none(), st.integers(1, 3)))
def test_odds_equal_the_count(pool: int, threshold: int, limit: int | None) -> None:
    # rules S1-S3, S5
    line = f"sr {pool}" + (f" limit {limit}" if limit is not None else "") + f" vs {threshold}"
    assert dict(dicecli.odds(line).chances) == by_count(pool, threshold, limit)


def edge_by_count(pool: int, threshold: int, depth: int) -> Fraction:
    """P(hits < threshold) with Edge, every chain of 6s followed ``depth`` dice deep:
    enough, since each die of a chain adds a hit (rule S4)."""

    def die(left: int) -> dict[int, Fraction]:
        found: dict[int, Fraction] = {}
        for face in range(1, 7):
            p = Fraction(1, 6)
            if face == 6 and left > 0:
                for k, q in die(left - 1).items():
                    found[1 + k] = found.get(1 + k, Fraction(0)) + p * q
            else:
                found[int(face >= 5)] = found.get(int(face >= 5), Fraction(0)) + p
        return found

    one = die(depth)
    total = {0: Fraction(1)}
    for _ in range(pool):
        step: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + p * q
        total = step
    return sum((p for hits, p in total.items() if hits < threshold), Fraction(0))


@settings(max_examples=examples(30))
@given(st.integers(1, 4), st.integers(0, 4))
def test_edge_success_odds_equal_the_count(pool: int, threshold: int) -> None:
    # rule S4: short of the threshold needs chains shorter than it
    chances = dict(dicecli.odds(f"sr {pool} edge vs {threshold}").chances)
    assert chances["success"] == 1 - edge_by_count(pool, threshold, depth=threshold + 1)
    assert chances["glitch"] == by_count(pool, 0, None)["glitch"]  # rule S2


@settings(max_examples=examples(30))
@given(st.integers(1, 60))
def test_one_edge_die_reaches_any_threshold_exactly(threshold: int) -> None:
    # rule S4: one die makes `threshold` hits or more when its first threshold - 1
    # dice show 6 and the next a 5 or 6, however far past the table's usual bound
    chances = dict(dicecli.odds(f"sr 1 edge vs {threshold}").chances)
    assert chances["success"] == Fraction(1, 6) ** (threshold - 1) * Fraction(2, 6)


@settings(max_examples=examples(20))
@given(st.integers(1, 3))
def test_edge_rows_are_exact_and_the_rest_is_small(pool: int) -> None:
    # rule S4: each count up to 8 hits against every chain 9 dice deep; the table leaves
    # out exactly its complement, below the precision; the mean is 2/5 a die, exactly
    found = dicecli.odds(f"sr {pool} edge")
    assert found.distribution is not None
    rows = found.distribution.as_dict()
    for hits in range(9):
        below = edge_by_count(pool, hits + 1, depth=9) - edge_by_count(pool, hits, depth=9)
        assert rows.get(hits, Fraction(0)) == below
    assert 0 < found.distribution.residue < PRECISION
    assert sum(rows.values()) + found.distribution.residue == 1
    assert f"more than {found.distribution.max} hits" in found.notes[-1]
    assert dict(found.expectations)["mean_hits"] == Fraction(2, 5) * pool


@settings(max_examples=examples(50))
@given(st.integers(1, 50), st.one_of(st.none(), st.integers(0, 9)), st.booleans())
def test_a_line_parses_back(pool: int, threshold: int | None, edge: bool) -> None:
    line = (
        f"sr {pool}"
        + (" edge" if edge else "")
        + (f" vs {threshold}" if threshold is not None else "")
    )
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


@pytest.mark.parametrize(
    ("line", "suggestion"), [("sr 8d6 vs 2", "sr 8 vs 2"), ("sr 8 (3)", "sr 8 vs 3")]
)
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint


def test_dice_maidens_joined_spelling() -> None:
    # rule S1: sr6 is sr 6
    assert dicecli.parse("sr6 vs 2").body == dicecli.parse("sr 6 vs 2").body
    assert roll("SR3", "5,6,1").total == 2
