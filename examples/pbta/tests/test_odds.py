"""The exact odds of a move equal a count over all 36 rolls of 2d6."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dicecli.game import EMPTY_ENVIRONMENT, ONE
from hypothesis import given
from hypothesis import strategies as st

from helpers import RULES, brute_force, brute_force_totals, parse


def odds_of(line: str) -> dict[str, Fraction]:
    return dict(RULES.odds(parse(line), EMPTY_ENVIRONMENT, line).chances)


@pytest.mark.parametrize("stat", range(-3, 5))
def test_the_chances_are_the_count_over_36_rolls(stat: int) -> None:
    line = f"pbta {stat:+d}"
    assert odds_of(line) == brute_force(stat)
    odds = RULES.odds(parse(line), EMPTY_ENVIRONMENT, line)
    assert odds.distribution is not None
    assert odds.distribution.as_dict() == brute_force_totals(stat)
    assert odds.exact


@given(st.integers(-30, 30))
def test_the_chances_for_any_stat(stat: int) -> None:
    chances = odds_of(f"pbta {stat}")
    assert chances == brute_force(stat)
    assert chances["strong_hit"] + chances["weak_hit"] + chances["miss"] == ONE


def test_the_chances_in_display_order() -> None:
    assert [name for name, _ in RULES.odds(parse("pbta"), EMPTY_ENVIRONMENT, "pbta").chances] == [
        "success",
        "strong_hit",
        "weak_hit",
        "miss",
    ]


def test_a_named_stat_takes_its_value() -> None:
    env = EMPTY_ENVIRONMENT.with_value("Hard", 2)
    odds = RULES.odds(parse("pbta roll+Hard"), env, "pbta roll+Hard")
    assert dict(odds.chances) == brute_force(2)


def test_a_stat_with_a_die_mixes_over_its_faces() -> None:
    chances = odds_of("pbta +d4")
    expected = {
        band: sum((brute_force(stat)[band] for stat in range(1, 5)), Fraction(0)) / 4
        for band in ("success", "strong_hit", "weak_hit", "miss")
    }
    assert chances == expected
