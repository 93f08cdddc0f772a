"""Sets of values and rolls as d20 (Avrae) writes them: ``(1d4, 2+2, 3d6kl1)kh1`` is
the group ``{d4, 2 + 2, 3d6kl1}kh1`` (issue 26, part 1)."""

from __future__ import annotations

import pytest
from brute import brute_distribution
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, parse


@pytest.mark.parametrize(
    ("line", "group"),
    [
        ("(1d4, 2+2, 3d6kl1)kh1", "{1d4, 2+2, 3d6kl1}kh1"),
        ("(1, 3+3, 1d20)", "{1, 3+3, 1d20}"),
        ("(3d6,)", "{3d6}"),  # a trailing comma makes a set of one
        ("-1d8 + 4 - (3, 1d4)kh1", "-1d8 + 4 - {3, 1d4}kh1"),
        ("((1, 2))", "{1, 2}"),
        ("(max(1, 2), 3)kl1", "{max(1, 2), 3}kl1"),  # a function's comma is its own
        ("({2d6, d8}kh1, 4)", "{{2d6, d8}kh1, 4}"),
    ],
)
def test_a_set_is_a_group(line: str, group: str) -> None:
    assert parse(line) == parse(group)


@pytest.mark.parametrize("line", ["(2d6)", "(1+2)d6", "(2d6)[fire]", "max(1, 2)"])
def test_brackets_without_a_comma_read_as_before(line: str) -> None:
    assert "{" not in str(parse(line))


def test_a_set_keeps_the_groups_rules() -> None:
    with pytest.raises(DiceSyntaxError, match="a group cannot explode"):
        parse("(1d6, 2)!")


_ITEMS = st.sampled_from(["d4", "2", "d3+1", "2d2", "d2kh1"])


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(_ITEMS, min_size=1, max_size=3),
    st.booleans(),
    st.sampled_from(["", "kh1", "kl1", "dl1", "d1", ">=3", "t3"]),
)
def test_a_sets_odds_equal_brute_force(items: list[str], trailing: bool, after: str) -> None:
    comma = "," if trailing or len(items) == 1 else ""  # (3d6,): a set of one
    line = "(" + ", ".join(items) + comma + ")" + after
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line)


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("0 >= (0[{])[},]", "0 >= (0[{])[},]"),  # a label's comma and braces are its text
        ("(2d6[a,b])", "2d6[a,b]"),
        ("(2d6[x], d8)kh1", "{2d6[x], d8}kh1"),
    ],
)
def test_a_comma_inside_a_label_makes_no_set(line: str, canonical: str) -> None:
    assert str(parse(line)) == canonical
    assert parse(canonical) == parse(line)
