"""The quick way for plain sums (:mod:`dicecli.plain_sums`) against the general way
(parse, roll, render): every line the quick way takes must be written byte for byte as
the general way writes it, and draw the same faces, so that a stream of lines piped
with a seed comes out the same whichever way each line went."""

from __future__ import annotations

import io
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli import app, plain_sums
from dicecli.app import RunOptions, Streams, run_lines
from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.notation.reader import parse
from dicecli.rolling.sources import Roller
from dicecli.status import ExitStatus


def _run(lines: list[str], options: RunOptions, quick: bool) -> tuple[str, str, ExitStatus]:
    """stdout, stderr and the exit status of ``lines`` piped, the quick way taking the
    plain sums it reads from the first line on, or (``quick`` False) no line at all."""
    stdout, stderr = io.StringIO(), io.StringIO()
    parse.cache_clear()  # a line parsed before goes the general way, which has its tree
    with patch.object(app, "PLAIN_SUMS_AFTER", 1):
        if quick:
            status = run_lines(lines, options, Streams(stdout=stdout, stderr=stderr))
        else:
            with patch.object(plain_sums, "read", lambda text: None):
                status = run_lines(lines, options, Streams(stdout=stdout, stderr=stderr))
    return stdout.getvalue(), stderr.getvalue(), status


_SPACES = st.sampled_from(["", "", " ", "  ", "\t"])
_COUNTS = st.one_of(
    st.just(""), st.integers(0, 1_200).map(str), st.sampled_from(["0", "01", "007", "999"])
)
_SIDES = st.one_of(
    st.integers(0, 12_000).map(str),
    st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "100", "06", "0", "9999"]),
)
_NUMBERS = st.lists(
    st.tuples(
        _SPACES,
        st.sampled_from(["+", "-"]),
        _SPACES,
        st.one_of(st.integers(0, 10**10).map(str), st.sampled_from(["0", "007"])),
    ).map("".join),
    max_size=4,
)
plain_lines = st.builds(
    lambda before, count, d, sides, numbers, after: (
        f"{before}{count}{d}{sides}{''.join(numbers)}{after}"
    ),
    _SPACES,
    _COUNTS,
    st.sampled_from(["d", "D"]),
    _SIDES,
    _NUMBERS,
    _SPACES,
)
"""Plain sums and lines next to them: counts and sides out of bounds or of a special
die (``d3``, one ``d20``), leading zeros, big numbers, spaces and tabs anywhere."""

other_lines = st.sampled_from(
    ["4d6kh3", "2d6+1d4", "d20+5", "3d6 >= 10", "2d6 # a comment", "d%", "4dF", "2d6*2", "x"]
)


@settings(max_examples=examples(300))
@given(st.lists(st.one_of(plain_lines, other_lines), min_size=1, max_size=8), st.integers(0, 99))
def test_a_stream_comes_out_as_the_general_way_writes_it(lines: list[str], seed: int) -> None:
    assert _run(lines, RunOptions(seed=seed), quick=True) == _run(
        lines, RunOptions(seed=seed), quick=False
    )


NEAR_MISSES = [
    "2d3",
    "d3+1",
    "1d20+5",
    "d20",
    "2d20-1",
    "0d6+1",
    "2d0",
    "06d06+007",
    "2d6\t+ 1",
    " 3D743 - 4 ",
    "1000d6",
    "2d10000",
    "d1",
    "2d6 # a comment",
    "d6" + "+1" * 999,  # 1,000 terms: the limit (docs/limits.md), refused
    "d6" + "+1" * 498,  # 999 characters
    "d6" + " " * 9_999,  # 10,001 characters: the limit, refused
]
"""Lines at the edges of what the quick way takes: each must come out as the general
way writes it (or refuses it), whichever way it goes."""


@pytest.mark.parametrize("seed", range(20))
def test_lines_at_the_edges_come_out_as_the_general_way_writes_them(seed: int) -> None:
    assert _run(NEAR_MISSES, RunOptions(seed=seed), quick=True) == _run(
        NEAR_MISSES, RunOptions(seed=seed), quick=False
    )


