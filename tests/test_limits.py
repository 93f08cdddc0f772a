"""The bounds of docs/limits.md: each checked before the work, each a one-line error
naming the bound (the messages are pinned here), and the largest line within every
bound still rolled and its odds worked out.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dicecli
from dicecli.errors import DiceError, DiceSyntaxError, RollLimitError, escaped
from dicecli.limits import MAX_DIGITS, MAX_MODIFIERS, MAX_NESTING, MAX_TERMS, MAX_VALUE
from dicecli.notation.grammar import parse
from dicecli.notation.nodes import Expr


def expression(text: str) -> Expr:
    body = parse(text).body
    assert isinstance(body, Expr)
    return body


def total_of(text: str) -> int:
    total = dicecli.roll(text, seed=1).total
    assert total is not None
    return total


LONG_SUM = "+".join(["1"] * 3000)  # 5,999 characters: within the line length, not the terms


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        (
            "1" * 10_001,
            "line too long: more than 10,000 characters, the limit",
            10_000,
        ),
        (
            "2d6+" + "9" * 101,
            "number too long: 101 digits, the limit is 100",
            4,
        ),
        (LONG_SUM, "too many terms: the limit is 1,000 in one line", 1999),
        # the signs outside ASCII separate terms too, and the caret stands on the sign
        (
            "\N{MINUS SIGN}".join(["1"] * 3000),
            "too many terms: the limit is 1,000 in one line",
            1999,
        ),
        ("d6 " + "×".join(["2"] * 3000), "too many terms: the limit is 1,000 in one line", 2002),
        (
            "(" * 101 + "1" + ")" * 101,
            "too deeply nested: at most 100 brackets inside each other",
            100,
        ),
    ],
)
def test_a_line_past_a_bound_is_refused_before_parsing(
    text: str, message: str, position: int
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == message
    assert caught.value.position == position


def test_the_largest_flat_line_rolls_and_has_odds() -> None:
    """Flat terms are not nesting: 1,000 terms roll (they used to be refused as "too
    deeply nested" from about 400), and their odds are exact."""
    text = "+".join(["1"] * (MAX_TERMS - 1) + ["d6"])
    assert 1000 <= total_of(text) <= 1005
    assert dicecli.odds(text).distribution is not None
    with pytest.raises(DiceSyntaxError):
        parse(text + "+1")


def test_the_deepest_brackets_within_the_bound_roll() -> None:
    text = "(" * MAX_NESTING + "d6" + ")" * MAX_NESTING
    assert 1 <= total_of(text) <= 6


@pytest.mark.parametrize(
    ("modifier", "given"),
    [("r1", "2"), ("ro1", "2"), ("kh1", "4"), (" kh1", "4"), ("dl0", "5")],
)
def test_a_dice_term_takes_at_most_so_many_modifiers(modifier: str, given: str) -> None:
    # docs/limits.md: one more than MAX_MODIFIERS is refused, at the first one past it
    # (chained re-rolls and keeps fold one into the next: reading thousands took seconds)
    at_most = "d6" + modifier * MAX_MODIFIERS
    assert dicecli.roll(at_most, given=given).total is not None
    with pytest.raises(DiceSyntaxError) as caught:
        parse(at_most + modifier)
    assert caught.value.message == f"too many modifiers: at most {MAX_MODIFIERS} on one dice term"
    assert caught.value.position == len(at_most) + len(modifier) - len(modifier.lstrip())


def test_a_hint_quoting_something_huge_is_cut_in_the_middle() -> None:
    error = DiceError("bad").with_hint("Foundry VTT reads it: " + "ro1 " * 2_000)
    hint = error.show().splitlines()[1]
    assert len(hint) == len("  ") + 400
    assert hint.startswith("  Foundry VTT reads it: ro1 ro1")


def test_a_comment_is_free_text_not_counted() -> None:
    comment = "# " + "9" * 500 + "+" * 2000 + "(" * 200
    assert dicecli.roll("3 " + comment, seed=1).total == 3


def test_a_number_of_the_most_digits_rolls() -> None:
    assert dicecli.roll("9" * MAX_DIGITS).total == MAX_VALUE


@pytest.mark.parametrize(
    "text",
    [
        "*".join(["9" * 90] * 5),  # the product would have 450 digits
        f"{'9' * 60}*{'9' * 60}*d6",
        f"100% of {'9' * 99}0",
    ],
)
def test_a_value_past_the_digits_bound_is_refused_when_rolled_and_in_odds(text: str) -> None:
    """Products grow past any size: each is refused as it would pass the bound, so no
    number is too long to print (Python's 4,300-digit limit) or to turn into a float
    (a percentage of values of 309 digits)."""
    for work in (dicecli.roll, dicecli.odds):
        with pytest.raises(RollLimitError) as caught:
            work(text)
        assert caught.value.message == "value too large: more than 100 digits, the limit"


def test_a_named_value_past_the_bound_is_refused() -> None:
    from dicecli.environment import Environment
    from dicecli.naming import with_named

    with pytest.raises(DiceError, match="number too long"):
        with_named(Environment(), "a", "9" * 4000)


def test_an_error_shows_a_long_line_around_its_caret_only() -> None:
    with pytest.raises(DiceError) as caught:
        dicecli.roll("d6" + " " * 5000 + "foo" + " " * 4000)
    shown = caught.value.show().splitlines()
    assert len(shown) == 3
    assert all(len(line) < 200 for line in shown)
    assert shown[1].startswith("  …")
    assert shown[1].endswith("…")
    assert shown[1][len(shown[2]) - 1 :].startswith("foo")


def test_control_characters_in_an_error_are_escaped_and_the_caret_follows() -> None:
    error = DiceError("unexpected 'x'", "\t2\rd6\x00 \u2028x", 8)
    shown_before = "\\t2\\rd6\\x00 \\u2028"
    assert error.show() == (
        f"error: unexpected 'x'\n  {shown_before}x\n  {' ' * len(shown_before)}^"
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("2d6 # fine, é ü ∑", "2d6 # fine, é ü ∑"),
        ("a\tb", "a\\tb"),
        ("\x1b[31m", "\\x1b[31m"),
        ("bad \udcff byte", "bad \\xff byte"),
        ("\x85\u2029", "\\x85\\u2029"),
    ],
)
def test_escaped_leaves_printable_text_alone(text: str, shown: str) -> None:
    assert escaped(text) == shown


