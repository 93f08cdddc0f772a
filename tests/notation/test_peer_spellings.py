"""Spellings of rollers other than Dice Maiden that dicecli reads (issue 26): each
reads as dicecli's own spelling, its exact odds equal brute force, and where another
roller reads it otherwise the result carries a note (docs/grammar.md, "Other rollers'
spellings")."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from brute import brute_distribution
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import parse
from dicecli.environment import Environment
from dicecli.notation.other_readings import other_readings
from dicecli.notation.reader import parse_as

# --- e: explode once ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("1d6 e", "1d6!o"),  # Dice-Bag, caith: e alone explodes on the highest face
        ("3d6 e6", "3d6!o>=6"),  # caith, Dice Maiden: once, on 6 or more
        ("4d6 e6 k3", "4d6!o>=6kh3"),  # Dice-Bag's readme
        ("10d6 e6 K8 +4", "10d6!o>=6kh8 + 4"),  # caith's readme
        ("d6 e + 2", "d6!o + 2"),  # Dice-Bag, spec/transform.rb
        ("3d6 e t4", "3d6>=4!o"),  # Dice-Bag, spec/roll_part.rb: and count 4 or more
        ("10d6E=6", "10d6!o=6"),  # DiceParser's README: once, on exactly 6
        ("2d10e<3", "2d10!o<3"),
    ],
)
def test_e_explodes_once(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)


@pytest.mark.parametrize("line", ["2d6 elf damage", "2d6 each round"])
def test_a_word_starting_with_e_is_no_explosion(line: str) -> None:
    assert parse(line).body == parse("2d6").body
    assert parse(line).comment == line.split(None, 1)[1]


@pytest.mark.parametrize(
    ("text", "dice", "total"),
    [
        ("1d6 e", "6,6", 12),  # the added 6 does not explode in turn
        ("2d6 e5", "5,6,2", 13),  # 5 explodes (at least 5): 6 added; 2 does not
        ("10d6E=6", "6,5," + ",".join(["1"] * 9), 20),  # DiceParser: on exactly 6
        ("4d6 e6 k3", "6,1,2,3,4", 13),  # Dice-Bag: the added die is kept among all
    ],
)
def test_e_with_given_dice(text: str, dice: str, total: int) -> None:
    assert dicecli.roll(text, given=dice).total == total


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), st.sampled_from(["e", "e{n}", "E={n}", "e>{n}"]))
def test_e_has_exact_odds(count: int, sides: int, spelling: str) -> None:
    number = sides // 2 + 1
    line = f"{count}d{sides} {spelling.format(n=number)}"
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line, max_dice=2 * count)


def test_e_is_noted_with_the_other_readings() -> None:
    keep_note, note = other_readings("4d6 e6 k3")  # a bare k3 after a blank is noted too
    assert keep_note.startswith("k3 keeps the 3 highest here")
    assert note.startswith("e6 explodes each die once here, as Dice Maiden and caith read it")
    assert "Dice-Bag and d20 (Avrae) explode again and again: write 4d6!>=6" in note
    assert "python-dice reads e6 as counting the dice of 6 or more: write 4d6>=6" in note
    assert "again and again" not in other_readings("100d20e1")[0]  # it would never end
    assert dicecli.roll("1d6 e", seed=1).notes == other_readings("1d6 e")


def test_d20_reads_e_as_exploding_again_on_exactly_n() -> None:
    """d20 (Avrae) README: ``e`` explodes on the selector (a bare number: exactly it),
    every added die too."""
    assert parse_as("4d6e6kh3", "d20") == parse("4d6!=6kh3")
    assert parse_as("1d2e2", "d20") == parse("1d2!=2")
    d20 = Environment(settings={"dialect": "d20"})
    assert dicecli.roll("1d6e6", given="6,6,6,2", environment=d20).total == 20


# --- Rollem: >> and << count ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("10d6 >>4", "10d6>=4"),  # Rollem, syntax: the dice at 4 or above
        ("10d6 << 3", "10d6<=3"),  # ... at 3 or below
        ("10d6>>4 + 1", "10d6>=4 + 1"),
    ],
)
def test_rollem_counts(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)


def test_rollem_counts_with_given_dice() -> None:
    assert dicecli.roll("5d6 >>4", given="4,3,6,1,5").total == 3
    assert dicecli.roll("5d6 << 3", given="4,3,6,1,5").total == 2


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), st.sampled_from([">>", "<<"]), st.integers(1, 6))
def test_rollem_counts_have_exact_odds(count: int, sides: int, op: str, number: int) -> None:
    line = f"{count}d{sides} {op}{number}"
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line, max_dice=count)


# --- caith: a comment after " : ", a sorted repetition ^# ------------------------------------


@pytest.mark.parametrize(
    ("line", "own", "comment"),
    [
        ("1d6 : initiative", "1d6", "initiative"),  # caith's README: text after ':'
        ("2d6 + 6 : test", "2d6 + 6", "test"),
        ("4d6 : Hello World!", "4d6", "Hello World!"),
        ("(2d6 + 6) ^ 8 : test", "(2d6 + 6)^8", "test"),  # a power here, noted
    ],
)
def test_caith_comment(line: str, own: str, comment: str) -> None:
    read = parse(line)
    assert read.body == parse(own).body
    assert read.comment == comment


def test_a_colon_right_against_the_roll_stays_an_error() -> None:
    with pytest.raises(dicecli.DiceSyntaxError, match="unexpected ':x'"):
        parse("1d6:x")


def test_caith_sorted_repetition_is_a_repeat() -> None:
    from dicecli.times import other_repeat

    assert other_repeat("(2d6 + 6) ^# 8 : test") == "(2d6 + 6) : test -n 8"
    assert other_repeat("2d6 ^# 3") == "2d6 -n 3"
    assert other_repeat("2d6 ^ 3") is None  # a power: the line reads as written


# --- justinian/dice: versus v, ev, rv ------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("10d10v7", "10d10>=7"),  # README, "Versus": the number that roll t or greater
        ("3d8v3", "3d8>=3"),
        ("3d6ev4", "3d6>=4!!"),  # e: a die on the highest face rolls again, adding
        ("9d9rv5", "9d9>=5!"),  # r: a die on the highest face adds a die to the pool
    ],
)
def test_versus_counts(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)


def test_rv_is_not_a_reroll_and_a_count() -> None:
    # read as r (re-roll the lowest face) then v5 it would be another roll
    node = parse("9d9rv5").body
    assert isinstance(node, dicecli.notation.nodes.Dice)
    assert node.modifiers.reroll is None


@pytest.mark.parametrize(
    ("text", "dice", "total"),
    [
        ("4d6v4", "4,3,6,1", 2),
        ("3d6ev4", "6,2,3,5", 2),  # 6+2 = 8 (one die), 3, 5: two of 4 or more
        ("2d6rv6", "6,1,6,6,2", 3),  # 6 adds 1; the second 6 adds a 6, which adds 2
    ],
)
def test_versus_with_given_dice(text: str, dice: str, total: int) -> None:
    assert dicecli.roll(text, given=dice).total == total


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), st.integers(1, 6))
def test_versus_has_exact_odds(count: int, sides: int, number: int) -> None:
    line = f"{count}d{sides}v{number}"
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line, max_dice=count)


def test_versus_is_noted_with_python_dice_reading() -> None:
    assert other_readings("6d6v3") == (
        "v3 counts the dice of 3 or more here, as justinian/dice reads it; python-dice "
        "reads 6d6v3 as keeping the lowest 3: write 6d6kl3",
    )
    assert other_readings("d20 vs 15") == ()
    assert other_readings("6d6 v3") == other_readings("6d6v3")  # a blank before: noted too


# --- python-dice and kotlin-dice: bare letters -----------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("4d6t", "4d6"),  # python-dice README: t totals the rolls
        ("6d1t", "6d1"),
        ("d(d6)t", "d(d6)"),  # python-dice's tests: after dice of computed sides too
        ("6d6x", "6d6!"),  # x: explode on the highest face
        ("d6x", "d6!"),
        ("6d6^", "6d6dl1"),  # ^ or h with no number: all but the lowest
        ("6d6v", "6d6dh1"),  # v or l with no number: all but the highest
        ("6d6o", "6d6dl1dh1"),  # o with no number: all but two
        ("6d6 o 3", "6d6dl2dh1"),  # the middle 3: one more left out at the bottom
        ("7d6o3", "7d6dl2dh2"),
        ("2d20h", "2d20kh1"),  # kotlin-dice: the highest one; python-dice: all but one
        ("2d20l", "2d20kl1"),
    ],
)
def test_bare_letters(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)


@pytest.mark.parametrize("line", ["4d6h", "3d6l", "2d6o", "1d6^", "1d6v"])
def test_bare_letters_read_two_ways_stay_refused(line: str) -> None:
    # 4d6h: the highest one in kotlin-dice, all but the lowest in python-dice; 2d6o and
    # 1d6^ keep none or all in python-dice
    with pytest.raises(dicecli.DiceSyntaxError):
        parse(line)


def test_bare_letters_with_given_dice() -> None:
    assert dicecli.roll("6d6 o 3", given="1,2,3,4,5,6").total == 3 + 4 + 5
    assert dicecli.roll("6d6^", given="1,2,3,4,5,6").total == 20
    assert dicecli.roll("6d6v", given="1,2,3,4,5,6").total == 15


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(4, 5), st.integers(2, 3), st.sampled_from(["^", "v", "o", "o 1", "o2"]))
def test_bare_letters_have_exact_odds(count: int, sides: int, letter: str) -> None:
    line = f"{count}d{sides}{letter}"
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line, max_dice=count)


# --- caith: tt and t[...]; Foundry VTT: even, odd ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "given_dice", "total"),
    [
        # caith's lib.rs tests roll one of each face 1..10
        ("10d10 t7 tt9", ",".join(map(str, range(1, 11))), 6),
        ("10d10 tt7 t9", ",".join(map(str, range(1, 11))), 8),
        ("10d10 tt8", ",".join(map(str, range(1, 11))), 6),
        ("5d10 t8 tt10", "8,9,10,1,10", 6),  # README: 8 and 9 once, 10 twice
        # a die of a target list or parity shows 1 for a face that counts, else 0
        ("3d6 t[2,4,6]", "1,0,1", 2),  # README: only even faces count
        ("4d6even", "1,0,1,0", 2),  # Foundry: count the even results
        ("4d6odd", "0,1,0,0", 1),
    ],
)
def test_counting_forms_with_given_dice(line: str, given_dice: str, total: int) -> None:
    assert dicecli.roll(line, given=given_dice).total == total


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("10d10 t7 tt9", "10d10>=7ds>=9"),
        ("10d10 tt7 t9", "10d10>=7ds>=7"),
        ("10d10 tt8", "10d10>=8ds>=8"),
        ("3d6 t[2,4,6]", "3d{0,1,0,1,0,1}"),
        ("4d6even", "4d{0,1,0,1,0,1}"),
        ("4d6odd", "4d{1,0,1,0,1,0}"),
    ],
)
def test_counting_forms(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)


@settings(max_examples=examples(50), deadline=None)
@given(
    st.integers(1, 3),
    st.integers(2, 6),
    st.sampled_from(["t{a} tt{b}", "tt{a} t{b}", "tt{a}", " t[{a},{b}]", "even", "odd"]),
    st.integers(1, 6),
    st.integers(1, 6),
)
def test_counting_forms_have_exact_odds(count: int, sides: int, form: str, a: int, b: int) -> None:
    line = f"{count}d{sides}" + (" " if form[0] == "t" else "") + form.format(a=a, b=b)
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line, max_dice=count)


# --- python-dice, DiceParser, kotlin-dice: dice of other faces; caith: ^+ ----------------------


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("2u6", "2d{-6,-5,-4,-3,-2,-1,0,1,2,3,4,5,6}"),  # python-dice: -6 to 6
        ("6d6a", "6d{1,2,3,4,5,12}"),  # python-dice "again": a 6 counts twice
        ("6d6a3", "6d{1,2,6,4,5,6}"),
        ("4d1 .+ 3", "4d{4}"),  # python-dice: 3 added to each die
        ("4d6 .- 1", "4d{0,1,2,3,4,5}"),
        ("4z6", "4d{0,1,2,3,4,5}"),  # DiceParser, kotlin-dice: zero-based
        ("6d6 v 3", "6d6kl3"),  # python-dice, spaced: never justinian/dice's versus
        ("6d6v(-3)", "6d6dh3"),  # a negative number drops
        ("6d6o(-4)", "6d6dl2dh2"),  # the middle 6 - 4 = 2
        ("(2d6 + 6) ^+ 2 : test", "(2d6 + 6) + (2d6 + 6) # test"),  # caith: summed
    ],
)
def test_dice_of_other_faces_and_sums(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("4d99999999999 .+ 5", "a die needs 1 to 10,000 sides"),  # fuzz seed 11, case 93647
        ("6d99999999999a", "a die needs 1 to 10,000 sides"),
        ("2u99999999999", "unexpected 'u99999999999'"),
        ("4d6 .+ " + "9" * 101, "number too long: 101 digits, the limit is 100"),
    ],
)
def test_dice_of_other_faces_are_counted_before_they_are_listed(line: str, message: str) -> None:
    """Issue 24: a die of other faces past the hundred that are spelt out is left as
    written, for the grammar to refuse, before any face is made (a die of eleven
    digits' sides once took 7 s and 3 GB before the refusal)."""
    with pytest.raises(dicecli.DiceError) as caught:
        parse(line)
    assert caught.value.message == message


@settings(max_examples=examples(50), deadline=None)
@given(
    st.integers(1, 3),
    st.integers(2, 5),
    st.sampled_from(["{c}u{s}", "{c}z{s}", "{c}d{s}a", "{c}d{s} .+ 2", "({c}d{s} + 1) ^+ 2"]),
)
def test_dice_of_other_faces_have_exact_odds(count: int, sides: int, form: str) -> None:
    line = form.format(c=count, s=sides)
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line, max_dice=2 * count)


