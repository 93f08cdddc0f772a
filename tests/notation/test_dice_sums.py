"""The reader of dice sums against the grammar of record.

:func:`read_dice_sum` may accept a line only if the grammar parses it to the identical
tree; every other line (and so every error) goes on to the other readers. The
properties feed it lines of its own shape, with counts, sizes, keeps and numbers at
and past their bounds, and near misses: such lines with one character or piece of
another notation put in, where a reader that took too much would show it. The same is
checked over every line of ``bench/corpus.txt`` made new, and over a fixed set of
generated lines (100,000 under ``--runslow``).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import property_counts
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli.errors import DiceSyntaxError
from dicecli.limits import MAX_TERMS, check_line
from dicecli.notation import dice_sums, grammar, reader
from dicecli.notation.dice_sums import read_dice_sum
from dicecli.notation.nodes import BinaryOp, Dice, Keep, Modifiers, Name, Number, Roll
from dicecli.systems import registry

_SETTINGS = settings(
    max_examples=examples(1000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_COUNTS = ["", "1", "2", "4", "10", "20", "01", "0", "10000", "10001", "0" * 50 + "3"]
_SIDES = ["2", "3", "03", "6", "20", "100", "0", "1", "10000", "10001", "%", "f", "F"]
_KEEPS = ["", "", "", "k", "K", "kh", "KH", "Kl", "dh", "DL", "dl", "kh", "kl", "km", "d"]
_AMOUNTS = ["", "0", "1", "3", "12", "1" * 51]
_NUMBERS = ["0", "5", "12", "999", "007", "1" * 50, "1" * 51]
_GAPS = ["", "", "", " ", "\t", "  ", "\r\n", "\x0c", "\u00a0"]
_SIGNS = ["+", "-", "+", "-", "*", "/", "x", "- -", "+ +", "--"]
_NAMES = [
    *("STR", "DEX", "dex", "Dex", "D_x", "d_x", "_a", "Str_2", "x", "X", "e", "kh", "vs"),
    *("floor", "max", "of", "level", "DF", "dF", "df", "dfoo", "DFoo", "dEX", "dBoost"),
    *("d", "D", "d6x", "D20x", "dX", "d2x", "k", "F", "f", "ie", "t7", "r1", "s"),
    *("ex6", "sr1", "coc7", "yz3", "Wfb2", "a" + "1" * 101, "b" * 99 + "1" * 2, "c" * 120),
]
"""Names as players write them, and words on the edge of dice notation: a Fudge die
(``dF``, ``df``), a die of a dice file (``dBoost``), dice run into a word (``d6x``), a
game's keyword and its pool (``ex6``: a game's line when it comes first), words longer
than a number may be, holding a run of digits longer than one may have or not."""


def _dice_text(draw: st.DrawFn) -> str:
    count, sides = draw(st.sampled_from(_COUNTS)), draw(st.sampled_from(_SIDES))
    keep = draw(st.sampled_from(_KEEPS))
    amount = draw(st.sampled_from(_AMOUNTS)) if keep else ""
    return f"{count}{draw(st.sampled_from('dD'))}{sides}{keep}{amount}"


_WORDS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)


@st.composite
def _sum_lines(draw: st.DrawFn) -> str:
    """A line of dice, numbers and names joined by signs and gaps, most of them the
    shape the reader takes, some an operator or a gap it does not."""
    terms = draw(st.lists(st.sampled_from("ddnnw"), min_size=1, max_size=5))
    text = draw(st.sampled_from(_GAPS))
    for place, kind in enumerate(terms):
        if place:
            gap = draw(st.sampled_from(_GAPS))
            text += gap + draw(st.sampled_from(_SIGNS)) + draw(st.sampled_from(_GAPS))
        if kind == "d":
            text += _dice_text(draw)
        elif kind == "n":
            text += draw(st.sampled_from(_NUMBERS))
        else:
            text += draw(st.one_of(st.sampled_from(_NAMES), _WORDS))
    return text + draw(st.sampled_from(_GAPS))


_PIECES = [
    *"0123456789dDkKhHlLfF%+-*/()[]{}#!<>=rRxXsS,.",
    " ",
    "\t",
    " # note",
    "[fire]",
    "!",
    "ro1",
    ">4",
    "cs>19",
    "u",
    "min2",
    "STR",
    "\N{MINUS SIGN}",
    "\u0663",  # an Arabic-Indic digit
    "\x0c",
]


@st.composite
def _near_misses(draw: st.DrawFn) -> str:
    """A line of :func:`_sum_lines` with one piece of another notation put in."""
    line = draw(_sum_lines())
    place = draw(st.integers(0, len(line)))
    piece: str = draw(st.sampled_from(_PIECES))
    return line[:place] + piece + line[place:]


def _agrees_with_grammar(text: str) -> bool:
    """Check one line; True when the reader accepted it."""
    quick = read_dice_sum(text)
    if quick is None:
        return False
    check_line(text)  # within every bound (the reader checks none)
    try:
        slow = grammar.parse(text)
    except DiceSyntaxError as error:
        pytest.fail(f"{text!r}: the reader accepts it, the grammar refuses: {error}")
    assert quick == slow, text
    assert repr(quick) == repr(slow), text  # same node types, values and spelling
    assert reader.parse(text) == slow, text
    return True


@_SETTINGS
@given(_sum_lines())
def test_lines_of_its_shape(text: str) -> None:
    _agrees_with_grammar(text)


@_SETTINGS
@given(_near_misses())
def test_near_misses(text: str) -> None:
    _agrees_with_grammar(text)


def _generated_lines(count: int) -> list[str]:
    """``count`` lines, the same every run: a third as the bench's new lines
    (``NdS+k``), a third of the reader's shape with its bounds, a third near misses."""
    rng = random.Random(25)
    lines = []
    for number in range(count):
        kind = number % 3
        if kind == 0:
            sides = rng.choice((4, 6, 8, 10, 12, 20, 100, rng.randint(1, 10_001)))
            line = f"{rng.randint(0, 21)}d{sides}{rng.choice('+-')}{rng.randint(0, 999)}"
        else:
            terms = []
            for place in range(rng.randint(1, 4)):
                if place and rng.random() < 0.2:
                    terms.append(rng.choice(_NAMES))
                elif rng.random() < 0.6:
                    keep = rng.choice(_KEEPS)
                    amount = rng.choice(_AMOUNTS) if keep else ""
                    dice = rng.choice(_COUNTS) + rng.choice("dD") + rng.choice(_SIDES)
                    terms.append(dice + keep + amount)
                else:
                    terms.append(rng.choice(_NUMBERS))
            line = terms[0]
            for term in terms[1:]:
                line += rng.choice(_GAPS) + rng.choice(_SIGNS) + rng.choice(_GAPS) + term
            if kind == 2:
                place = rng.randint(0, len(line))
                line = line[:place] + rng.choice(_PIECES) + line[place:]
        lines.append(line)
    return lines


