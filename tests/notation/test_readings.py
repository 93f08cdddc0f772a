"""Issue 28, traps: a comparison after dice is read one of two ways by its spacing
(docs/grammar.md); when the other reading was plausible, a note says which was taken.
The expected notes are written from the issue; the property ties the module to the
grammar's own reading."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import dicecli
from dicecli.notation.readings import reading_note
from dicecli.render.terminal import TerminalRenderer


def test_a_check_that_always_passes_names_the_count_it_might_have_been() -> None:
    # rule N1: 10d6 totals 10 to 60, so ">= 4" cannot fail
    assert reading_note("10d6 >= 4") == (
        "10d6 always totals 4 or more: read as a check on the total; 10d6>=4, without "
        "spaces, counts the dice of 4 or more"
    )


def test_lopsided_spacing_says_how_it_was_read() -> None:
    assert reading_note("5d6 >=4") == (
        "read as counting the dice of 4 or more; 5d6 >= 4, with spaces, checks the total"
    )
    assert reading_note("5d6>= 4") == (
        "5d6 always totals 4 or more: read as a check on the total; 5d6>=4, without "
        "spaces, counts the dice of 4 or more"
    )


def test_a_count_no_die_can_reach_says_so() -> None:
    assert reading_note("2d6>=8") == (
        "no d6 rolls 8 or more: 2d6>=8 counts dice, and none can count; 2d6 >= 8, with "
        "spaces, checks the total"
    )


def test_lines_read_the_only_sensible_way_say_nothing() -> None:
    for line in ("10d6>=4", "2d20 >= 15", "d20+5 >= 15", "1d20 >= 15", "10d10>=7", "4d6kh3"):
        assert reading_note(line) is None, line


def test_the_terminal_shows_the_note_under_the_roll() -> None:
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, width=80, no_color=True))
    renderer.result(dicecli.roll("2d6>=8", given="1,6"))
    assert [line.rstrip() for line in stream.getvalue().splitlines()] == [
        "2d6>=8: [1, 6] = 0 successes",
        "  ⚠ no d6 rolls 8 or more: 2d6>=8 counts dice, and none can count; 2d6 >= 8,",
        "  with spaces, checks the total",
    ]


@given(
    count=st.integers(1, 12),
    sides=st.sampled_from([4, 6, 8, 10, 12, 20]),
    before=st.sampled_from(["", " "]),
    op=st.sampled_from([">=", "<=", ">", "<"]),
    after=st.sampled_from(["", " "]),
    target=st.integers(0, 30),
)
def test_the_note_names_the_reading_the_grammar_took(
    count: int, sides: int, before: str, op: str, after: str, target: int
) -> None:
    line = f"{count}d{sides}{before}{op}{after}{target}"
    note = reading_note(line)
    if note is None:
        return
    checked = dicecli.roll(line, seed=1).outcome is not None
    assert ("read as a check on the total" in note) == checked
    assert ("counts dice" in note or "read as counting" in note) == (not checked)