# --- Roll20: m and mt ---------------------------------------------------------------------------


def test_roll20_matching_dice_keep_the_total() -> None:
    """Roll20, Dice Reference, "Matching Dice": ``2d6m`` highlights matches; the total
    is the dice's sum. ``mt`` counts the sets of matches, which dicecli cannot roll."""
    roll20 = Environment(settings={"dialect": "roll20"})
    assert dicecli.roll("2d6m", given="3,3", environment=roll20).total == 6
    assert dicecli.roll("4d6m3", given="1,2,3,4", environment=roll20).total == 10
    assert parse_as("4d6m3>3", "roll20") == parse("4d6>=3")
    with pytest.raises(dicecli.DiceError, match="Roll20's mt counts the sets of matching"):
        dicecli.roll("20d6mt", environment=roll20)


# --- d20 (Avrae): ra, rol, roh on one die -------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "own"),
    [
        ("1d6ra6", "1d6!o6"),  # README, "Operators": re-roll up to one matched die, keep it
        ("1d6ral1", "1d6!o>=1"),  # the lowest of one die is that die
        ("1d1ra1", "1d1!o1"),
        ("1d6rol1", "1d6ro>=1"),  # re-roll the lowest die once
        ("1d6ra>4", "1d6!o>4"),
    ],
)
def test_d20_reroll_and_add_on_one_die(line: str, own: str) -> None:
    assert parse_as(line, "d20") == parse(own)