def test_the_limits_are_listed_in_the_docs() -> None:
    from pathlib import Path

    import dicecli.limits as limits

    listed = (Path(__file__).parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")
    for name in ("MAX_LINE_LENGTH", "MAX_TERMS", "MAX_NESTING", "MAX_DIGITS"):
        assert f"{getattr(limits, name):,}" in listed, name


def test_a_deep_chain_of_saved_rolls_is_blamed_on_its_depth_not_a_cycle() -> None:
    rolls = {f"r{i}": expression(f"r{i + 1} + 1") for i in range(17)}
    env = dicecli.Environment(rolls={**rolls, "r17": expression("d6")})
    with pytest.raises(DiceError) as caught:
        dicecli.roll("r0", environment=env)
    assert caught.value.message == "saved rolls nest more than 16 deep, at 'r16'"
    with pytest.raises(DiceError) as caught:
        dicecli.odds("r0", environment=env)
    assert caught.value.message == "saved rolls nest more than 16 deep, at 'r16'"


def test_a_cycle_of_saved_rolls_names_the_cycle() -> None:
    env = dicecli.Environment(rolls={"a": expression("b + 1"), "b": expression("d6 + a")})
    with pytest.raises(DiceError) as caught:
        dicecli.roll("a", environment=env)
    assert caught.value.message == "'a' refers to itself (a -> b -> a)"


def test_a_saved_roll_may_not_be_given_its_own_name() -> None:
    from dicecli.environment import Environment
    from dicecli.naming import with_named

    env = with_named(Environment(), "a", "3")
    assert with_named(env, "a", "a + 1").value("a") == 4  # a number: worked out now
    with pytest.raises(DiceError) as caught:
        with_named(env, "a", "a + 1d6")
    assert caught.value.message == (
        "'a' would refer to itself (a -> a): a saved roll cannot use its own name"
    )


def test_given_faces_are_bounded_before_rolling() -> None:
    from dicecli.errors import GivenFacesError

    with pytest.raises(GivenFacesError) as caught:
        dicecli.roll("d6", given=" ".join(["3"] * 100_001))
    assert caught.value.message == "--given has 100,001 faces, the limit is 100,000"
    with pytest.raises(GivenFacesError) as caught:
        dicecli.roll("d6", given="3" * 1_000_001)
    assert (
        caught.value.message == "--given is too long: 1,000,001 characters, the limit is 1,000,000"
    )


def test_odds_with_fractions_of_thousands_of_digits_are_shown_and_kept_exact() -> None:
    """6000d6kl1: the chance of a 6 is 1/6**6000, 4,669 digits under the bar, past
    Python's 4,300-digit limit on int-to-text (it was an internal error)."""
    import json
    import sys
    from fractions import Fraction

    from dicecli.probability.distribution import exact_text
    from dicecli.probability.report import odds_as_dict
    from dicecli.render.plain import odds_lines

    found = dicecli.odds("6000d6kl1")
    assert any(line.startswith("6\t≈") for line in odds_lines(found))
    shown = json.loads(json.dumps(odds_as_dict(found)))["distribution"]["6"]["fraction"]
    assert shown == "1/" + exact_text(Fraction(6**6000))
    assert len(shown) == 2 + 4669
    if hasattr(sys, "set_int_max_str_digits"):
        limit = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            assert shown == f"1/{6**6000}"
        finally:
            sys.set_int_max_str_digits(limit)


def test_a_named_value_past_the_digits_bound_given_through_the_api_is_refused() -> None:
    """The API takes values as numbers, not text: they are checked when read, so the
    odds never turn a 400-digit mean into a float (an OverflowError)."""
    for work in (
        lambda: dicecli.roll("a + d6", values={"a": 10**400}),
        lambda: dicecli.odds("a + d6", values={"a": 10**400}),
    ):
        with pytest.raises(RollLimitError, match="value too large"):
            work()
    assert dicecli.roll("a", values={"a": MAX_VALUE}).total == MAX_VALUE


def test_a_message_quoting_something_huge_is_cut_in_the_middle() -> None:
    error = DiceError(f"--set takes NAME=VALUE, e.g. --set STR=3 (got '{'x' * 100_000}')")
    shown = error.show()
    assert len(shown) == len("error: ") + 400
    assert shown.startswith("error: --set takes NAME=VALUE")
    assert shown.endswith("xxx')")


def test_a_hash_inside_a_label_does_not_hide_a_long_number_from_the_bound() -> None:
    """Found by the long fuzz profile: '#' inside a [label] is not a comment, so the
    5,000-digit number after it reached Python's int() (an internal error)."""
    text = "vs0[6reddF#\td6]-53D" + "1" * 5000
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == "number too long: 5,000 digits, the limit is 100"
    assert caught.value.position == 19
    assert total_of("d6[a # b] + 2 # " + "9" * 500) >= 3  # a real comment stays free


@given(
    st.integers(min_value=13_990, max_value=80_000),
    st.integers(min_value=1, max_value=70_000),
    st.booleans(),
    st.integers(min_value=0, max_value=2**32),
)
@settings(max_examples=40, deadline=None)
def test_exact_text_of_numbers_of_thousands_of_digits_is_their_decimal_text(
    numerator_bits: int, denominator_bits: int, negative: bool, seed: int
) -> None:
    """Past Python's 4,300-digit limit the digits are worked out halves at a time in
    decimal; with the limit lifted, ``str`` gives the same text. A distribution's
    denominators, written once each, are the same text again."""
    import random
    import sys
    from fractions import Fraction

    from dicecli.probability.distribution import exact_text

    bits = random.Random(seed)
    numerator = bits.getrandbits(numerator_bits) | 1 << (numerator_bits - 1)
    denominator = bits.getrandbits(denominator_bits) | 1
    value = Fraction(-numerator if negative else numerator, denominator)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        expected = str(value)
    finally:
        sys.set_int_max_str_digits(limit)
    assert exact_text(value) == expected
    denominators: dict[int, str] = {}
    assert exact_text(value, denominators) == expected
    assert exact_text(value, denominators) == expected
    if value.denominator != 1:
        assert denominators[value.denominator] == expected.partition("/")[2]
