"""The work estimates that decide what the odds answer and what they refuse (issue 25),
in the estimates' own units, never by time: ``bench/bench_estimates.py`` measures them
against the CPU time; here, the questions that finish within a second estimate under
the budget, the ones that do not estimate over it, and the newly answered questions are
exact (closed forms for their extreme totals, brute force for small analogues)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from brute import brute_distribution
from hypothesis import given
from hypothesis import strategies as st

from dicecli.notation.reader import parse
from dicecli.probability import weights
from dicecli.probability.engine import clear_caches
from dicecli.probability.keep import TRACKED_STEP_WORK, keep_identical_work
from dicecli.probability.report import odds
from dicecli.probability.weights import (
    MAX_QUESTION_WORK,
    MAX_WORK,
    OddsTooBigError,
    multiply_work,
)


def fair(sides: int) -> dict[int, int]:
    return dict.fromkeys(range(1, sides + 1), 1)


def identity(value: int) -> int:
    return value


def estimated(text: str) -> int:
    """The work charged to the question ``text`` (its budgets lifted, so that every step
    is estimated and none refused)."""
    parse(text)
    clear_caches()
    saved = weights.MAX_WORK, weights.MAX_QUESTION_WORK
    weights.MAX_WORK = weights.MAX_QUESTION_WORK = 10**15
    try:
        odds(text)
        return weights._ACCOUNT.spent
    finally:
        weights.MAX_WORK, weights.MAX_QUESTION_WORK = saved


# --- the budget: what finishes within a second estimates under it ------------------------


@pytest.mark.parametrize(
    ("sides", "units", "keep_highest", "kept"),
    [
        (6, 900, True, 450),  # 900d6kh450: about 0.6 s
        (100, 100, True, 99),  # 100d100dl: 141 ms
        (20, 256, True, 128),  # 256d20kh128: 63 ms
    ],
)
def test_keeps_that_finish_within_a_second_estimate_under_the_budget(
    sides: int, units: int, keep_highest: bool, kept: int
) -> None:
    work = keep_identical_work(fair(sides), units, keep_highest, kept, identity)
    assert work <= MAX_WORK


@pytest.mark.parametrize(
    ("sides", "units", "keep_highest", "kept"),
    [
        (6, 2000, True, 1000),  # several seconds of running sums over 5,000 outcomes
        (6, 1000, True, 999),  # 1000d6dl1
        (6, 1000, True, 500),  # 0.75-0.85 s quiet, past a second on a busy machine
        (20, 1000, True, 500),
    ],
)
def test_keeps_of_seconds_estimate_over_the_budget(
    sides: int, units: int, keep_highest: bool, kept: int
) -> None:
    assert keep_identical_work(fair(sides), units, keep_highest, kept, identity) > MAX_WORK


def test_exploding_dice_kept_from_that_finish_quickly_estimate_under_the_budget() -> None:
    """``20d6!dl1`` (82 ms measured, issue 25) was refused at 886 million."""
    assert estimated("20d6!dl1") < MAX_QUESTION_WORK // 2


def test_the_different_units_walk_charges_its_steps_to_the_question() -> None:
    """It counted its steps against its own cap only: a question of several such walks
    was never refused as a whole, and its estimate said nothing of them."""
    one = estimated("{3d6, 2d8, d10, d12}kh2")
    assert one >= 1_000 * TRACKED_STEP_WORK  # thousands of steps
    assert estimated("{3d6, 2d8, d10, d12}kh2 + {3d6, 2d8, d10, d12}kh1") > one


@given(st.integers(1, 100_000), st.integers(1, 100_000), st.integers(1, 100_000))
def test_a_product_costs_more_as_either_factor_grows(small: int, big: int, more: int) -> None:
    assert multiply_work(small, big) == multiply_work(big, small)
    assert multiply_work(small + more, big) >= multiply_work(small, big)


@given(st.integers(8, 10_000), st.integers(2, 100))
def test_a_lopsided_product_costs_less_than_squaring_its_bigger_factor(
    small: int, times: int
) -> None:
    big = small * times
    assert multiply_work(small, big) < multiply_work(big, big)


# --- the newly answered questions are exact -------------------------------------------


def _at_least_of(sides: int, units: int, needed: int) -> Fraction:
    """The chance that at least ``needed`` of ``units`` fair dice show their top face."""
    ways = sum(math.comb(units, k) * (sides - 1) ** (units - k) for k in range(needed, units + 1))
    return Fraction(ways, sides**units)


@pytest.mark.parametrize(
    ("text", "sides", "units", "kept"),
    [("100d100dl", 100, 100, 99), ("256d20kh128", 20, 256, 128)],
)
def test_a_newly_answered_keep_has_its_extreme_totals_exactly(
    text: str, sides: int, units: int, kept: int
) -> None:
    """The top total needs at least ``kept`` dice on the top face; the lowest, every die
    on 1."""
    found = odds(text).distribution
    assert found is not None
    chances = found.as_dict()
    assert chances[kept * sides] == _at_least_of(sides, units, kept)
    assert chances[kept] == Fraction(1, sides**units)
    assert sum(chances.values()) == 1


@pytest.mark.slow
def test_900d6kh450_is_answered_exactly() -> None:
    found = odds("900d6kh450").distribution
    assert found is not None
    chances = found.as_dict()
    assert chances[2700] == _at_least_of(6, 900, 450)
    assert chances[450] == Fraction(1, 6**900)
    assert sum(chances.values()) == 1


def test_20d6_exploding_dropping_the_lowest_is_answered_to_its_precision() -> None:
    found = odds("20d6!dl1").distribution
    assert found is not None
    assert 0 < found.residue <= Fraction(1, 10**12)
    # The lowest total keeps 19 ones: every die shows 1.
    assert found.as_dict()[19] == Fraction(1, 6**20)


@pytest.mark.parametrize("text", ["5d6kh2", "6d4dl1", "7d3kh3", "{2d4, d6}kh2", "{d4, d6, d8}dl1"])
def test_small_analogues_match_brute_force(text: str) -> None:
    """Each small form goes the same ways as its big counterpart (fair dice kept from,
    different units) and matches rolling every way; exploding dice kept from a count
    are checked against following every tuple of units
    (``test_probability_keep.py``)."""
    clear_caches()
    found = odds(text).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(text, max_dice=10)


def test_a_question_far_over_the_budget_is_refused_before_its_estimate_is_complete(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``10d100!>5dl100dl10`` (found by the fuzz profile, seed 5): each of its
    thousands of cases of added dice has an estimate of its own; adding them all up
    used to take 52 s before the refusal. The sum stops once past the budget: only a
    few cases are estimated."""
    from dicecli.probability import keep

    estimated = 0
    estimate = keep._keep_over_two_work

    def counted(*args: object) -> int:
        nonlocal estimated
        estimated += 1
        return estimate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(keep, "_keep_over_two_work", counted)
    with pytest.raises(OddsTooBigError, match="exactly here"):
        odds("10d100!>5dl100dl10")
    assert estimated < 10


# --- exploding dice: each part's estimate follows the sizes it works on -------------------


@pytest.mark.parametrize(
    "text",
    [
        "d20!>=2",  # about 0.2-0.3 s; estimated 551 million at first
        "6d100kl2!>=20",  # about 0.27 s, refused at 900 million: its cases' totals
        # are those of the two lowest dice, among the stopping ones (1-19), not 1-100
        "10d20kl2!>=5",  # about 0.12 s
        "80d6!",  # about 0.5 s, refused at 826 million
    ],
)
def test_exploding_dice_that_finish_within_a_second_estimate_under_the_budget(text: str) -> None:
    assert estimated(text) < MAX_QUESTION_WORK


def test_exploding_dice_of_seconds_are_refused() -> None:
    """``10d100kl2!>=4`` takes about 18 s: refused before its work, by its estimate."""
    with pytest.raises(OddsTooBigError, match="estimated"):
        odds("10d100kl2!>=4")
