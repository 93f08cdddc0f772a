"""The quick reader of common lines against the grammar of record.

:func:`read_common_line` may accept a line only if the grammar parses it to the
identical tree; every other line (and so every error) is the grammar's. The properties
feed it valid lines of the whole notation, near misses, and soups of the very characters
it reads, in which it accepts a line more often.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import line_text, near_miss_text

from dicecli.errors import DiceSyntaxError
from dicecli.limits import MAX_DIGITS, MAX_LINE_LENGTH, MAX_NESTING, MAX_TERMS, check_line
from dicecli.notation import common_lines, grammar, reader
from dicecli.notation.common_lines import read_common_line
from dicecli.notation.nodes import BinaryOp, Dice, Keep, Modifiers, Negate, Number, Roll

_SETTINGS = settings(
    max_examples=examples(400),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_PIECES = [
    *"0123456789",
    *"dDfFkKhHlLxX%+-*/() \t\r\n#",
    "d6",
    "2d6",
    "d20",
    "4d6kh3",
    "kh",
    "kl1",
    "dl",
    "dh2",
    "k0",
    "kh0",
    "d%",
    "dF",
    "d3",
    "d03",
    "0d6",
    "d0",
    "10001d6",
    "d10001",
    " # note",
    "#",
    "!",
    ">=5",
    ">4",
    "<3",
    "<=",
    "=6",
    "=",
    "r1",
    "r",
    "R",
    "ro",
    "rO<3",
    "r>=6",
    "d1r1",
    "dFr",
    "[fire]",
    "[ cold ]",
    "[]",
    "[",
    "]",
    "{",
    "}",
    ",",
    "a",
    "STR",
    "\N{MINUS SIGN}",
    "\x0c",
    "\u00a0",
    "1" * 60,
    "u",  # unique dice, clamps and not-equal conditions: the grammar reads them
    "uo",
    "min3",
    "max",
    "<>",
    "!=",
    "4d6u",
    "d6min2",
]
_SOUP = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)
_GAP = st.sampled_from(["", "", " ", "\t", "  "])
_ATOM = st.sampled_from(
    [
        "d6",
        "2D6",
        "4d6kh3",
        "3d6 dl",
        "d%",
        "4dF",
        "D3",
        "10",
        "0",
        "(d4+1)",
        "4d6ro<3",
        "d20r",
        "4dF r",
        "2d6R2",
        "6d6>4",
        "6d6 >=5",
        "10d10=10",
        "d6r<6",
        "2d6[fire]",
        "(d4+1) [x]",
        "5[bonus]",
        "d8[]",
        *("4d6u", "3d6uo", "4d6kh3 min2", "d6max4", "6d6<>3", "d6r!=6", "4d6 u"),
        *("d6!", "3d6!!", "2d6!p", "d8!!p", "d1!", "d6!o", "d6!>4", "d6 !", "d6!5"),
        *("10d10>=7f1", "6d6>4f<=2", "6d6>4 f1", "6d6>4f", "4d6!kh3"),
        *("{2d6, 1d8}kh1", "{d20,d20} kl", "{4d6kh3}[str]", "{2d6}>=5", "{}", "{d6,}"),
        *("10% of 51", "50 %of d20", "10% of", "\u0663% of 5", "10%of5", "{d6, {d8}dl1}"),
    ]
)
_OP = st.sampled_from(["+", "-", "*", "/", "x", "X", "- -"])
_COMMON_SHAPED = st.builds(
    lambda first, rest, gap, note: (
        first + "".join(gap + op + gap + atom for op, atom in rest) + note
    ),
    _ATOM,
    st.lists(st.tuples(_OP, _ATOM), max_size=4),
    _GAP,
    st.sampled_from(["", " # a note", "#", " #\tx "]),
)


def _agrees_with_grammar(text: str) -> bool:
    """Check one line; True when the quick reader accepted it."""
    quick = read_common_line(text)
    if quick is None:
        return False
    check_line(text)  # within every bound (the reader checks only long lines)
    try:
        slow = grammar.parse(text)
    except DiceSyntaxError as error:
        pytest.fail(f"{text!r}: the quick reader accepts it, the grammar refuses: {error}")
    assert quick == slow, text
    assert repr(quick) == repr(slow), text  # same node types, values and spelling
    return True


@_SETTINGS
@given(_SOUP)
def test_soups_of_its_own_characters(text: str) -> None:
    _agrees_with_grammar(text)


@_SETTINGS
@given(_COMMON_SHAPED)
def test_lines_shaped_like_common_ones(text: str) -> None:
    _agrees_with_grammar(text)


@_SETTINGS
@given(line_text(depth=2))
def test_valid_lines_of_the_whole_notation(text: str) -> None:
    _agrees_with_grammar(text)


@_SETTINGS
@given(near_miss_text())
def test_near_misses(text: str) -> None:
    _agrees_with_grammar(text)


@pytest.mark.parametrize(
    "text",
    [
        "2D6+5",
        "d20",
        "d20 + 7",
        "4d6kh3",
        "4d6 kh3",
        "2d20KL1 - 1",
        "3d6-3",
        "(1d4+1)*2",
        "2d6/2",
        "2 x d6",
        "-d6",
        "8d6 # fireball",
        "\t4dF\r\n",
        "d%",
        "D3",
        "1d8+1d6+3",
        "(" * 10 + "d6" + ")" * 10,
        "-" * 10 + "d6",
        "4d6ro<3",
        "6d6>4",
        "1d20r",
        "2d6[fire] + 1d4[cold]",
        "-(d4+1)[x] * 2",
        "D6x5",  # a first word that starts as a die is no game's keyword
        "d20r1 x 2",
        "d6!",
        "3d6!! + 2",
        "2d6!p[fire] - 1",
        "10d10>=7f1",
        "{2d6, 1d8}kh1",
        "{d20, d20}kl1 + 5",
        "10% of 51",
        "-10% of 2d6[fire] x 2",
    ],
)
def test_common_lines_take_the_quick_way(text: str) -> None:
    assert _agrees_with_grammar(text)


def test_the_tree_is_the_grammars() -> None:
    keep = Modifiers(keep=Keep("dl", 1))
    expected = Roll(BinaryOp("+", Dice(4, 6, keep), Negate(Number(2))), "stats")
    assert read_common_line("4d6dl + -2 # stats ") == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2d6+",
        "0d6",
        "d0",
        "10001d6",
        "4d6kh0",
        "4d6kh3kh2",
        "d1!",  # every face explodes: the grammar says why
        "d6!o",
        "d6!>4",
        "d6 !",
        "10d10>=7 f1",
        "{2d6, 1d8}kh0",
        "{2d6, 1d8}>=5",
        "(2d6, 1d8)kh1",
        "{2d6,}",
        "\u0663% of 5",  # an Arabic-Indic three: the grammar reads ASCII digits before %
        "STR + 2",
        "2d6 # one\ntwo",
        "1" * 60,
        "2d6\x0c",
        "(" * 11 + "d6" + ")" * 11,  # deep brackets: the grammar has the rules for them
        "-" * 11 + "d6",
        "4d6u",
        "4d6kh3uo",
        "4d6min3",
        "4d6 max5",
        "10d10<>1",
        "d6r!=3",
        "(" * 3000 + "1" + ")" * 3000,  # deeper than Python's recursion limit
    ],
)
def test_other_lines_go_to_the_grammar(text: str) -> None:
    assert read_common_line(text) is None


def test_lines_it_does_not_check_are_within_every_bound() -> None:
    """Lines shorter than ``_WITHIN_LIMITS_BELOW`` skip :func:`check_line`: what the
    reader accepts of them must be within every bound by its own rules."""
    assert min(MAX_TERMS, MAX_LINE_LENGTH) >= common_lines._WITHIN_LIMITS_BELOW
    assert common_lines._MAX_DIGITS < MAX_DIGITS
    assert common_lines._MAX_DEPTH < MAX_NESTING


@pytest.mark.parametrize(
    "text",
    [
        "1+" * MAX_TERMS + "1",  # too many terms: long enough to be checked
        "d6+" * MAX_TERMS + "d6",
        "(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1),
        "1" * (MAX_DIGITS + 1),
        "2d6 " + " " * MAX_LINE_LENGTH,
    ],
)
def test_lines_past_a_bound_go_to_the_grammar(text: str) -> None:
    with pytest.raises(DiceSyntaxError):
        check_line(text)
    assert read_common_line(text) is None


def test_errors_come_from_the_grammar() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        reader.parse("2d6 +")
    assert caught.value.message == "expected a number, dice such as 2d6, '(' or a name at the end"
