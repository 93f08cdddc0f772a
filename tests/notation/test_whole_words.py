"""Errors that keep words whole (issue 26): a caret and an ``unexpected '...'`` message
point at the start of the word the grammar stopped in, never inside it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecli import DiceSyntaxError, parse
from dicecli.errors import DiceError


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("2d20 keep -1", "unexpected 'keep'", 5),  # k reads as keep; the word is keep
        ("4d6kh3 STR", "unexpected 'STR'", 7),  # S reads as sort; the word is STR
        ("1d6 rolling", "unexpected 'rolling'", 4),
        ("2d6 foo", "unexpected 'foo'", 4),
    ],
)
def test_an_error_names_the_whole_word(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)


def test_the_caret_stands_under_the_first_letter() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse("2d20 keep -1")
    assert caught.value.show().splitlines()[1:] == ["  2d20 keep -1", "       ^"]


_PIECES = ["2d6", "d20", "kh", "k", "eep", "STR", " ", "3", "r", "o", "l", "s", "x", "+"]
_PIECES += ["!", "f", "min", "cs", "u", "dl", "ro", "vs", "15", "(", ")", "e6", "t7"]


@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
def test_a_quoted_error_never_starts_inside_a_word(text: str) -> None:
    try:
        parse(text)
    except DiceSyntaxError as error:
        quoting = error.message.startswith("unexpected") or ", found '" in error.message
        where = error.position
        if quoting and where is not None and text[where : where + 1].isalpha():
            assert where == 0 or not text[where - 1].isalpha()
    except DiceError:
        pass  # refused otherwise (a name that means nothing): not a syntax error


@pytest.mark.parametrize(
    ("line", "same_as"),
    [
        # a pool or skill ending in a die, then a game's word starting with a modifier's
        # letter: once read as r (re-roll) or s (sort) and a stray rest, and refused
        ("cod d2 rote", "cod (d2) rote"),
        ("coc 40+d10 regular", "coc (40+d10) regular"),
        ("yz base d2 skill 1", "yz base (d2) skill 1"),
    ],
)
def test_a_word_after_a_die_is_not_read_as_a_modifier(line: str, same_as: str) -> None:
    assert parse(line).body == parse(same_as).body


@pytest.mark.parametrize(("line", "same_as"), [("4d6 r1kh3", "4d6r1kh3"), ("4d6 ro", "4d6ro")])
def test_a_modifier_after_a_space_still_reads(line: str, same_as: str) -> None:
    assert parse(line).body == parse(same_as).body
