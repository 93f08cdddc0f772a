"""Warhammer Fantasy Battle rules (N3, W1-W10), each pinned with given dice.

Expected values are worked by hand from ``docs/rules.md``, not copied from
output.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import dicecli
from dicecli import DiceError, Environment, GivenFacesError, RuleError
from dicecli.notation.nodes import Expr
from dicecli.results import IGNORED, REROLL, REROLLED, DiceShown, RollResult, Text
from dicecli.systems.warhammer.dice import ARTILLERY, SCATTER


def fields(result: RollResult) -> dict[str, object]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


def faces(result: RollResult) -> list[tuple[str, bool]]:
    return [(die.face, die.kept) for die in result.dice]


def roles(result: RollResult) -> set[str]:
    return {segment.role for segment in result.breakdown if isinstance(segment, Text)}


# ------------------------------------------------------------------ N3: rounding up


def test_halving_2d6_rolled_7_gives_4() -> None:
    # rule N3: 2D6 rolled 7, halved, is 4
    result = dicecli.roll("wfb 2D6/2", given="3,4")
    assert result.total == 4


def test_ten_percent_of_51_is_6() -> None:
    # rule N3: 10% of 51 models is 6
    assert dicecli.roll("wfb 10% of 51").total == 6


def test_artillery_division_rounds_up() -> None:
    # rule N3 with rule W1: artillery 10 halved twice: 10/4 = 2.5 -> 3
    assert dicecli.roll("wfb artillery/4", given="10").total == 3


def test_natural_faces_and_modified_total_are_both_visible() -> None:
    # rule N5: the natural die stays in the result beside the modified total
    result = dicecli.roll("wfb artillery + 2", given="6")
    assert result.total == 8
    assert faces(result) == [("6", True)]


# ----------------------------------------------------------------- W1: artillery die


@pytest.mark.parametrize(("face", "total"), [("2", 2), ("4", 4), ("6", 6), ("8", 8), ("10", 10)])
def test_artillery_numbers(face: str, total: int) -> None:
    # rule W1: faces 2, 4, 6, 8, 10
    result = dicecli.roll("wfb artillery", given=face)
    assert result.total == total
    assert fields(result) == {"misfire": False}


@pytest.mark.parametrize("spelling", ["MISFIRE", "misfire", "M"])
def test_misfire_has_no_total(spelling: str) -> None:
    # rule W1: a MISFIRE has no number: the roll is a misfire, not a number
    result = dicecli.roll("wfb artillery + 2", given=spelling)
    assert result.total is None
    assert result.outcome is not None
    assert result.outcome.verdict == "MISFIRE"
    assert fields(result) == {"misfire": True}
    assert result.dice[0].marks == ("misfire",)  # the die is marked for the renderers
    assert not result.failed  # a misfire is not a failed check: exit status 0


def test_misfire_inside_an_expression_still_uses_every_die() -> None:
    # rule W1: 2D6 + artillery with a MISFIRE is a misfire; the 2D6 stay shown
    result = dicecli.roll("wfb 2D6 + artillery", given="3,4,MISFIRE")
    assert result.total is None
    assert faces(result) == [("3", True), ("4", True), ("MISFIRE", True)]
    misfire_first = dicecli.roll("wfb artillery + 2D6", given="MISFIRE,3,4")
    assert misfire_first.total is None
    assert len(misfire_first.dice) == 3


def test_two_d6_plus_artillery() -> None:
    # rule W1 with N1: 3 + 4 + 10
    assert dicecli.roll("wfb 2D6 + artillery", given="3,4,10").total == 17


def test_saved_roll_holding_the_artillery_die() -> None:
    # rule W1 through a saved roll: cannon = artillery + 1; (8 + 1) * 2
    cannon = dicecli.parse("artillery + 1").body
    assert isinstance(cannon, Expr)
    env = Environment(rolls={"cannon": cannon})
    assert dicecli.roll("wfb cannon * 2", given="8", environment=env).total == 18
    assert dicecli.roll("wfb cannon * 2", given="M", environment=env).total is None


def test_artillery_die_faces() -> None:
    # rule W1: one face each of 2, 4, 6, 8, 10, MISFIRE
    assert [face.name for face in ARTILLERY.faces] == ["2", "4", "6", "8", "10", "MISFIRE"]
    assert ARTILLERY.faces[-1].value is None


def test_a_plain_expression_has_no_outcome() -> None:
    # rule N1: wfb 2D6 without the artillery die is a plain roll
    result = dicecli.roll("wfb 2D6+5", given="6,6")
    assert result.total == 17
    assert result.outcome is None


# ---------------------------------------------------------- W4: no re-rolls of them


def test_special_dice_are_not_rerollable() -> None:
    # rule W4: the artillery and scatter dice may not be re-rolled
    assert not ARTILLERY.rerollable
    assert not SCATTER.rerollable
    # every face of them, as rolled, says so itself
    rolls = (*ARTILLERY.kept_rolls, *SCATTER.kept_rolls)
    assert not any(roll.rerollable for roll in rolls)
    assert not ARTILLERY.roll_of(5, False, ("dropped",)).rerollable  # a marked one too


def test_results_name_the_unrerollable_dice() -> None:
    # rule W4: the dice in a result are the ones the core's reroll refuses
    result = dicecli.roll("wfb scatter artillery", given="3,4")
    assert [die.die for die in result.dice] == ["scatter", "artillery"]
    assert not any(die.rerollable for die in result.dice)


_REROLL_A_PICKLED_RESULT = """
import pickle, sys
import dicecli
result = pickle.loads(open(sys.argv[1], "rb").read())
# nothing of the game is loaded: only the result can say its dice may not be re-rolled
print("warhammer loaded:", any(name.startswith("dicecli.systems.war") for name in sys.modules))
try:
    print("re-rolled:", dicecli.reroll(result, given=sys.argv[2]).total)
