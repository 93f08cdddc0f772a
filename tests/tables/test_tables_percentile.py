"""Issue 28: d100 tables copied from books: ``00`` is 100 (percentile dice read 00 as
100) and ``96-00`` is a range up to it; a range that runs backwards gets an error that
suggests the right form."""

from __future__ import annotations

import pytest

from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.rolling.sources import GivenSource, Roller
from dicecli.tables.draw import draw
from dicecli.tables.load import parse_book

BOOK = parse_book(
    """
[wild]
roll = "d100"
[wild.entries]
"01-50" = "nothing"
"51-95" = "a wolf"
"96-00" = "a dragon"

[crit]
roll = "d100"
[crit.entries]
"01-99" = "a hit"
"00" = "a critical"
""",
    "book.toml",
)


def key_for(table: str, face: str) -> object:
    result = draw(BOOK, table, Roller(GivenSource.from_text(face)), Environment())
    assert result.outcome is not None
    return dict(result.outcome.fields)["key"]


def test_00_closes_a_range_at_100() -> None:
    assert key_for("wild", "100") == "96-00"
    assert key_for("wild", "96") == "96-00"
    assert key_for("wild", "95") == "51-95"
    assert key_for("wild", "1") == "01-50"


def test_00_alone_is_100() -> None:
    assert key_for("crit", "100") == "00"
    assert key_for("crit", "99") == "01-99"


def error_of(text: str) -> str:
    with pytest.raises(DiceError) as caught:
        parse_book(text, "t.toml")
    return str(caught.value)


def test_a_backwards_range_suggests_the_right_form() -> None:
    text = '[a]\nroll = "d20"\n[a.entries]\n"1-10" = "x"\n"20-11" = "y"\n'
    assert error_of(text).endswith("entry '20-11': the range runs backwards: write 11-20")


def test_00_on_a_roll_that_never_reaches_100_says_what_00_means() -> None:
    text = '[a]\nroll = "d20"\n[a.entries]\n"1-10" = "x"\n"11-00" = "y"\n'
    assert error_of(text).endswith(
        "entry '11-00': the range runs backwards: 00 stands for 100 only when the roll's "
        'highest value is 100 (roll = "d100"); else write 11-20'
    )
