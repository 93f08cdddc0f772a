"""Long odds tables at a terminal (issue 24, found by the fuzz profile): a flat table
has no rare rows to leave out, so ``odds d10000`` drew 10,000 rows (8.7 s of CPU) and
``odds wfb scatter 2d6666`` in the REPL 13,332 (21 s, 700 MB). Without ``--full`` a
table now shows at most :data:`SHORT_TABLE_MOST` rows, the likeliest run of them."""

from __future__ import annotations

import io
import re
from fractions import Fraction

import pytest
from fuzz.harness import StepCounter
from rich.console import Console

import dicecli
from dicecli.probability.distribution import Distribution
from dicecli.render.terminal import (
    SHORT_TABLE_MOST,
    TerminalRenderer,
    _histogram,
    _integer_chances,
)


def odds_output(text: str, full: bool = False) -> str:
    stream = io.StringIO()
    console = Console(file=stream, width=100, color_system=None)
    TerminalRenderer(stream, console).odds(dicecli.odds(text), full)
    return stream.getvalue()


def odds_output_of(distribution: Distribution) -> str:
    stream = io.StringIO()
    Console(file=stream, width=100, color_system=None).print(
        _histogram(distribution, "value", None, under=False, full=False)
    )
    return stream.getvalue()


def value_rows(shown: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^ *(-?\d+) +\d+\.\d+%", shown, re.M)]


def test_a_flat_table_of_ten_thousand_rows_shows_sixty() -> None:
    shown = odds_output("d10000")
    rows = value_rows(shown)
    assert len(rows) == SHORT_TABLE_MOST == 60
    assert rows == list(range(rows[0], rows[0] + 60))  # one run of rows
    assert "9940 rarer rows (99.40% in all): --full shows them" in shown


def test_the_run_shown_is_the_likeliest() -> None:
    # 2d200: the totals near 201 are the likeliest; 171..230 and 172..231 hold as much
    # (the distribution is symmetric about 201), and the first such run is shown
    rows = value_rows(odds_output("2d200"))
    assert rows == list(range(171, 231))
    assert 201 in rows


def test_full_still_shows_every_row() -> None:
    assert len(value_rows(odds_output("d500", full=True))) == 500


def test_a_table_the_rare_rows_shorten_enough_is_as_before() -> None:
    assert len(value_rows(odds_output("10d6"))) == 51 - 26  # 26 rarer rows left out


def test_a_long_distribution_from_probabilities_has_its_integer_weights() -> None:
    probabilities = {value: Fraction(1, 6**3) for value in range(216)}
    found = Distribution.from_probabilities(probabilities)
    assert found.weights == (tuple([1] * 216), 216)
    plain = Distribution(tuple(sorted(probabilities.items())))  # without weights
    assert found == plain
    assert found.mean() == plain.mean()
    assert found.variance() == plain.variance()
    assert found.at_least_each() == plain.at_least_each()
    assert found.at_least(100) == plain.at_least(100)


def test_a_short_distribution_or_a_huge_denominator_has_none() -> None:
    assert Distribution.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 2)}).weights is None
    odd = {index: Fraction(1, 2**100 + index) for index in range(100)}
    assert Distribution.from_probabilities(odd).weights is None  # lcm past 4,096 bits


def test_a_long_table_is_cut_in_integers() -> None:
    """``odds 210d300`` at a terminal took 5 s: the table's sums and comparisons were
    of 62,791 fractions over a denominator of 1,700 bits (60d50: 488,000 profile
    events; 25,000 now, most of them the 60 rows shown)."""
    found = dicecli.odds("60d50")
    assert found.distribution is not None
    odds_output("2d6")  # imports, off the count
    with StepCounter(60_000):
        _histogram(found.distribution, "value", found, under=False, full=False)


def test_a_table_without_integer_weights_is_cut_as_one_with_them() -> None:
    with_weights = dicecli.odds("3d20").distribution
    assert with_weights is not None
    assert with_weights.weights is not None
    without = Distribution(with_weights.outcomes, with_weights.residue)
    assert _integer_chances(without) == (list(with_weights.weights[0]), 8000)
    shown = [odds_output_of(d) for d in (with_weights, without)]
    assert shown[0] == shown[1]


@pytest.mark.parametrize("text", ["3d6", "60d50", "d6!", "4d6kh3 - 2", "{1d6, 1d8}kh1"])
def test_the_chances_of_at_least_each_value_round_as_their_fractions(text: str) -> None:
    found = dicecli.odds(text).distribution
    assert found is not None
    exact = found.at_least_each()
    assert found.at_least_floats() == tuple(float(tail) for tail in exact)
    unweighted = Distribution(found.outcomes, found.residue)
    assert unweighted.at_least_floats() == tuple(float(tail) for tail in exact)