def _corpus_made_new() -> list[str]:
    corpus = Path(__file__).parents[2] / "bench" / "corpus.txt"
    lines = [line for line in corpus.read_text(encoding="utf-8").splitlines() if line]
    return [*lines, *(f"{line}+{number}" for number, line in enumerate(lines))]


def test_every_line_of_the_corpus() -> None:
    accepted = sum(_agrees_with_grammar(line) for line in _corpus_made_new())
    assert accepted >= 20  # most of the corpus's lines are sums of dice and numbers


def test_a_fixed_set_of_generated_lines() -> None:
    lines = _generated_lines(100_000 if property_counts.full else 3_000)
    accepted = sum(_agrees_with_grammar(line) for line in lines)
    assert accepted >= len(lines) // 4  # the set holds lines it takes, not only misses


@pytest.mark.parametrize(
    "text",
    [
        "2D6+5",
        "d20",
        " d20 + 7 ",
        "4d6kh3",
        "2d20KL1 - 1",
        "3d6-3",
        "d%",
        "\t4dF\r\n",
        "D3",
        "d03",
        "1d8+1d6+3",
        "4d6dh0",
        "5d20+266+0",
        "10000d10000",
        "d20-5",  # a first word that starts as a die is no game's keyword
        "D20kh1 + 3",
        "1d20 + DEX",
        "2D6+STR",
        "2d6-dex+3",
        "d20 + Str_2 - 1",
        "4d6kh3 + x",
    ],
)
def test_sums_take_the_quickest_way(text: str) -> None:
    assert _agrees_with_grammar(text)