def test_d20_reroll_and_add_with_given_dice() -> None:
    d20 = Environment(settings={"dialect": "d20"})
    assert dicecli.roll("1d6ra6", given="6,6", environment=d20).total == 12  # once only
    assert dicecli.roll("1d6rol1", given="2,5", environment=d20).total == 5


@pytest.mark.parametrize("line", ["4d6ra6", "4d6rol1"])
def test_d20_reroll_and_add_on_several_dice_is_refused(line: str) -> None:
    # ra adds at most one die for the whole set: not dicecli's explode once per die
    with pytest.raises(dicecli.DiceError, match="only for a single die"):
        parse_as(line, "d20")


# --- Foundry VTT: df and sf alone, ms -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "own"),
    [
        # DiceTerm.deductFailures: without cs, a failing die counts -1, the rest their face
        ("6d6df=1", "6d{-1,2,3,4,5,6}"),
        # DiceTerm.subtractFailures: a failing die counts minus its face
        ("6d6sf<3", "6d{-1,-2,3,4,5,6}"),
        # DiceTerm.marginSuccess: the total less the target (or the target less it)
        ("1d20ms>=10", "(1d20 - 10)"),
        ("1d20ms<10", "(10 - 1d20)"),
        ("10d6cs>4df<2", "10d6>4f<2"),  # with cs, as before: successes less failures
    ],
)
def test_foundry_failures_and_margins(line: str, own: str) -> None:
    assert parse_as(line, "foundry") == parse(own)


