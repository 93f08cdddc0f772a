"""Unique dice ``u``/``uo``, clamps ``min3``/``max6`` and the not-equal condition
``<>`` (``!=`` after a modifier's letter), from RPG Dice Roller and Roll20
(``docs/grammar.md``, "Unique dice", "Clamps", "Conditions")."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.notation.nodes import (
    Comparison,
    Condition,
    Dice,
    Explode,
    Keep,
    Modifiers,
    Reroll,
    Unique,
)
from dicecli.probability.engine import distribution
from dicecli.probability.weights import OddsTooBigError
from dicecli.render.jsonlines import result_json
from dicecli.render.text import result_line

REROLL_NOTE = (
    " (r re-rolls until the face is gone here; Foundry VTT re-rolls once: write ro, or "
    "--dialect foundry; Dice Maiden's r2 re-rolls 2 or less once: --dialect dicemaiden)"
)
"""The note on a line whose r another roller reads as re-rolling once (issue 26)."""


@pytest.mark.parametrize(
    ("text", "node", "canonical"),
    [
        ("4d6u", Dice(4, 6, Modifiers(unique=Unique(None, False))), "4d6u"),
        ("4d6UO", Dice(4, 6, Modifiers(unique=Unique(None, True))), "4d6uo"),
        ("4d6u=5", Dice(4, 6, Modifiers(unique=Unique(Condition("=", 5), False))), "4d6u5"),
        (
            "4d6u>4kh3",
            Dice(4, 6, Modifiers(unique=Unique(Condition(">", 4), False), keep=Keep("kh", 3))),
            "4d6u>4kh3",
        ),
        # a bare u before a success condition would read as u's own: printed last
        (
            "4d6u >=5",
            Dice(4, 6, Modifiers(unique=Unique(None, False), success=Condition(">=", 5))),
            "4d6>=5u",
        ),
        ("4d6min3", Dice(4, 6, Modifiers(clamp_low=3)), "4d6min3"),
        ("4d6 MAX5", Dice(4, 6, Modifiers(clamp_high=5)), "4d6max5"),
        (
            "4d6kh3max5min2",
            Dice(4, 6, Modifiers(keep=Keep("kh", 3), clamp_low=2, clamp_high=5)),
            "4d6min2max5kh3",
        ),
        ("4dFmin0", Dice(4, "F", Modifiers(clamp_low=0)), "4dFmin0"),
        ("4dFmax-1", Dice(4, "F", Modifiers(clamp_high=-1)), "4dFmax-1"),
        ("10d10<>1", Dice(10, 10, Modifiers(success=Condition("<>", 1))), "10d10<>1"),
        (
            "10d10>=7f!=10",
            Dice(10, 10, Modifiers(success=Condition(">=", 7), failure=Condition("<>", 10))),
            "10d10>=7f<>10",
        ),
        ("d6r!=6", Dice(1, 6, Modifiers(reroll=Reroll(Condition("<>", 6), False))), "d6r<>6"),
        ("d6!<>6", Dice(1, 6, Modifiers(explode=Explode("!", Condition("<>", 6)))), "d6!<>6"),
        ("3d6cs!=3", Dice(3, 6, Modifiers(critical_success=Condition("<>", 3))), "3d6cs<>3"),
        # right after the dice, != stays the explosion on =6 (as before)
        ("d6!=6", Dice(1, 6, Modifiers(explode=Explode("!", Condition("=", 6)))), "d6!6"),
    ],
)
def test_new_forms_parse_and_print_back(text: str, node: Dice, canonical: str) -> None:
    assert parse(text).body == node
    assert str(node) == canonical
    assert parse(canonical).body == node


def test_spaced_not_equal_is_still_a_check() -> None:
    assert parse("d6 != 6").body == Comparison(Dice(1, 6), "!=", parse("6").body)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        (
            "4d3u",
            "4d3u: 4 unique dice need 4 different values and these dice can stand on 3,"
            " so the roll would never end",
            0,
        ),
        (
            "6d6r<3u",
            "6d6r<3u: 6 unique dice need 6 different values and these dice can stand on 4,"
            " so the roll would never end",
            0,
        ),
        ("4d6u!", "unique dice (u, uo) cannot explode: an added die has no earlier faces", 4),
        ("d6min5max3", "min5 is above max3: no value is within both", 6),
        ("{4d6}u", "a group cannot re-roll duplicates: put it on the dice inside the group", 5),
        ("{4d6}min3", "a group cannot clamp: put it on the dice inside the group", 5),
        ("4d6uu", "a second u modifier: write one u per dice term", 4),
        ("4d6min2min3", "a second min modifier: write one min per dice term", 7),
    ],
)
def test_impossible_forms_are_refused(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)


def test_unique_dice_may_outnumber_faces_when_duplicates_can_stand() -> None:
    # uo re-rolls once; u=5 re-rolls only duplicate fives: both always end
    assert parse("4d3uo").body == Dice(4, "3", Modifiers(unique=Unique(None, True)))
    assert dicecli.roll("8d6u6", given="6,6,6,1,1,1,1,1,1,1").total == 13


@pytest.mark.parametrize(
    ("text", "given", "line"),
    [
        # the third die repeats the 1 and is re-rolled (4), the fourth repeats the 3 (6)
        ("4d6u", "3,1,1,4,3,6", "14\t4d6u\t[3, 1, ~1~, 4, ~3~, 6]"),
        # re-rolled until unique: 3, then 3 again, then 5
        ("2d6u", "3,3,3,5", "8\t2d6u\t[3, ~3~, ~3~, 5]"),
        # re-rolled once: the second 2 stands although it repeats
        ("3d6uo", "2,2,2,5", "9\t3d6uo\t[2, ~2~, 2, 5]"),
        # only duplicate sixes re-roll: the two 2s stand
        ("3d6u6", "6,6,6,2,2", "10\t3d6u6\t[6, ~6~, ~6~, 2, 2]"),
        # the re-roll of r1 comes first; the re-rolled die is judged unique anew
        ("2d6r1u", "4,1,4,5", "9\t2d6r1u\t[4, ~1~, ~4~, 5]" + REROLL_NOTE),
        ("4d6ukh2", "6,6,2,1,5", "11\t4d6ukh2\t[6, ~6~, ~2~, ~1~, 5]"),
        # a face below the bound counts as the bound, and shows both
        ("4d6min3", "1,2,5,6", "17\t4d6min3\t[1→3, 2→3, 5, 6]"),
        # keep/drop reads the clamped worth
        ("4d6max4kh3", "6,1,5,2", "10\t4d6max4kh3\t[6→4, ~1~, 5→4, 2]"),
        # success counting too: 1→3 succeeds at >=3
        ("3d6min3>=3", "1,2,6", "3\t3d6min3>=3\t[1→3, 2→3, 6] (3 successes)"),
        # an explosion is set off by the face (6), the die is worth its clamp
        ("d6!max4", "6,2", "6\td6!max4\t[6→4!, 2]"),
        ("4dFmin0", "-,-,0,+", "1\t4dFmin0\t[-→0, -→0, 0, +]"),
        # not-equal conditions
        ("5d10<>1", "1,2,1,10,3", "3\t5d10<>1\t[1, 2, 1, 10, 3] (3 successes)"),
        ("3d10>=8f!=9", "8,9,2", "1\t3d10>=8f!=9\t[8, 9, 2] (2 successes, 1 failure)"),
        ("d6r!=6", "2,3,6", "6\td6r!=6\t[~2~, ~3~, 6]" + REROLL_NOTE),  # r, as in d6r1
        ("d6!<>6", "2,6", "8\td6!<>6\t[2!, 6]"),
    ],
)
def test_new_forms_roll_with_every_die_shown(text: str, given: str, line: str) -> None:
    assert result_line(dicecli.roll(text, given=given)) == line


def test_json_marks_what_was_rerolled_and_clamped() -> None:
    unique = json.loads(result_json(dicecli.roll("2d6u", given="3,3,5")))
    assert [(die["face"], die["kept"], die["marks"]) for die in unique["dice"]] == [
        ("3", True, []),
        ("3", False, ["rerolled"]),
        ("5", True, ["reroll"]),
    ]
    clamped = json.loads(result_json(dicecli.roll("2d6min3", given="1,4")))
    assert [(die["face"], die["value"], die["marks"]) for die in clamped["dice"]] == [
        ("1", 3, ["clamped"]),
        ("4", 4, []),
    ]


def test_clamps_are_not_the_min_and_max_functions() -> None:
    # min3 right after dice is a clamp; min( with a bracket is the function
    assert parse("max(d6, 3)").body != parse("d6max3").body
    assert dicecli.roll("max(d6, 3) + d6min3", given="1,1").total == 6


# --- exact odds, worked by hand --------------------------------------------------------


def test_two_unique_d6_total_seven_is_one_fifth() -> None:
    # 15 pairs of distinct faces, equally likely; {1,6} {2,5} {3,4} total 7
    found = distribution(parse("2d6u").body)  # type: ignore[arg-type]
    assert found.as_dict()[7] == Fraction(1, 5)
    assert found.as_dict().get(2) is None  # two 1s never stand


def test_three_unique_d4_keep_highest_one() -> None:
    # sets of 3 among 4 values: {1,2,3} has highest 3, the three others 4
    found = distribution(parse("3d4ukh1").body)  # type: ignore[arg-type]
    assert found.as_dict() == {3: Fraction(1, 4), 4: Fraction(3, 4)}


def test_two_d4_unique_once() -> None:
    # second die: the first value again only if rolled twice (1/16); others 5/16 each
    found = distribution(parse("2d4uo").body)  # type: ignore[arg-type]
    assert found.as_dict()[2] == Fraction(1, 4) * Fraction(1, 16)
    assert found.as_dict()[3] == 2 * Fraction(1, 4) * Fraction(5, 16)


def test_clamped_die_mean() -> None:
    assert distribution(parse("d6min3").body).mean() == 4  # type: ignore[arg-type]
    assert distribution(parse("d6max4").body).mean() == 3  # type: ignore[arg-type]


def test_not_equal_counts_the_other_faces() -> None:
    found = distribution(parse("d6<>6").body)  # type: ignore[arg-type]
    assert found.as_dict() == {0: Fraction(1, 6), 1: Fraction(5, 6)}


def test_big_unique_dice_are_computed_or_refused_clearly() -> None:
    assert distribution(parse("5d100u").body).mean() == Fraction(505, 2)  # type: ignore[arg-type]
    with pytest.raises(OddsTooBigError, match="unique dice need more than 500,000 steps"):
        distribution(parse("10d20uo").body)  # type: ignore[arg-type]
    assert distribution(parse("5d20uo").body).mean() == Fraction(105, 2)  # type: ignore[arg-type]


def test_computed_unique_dice_with_too_few_faces_are_a_roll_error() -> None:
    with pytest.raises(dicecli.DiceError, match="2 unique dice need 2 different values"):
        dicecli.roll("2d(d6)u", given="1")
    assert dicecli.roll("2d(d6)u", given="2,1,1,2").total == 3  # a d2: 1, then 1 again, 2