def test_the_tree_is_the_grammars() -> None:
    keep = Modifiers(keep=Keep("kh", 1))
    expected = Roll(BinaryOp("-", BinaryOp("+", Dice(2, 20, keep), Dice(1, "3")), Number(1)))
    assert read_dice_sum("2d20k + d3 - 1") == expected


def test_a_term_written_again_is_the_same_node() -> None:
    """The same dice term on another line is the same object: its step is made once."""
    first, second = read_dice_sum("4d6kh3 + 1"), read_dice_sum("2 - 4d6kh3")
    assert isinstance(first, Roll)
    assert isinstance(first.body, BinaryOp)
    assert isinstance(second, Roll)
    assert isinstance(second.body, BinaryOp)
    assert first.body.left is second.body.right


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2d6+",
        "+2d6",
        "-d6",
        "0d6",
        "d0",
        "10001d6",
        "d10001",
        "4d6kh0",
        "4d6kl0",
        "4d6 kh3",
        "4d6kh3kh2",
        "2d6 - -3",
        "2d6*2",
        "d6x5",
        "(d6)",
        "d6!",
        "2d6[fire]",
        "2d6 # note",
        "1" * 51,
        "\u0663d6",
        "2d6\x0c",
        "2d6\u00a0+1",
        "1+" * MAX_TERMS + "1",
    ],
)
def test_other_lines_go_on(text: str) -> None:
    assert read_dice_sum(text) is None


def _agrees_with_pattern(text: str) -> bool:
    """Check that the pieces cut by hand, if any, are the pattern's; True when cut."""
    by_hand = dice_sums._pieces_by_hand(text)
    if by_hand is None:
        return False
    assert by_hand == dice_sums._pieces().findall(text), text
    return True


@st.composite
def _gapless_lines(draw: st.DrawFn) -> str:
    """A line of the characters the cutting by hand reads, most of them in its pieces."""
    pieces = [*"0123456789dDfF%+-kKhHlL", "d6", "d20", "kh", "dl", "KL", "1" * 50, "+1"]
    return "".join(draw(st.lists(st.sampled_from(pieces), max_size=12)))


@_SETTINGS
@given(st.one_of(_gapless_lines(), _sum_lines(), _near_misses()))
def test_cut_by_hand_as_the_pattern_cuts(text: str) -> None:
    _agrees_with_pattern(text)


@pytest.mark.parametrize(
    "text",
    [
        *("2d20kh1", "3d6", "4dF", "2D6+5", "d%", "1d8+1d6-3", "4d6DL1+2", "17d743+12"),
        "d20-5",
    ],
)
def test_gapless_sums_are_cut_by_hand(text: str) -> None:
    assert _agrees_with_pattern(text)


@pytest.mark.parametrize("text", ["d20 + 7", "-d6", "2d6+-3", "2d6d6", "1" * 51, "2d6kh3x"])
def test_other_lines_are_left_to_the_pattern(text: str) -> None:
    assert dice_sums._pieces_by_hand(text) is None