def test_the_budget_of_dice_is_each_lines() -> None:
    lines = ["999d9999"] * 11  # 10,989 dice: more than one roll may use
    assert _run(lines, RunOptions(seed=1), quick=True) == _run(
        lines, RunOptions(seed=1), quick=False
    )


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("5d20+266", (5, 20, (("+", 266),))),
        ("  3D743 - 4 +\t2 ", (3, 743, (("-", 4), ("+", 2)))),
        ("d6", (1, 6, ())),
        ("2d20", (2, 20, ())),
        ("999d9999-999999999", (999, 9999, (("-", 999_999_999),))),
    ],
)
def test_plain_sums_are_read(text: str, read: plain_sums.PlainSum) -> None:
    assert plain_sums.read(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "d20",  # a lone d20 marks its natural 20 and 1
        "1d20+5",
        "2d3",  # the D3 of rule N4
        "0d6",  # refused, with the general way's message
        "2d0",
        "1000d6",  # more digits than the quick way takes
        "2d10000",
        "2d6+1234567890",
        "\u0663d6",  # an Arabic-Indic 3: int() reads it, the grammar does not
        "2d6\u3000+1",  # an ideographic space
        "2d6+-1",
        "2d6+",
        "2d6+1d4",
        "2d6 # a comment",
        "2d6;3d6",
        "d6" + "+1" * 499,  # 1,000 characters: a line that long could reach a limit
    ],
)
def test_other_lines_go_the_general_way(text: str) -> None:
    assert plain_sums.read(text) is None


def test_a_plain_sum_is_rolled_without_the_general_way() -> None:
    def general(*args: object) -> None:
        raise AssertionError("rolled the general way")

    with patch.object(app, "roll", general):
        stdout, stderr, status = _run(["5d20+266", "3d743 - 4"], RunOptions(seed=1), True)
    assert (stderr, status) == ("", ExitStatus.OK)
    assert stdout == _run(["5d20+266", "3d743 - 4"], RunOptions(seed=1), quick=False)[0]


@pytest.mark.parametrize(
    "options",
    [
        RunOptions(seed=1, json=True),
        RunOptions(given="1,2,3,4,5"),
        RunOptions(seed=1, times=2),
        RunOptions(seed=1, summary=True),
        RunOptions(seed=1, odds=True),
        RunOptions(seed=1, environment=EMPTY_ENVIRONMENT.with_dialect("dicemaiden")),
    ],
)
def test_sessions_showing_more_than_plain_results_take_no_quick_way(options: RunOptions) -> None:
    with patch.object(plain_sums, "roll", _no_quick_way):
        _, stderr, status = _run(["5d20+266"], options, quick=True)
    assert (stderr, status) == ("", ExitStatus.OK)


def test_a_pipe_of_a_few_lines_goes_the_general_way() -> None:
    lines = [f"2d6+{number}" for number in range(20)]
    rolled: list[str] = []
    real = plain_sums.rolled_line

    def counted(text: str, roller: Roller) -> str | None:
        rolled.append(text)
        return real(text, roller)

    stdout = io.StringIO()
    parse.cache_clear()
    with patch.object(plain_sums, "rolled_line", counted):
        run_lines(lines, RunOptions(seed=1), Streams(stdout=stdout))
    assert rolled == lines[app.PLAIN_SUMS_AFTER - 1 :]
    assert stdout.getvalue() == _run(lines, RunOptions(seed=1), quick=False)[0]


def test_a_line_parsed_before_goes_the_general_way() -> None:
    general = _run(["3d8+1", "4d10-2"], RunOptions(seed=4), quick=False)
    with patch.object(plain_sums, "roll", _no_quick_way), patch.object(app, "PLAIN_SUMS_AFTER", 1):
        stdout = io.StringIO()
        status = run_lines(["3d8+1", "4d10-2"], RunOptions(seed=4), Streams(stdout=stdout))
    assert (stdout.getvalue(), status) == (general[0], ExitStatus.OK)


def _no_quick_way(*args: object) -> None:
    raise AssertionError("rolled the quick way")
