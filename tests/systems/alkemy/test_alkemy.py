"""Alkemy rules A1-A9 with given dice, and the forms a player types.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicecli
from dicecli import Environment, GivenFacesError, RollLimitError, RuleError, UnknownNameError
from dicecli.errors import DiceSyntaxError
from dicecli.results import DROPPED, REROLL, REROLLED, DiceShown, RollResult, Text
from dicecli.systems.alkemy.nodes import AlkemyCheck, AlkemyOpposed, AlkemySide, KeepChoice
from dicecli.systems.alkemy.roll import MAX_ROUNDS
from dicecli.systems.alkemy.rules import best_two


@pytest.fixture(autouse=True)
def _no_user_dice_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No real ~/.config/dicecli/alkemy-dice.toml may change these tests."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "empty-config"))


def fields(result: RollResult) -> dict[str, object]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


def notes(result: RollResult) -> str:
    assert result.outcome is not None
    return " | ".join(result.outcome.notes)


def faces(result: RollResult) -> list[tuple[int | None, bool]]:
    return [(die.value, die.kept) for die in result.dice]


# -- A1: characteristic test ---------------------------------------------------------------


def test_a1_worked_example_mind_8_difficulty_15() -> None:
    # rule A1: Mind 8, difficulty 15, dice 3 and 4: 3+4+8 = 15, success
    result = dicecli.roll("alkemy Mind 8 vs 15", given="3,4")
    assert result.total == 15
    assert result.outcome is not None
    assert result.outcome.passed is True
    assert fields(result)["success"] is True
    assert fields(result)["target"] == 15
    assert fields(result)["margin"] == 0
    assert Text("Mind ", "label") in result.breakdown
    assert result.outcome.verdict == "success vs 15, margin +0"


def test_a1_one_short_fails_and_exits_1() -> None:
    # rule A1: success only if total >= difficulty; 3+3+8 = 14 < 15
    result = dicecli.roll("alkemy 8 vs 15", given="3,3")
    assert result.total == 14
    assert result.failed
    assert fields(result)["success"] is False
    assert fields(result)["margin"] == -1


def test_a1_two_white_dice_by_default() -> None:
    # rule A1/A8: an unhurt miniature rolls 2 white dice
    result = dicecli.roll("alkemy 8 vs 15", given="6,6")
    assert [die.die for die in result.dice] == ["alkemy-white", "alkemy-white"]
    assert fields(result)["colour"] == "white"
    assert result.total == 20


def test_without_difficulty_the_total_is_shown_without_verdict() -> None:
    result = dicecli.roll("alkemy 8", given="2,5")
    assert result.total == 15
    assert result.outcome is not None
    assert result.outcome.passed is None
    assert "success" not in fields(result)


def test_characteristic_and_difficulty_may_be_names() -> None:
    result = dicecli.roll("alkemy Mind vs Hard", given="3,4", values={"Mind": 8, "Hard": 15})
    assert result.total == 15
    assert fields(result)["success"] is True
    assert Text("Mind ", "label") in result.breakdown


def test_unknown_name_points_at_it() -> None:
    with pytest.raises(UnknownNameError) as caught:
        dicecli.roll("alkemy Mind vs 15", given="3,4")
    assert caught.value.position == len("alkemy ")


# -- A2: opposed test ----------------------------------------------------------------------


def test_a2_worked_example_tie_goes_to_higher_characteristic() -> None:
    # rule A2: Reflex 2 rolls 4+4 -> 10; Reflex 5 rolls 1+4 -> 10; the Reflex 5 side wins
    result = dicecli.roll("alkemy 2 vs alkemy 5", given="4,4,1,4")
    facts = fields(result)
    assert facts["winner"] == 2
    assert facts["tiebreak"] == "characteristic"
    assert facts["totals"] == [10, 10]
    assert facts["rounds"] == 1
    assert result.total == 10
    assert result.outcome is not None
    assert result.outcome.passed is None
    assert result.outcome.verdict.startswith("side 2 wins on characteristic")


def test_a2_verdict_names_the_labelled_winner() -> None:
    # rule A2: "the Reflex 5 side wins"
    result = dicecli.roll("alkemy Reflex 2 vs alkemy Reflex 5", given="4,4,1,4")
    assert result.outcome is not None
    assert result.outcome.verdict.startswith("side 2 (Reflex 5) wins on characteristic")


@pytest.mark.parametrize(
    ("line", "same_as"),
    [
        ("alkemy Ayla: 2 vs Orc: 5", "alkemy Ayla 2 vs alkemy Orc 5"),
        ("alkemy Ayla:2 vs alkemy Orc:5", "alkemy Ayla 2 vs alkemy Orc 5"),
        (
            "alkemy Ayla: 2 yellow +1 bonus vs Orc: Reflex red",
            "alkemy Ayla 2 yellow +1bonus vs alkemy Orc Reflex red",
        ),
        ("alkemy Ayla: 8 vs 15", "alkemy Ayla 8 vs 15"),
    ],
)
def test_a2_sides_named_as_age_names_them(line: str, same_as: str) -> None:
    # rule A2, with AGE's `NAME:` sides (docs/age.md)
    assert dicecli.parse(line).body == dicecli.parse(same_as).body


def test_a2_a_named_side_wins_by_its_name() -> None:
    # rule A2: 3+4+2 = 9 against 4+1+5 = 10: Orc wins
    result = dicecli.roll("alkemy Ayla: 2 vs Orc: 5", given="3,4,4,1")
    assert result.outcome is not None
    assert result.outcome.verdict.startswith("side 2 (Orc 5) wins on total")


def test_a2_higher_total_wins() -> None:
    # rule A2: the higher total wins, whatever the characteristics
    result = dicecli.roll("alkemy 2 vs alkemy 5", given="6,6,1,1")
    assert fields(result)["winner"] == 1
    assert fields(result)["tiebreak"] == "total"
    assert fields(result)["margin"] == 7  # 14 vs 7
    assert result.total == 14


def test_a2_equal_characteristics_reroll_until_one_wins() -> None:
    # rule A2: 7 vs 7 (tie, equal characteristics), 5 vs 5 again, then 6 vs 9
    given = "2,2,1,3, 1,1,1,1, 1,2,3,3"
    result = dicecli.roll("alkemy 3 vs alkemy 3", given=given)
    facts = fields(result)
    assert facts["winner"] == 2
    assert facts["tiebreak"] == "reroll"
    assert facts["rounds"] == 3
    assert facts["totals"] == [6, 9]
    assert result.total == 9
    assert len(result.dice) == 12
    tied = result.dice[:8]
    assert all(not die.kept and REROLLED in die.marks for die in tied)
    assert all(REROLL in die.marks for die in result.dice[4:])
    assert all(die.kept for die in result.dice[8:])
    shown = [segment for segment in result.breakdown if isinstance(segment, DiceShown)]
    assert len(shown) == 6  # every round, both sides
    assert Text("; ", "side") in result.breakdown


def test_a2_each_side_rolls_its_own_colour_and_extra_dice() -> None:
    # rules A2, A3: side 1 is critical (red) with a bonus die, side 2 unhurt (white)
    result = dicecli.roll("alkemy 2 red +1bonus vs alkemy 5", given="4,3,1,2,2")
    assert [die.die for die in result.dice] == ["alkemy-red"] * 3 + ["alkemy-white"] * 2
    assert faces(result)[:3] == [(4, True), (3, True), (1, False)]
    facts = fields(result)
    assert facts["totals"] == [9, 9]
    assert facts["winner"] == 2  # tie on 9, characteristic 5 beats 2
    assert facts["colour"] == ["red", "white"]


def test_a2_red_die_has_no_five() -> None:
    # rule A8: the red die shows 1-4
    with pytest.raises(GivenFacesError):
        dicecli.roll("alkemy 2 red vs alkemy 5", given="5,1,1,1")


def test_a2_endless_ties_stop_with_a_clear_error(tmp_path: Path) -> None:
    dice_file = tmp_path / "flat.toml"
    dice_file.write_text("[white]\nfaces = [3, 3, 3, 3, 3, 3]\n")
    env = Environment(settings={"alkemy.dice_file": str(dice_file)})
    with pytest.raises(RollLimitError, match=f"{MAX_ROUNDS} rounds"):
        dicecli.roll("alkemy 2 vs alkemy 2", seed=1, environment=env)


def test_a2_roll_budget_stops_rerolls() -> None:
    with pytest.raises(RollLimitError):
        dicecli.roll("alkemy 2 vs alkemy 2", given="1,1,1,1,1,1,1,1", budget=6)


# -- A3, A8: colours -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "colour"),
    [
        ("white", "white"),
        ("unhurt", "white"),
        ("yellow", "yellow"),
        ("wounded", "yellow"),
        ("serious", "yellow"),
        ("red", "red"),
        ("critical", "red"),
        ("RED", "red"),
    ],
)
def test_a8_health_state_words_pick_the_colour(word: str, colour: str) -> None:
    # rule A8: white (unhurt), yellow (serious), red (critical)
    result = dicecli.roll(f"alkemy 8 vs 15 {word}", given="1,2")
    assert fields(result)["colour"] == colour
    assert {die.die for die in result.dice} == {f"alkemy-{colour}"}


def test_a3_bonus_and_penalty_dice_take_the_health_state_colour() -> None:
    # rule A3: extra dice are of the current health state's colour
    bonus = dicecli.roll("alkemy 8 vs 15 yellow +1bonus", given="5,4,1")
    assert [die.die for die in bonus.dice] == ["alkemy-yellow"] * 3
    penalty = dicecli.roll("alkemy 8 vs 15 critical +2penalty", given="4,1,3,2")
    assert [die.die for die in penalty.dice] == ["alkemy-red"] * 4


def test_a8_yellow_die_shows_1_to_5() -> None:
    # rule A8: the yellow die shows 1-5
    assert dicecli.roll("alkemy 8 vs 15 yellow", given="5,4").total == 17
    with pytest.raises(GivenFacesError, match="alkemy-yellow"):
        dicecli.roll("alkemy 8 vs 15 yellow", given="6,4")


def test_a9_assumed_faces_are_said_in_the_notes() -> None:
    # rule A9: yellow and red layouts are an assumption and the output says so
    assert "assumption (rule A9)" in notes(dicecli.roll("alkemy 8 vs 15 red", given="1,2"))
    assert "A9" not in notes(dicecli.roll("alkemy 8 vs 15", given="1,2"))


# -- A4: bonus dice ------------------------------------------------------------------------


def test_a4_worked_example_keeps_the_two_highest_by_default() -> None:
    # rule A4: 1 bonus die, rolled 4, 5, 1: keeps 4 and 5 -> 9
    result = dicecli.roll("alkemy 0 vs 9 +1bonus", given="4,5,1")
    assert result.total == 9
    assert faces(result) == [(4, True), (5, True), (1, False)]
    assert result.dice[2].marks == (DROPPED,)
    assert fields(result)["bonus_dice"] == 1


def test_a4_player_may_keep_another_pair() -> None:
    # rule A4: keeping 1 and 4 (the 1st and 3rd dice rolled) is also legal
    result = dicecli.roll("alkemy 0 vs 9 +1bonus keep 1,3", given="4,5,1")
    assert result.total == 5
    assert faces(result) == [(4, True), (5, False), (1, True)]
    assert "by choice (rule A4)" in notes(result)
    assert result.failed


def test_a4_keep_positions_in_any_order() -> None:
    # rule A4
    assert dicecli.roll("alkemy 0 +2bonus keep 4,2", given="1,2,3,4").total == 6


def test_a4_of_equal_faces_the_first_rolled_is_kept() -> None:
    result = dicecli.roll("alkemy 0 +1bonus", given="4,5,4")
    assert faces(result) == [(4, True), (5, True), (4, False)]


@given(
    st.sampled_from([-2, -1, 1, 2]).flatmap(
        lambda net: st.tuples(
            st.just(net), st.lists(st.integers(0, 6), min_size=2 + abs(net), max_size=2 + abs(net))
        )
    )
)
def test_a4_a5_the_kept_pair_beats_every_dropped_die(case: tuple[int, list[int]]) -> None:
    """Rules A4, A5: bonus dice keep the two highest, penalty dice the two lowest; of
    equal faces the one rolled first is kept. So no dropped die is better than a kept
    one, and a dropped die equal to a kept one was rolled after it."""
    net, values = case
    first, second = best_two(values, net)
    assert 0 <= first < second < len(values)
    sign = 1 if net > 0 else -1
    for dropped, value in enumerate(values):
        if dropped in (first, second):
            continue
        for kept in (first, second):
            assert sign * value < sign * values[kept] or (value == values[kept] and dropped > kept)


@pytest.mark.parametrize("keep", ["keep 1,4", "keep 0,1", "keep 2,2"])
def test_a4_keep_must_name_two_rolled_dice(keep: str) -> None:
    text = f"alkemy 8 vs 15 +1bonus {keep}"
    with pytest.raises(RuleError) as caught:
        dicecli.roll(text, given="1,2,3")
    assert caught.value.position == text.index("keep")


# -- A5: penalty dice ----------------------------------------------------------------------


def test_a5_worked_example_keeps_the_two_lowest() -> None:
    # rule A5: 2 penalty dice, 4 dice rolled 5, 1, 3, 4: keeps 3 and 1 -> 4
    result = dicecli.roll("alkemy 0 vs 4 +2penalty", given="5,1,3,4")
    assert result.total == 4
    assert faces(result) == [(5, False), (1, True), (3, True), (4, False)]
    assert fields(result)["penalty_dice"] == 2


def test_a5_penalty_refuses_a_keep_choice() -> None:
    # rule A5: the two lowest are kept, forced
    with pytest.raises(RuleError, match="rule A5"):
        dicecli.roll("alkemy 8 vs 15 +1penalty keep 1,2", given="1,2,3")


# -- A6: netting ---------------------------------------------------------------------------


def test_a6_two_penalty_one_bonus_is_one_penalty() -> None:
    # rule A6: 2 penalty + 1 bonus -> 1 penalty: 3 dice, the two lowest kept
    result = dicecli.roll("alkemy 0 vs 4 +2penalty +1bonus", given="6,2,3")
    assert faces(result) == [(6, False), (2, True), (3, True)]
    assert result.total == 5
    assert fields(result)["penalty_dice"] == 1
    assert "= 1 penalty die (rule A6)" in notes(result)


def test_a6_three_bonus_one_penalty_is_two_bonus() -> None:
    # rule A6: 3 bonus + 1 penalty -> 2 bonus: 4 dice, the two highest kept
    result = dicecli.roll("alkemy 0 vs 4 +3bonus +1penalty", given="1,6,2,5")
    assert faces(result) == [(1, False), (6, True), (2, False), (5, True)]
    assert result.total == 11
    assert fields(result)["bonus_dice"] == 2
    assert "= 2 bonus dice (rule A6)" in notes(result)


def test_a6_one_and_one_cancel() -> None:
    # rule A6: 1 + 1 -> no modifier: 2 dice
    result = dicecli.roll("alkemy 0 vs 4 +1bonus +1penalty", given="1,6")
    assert faces(result) == [(1, True), (6, True)]
    assert "bonus_dice" not in fields(result)
    assert "penalty_dice" not in fields(result)


def test_a6_keep_needs_net_bonus_dice() -> None:
    # rule A6: bonus and penalty cancelled, so there is nothing to choose
    with pytest.raises(RuleError, match="A6"):
        dicecli.roll("alkemy 0 +1bonus +1penalty keep 1,2", given="1,6")


def test_bonus_terms_add_up() -> None:
    # rule A6: every source of bonus dice counts before netting
    result = dicecli.roll("alkemy 0 +1bonus +1b +1penalty", given="1,2,3")
    assert fields(result)["bonus_dice"] == 1


# -- A7: the cap ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "lost"),
    [
        ("alkemy 0 +3bonus", "bonus_dice", 1),
        ("alkemy 0 +5bonus", "bonus_dice", 3),
        ("alkemy 0 +4penalty", "penalty_dice", 2),
        ("alkemy 0 +6bonus +2penalty", "bonus_dice", 2),
    ],
)
def test_a7_at_most_four_dice_rolled_and_two_kept(text: str, kind: str, lost: int) -> None:
    # rule A7: the net modifier is capped at 2; extra dice are lost, and the output says so
    result = dicecli.roll(text, given="3,1,4,2")
    assert len(result.dice) == 4
    assert sum(die.kept for die in result.dice) == 2
    assert fields(result)[kind] == 2
    assert re.search(rf"{lost} {kind.split('_')[0]} di(e|ce) lost to the cap", notes(result))


def test_a7_no_cap_note_when_nothing_is_lost() -> None:
    # rule A7
    assert "cap" not in notes(dicecli.roll("alkemy 0 +2bonus", given="3,1,4,2"))


# -- the forms -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("alkemy 8 vs 15", AlkemyCheck(AlkemySide(8), 15)),
        ("alkemy 8", AlkemyCheck(AlkemySide(8))),
        (
            "alkemy Mind 8 vs 15 yellow +1bonus keep 1,2",
            AlkemyCheck(AlkemySide(8, "Mind", "yellow", 1, 0, KeepChoice(1, 2)), 15),
        ),
        (
            "alkemy 8 red +2 bonus vs 15 +1 penalty",
            AlkemyCheck(AlkemySide(8, None, "red", 2, 1), 15),
        ),
        (
            "alkemy 2 red +1bonus vs alkemy 5",
            AlkemyOpposed(AlkemySide(2, None, "red", 1), AlkemySide(5)),
        ),
        ("ALKEMY 8 VS 15 WOUNDED +B +P", AlkemyCheck(AlkemySide(8, None, "yellow", 1, 1), 15)),
    ],
)
def test_forms_parse_and_print_back(text: str, node: object) -> None:
    body = dicecli.parse(text).body
    assert body == node
    assert dicecli.parse(str(body)).body == body


def test_canonical_text_puts_extras_after_the_difficulty() -> None:
    assert str(dicecli.parse("alkemy 8 +1bonus red vs 15").body) == "alkemy 8 vs 15 red +1bonus"


def test_comment_is_kept() -> None:
    assert dicecli.roll("alkemy 8 vs 15 # climb", given="3,4").comment == "climb"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("alkemy", "characteristic"),
        ("alkemy 8 vs", "difficulty"),
        ("alkemy 8 green vs 15", "'green' is not understood"),
        ("alkemy 8 vs 15 red yellow", "a second health state"),
        ("alkemy 8 vs 15 +1b keep 1,2 keep 1,3", "a second keep choice"),
        ("alkemy 8 vs 15 keep 1", "','"),
        ("alkemy 8 vs alkemy", "characteristic"),
    ],
)
def test_syntax_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError, match=message):
        dicecli.parse(text)
