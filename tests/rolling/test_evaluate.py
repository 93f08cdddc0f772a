"""Rolling the generic notation with given dice: totals, kept dice and marks.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pytest

import dicecli
from dicecli import DiceError, GivenFacesError, RollLimitError, UnknownNameError
from dicecli.notation.dice import die_for_sides
from dicecli.notation.nodes import Expr
from dicecli.results import DiceShown, Text


def faces(result: dicecli.RollResult) -> list[tuple[str, bool, tuple[str, ...]]]:
    return [(die.face, die.kept, die.marks) for die in result.dice]


@pytest.mark.parametrize(
    ("text", "given", "total"),
    [
        ("D6", "4", 4),  # rule N1
        ("2D6", "6,6", 12),  # rule N1
        ("3D6", "1,1,1", 3),  # rule N1
        ("D6+2", "6", 8),  # rule N1, N2
        ("D6x5", "6", 30),  # rule N1, N2
        ("D6*5", "1", 5),  # rule N2
        ("D6×5", "2", 10),  # rule N2
        ("2D6+5", "1,1", 7),  # rule N1
        ("3D6-3", "1,1,1", 0),  # rule N1
        ("2D6/2", "3,4", 4),  # rule N3: 7 halved rounds up
        ("10% of 51", "", 6),  # rule N3
        ("-7/2", "", -3),  # rounding up, for negatives too
        ("D3", "1", 1),  # rule N4: 1-2 -> 1
        ("D3", "2", 1),  # rule N4
        ("D3", "3", 2),  # rule N4: 3-4 -> 2
        ("D3", "4", 2),  # rule N4
        ("D3", "5", 3),  # rule N4: 5-6 -> 3
        ("D3", "6", 3),  # rule N4
        ("d%", "100", 100),
        ("4dF", "+,-,0,+", 1),
        ("4dF", "1,-1,0,1", 1),
        ("(2d6+1)*2", "3,4", 16),
        ("{2d6, 1d8}kh1", "1,2,7", 7),
        ("{2d6, 1d8}kl1", "1,2,7", 3),
        ("{1, 2, 3}>2", "", 1),
    ],
)
def test_totals(text: str, given: str, total: int) -> None:
    assert dicecli.roll(text, given=given).total == total


def test_natural_faces_and_modified_total_are_both_in_the_result() -> None:
    # rule N5
    result = dicecli.roll("2D6+5", given="3,4")
    assert [(d.face, d.value) for d in result.dice] == [("3", 3), ("4", 4)]
    assert result.total == 12
    assert result.breakdown[0] == DiceShown(result.dice)
    assert Text("5", "number") in result.breakdown


def test_d3_keeps_the_natural_d6_face() -> None:
    # rule N4, N5: the D6 face is the natural roll, the halved value is what counts
    (die,) = dicecli.roll("D3", given="5").dice
    assert (die.die, die.face, die.value) == ("D3", "5", 3)


def test_keep_highest_marks_the_dropped_die() -> None:
    result = dicecli.roll("4d6kh3", given="3,4,1,6")
    assert result.total == 13
    assert faces(result) == [
        ("3", True, ()),
        ("4", True, ()),
        ("1", False, ("dropped",)),
        ("6", True, ()),
    ]


@pytest.mark.parametrize(
    ("text", "given", "total", "kept"),
    [
        ("4d6kl2", "3,4,1,6", 4, [True, False, True, False]),
        ("4d6dh1", "3,4,1,6", 8, [True, True, True, False]),
        ("4d6dl1", "3,4,1,6", 13, [True, True, False, True]),
        ("2d6kh1", "5,5", 5, [False, True]),  # equal faces: the earlier is dropped
        ("2d6kh3", "2,5", 7, [True, True]),  # keeping more than rolled keeps all
    ],
)
def test_keep_and_drop(text: str, given: str, total: int, kept: list[bool]) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == total
    assert [d.kept for d in result.dice] == kept


def test_reroll_repeats_until_the_condition_fails() -> None:
    result = dicecli.roll("2d6r1", given="1,1,5,3")
    assert result.total == 8
    assert faces(result) == [
        ("1", False, ("rerolled",)),
        ("1", False, ("reroll", "rerolled")),
        ("5", True, ("reroll",)),
        ("3", True, ()),
    ]


def test_reroll_once_keeps_the_second_face_whatever_it_is() -> None:
    result = dicecli.roll("d6ro<3", given="1,2")
    assert result.total == 2
    assert [d.kept for d in result.dice] == [False, True]


def test_explode_adds_a_die_that_may_explode_again() -> None:
    result = dicecli.roll("d6!", given="6,6,2")
    assert result.total == 14
    assert faces(result) == [
        ("6", True, ("exploded",)),
        ("6", True, ("explosion", "exploded")),
        ("2", True, ("explosion",)),
    ]


def test_explode_on_a_condition() -> None:
    assert dicecli.roll("d10!>=9", given="9,10,3").total == 22


def test_exploded_dice_take_part_in_keep_as_separate_dice() -> None:
    # 2d6!kh1: 6 explodes into 1 -> dice 6, 1, and 4: keep the 6
    result = dicecli.roll("2d6!kh1", given="6,1,4")
    assert result.total == 6
    assert [d.kept for d in result.dice] == [True, False, False]


def test_compound_adds_into_one_die_for_keep() -> None:
    # 2d6!!kh1: first die 6+3 = 9 (one die), second 5: keep the 9
    result = dicecli.roll("2d6!!kh1", given="6,3,5")
    assert result.total == 9
    assert faces(result) == [
        ("6", True, ("exploded",)),
        ("3", True, ("compounded",)),
        ("5", False, ("dropped",)),
    ]


def test_penetrating_dice_are_worth_one_less_and_show_their_face() -> None:
    result = dicecli.roll("d6!p", given="6,6,3")
    assert result.total == 6 + 5 + 2
    assert [(d.face, d.value) for d in result.dice] == [("6", 6), ("6", 5), ("3", 2)]


def test_rerolls_apply_to_explosion_dice_too() -> None:
    result = dicecli.roll("d6!r1", given="6,1,4")
    assert result.total == 10
    assert [d.kept for d in result.dice] == [True, False, True]


def test_success_counting_minus_failures() -> None:
    result = dicecli.roll("5d10>=7f1", given="7,1,10,3,1")
    assert result.total == 2 - 2
    assert [d.marks for d in result.dice] == [
        ("success",),
        ("failure",),
        ("success",),
        (),
        ("failure",),
    ]


def test_strictly_greater_means_strictly() -> None:
    assert dicecli.roll("3d6>4", given="4,5,6").total == 2


def test_counting_sees_only_kept_dice() -> None:
    assert dicecli.roll("3d6kh2>=5", given="6,5,6").total == 2


def expression(text: str) -> Expr:
    body = dicecli.parse(text).body
    assert isinstance(body, Expr)
    return body


def test_names_and_saved_rolls() -> None:
    env = dicecli.Environment(values={"STR": 3}, rolls={"attack": expression("d20+5")})
    assert dicecli.roll("str + 2", environment=env).total == 5
    assert dicecli.roll("attack", given="10", environment=env).total == 15


def test_unknown_name_points_at_the_name() -> None:
    with pytest.raises(UnknownNameError) as caught:
        dicecli.roll("2d6 + luck", given="1,1")
    assert caught.value.position == 6


def test_self_referencing_saved_roll_is_an_error() -> None:
    env = dicecli.Environment(rolls={"a": expression("a + 1")})
    with pytest.raises(DiceError, match="refers to itself"):
        dicecli.roll("a", environment=env)


def test_division_by_zero_is_an_error() -> None:
    with pytest.raises(DiceError, match="division by zero"):
        dicecli.roll("6/(d6-3)", given="3")


def test_roll_budget_stops_runaway_rolls() -> None:
    with pytest.raises(RollLimitError, match="10,000 dice"):
        dicecli.roll("5000d6 + 5001d6", seed=1)
    with pytest.raises(RollLimitError):
        dicecli.roll("d6!>=2", source=_Always(5))


class _Always:
    def __init__(self, index: int) -> None:
        self.index = index

    def draw(self, die: object) -> int:
        return self.index


@pytest.mark.parametrize(
    ("text", "given", "message"),
    [
        ("2d6", "3", "not enough dice given: the roll needs more than the 1 given"),
        ("2d6", "3,4,5", "too many dice given: 1 of the 3 given was not used (5)"),
        ("2d6", "3,7", "given face #2 '7' is not a face of d6 (faces: 1, 2, 3, 4, 5, 6)"),
        ("dF", "x", "given face #1 'x' is not a face of dF (faces: -, 0, +)"),
    ],
)
def test_given_faces_errors(text: str, given: str, message: str) -> None:
    with pytest.raises(GivenFacesError) as caught:
        dicecli.roll(text, given=given)
    assert caught.value.message == message


def test_seeded_rolls_repeat() -> None:
    first = dicecli.roll("10d6!kh3 + d%", seed=42)
    again = dicecli.roll("10d6!kh3 + d%", seed=42)
    assert first == again


def test_reroll_refuses_a_roll_whose_dice_were_already_rerolled() -> None:
    # rule W5: no die may be re-rolled more than once, whatever the source
    first = dicecli.roll("2d6ro1", given="1,3,5")
    with pytest.raises(dicecli.RuleError, match="rule W5"):
        dicecli.reroll(first, given="2,4")


def test_reroll_refuses_a_roll_that_could_reroll_a_die_again() -> None:
    # rule W5: 2d6ro1 rolled no 1; re-rolled, a 1 would be re-rolled a second time
    first = dicecli.roll("2d6ro1", given="2,3")
    with pytest.raises(dicecli.RuleError, match=r"re-rolls its own dice \(ro1\).*rule W5"):
        dicecli.reroll(first, given="1,1,4,5")


def test_reroll_rolls_all_the_dice_again_and_the_new_result_stands() -> None:
    # rule W5: a re-roll of 2D6 re-rolls both dice; the second result stands even if worse
    first = dicecli.roll("2d6", given="6,6")
    again = dicecli.reroll(first, given="1,1")
    assert (again.total, again.reroll) == (2, True)


@pytest.mark.parametrize("given", ["3,,4", ",3,4"])
def test_given_with_an_empty_place_is_refused(given: str) -> None:
    with pytest.raises(GivenFacesError, match="empty place"):
        dicecli.roll("2d6", given=given)


def test_given_may_end_with_a_comma_as_a_list_a_script_writes() -> None:
    # docs/grammar.md: a trailing comma is no empty place (printf '%s,' writes one)
    assert dicecli.roll("2d6", given="3,4,").total == 7


@pytest.mark.parametrize(
    "text", ["4d6kh0", "4d6kl0", "4d6dl4", "4d6dh9", "{4d6}dl4", "{d6, d8}kh0"]
)
def test_keeping_nothing_totals_zero_with_every_die_shown_dropped(text: str) -> None:
    # one rule for keeping or dropping everything (docs/grammar.md): allowed, worth 0;
    # was: kh0 and kl0 refused while dl4 of 4d6 gave 0
    result = dicecli.roll(text, given="3,1,4,5" if "d8" not in text else "3,5")
    assert result.total == 0
    assert result.dice
    assert all(not die.kept and "dropped" in die.marks for die in result.dice)


def test_a_dropped_group_item_drops_its_dice() -> None:
    result = dicecli.roll("{2d6, 1d8}kh1", given="1,2,5")
    assert result.total == 5
    assert faces(result) == [
        ("1", False, ("dropped",)),
        ("2", False, ("dropped",)),
        ("5", True, ()),
    ]


def test_large_dice_keep_and_count_without_per_face_tables() -> None:
    """Per-face tables are for small dice: a keep/count term on a d10000 must not build
    (and keep, with the parsed line) an entry for each of its 10,000 faces."""
    die = die_for_sides(10000)
    result = dicecli.roll("3d10000kh1>=5000f10", given="7000,20,9000")
    assert result.total == 1
    assert [d.kept for d in result.dice] == [False, False, True]
    assert "shown_alone" not in die.__dict__
    assert len(die.__dict__.get("_variants", {})) <= 3


@pytest.mark.parametrize(
    ("line", "given", "modifier"),
    [
        ("d(2*3)ro1", "2", "ro1"),  # a computed size
        ("(1+1)d6ro1", "2,3", "ro1"),  # a computed count
        ("(d2)d6r1", "2,4,5", "r1"),  # a count that is itself rolled
        ("(d2)d6ro1 + 1", "1,4", "ro1"),
        ("3d6uo", "1,2,3", "uo"),  # unique dice re-roll a repeat
        ("4d6u", "1,2,3,4", "u"),
        ("(d2)d6u", "2,3,4", "u"),
        ("2d6u=6 >= 7", "3,4", "u6"),  # as the canonical text writes it
    ],
)
def test_reroll_refuses_computed_and_unique_dice_that_could_reroll_a_die_again(
    line: str, given: str, modifier: str
) -> None:
    # rule W5: whatever the form of the dice, a line that re-rolls dice by itself could
    # re-roll a die the re-roll threw; refused before a die is drawn. (The given faces
    # re-roll nothing the first time.)
    first = dicecli.roll(line, given=given)
    assert not any("reroll" in die.marks for die in first.dice)
    with pytest.raises(dicecli.RuleError) as raised:
        dicecli.reroll(first, given="1,1,1,1,1,1")
    assert raised.value.message == (
        f"'{line}' re-rolls its own dice ({modifier}): re-rolled again, a die could be "
        "re-rolled twice (rule W5)"
    )


def test_reroll_refuses_unique_dice_that_re_rolled_a_repeat() -> None:
    # rule W5: 2d6u re-rolled the second 3; that die may not be re-rolled again
    first = dicecli.roll("2d6u", given="3,3,5")
    with pytest.raises(dicecli.RuleError, match=r"already re-rolled a die .*rule W5"):
        dicecli.reroll(first, given="1,2")


def test_every_node_type_has_a_step_compiler() -> None:
    """compile_step looks a node's compiler up by its type: every type of Expr needs
    one (mypy no longer sees this walker, so the test does)."""
    from typing import get_args

    from dicecli.rolling.evaluate import _COMPILERS

    assert set(_COMPILERS) == set(get_args(Expr))