except dicecli.RuleError as error:
    print("refused:", error)
"""


@pytest.mark.parametrize(
    ("text", "given", "again", "expected"),
    [
        ("wfb artillery", "4", "2", "refused: the artillery die may not be re-rolled"),
        ("wfb 2D6", "1,2", "6,6", "re-rolled: 12"),
    ],
)
def test_a_pickled_result_keeps_its_w4_in_a_fresh_process(
    tmp_path: Path, text: str, given: str, again: str, expected: str
) -> None:
    # rule W4: whether a die may be re-rolled travels with the die in the result, so
    # a result loaded in another process, where no Warhammer module was imported,
    # still refuses a re-roll (and an ordinary result still re-rolls, rule W5)
    saved = tmp_path / "result.pickle"
    saved.write_bytes(pickle.dumps(dicecli.roll(text, given=given)))
    shown = subprocess.run(
        [sys.executable, "-c", _REROLL_A_PICKLED_RESULT, str(saved), again],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert shown[0] == "warhammer loaded: False"
    assert shown[1].startswith(expected)


@pytest.mark.parametrize(
    ("text", "given"),
    [("wfb artillery", "4"), ("wfb scatter", "3"), ("wfb 2D6 + artillery", "1,2,M")],
)
def test_core_reroll_refuses_the_special_dice(text: str, given: str) -> None:
    # rule W4: the artillery and scatter dice may not be re-rolled
    from dicecli.rolling.reroll_result import check_rerollable

    with pytest.raises(RuleError, match="W4"):
        check_rerollable(dicecli.roll(text, given=given))


def test_core_reroll_accepts_a_leadership_test() -> None:
    # rule W5: a Leadership test may be re-rolled; both dice are rolled again, and the
    # second result stands (6,6 fails Ld 8; the re-roll 1,2 passes)
    from dicecli.rolling.reroll_result import reroll
    from dicecli.rolling.sources import GivenSource, Roller

    first = dicecli.roll("wfb ld 8", given="6,6")
    second = reroll(first, Roller(GivenSource(["1", "2"])), Environment())
    assert second.reroll
    assert [die.face for die in second.dice] == ["1", "2"]
    assert fields(second)["success"] is True


# ----------------------------------------------------------------- W2: scatter die


@pytest.mark.parametrize(
    ("given", "clock", "degrees"),
    [("3", 3, 90), ("3oclock", 3, 90), ("9o'clock", 9, 270), ("12h", 12, 0), ("90deg", 3, 90)],
)
def test_scatter_arrow_bearing(given: str, clock: int, degrees: int) -> None:
    # rule W2: an arrow is reported as a bearing (clock direction and degrees)
    result = dicecli.roll("wfb scatter", given=given)
    assert fields(result) == {"hit": False, "bearing": degrees, "clock": clock}
    assert result.total is None
    assert result.outcome is not None
    assert result.outcome.passed is None


def test_scatter_arrow_face_shows_a_glyph() -> None:
    # rule W2: the face shown is an arrow glyph with its clock direction
    assert faces(dicecli.roll("wfb scatter", given="3")) == [("→3", True)]


def test_scatter_hit_with_its_small_arrow() -> None:
    # rule W2 (published rules): a HIT face carries a small arrow with a bearing
    result = dicecli.roll("wfb scatter", given="HIT@4")
    assert fields(result) == {"hit": True, "bearing": 120, "clock": 4}
    assert faces(result) == [("HIT↘4", True)]  # HIT and its small arrow, as shown
    assert result.dice[0].marks == ("hit",)  # the die is marked for the renderers


@pytest.mark.parametrize(("given", "hit", "clock"), [("→3", False, 3), ("HIT←9", True, 9)])
def test_scatter_faces_typed_as_shown(given: str, hit: bool, clock: int) -> None:
    # rule W2: a face typed as the result shows it
    result = dicecli.roll("wfb scatter", given=given)
    assert (fields(result)["hit"], fields(result)["clock"]) == (hit, clock)
    assert result.dice[0].face == given


def test_bare_hit_points_at_12_oclock() -> None:
    # rule W2: HIT typed alone is the HIT whose small arrow points at 12 o'clock
    assert fields(dicecli.roll("wfb scatter", given="hit"))["clock"] == 12


def test_scatter_die_has_a_third_hits() -> None:
    # rule W2: 2 HIT faces out of 6 for each of the 12 directions
    hits = sum(1 for face in SCATTER.faces if face.name.startswith("HIT"))
    assert (hits, len(SCATTER.faces)) == (24, 72)


# ------------------------------------------------------------ W3: scatter + distance


def test_scatter_arrow_moves_the_distance_rolled() -> None:
    # rule W3: an arrow moves the object the 2D6 rolled, in the arrow's direction
    result = dicecli.roll("wfb scatter 2D6", given="3,2,5")
    assert result.total == 7
    assert fields(result) == {"hit": False, "bearing": 90, "clock": 3, "distance": 7}


def test_scatter_hit_ignores_the_distance_dice() -> None:
    # rule W3: on a HIT the object does not move and the distance dice are ignored
    result = dicecli.roll("wfb scatter 2D6", given="HIT,6,6")
    assert result.total == 0
    assert fields(result)["distance"] == 0
    assert fields(result)["hit"] is True
    ignored = result.dice[1:]
    assert all(not die.kept and IGNORED in die.marks for die in ignored)
    shown = [s for s in result.breakdown if isinstance(s, DiceShown)]
    assert all(not die.kept for die in shown[1].dice)


def test_scatter_with_the_artillery_die_for_distance() -> None:
    # rule W3: war machines use the artillery die for the distance
    result = dicecli.roll("wfb scatter artillery", given="6,8")
    assert result.total == 8
    assert fields(result) == {
        "hit": False,
        "bearing": 180,
        "clock": 6,
        "misfire": False,
        "distance": 8,
    }


def test_scatter_artillery_misfire() -> None:
    # rule W3: a MISFIRE on the artillery distance die is a misfire
    result = dicecli.roll("wfb scatter artillery", given="6,MISFIRE")
    assert result.total is None
    assert fields(result)["misfire"] is True
    assert fields(result)["distance"] is None
    assert result.outcome is not None
    assert result.outcome.verdict == "MISFIRE"


def test_misfire_on_a_hit_is_a_misfire_by_default() -> None:
    # rule W3 (assumption, documented): a MISFIRE is not a distance, so a HIT does not
    # ignore it; the setting warhammer.misfire_on_hit=ignore overrides
    result = dicecli.roll("wfb scatter artillery", given="HIT,MISFIRE")
    assert result.total is None
    assert fields(result)["misfire"] is True
    assert result.dice[1].kept


def test_misfire_on_a_hit_can_be_ignored_by_setting() -> None:
    # rule W3 with the override of the assumption above
    env = Environment(settings={"warhammer.misfire_on_hit": "ignore"})
    result = dicecli.roll("wfb scatter artillery", given="HIT,MISFIRE", environment=env)
    assert result.total == 0
    assert fields(result)["misfire"] is False
    assert not result.dice[1].kept


def test_bad_misfire_setting_is_refused() -> None:
    env = Environment(settings={"warhammer.misfire_on_hit": "sometimes"})
    with pytest.raises(RuleError, match="misfire_on_hit"):
        dicecli.roll("wfb scatter artillery", given="HIT,2", environment=env)


def test_negative_distance_does_not_move() -> None:
    # rule W3 (assumption): 2D6-3 rolled -1 moves 0, with a note
    result = dicecli.roll("wfb scatter 2D6-3", given="3,1,1")
    assert result.total == 0
    assert result.outcome is not None
    assert result.outcome.notes


# -------------------------------------------------------- W8: characteristic tests


@pytest.mark.parametrize(
    ("characteristic", "face", "passed"),
    [
        (4, "4", True),  # equal passes
        (4, "5", False),  # above fails
        (3, "1", True),
        (6, "6", False),  # a natural 6 always fails
        (7, "6", False),
        (10, "6", False),
        (1, "1", True),  # a natural 1 always passes
        (0, "1", False),  # a characteristic of 0 always fails
        (0, "6", False),
    ],
)
def test_characteristic_test(characteristic: int, face: str, passed: bool) -> None:
    # rule W8
    result = dicecli.roll(f"wfb test {characteristic}", given=face)
    assert result.total == int(face)
    assert fields(result) == {"success": passed, "target": characteristic, "natural": int(face)}
    assert result.failed is (not passed)


def test_characteristic_test_uses_the_highest_value() -> None:
    # rule W8: models with different values test the highest
    result = dicecli.roll("wfb test 3, 4, 2", given="4")
    assert fields(result)["target"] == 4
    assert fields(result)["success"] is True


def test_characteristic_from_a_named_value() -> None:
    # rule W8 with named values: T = 3, +1 -> 4
    result = dicecli.roll("wfb test T+1", given="4", values={"T": 3})
    assert fields(result)["target"] == 4
    assert fields(result)["success"] is True


def test_characteristic_cannot_hold_dice() -> None:
    with pytest.raises(RuleError, match="cannot hold dice"):
        dicecli.roll("wfb test d6", given="3")


# ------------------------------------------------------------- W9: Leadership tests


@pytest.mark.parametrize(
    ("leadership", "given", "passed"),
    [
        (8, "4,4", True),
        (8, "5,4", False),
        (7, "6,1", True),
        (2, "1,1", True),
        (1, "1,1", True),  # a natural double 1 always passes
        (0, "1,1", True),
        (3, "1,2", True),
        (2, "1,2", False),
        (12, "6,6", True),
    ],
)
def test_leadership_test(leadership: int, given: str, passed: bool) -> None:
    # rule W9
    result = dicecli.roll(f"wfb ld {leadership}", given=given)
    natural = sum(int(face) for face in given.split(","))
    assert result.total == natural
    assert fields(result) == {"success": passed, "target": leadership, "natural": natural}
    assert result.failed is (not passed)


def test_leadership_uses_the_highest_value() -> None:
    # rule W9: the highest Leadership in the unit
    result = dicecli.roll("wfb leadership 7, 9", given="5,4")
    assert fields(result)["target"] == 9
    assert fields(result)["success"] is True


# ------------------------------------------------------------------ W10: Break tests


def test_break_test_subtracts_the_combat_result() -> None:
    # rule W10: Ld 8, lost by 3 -> needs 5 or less; 3 + 3 = 6 fails
    result = dicecli.roll("wfb break 8 lost by 3", given="3,3")
    assert fields(result) == {
        "success": False,
        "target": 5,
        "natural": 6,
        "leadership": 8,
        "lost_by": 3,
    }
    assert result.failed


def test_break_test_pass_on_equal() -> None:
    # rule W10: Ld 8 - 3 = 5, rolled 2 + 3 = 5: passes
    assert fields(dicecli.roll("wfb break 8 by 3", given="2,3"))["success"] is True


def test_insane_courage() -> None:
    # rule W10: a natural double 1 passes whatever the modifiers (Ld 7 lost by 9 -> -2)
    result = dicecli.roll("wfb break 7 lost by 9", given="1,1")
    assert fields(result)["target"] == -2
    assert fields(result)["success"] is True
    assert not result.failed


def test_break_test_without_double_one_fails_below_two() -> None:
    # rule W10: Ld 7 lost by 6 -> 1: a 1 + 2 fails
    assert fields(dicecli.roll("wfb break 7 lost by 6", given="1,2"))["success"] is False


def test_negative_combat_result_is_refused() -> None:
    with pytest.raises(RuleError):
        dicecli.roll("wfb break 8 lost by -1", given="1,1")


# ----------------------------------------------------------------------- W6: roll-off


def test_rolloff_highest_wins() -> None:
    # rule W6: each player rolls a D6; highest wins
    result = dicecli.roll("wfb rolloff Alice Bob", given="2,5")
    assert fields(result) == {"winner": "Bob", "rounds": 1}
    assert result.total == 2
    assert result.outcome is not None
    assert result.outcome.passed is None


def test_rolloff_tie_is_rerolled_until_a_winner() -> None:
    # rule W6: on a tie both re-roll, repeating until there is a winner: 4-4, 3-3, 6-1
    result = dicecli.roll("wfb rolloff Alice Bob", given="4,4,3,3,6,1")
    assert fields(result) == {"winner": "Alice", "rounds": 3}
    assert faces(result) == [
        ("4", False),
        ("4", False),
        ("3", False),
        ("3", False),
        ("6", True),
        ("1", True),
    ]
    assert REROLLED in result.dice[0].marks
    assert REROLL in result.dice[4].marks
    separators = [s for s in result.breakdown if s == Text("; ", "side")]
    assert len(separators) == 2  # three rounds, all shown


def test_only_the_tied_players_reroll() -> None:
    # rule W6: the tied players re-roll; Alice (3) lost the first round and stays out
    result = dicecli.roll("wfb rolloff Alice Bob Carl", given="3,5,5,2,6")
    assert fields(result) == {"winner": "Carl", "rounds": 2}
    assert faces(result) == [("3", True), ("5", False), ("5", False), ("2", True), ("6", True)]


def test_numbered_players() -> None:
    # rule W6 with players typed as a count: the winner is its 1-based number
    result = dicecli.roll("wfb rolloff 3", given="1,2,6")
    assert fields(result)["winner"] == 3
    assert result.total == 3


# --------------------------------------------------------------- W7: random allocation


def test_allocation_example_five_models_a_six_is_rerolled() -> None:
    # rule W7: one model of 5; a 6 is re-rolled
    result = dicecli.roll("wfb allocate 5", given="6,3")
    assert result.total == 3
    assert faces(result) == [("6", False), ("3", True)]
    assert REROLLED in result.dice[0].marks
    assert fields(result) == {"chosen": 3, "candidates": 5, "rounds": 2}


def test_allocation_keeps_a_result_in_range() -> None:
    # rule W7: 5 of 5 stands
    assert dicecli.roll("wfb allocate 5", given="5").total == 5


def test_allocation_by_name() -> None:
    # rule W7: candidates numbered 1..n in the order typed
    result = dicecli.roll("wfb allocate Champion Musician Banner", given="4,2")
    assert result.total == 2
    assert fields(result)["chosen"] == "Musician"


def test_allocation_among_more_than_six() -> None:
    # rule W7 (documented method for n > 6): 2 D6 as base-6 digits, 36 numbers;
    # 7 candidates accept 1..35. 6,6 -> 36: re-roll; 3,5 -> 1 + 2*6 + 4 = 17 -> 17 % 7 = 3
    result = dicecli.roll("wfb allocate 7", given="6,6,3,5")
    assert result.total == 3
    assert faces(result) == [("6", False), ("6", False), ("3", True), ("5", True)]


def test_allocation_among_thirty_six_reads_the_digits() -> None:
    # rule W7 (method for n > 6): 36 candidates, no re-roll: 6,6 -> 36, 1,1 -> 1
    assert dicecli.roll("wfb allocate 36", given="6,6").total == 36
    assert dicecli.roll("wfb allocate 36", given="1,1").total == 1


def test_allocation_of_one_needs_no_dice() -> None:
    # rule W7: one candidate is the one
    result = dicecli.roll("wfb allocate 1", given="")
    assert result.total == 1
    assert result.dice == ()


# ------------------------------------------------------------------- --given errors


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("wfb artillery", "3"),  # the artillery die has no 3
        ("wfb artillery", "12"),
        ("wfb artillery", "HIT"),
        ("wfb scatter", "HIT@13"),
        ("wfb scatter", "45deg"),  # not one of the 12 directions
        ("wfb scatter", "MISFIRE"),
        ("wfb scatter 2D6", "HIT,7,1"),
        ("wfb test 4", "0"),
        ("wfb ld 8", "3,MISFIRE"),
    ],
)
def test_a_face_the_die_cannot_show_is_refused(text: str, given: str) -> None:
    with pytest.raises(GivenFacesError, match="is not a face of"):
        dicecli.roll(text, given=given)


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("wfb ld 8", "3"),
        ("wfb test 4", "3,4"),
        ("wfb scatter 2D6", "3,4"),
        ("wfb rolloff 2", "5,5"),
    ],
)
def test_too_few_or_too_many_faces(text: str, given: str) -> None:
    with pytest.raises(GivenFacesError):
        dicecli.roll(text, given=given)


def test_json_outcome_of_a_test() -> None:
    data = dicecli.roll("wfb ld 8", given="1,1").as_dict()
    assert data["outcome"] == {
        "verdict": "pass (2 ≤ 8)",
        "passed": True,
        "success": True,
        "target": 8,
        "natural": 2,
    }
    assert data["expression"] == "wfb ld 8"


# Several items at once (rule W7: one D6 per item).


def test_w7_allocate_several_items_one_by_one() -> None:
    # rule W7: among 5 a 6 is rolled again; items 2, (6 rejected) 5, 3
    result = dicecli.roll("wfb allocate 3 among 5", given="2,6,5,3")
    assert result.total is None  # no single candidate: the verdict says who got what
    assert result.outcome is not None
    assert result.outcome.verdict == "candidate 2 ×1, candidate 3 ×1, candidate 5 ×1"
    fields = dict(result.outcome.fields)
    assert fields["allocated"] == [2, 5, 3]
    assert fields["items"] == 3
    assert fields["rounds"] == 4
    assert [die.kept for die in result.dice] == [True, False, True, True]


def test_w7_allocate_several_items_among_names() -> None:
    result = dicecli.roll("wfb allocate 2 among Champion Musician", given="1,1")
    assert result.outcome is not None
    assert result.outcome.verdict == "Champion ×2"
    assert dict(result.outcome.fields)["allocated"] == ["Champion", "Champion"]


def test_w7_allocate_among_reads_back_and_refuses_no_items() -> None:
    assert str(dicecli.parse("wfb allocate 3 among 5").body) == "wfb allocate 3 among 5"
    assert str(dicecli.parse("wfb allocate 1 among 5").body) == "wfb allocate 5"
    with pytest.raises(DiceError, match="1 to 1000 items"):
        dicecli.parse("wfb allocate 0 among 5")


def test_w7_allocate_among_odds_are_per_item() -> None:
    found = dicecli.odds("wfb allocate 3 among 5")
    assert found.distribution is not None
    assert found.distribution.as_dict()[1] == Fraction(1, 5)
    assert dict(found.expectations)["dice rolled"] == Fraction(18, 5)  # 3 x 6/5