def test_foundry_failures_with_given_dice() -> None:
    foundry = Environment(settings={"dialect": "foundry"})
    assert dicecli.roll("3d6df=1", given="-1,4,6", environment=foundry).total == 9
    assert dicecli.roll("1d20ms>=10", given="15", environment=foundry).total == 5


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), st.sampled_from(["df", "sf"]), st.integers(1, 6))
def test_foundry_failures_have_exact_odds(count: int, sides: int, word: str, n: int) -> None:
    # brute force over every way the dice fall, each face worth what Foundry counts it
    foundry = Environment(settings={"dialect": "foundry"})
    found = dicecli.odds(f"{count}d{sides}{word}<={n}", environment=foundry).distribution
    assert found is not None
    worth = {
        face: ((-1 if word == "df" else -face) if face <= n else face)
        for face in range(1, sides + 1)
    }
    tally: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total = sum(worth[face] for face in faces)
        tally[total] = tally.get(total, Fraction(0)) + Fraction(1, sides**count)
    assert found.as_dict() == tally


def test_the_letter_spellings_are_looked_for_alike_before_and_in_the_notes() -> None:
    from dicecli.notation import dialects
    from dicecli.notation import other_readings as notes

    assert dialects.LETTER_SPELLINGS == notes.LETTER_SPELLINGS
    # a label or a word with an e or a v is no spelling: no note, nothing more loaded
    assert dialects.line_notes("2d6[fire] + 1d4[cold]", None) == ()
    assert dialects.line_notes("d20 + level", None) == ()
    assert dialects.line_notes("3d6 e6", None) != ()


@pytest.mark.parametrize(("line", "at"), [("4d6h", 3), ("3d6 l + 2", 4)])
def test_a_bare_keep_read_two_ways_says_so(line: str, at: int) -> None:
    with pytest.raises(dicecli.DiceSyntaxError) as caught:
        parse(line)
    assert "in kotlin-dice and all but the" in caught.value.message
    assert "in python-dice" in caught.value.message
    assert caught.value.position == at
