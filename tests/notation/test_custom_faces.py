"""Dice with custom faces, ``d{1,1,2,3,5,8}``, ``3d{-1,0,1}``, ``d{1..4,10}``
(``docs/grammar.md``, "Custom faces"): what they parse to, their canonical text, their
errors, every modifier on them with given faces, JSON, seeds and exact odds.

The properties of the notation (``tests/test_properties.py``,
``tests/probability/test_probability.py``) cover them too, through
``tests/strategies.py``.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from processes import run_in_process

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.errors import GivenFacesError
from dicecli.limits import MAX_FACE_VALUE, MAX_FACES
from dicecli.notation import grammar, reader
from dicecli.notation.common_lines import read_common_line
from dicecli.notation.dice import die_for_sides
from dicecli.notation.nodes import ComputedDice, Condition, Dice, Explode, Keep, Modifiers, Reroll
from dicecli.notation.sides import FaceList
from dicecli.probability.weights import power
from dicecli.render.text import result_line

REROLL_NOTE = (
    " (r re-rolls until the face is gone here; Foundry VTT re-rolls once: write ro, or "
    "--dialect foundry; Dice Maiden's r2 re-rolls 2 or less once: --dialect dicemaiden)"
)
"""The note on a line whose r another roller reads as re-rolling once (issue 26)."""


@pytest.mark.parametrize(
    ("text", "node", "canonical"),
    [
        ("d{1,1,2,3,5,8}", Dice(1, FaceList("{1,1,2,3,5,8}")), "d{1,1,2,3,5,8}"),
        ("3d{-1,0,1}", Dice(3, FaceList("{-1,0,1}")), "3d{-1,0,1}"),
        ("3D{ -1, 0, +1 }", Dice(3, FaceList("{-1,0,1}")), "3d{-1,0,1}"),  # signs, spaces
        ("d{1..4,10}", Dice(1, FaceList("{1..4,10}")), "d{1..4,10}"),  # ranges are kept
        ("d{01 .. 04, 010}", Dice(1, FaceList("{1..4,10}")), "d{1..4,10}"),
        ("d{-2..2}", Dice(1, FaceList("{-2..2}")), "d{-2..2}"),  # negative ranges work
        ("d{-5..-3}", Dice(1, FaceList("{-5..-3}")), "d{-5..-3}"),
        ("d{3..3}", Dice(1, FaceList("{3..3}")), "d{3..3}"),
        ("d{7}", Dice(1, FaceList("{7}")), "d{7}"),  # one face: always 7
        # a bare r re-rolls the lowest face; before a negative number "=" is written
        (
            "3d{-1,0,1}r",
            Dice(3, FaceList("{-1,0,1}"), Modifiers(Reroll(Condition("=", -1), False))),
            "3d{-1,0,1}r=-1",
        ),
        (
            "d{2,4,6}ro",
            Dice(1, FaceList("{2,4,6}"), Modifiers(Reroll(Condition("=", 2), True))),
            "d{2,4,6}ro2",
        ),
        (
            "4d{1..4,10}kh2!",
            Dice(
                4, FaceList("{1..4,10}"), Modifiers(explode=Explode("!", None), keep=Keep("kh", 2))
            ),
            "4d{1..4,10}!kh2",
        ),
        (
            "5d{-1,0,1}>=0f<0",
            Dice(
                5,
                FaceList("{-1,0,1}"),
                Modifiers(success=Condition(">=", 0), failure=Condition("<", 0)),
            ),
            "5d{-1,0,1}>=0f<0",
        ),
        (
            "5d{-2..2}=-2",
            Dice(5, FaceList("{-2..2}"), Modifiers(success=Condition("=", -2))),
            "5d{-2..2}=-2",
        ),
        ("(1d4)d{0,1}", ComputedDice(Dice(1, 4), FaceList("{0,1}")), "(d4)d{0,1}"),
        ("(2)d{0,1}", Dice(2, FaceList("{0,1}")), "2d{0,1}"),  # a literal count: plain dice
    ],
)
def test_custom_faces_parse_to_their_canonical_text(
    text: str, node: object, canonical: str
) -> None:
    assert parse(text).body == node
    assert str(node) == canonical
    assert parse(canonical).body == node


def test_a_face_list_is_its_canonical_spelling() -> None:
    assert parse("d{1, 2}").body == parse("d{1,2}").body
    assert parse("d{1..2}").body != parse("d{1,2}").body  # the same die, spelt otherwise
    assert die_for_sides(FaceList("{1..2}")).faces == die_for_sides(FaceList("{1,2}")).faces


def test_a_face_list_counts_its_faces_out_in_the_order_written() -> None:
    die = die_for_sides(FaceList("{1..4,10,1}"))
    assert [face.value for face in die.faces] == [1, 2, 3, 4, 10, 1]
    assert [face.name for face in die.faces] == ["1", "2", "3", "4", "10", "1"]
    assert die.values == (1, 2, 3, 4, 10)
    assert die.name == "d{1..4,10,1}"


@pytest.mark.parametrize(
    ("text", "message", "caret"),
    [
        ("d{}", "a die needs at least one face: d{} has none", 1),
        ("2d{ }", "a die needs at least one face: d{} has none", 2),
        ("d{5..1}", "the range 5..1 runs downwards: write 1..5", 2),
        ("d{1, 3..-3}", "the range 3..-3 runs downwards: write -3..3", 5),
        ("d{1.5}", "faces are whole numbers: 1.5 is not one", 2),
        ("d{1,.5}", "faces are whole numbers: .5 is not one", 4),
        (
            "3d{sword}",
            "faces in d{} are numbers: 'sword' is a symbol (dice with symbols are named in"
            " a dice file)",
            3,
        ),
        (
            "d{1,2,x}",
            "faces in d{} are numbers: 'x' is a symbol (dice with symbols are named in"
            " a dice file)",
            6,
        ),
        ("d{1,,2}", "a face is missing: nothing between two commas", 4),
        ("d{1,2,}", "a face is missing: nothing between two commas", 6),
        ("d{1..}", "a range of faces is low..high, as in 1..4: not 1..", 2),
        ("d{1...4}", "a range of faces is low..high, as in 1..4: not 1...4", 2),
        ("d{1-3}", "faces are whole numbers, as in d{1,1,2}: not '1-3'", 2),
        ("d{1..99999999}", f"too many faces: 99,999,999, the limit is {MAX_FACES:,} on one die", 2),
        ("d{1..5000,1..5001}", f"too many faces: 10,001, the limit is {MAX_FACES:,} on one die", 1),
        (
            "d{0,2000000}",
            f"face 2000000 is too large: faces are -{MAX_FACE_VALUE:,} to {MAX_FACE_VALUE:,}",
            4,
        ),
        ("d{1,2", "expected ',' or '}' after the faces", 5),
        ("d{1,2 + d6", "expected ',' or '}' after the faces", 6),
        ("d{", "expected faces and '}' after 'd{', as in d{1,1,2}", 2),
        ("(d4)d{}", "a die needs at least one face: d{} has none", 5),
        ("d{5}!", "d{5}!: every face explodes, so the roll would never end", 0),
        ("3d{1,2}r<3", "3d{1,2}r<3: every face re-rolls, so the roll would never end", 0),
    ],
)
def test_a_bad_face_list_is_one_clear_error_pointing_at_the_fault(
    text: str, message: str, caret: int
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == message
    assert caught.value.position == caret


def test_a_bad_face_list_exits_2_with_a_caret_and_no_traceback() -> None:
    done = run_in_process("3d{1.5}")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "error: faces are whole numbers: 1.5 is not one\n  3d{1.5}\n     ^\n"


@pytest.mark.parametrize(
    ("text", "given", "line"),
    [
        ("3d{-1,0,1}", "-1,1,0", "0\t3d{-1,0,1}\t[-1, 1, 0]"),
        ("2d{1,1,2,3,5,8}", "5,8", "13\t2d{1,1,2,3,5,8}\t[5, 8]"),
        # keep/drop ranks the faces' values
        ("4d{1..4,10}kh2", "10,2,4,3", "14\t4d{1..4,10}kh2\t[10, ~2~, 4, ~3~]"),
        ("4d{-1,0,1}dl1", "1,-1,0,1", "2\t4d{-1,0,1}dl1\t[1, ~-1~, 0, 1]"),
        # a bare r re-rolls the lowest face, -1 here, until it stands
        ("2d{-1,0,1}r", "-1,-1,1,0", "1\t2d{-1,0,1}r\t[~-1~, ~-1~, 1, 0]" + REROLL_NOTE),
        ("d{2,4,6}ro", "2,2", "2\td{2,4,6}ro\t[~2~, 2]"),
        ("d{0,1,3}r>=3", "3,1", "1\td{0,1,3}r>=3\t[~3~, 1]" + REROLL_NOTE),
        # explode on the highest face (10), not on a 6
        ("d{1..4,10}!", "10,10,2", "22\td{1..4,10}!\t[10!, 10!, 2]"),
        ("d{1..4,10}!!", "10,3", "13\td{1..4,10}!!\t[10!, +3]"),
        ("d{1..4,10}!p", "10,3", "12\td{1..4,10}!p\t[10!, 3→2]"),
        ("d{0,1,1,2}!>=1", "1,2,0", "3\td{0,1,1,2}!>=1\t[1!, 2!, 0]"),
        # counting compares the faces' values, negative ones too
        (
            "5d{-1,0,1}>=1f=-1",
            "1,1,-1,0,-1",
            "0\t5d{-1,0,1}>=1f=-1\t[1, 1, -1, 0, -1] (2 successes, 2 failures)",
        ),
        ("3d{0,1,2}>=1ds2", "2,1,0", "3\t3d{0,1,2}>=1ds2\t[2, 1, 0] (3 successes)"),
        ("3d{-1,0,1}sd", "0,1,-1", "0\t3d{-1,0,1}sd\t[1, 0, -1]"),
        (
            "{2d{0,1}, d{5,5,6}}kh1",
            "1,1,5",
            "5\t{2d{0,1}, d{5,5,6}}kh1\t{[~1~, ~1~] ~(=2)~, [5] (=5)}",
        ),
        ("(d2)d{0,1}", "2,1,1", "2\t(d2)d{0,1}\t([2])d{0,1} → 2d{0,1} [1, 1]"),
    ],
)
def test_every_modifier_works_on_custom_faces(text: str, given: str, line: str) -> None:
    assert result_line(dicecli.roll(text, given=given)) == line


def test_criticals_compare_the_faces_values() -> None:
    dice = dicecli.roll("3d{-1,0,1}cs1cf=-1", given="1,0,-1").dice
    assert [die.marks for die in dice] == [("critical-success",), (), ("critical-failure",)]


def test_given_faces_are_taken_by_value() -> None:
    with pytest.raises(GivenFacesError) as caught:
        dicecli.roll("d{1,1,2}", given="3")
    assert caught.value.message == "given face #1 '3' is not a face of d{1,1,2} (faces: 1, 2)"


def test_a_seed_reproduces_a_custom_roll() -> None:
    first = dicecli.roll("10d{1,1,2,3,5,8}!kh5", seed=7)
    again = dicecli.roll("10d{1,1,2,3,5,8}!kh5", seed=7)
    assert first == again
    replayed = dicecli.roll("10d{1,1,2,3,5,8}!kh5", given=",".join(d.face for d in first.dice))
    assert replayed.total == first.total


def test_json_carries_the_face() -> None:
    done = run_in_process("--json", "--given=-1,1", "2d{-1,0,1}")
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert line["total"] == 0
    assert [(d["die"], d["face"], d["value"]) for d in line["dice"]] == [
        ("d{-1,0,1}", "-1", -1),
        ("d{-1,0,1}", "1", 1),
    ]


def _odds(text: str) -> dict[int, Fraction]:
    found = dicecli.odds(text).distribution
    assert found is not None
    return found.as_dict()


def test_odds_weight_a_face_written_twice() -> None:
    assert _odds("d{1,1,2}") == {1: Fraction(2, 3), 2: Fraction(1, 3)}
    assert _odds("d{0,0,1,1,2,2}") == _odds("d{0..2}")


def test_odds_of_three_fate_like_dice_by_hand() -> None:
    # 27 throws of three faces -1, 0, 1: a sum of 0 comes 7 ways (0,0,0 and the six
    # orders of -1, 0, 1), of 1 six ways (three of 1,0,0 and three of 1,1,-1), of 3 one
    ways = {-3: 1, -2: 3, -1: 6, 0: 7, 1: 6, 2: 3, 3: 1}
    assert _odds("3d{-1,0,1}") == {total: Fraction(n, 27) for total, n in ways.items()}


def test_odds_explode_on_the_highest_face() -> None:
    # d{1,10}!: 1 (1/2), 10+1 (1/4), 10+10+1 (1/8) ...
    found = _odds("d{1,10}!")
    assert found[1] == Fraction(1, 2)
    assert found[11] == Fraction(1, 4)
    assert found[21] == Fraction(1, 8)


def test_odds_of_a_command_line_custom_die() -> None:
    done = run_in_process("odds", "3d{-1,0,1}")
    assert done.returncode == 0, done.stderr
    assert "0\t7/27\t25.93%\t62.96%" in done.stdout.splitlines()


@pytest.mark.parametrize("text", ["3d{-1,0,1}", "d{1..4,10} + 2", "2 * d{1,1,2}kh1", "(d{0,1})"])
def test_the_quick_reader_hands_custom_faces_to_the_grammar(text: str) -> None:
    assert read_common_line(text) is None
    assert reader.parse(text) == grammar.parse(text)


def test_odds_of_faces_far_apart_count_their_few_sums() -> None:
    # three totals, not the two million numbers between them
    assert _odds("2d{0,1000000}") == {
        0: Fraction(1, 4),
        1_000_000: Fraction(1, 2),
        2_000_000: Fraction(1, 4),
    }
    assert _odds("3d{1,1000,1000}") == _odds("d{1,1000,1000} + d{1,1000,1000} + d{1,1000,1000}")
    assert power({0: 1, 10**6: 2}, 3) == {0: 1, 10**6: 6, 2 * 10**6: 12, 3 * 10**6: 8}