def test_a_few_gapless_lines_compile_no_pattern() -> None:
    """A process reading a few lines with no gap (a one-shot roll, a first odds call)
    does not compile the pattern; past :data:`HAND_CUT_LINES` lines, or at a line with
    a gap, it does."""
    code = (
        "from dicecli.notation import dice_sums\n"
        "from dicecli.notation.reader import parse\n"
        "lines = [f'2d20kh1+{n}' for n in range(dice_sums.HAND_CUT_LINES)]\n"
        "for line in lines: parse(line)\n"
        "print(dice_sums._compiled_pieces is None)\n"
        "parse('3d6+999999')\n"
        "print(dice_sums._compiled_pieces is None)\n"
        "print(parse('2d20kh1+7') is parse('2d20kh1+7'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["True", "False", "True"]
    done = subprocess.run(
        [sys.executable, "-c", code.replace("2d20kh1+{n}", "2d20kh1 + {n}")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split()[:2] == ["False", "False"]


@_SETTINGS
@given(st.one_of(st.sampled_from(_NAMES), _WORDS))
def test_a_word_it_reads_as_a_name_is_one_to_the_grammar_after_a_sign(word: str) -> None:
    """What :func:`dice_sums.reads_as_name` takes for a name the grammar reads as that
    name after a sign, where no game claims it (a line's first word is the games' to
    claim: :func:`dicecli.notation.reader._lone_name` asks them)."""
    if not dice_sums.reads_as_name(word):
        return
    line = f"d6+{word}"
    quick = read_dice_sum(line)
    assert quick is not None
    assert repr(quick) == repr(grammar.parse(line)), line
    assert repr(quick.body) == repr(BinaryOp("+", Dice(1, 6), Name(word, 3)))


def test_names_and_words_that_are_not_names() -> None:
    assert all(map(dice_sums.reads_as_name, ["STR", "dex", "Dex", "DEX", "x", "_a", "Str_2"]))
    assert not any(map(dice_sums.reads_as_name, ["d6", "dF", "df", "dBoost", "2x", "x y", ""]))
    assert not dice_sums.reads_as_name("+STR")


_KEYWORDS = sorted(registry.keywords())


@st.composite
def _lone_words(draw: st.DrawFn) -> str:
    """A word alone on a line, with gaps about it: a name, a word on the edge of dice
    notation, a game's keyword in any case, sometimes with one character put in."""
    keyword = st.sampled_from(_KEYWORDS).map(lambda word: word.upper() if len(word) % 2 else word)
    word = draw(st.one_of(st.sampled_from(_NAMES), _WORDS, keyword))
    if draw(st.integers(0, 3)) == 0:
        place = draw(st.integers(0, len(word)))
        word = word[:place] + draw(st.sampled_from(_PIECES)) + word[place:]
    return draw(st.sampled_from(_GAPS)) + word + draw(st.sampled_from(_GAPS))


@_SETTINGS
@given(_lone_words())
def test_a_name_alone_is_read_as_the_grammar_reads_it(text: str) -> None:
    """The quick way in reads a line that is a name alone (a saved roll's, ``attack``)
    to the grammar's tree, position included, and leaves every other lone word (a
    game's keyword, ``dBoost``) to the grammar."""
    quick = reader._read_quickly(text)
    if quick is None:
        return
    check_line(text)
    slow = grammar.parse(text)
    assert repr(quick) == repr(slow), text


@pytest.mark.parametrize(
    ("text", "name"),
    [("attack", "attack"), ("  damage ", "damage"), ("Dex", "Dex"), ("x", "x")],
)
def test_names_alone_take_the_quickest_way(text: str, name: str) -> None:
    quick = reader._read_quickly(text)
    expected = Roll(Name(name, text.index(name)))
    assert repr(quick) == repr(grammar.parse(text)) == repr(expected)


@pytest.mark.parametrize(
    "text", ["wfb", "AGE", "dnd", "ex6", "sr1", "dBoost", "dfoo", "_a", "a b", "x # y"]
)
def test_keywords_and_other_lone_words_are_the_grammars(text: str) -> None:
    assert reader._read_quickly(text) is None


@pytest.mark.parametrize(
    "text", ["1+a" + "1" * 101, "a" + "1" * 101, "d20 + " + "x" * 101, "x" * 101]
)
def test_a_word_longer_than_a_number_may_be_is_the_grammars(text: str) -> None:
    """A word past :data:`~dicecli.limits.MAX_DIGITS` characters may hold a run of
    digits longer than a number may have, which the grammar refuses: not read quickly."""
    assert reader._read_quickly(text) is None
