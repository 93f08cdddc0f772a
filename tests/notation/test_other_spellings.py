"""Other rollers' spellings of what dicecli already does (issue 26, part 1): each reads
as dicecli's own spelling, and its exact odds equal brute force."""

from __future__ import annotations

import pytest
from brute import brute_distribution
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, parse


@pytest.mark.parametrize(
    ("spelling", "own"),
    [
        ("4d6d1", "4d6dl1"),  # Roll20, Foundry, RPG Dice Roller: drop the lowest
        ("8d100d3", "8d100dl3"),
        ("4d6 d1", "4d6dl1"),
        ("{19d23, 4d10+3}d1", "{19d23, 4d10+3}dl1"),
        ("4d6h3", "4d6kh3"),  # kotlin-dice, python-dice, DiceParser
        ("4d6H3", "4d6kh3"),
        ("3d6L1", "3d6kl1"),
        ("4d6 k3", "4d6kh3"),
        ("10d6mi2", "10d6min2"),  # d20 (Avrae)
        ("10d6ma5", "10d6max5"),
        ("1d20rr<3", "1d20r<3"),  # Foundry, d20: re-roll repeatedly
        ("1000d6rr", "1000d6r"),
        ("d(d6)rr", "d(d6)r"),
        ("4d6ir1", "4d6r<=1"),  # Dice Maiden: re-roll repeatedly, at most N
        ("4d6 irg5", "4d6r>=5"),  # ... at least N
        ("4d6 rg2", "4d6ro>=2"),  # ... once, at least N
        ("4d6 ie6", "4d6!>=6"),  # Dice Maiden: explode indefinitely, at least N
        ("4d10ie", "4d10!"),
        ("10d10 t7", "10d10>=7"),  # Dice Maiden, caith, Dice-Bag: target number
        ("5d10 t8 f1", "5d10>=8f1"),
        ("5d20c>10", "5d20>10"),  # DiceParser: count
        ("5d20c<=15", "5d20<=15"),
    ],
)
def test_a_spelling_reads_as_dicecli_writes_it(spelling: str, own: str) -> None:
    assert parse(spelling) == parse(own)
    assert str(parse(spelling)) == str(parse(own))


def test_a_named_die_keeps_a_name_that_looks_like_a_modifier() -> None:
    # dFh1 stays the die named Fh1 of a dice file, as before other spellings were read
    assert str(parse("4dFh1")) == "4dFh1"
    assert parse("4dF h1") == parse("4dFkh1")


@pytest.mark.parametrize("line", ["4d10 t6ds6", "6d10 d2 t4ds6", "5d10 t8 f2"])
def test_a_bare_number_beside_t_is_refused_not_misread(line: str) -> None:
    # Dice Maiden reads ds6 as "6 or more" and f2 as "2 or less"; dicecli's own are "="
    with pytest.raises(DiceSyntaxError, match="beside t, write ds and f with a comparison"):
        parse(line)
    assert parse("4d10 t6ds>=6") == parse("4d10>=6ds>=6")
    assert parse("4d10>=6ds6") == parse("4d10>=6ds=6")  # dicecli's own spelling: as before


def test_rol1_is_refused_rather_than_read_as_a_condition_and_a_keep() -> None:
    # d20 (Avrae) reads ro + l1 as "re-roll the lowest die once"
    with pytest.raises(DiceSyntaxError, match="rol1 re-rolls the lowest or highest dice"):
        parse("1d6rol1")
    assert parse("1d6ro1 l1") == parse("1d6ro1kl1")  # with a condition, l1 keeps


_KEEPS = st.sampled_from([("h", "kh"), ("l", "kl"), ("d", "dl"), ("H", "kh"), ("L", "kl")])


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 4), st.integers(2, 6), _KEEPS, st.integers(1, 4))
def test_keep_and_drop_spellings_have_exact_odds(
    count: int, sides: int, keep: tuple[str, str], amount: int
) -> None:
    spelling = f"{count}d{sides}{keep[0]}{amount}"
    assert parse(spelling) == parse(f"{count}d{sides}{keep[1]}{amount}")
    found = dicecli.odds(spelling).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(spelling)


_FINITE = st.sampled_from(["mi{n}", "ma{n}", "rg{n}", "t{n}", "c>{n}", "c<={n}", "t{n}mi2"])


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), _FINITE, st.integers(1, 6))
def test_clamp_once_and_count_spellings_have_exact_odds(
    count: int, sides: int, modifier: str, number: int
) -> None:
    spelling = f"{count}d{sides}{modifier.format(n=number)}"
    found = dicecli.odds(spelling).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(spelling, max_dice=2 * count)


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 2), st.integers(3, 6), st.sampled_from(["ir{n}", "irg{n}", "ie{n}"]))
def test_repeating_spellings_are_dicecli_own(count: int, sides: int, modifier: str) -> None:
    # the own spellings' odds are held to brute force in tests/probability
    number = 1 if modifier.startswith("ir{") else sides  # what ends
    own = {"ir": "r<={n}", "irg": "r>={n}", "ie": "!>={n}"}[modifier.split("{")[0]]
    spelling = f"{count}d{sides}{modifier.format(n=number)}"
    mine = dicecli.odds(spelling)
    assert mine.distribution == dicecli.odds(f"{count}d{sides}{own.format(n=number)}").distribution


@pytest.mark.parametrize(
    ("line", "total"),
    [
        ("7 % 3", 1),  # Roll20's example
        ("-7 % 3", 2),  # the remainder of the division rounded down, as d20 has it
        ("7 % -3", -2),
        ("10% of 51", 6),  # percent of (rule N3) keeps its meaning
        ("2 * 10% of 51", 12),
        ("5 % of 3", 1),
    ],
)
def test_percent_between_two_values_is_the_remainder(line: str, total: int) -> None:
    assert dicecli.roll(line).total == total


def test_a_remainder_reads_back_and_keeps_d_percent() -> None:
    assert str(parse("d%%(45*2)")) == "d% % (45*2)"
    assert parse("d% % (45*2)") == parse("d%%(45*2)")
    with pytest.raises(dicecli.DiceError, match="division by zero"):
        dicecli.roll("d6 % 0")


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 2), st.integers(2, 6), st.integers(-4, 4).filter(bool))
def test_a_remainders_odds_equal_brute_force(count: int, sides: int, divisor: int) -> None:
    line = f"{count}d{sides} % {divisor} + d{sides} % d3"
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(line)
