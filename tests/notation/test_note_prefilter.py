"""The quick look before the notes on other rollers' readings (issue 25): a line whose
only note characters are keeps' ``k`` is let through without loading
:mod:`dicecli.notation.other_readings` only when that module would find nothing to
look at in it (its ``_MAYBE`` pattern finds nothing), so no note is ever lost."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dicecli.notation import other_readings
from dicecli.notation.dialects import _lone_keeps_only, line_notes

KEEP_TEXT = st.text(alphabet="kKdDhlHLm0123 \t\u0663+()#", max_size=16)


@given(KEEP_TEXT)
@example("2d20kh1")
@example("4d6kh3dl1")
@example("4d6dl1kh3")
@example("4d6dl1dh1 + 2d20kh1")
@example("4d6 k 3")
@example("4d6k\u06633")
@example("2d20kh1 # k3")
def test_a_line_let_through_has_nothing_the_notes_look_at(text: str) -> None:
    if _lone_keeps_only(text):
        assert other_readings._MAYBE.search(text.partition("#")[0]) is None
        assert other_readings.other_readings(text) == ()


@pytest.mark.parametrize("text", ["2d20kh1", "4d6kh3", "3d6kl1 + 2", "6d6dh2"])
def test_lone_keeps_are_let_through(text: str) -> None:
    assert _lone_keeps_only(text)


@pytest.mark.parametrize(
    "text", ["4d6k3", "4d6 k 3", "4d6kh2dl1", "4d6dl1kh2", "4d6dl1dh1 + d20kh1", "4d6kh3!"]
)
def test_keeps_the_notes_look_at_are_not(text: str) -> None:
    assert not _lone_keeps_only(text)


def test_a_bare_keep_keeps_its_note() -> None:
    assert line_notes("4d6k3", None) == other_readings.other_readings("4d6k3") != ()
