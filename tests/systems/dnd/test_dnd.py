"""D&D 5e rules D1-D7 with given dice. Every expected figure is worked out by hand from
the rule cited beside it.

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pytest

import dicecli
from dicecli import DiceSyntaxError, RuleError
from dicecli.game import plain_line
from dicecli.results import JSONValue, RollResult


def roll(text: str, given: str, **values: int) -> RollResult:
    return dicecli.roll(text, given=given, values=values)


def verdict(result: RollResult) -> str:
    assert result.outcome is not None
    return result.outcome.verdict


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


# -- rule D1: attack rolls ------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "said", "passed"),
    [
        ("10", "hit", True),  # rule D1: 10 + 5 = 15 meets AC 15
        ("9", "miss", False),  # rule D1: 9 + 5 = 14 < 15
        ("20", "critical hit", True),  # rule D1: a natural 20
        ("1", "miss (natural 1)", False),  # rule D1: a natural 1
    ],
)
def test_an_attack_hits_on_the_ac_or_more(face: str, said: str, passed: bool) -> None:
    result = roll("dnd attack +5 vs 15", face)
    assert verdict(result) == said
    assert result.outcome is not None
    assert result.outcome.passed is passed
    assert result.total == int(face) + 5


def test_a_natural_20_hits_any_ac_and_a_natural_1_misses_any() -> None:
    # rule D1: 20 - 5 = 15 < AC 30, still a critical hit; 1 + 40 = 41 >= 10, still a miss
    assert verdict(roll("dnd attack -5 vs 30", "20")) == "critical hit"
    assert fields(roll("dnd attack -5 vs 30", "20"))["critical"] is True
    assert verdict(roll("dnd attack +40 vs 10", "1")) == "miss (natural 1)"


@pytest.mark.parametrize(
    ("line", "given", "marks"),
    [
        ("dnd attack +5 vs 15", "20", [("critical-success",)]),
        ("dnd check +2", "1", [("critical-failure",)]),
        ("dnd attack +5 vs 15", "12", [()]),
        # only the kept die: the other is dropped
        ("dnd attack +5 adv vs 15", "1,20", [("dropped",), ("critical-success",)]),
        ("dnd save +1 dis vs 10", "1,20", [("critical-failure",), ("dropped",)]),
    ],
)
def test_the_kept_natural_20_or_1_is_marked(line: str, given: str, marks: list[tuple[str]]) -> None:
    # docs/output.md: a natural 20 or 1 on a kept d20 is marked (json.md's marks), as a
    # lone d20's is
    assert [die.marks for die in roll(line, given).dice] == marks


def test_an_attack_without_an_ac_speaks_only_of_naturals() -> None:
    # rule D1
    assert roll("dnd attack +5", "12").outcome is None
    assert verdict(roll("dnd attack +5", "20")) == "critical hit"
    assert verdict(roll("dnd attack +5", "1")) == "miss (natural 1)"


def test_ac_is_spelt_as_players_write_it() -> None:
    # rule D1: vs 15, vs AC 15 and vs AC15 are the same target
    for line in ("dnd attack +5 vs 15", "dnd attack +5 vs AC 15", "DND ATTACK +5 VS ac15"):
        assert fields(roll(line, "10"))["margin"] == 0


# -- rule D2: checks and saving throws ------------------------------------------------


def test_a_check_succeeds_on_the_dc_or_more() -> None:
    # rule D2: 9 + 3 = 12 meets DC 12; 8 + 3 = 11 fails
    assert verdict(roll("dnd check +3 vs 12", "9")) == "success"
    assert verdict(roll("dnd check +3 vs 12", "8")) == "failure"
    assert verdict(roll("dnd +3 vs 12", "9")) == "success"  # no kind word: a check


def test_naturals_mean_nothing_on_checks_and_saves() -> None:
    # rule D2: a natural 20 + 0 fails DC 25; a natural 1 + 10 meets DC 11
    assert verdict(roll("dnd save +0 vs 25", "20")) == "failure"
    assert verdict(roll("dnd check +10 vs 11", "1")) == "success"


# -- rule D3: advantage and disadvantage ----------------------------------------------


def test_advantage_keeps_the_higher_die() -> None:
    # rule D3: 4 and 17, advantage: 17 + 2 = 19
    result = roll("dnd attack +2 adv vs 15", "4,17")
    assert result.total == 19
    assert [die.kept for die in result.dice] == [False, True]
    assert fields(result)["natural"] == 17


def test_disadvantage_keeps_the_lower_die() -> None:
    # rule D3: 4 and 17, disadvantage: 4 + 2 = 6
    result = roll("dnd save +2 dis vs 10", "4,17")
    assert result.total == 6
    assert verdict(result) == "failure"


def test_a_natural_20_under_disadvantage_is_no_critical() -> None:
    # rules D1, D3: 20 and 3 with disadvantage: the 3 counts
    assert verdict(roll("dnd attack +5 dis vs 10", "20,3")) == "miss"


def test_advantage_and_disadvantage_cancel_to_one_die() -> None:
    # rule D3: one d20 is rolled, so a second given face is left over
    result = roll("dnd check +1 adv dis vs 10", "9")
    assert len(result.dice) == 1
    assert result.total == 10
    with pytest.raises(dicecli.DiceError):
        roll("dnd check +1 adv dis vs 10", "9,12")


def test_several_advantages_count_once() -> None:
    # rule D3: still two dice
    result = roll("dnd check adv +1 advantage vs 10 adv", "3,12")
    assert result.total == 13
    assert len(result.dice) == 2
    assert str(dicecli.parse("dnd check adv adv +1 vs 10").body) == "dnd check +1 adv vs 10"


def test_equal_dice_keep_the_first() -> None:
    # rule D3: which of two equal dice counts is dicecli's choice: the first
    result = roll("dnd attack adv", "7,7")
    assert [die.kept for die in result.dice] == [True, False]


# -- rule D4: modifiers and targets ---------------------------------------------------


def test_a_named_modifier_and_a_bless_die() -> None:
    # rule D4: 11 + STR 3 + 2 = 16; bless: 11 + 5 + d4 (3) = 19, the d4 rolled after the d20
    assert roll("dnd attack +STR+2 vs 16", "11", STR=3).total == 16
    result = roll("dnd attack +5 +d4 vs 19", "11,3")
    assert result.total == 19
    assert verdict(result) == "hit"


def test_the_d20_typed_in_the_modifier_is_refused() -> None:
    # rule D4
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse("dnd attack d20+5 vs 15")
    assert "the d20 is rolled for you" in caught.value.message


# -- rule D5: critical damage ---------------------------------------------------------


def test_critical_damage_doubles_the_dice_not_the_modifier() -> None:
    # rule D5: 2d6+3 crit rolls four d6: 1+2+3+4 + 3 = 13
    result = roll("dnd damage 2d6+3 crit", "1,2,3,4")
    assert result.total == 13
    assert fields(result)["critical"] is True
    assert roll("dnd damage 2d6+3", "1,2").total == 6


def test_every_damage_term_is_doubled() -> None:
    # rule D5: 1d8 + 1d6 - 1, critical: 8 + 1 (d8s) + 6 + 2 (d6s) - 1 = 16
    assert roll("dnd damage 1d8 + 1d6 -1 crit", "8,1,6,2").total == 16


def test_dice_in_the_damage_modifier_are_refused() -> None:
    # rule D5
    with pytest.raises(RuleError, match="before the modifier"):
        roll("dnd damage 2d6 +3 + 1d4 crit", "1,1,1,1,1")
    with pytest.raises(RuleError, match="before the modifier"):
        dicecli.odds("dnd damage 2d6 +3 + 1d4")


# -- rule D6: death saving throws -----------------------------------------------------


@pytest.mark.parametrize(
    ("face", "said", "passed"),
    [
        ("10", "success", True),  # rule D6: 10 or more
        ("9", "failure", False),
        ("1", "two failures", False),  # rule D6: a natural 1
        ("20", "regains 1 hit point", True),  # rule D6: a natural 20
    ],
)
def test_death_saving_throws(face: str, said: str, passed: bool) -> None:
    result = roll("dnd death", face)
    assert verdict(result) == said
    assert result.outcome is not None
    assert result.outcome.passed is passed


def test_a_death_save_takes_a_bless_but_a_natural_1_stays_two_failures() -> None:
    # rule D6: 8 + d4 (2) = 10 succeeds; a natural 1 + 4 is still two failures
    assert verdict(roll("dnd death +d4", "8,2")) == "success"
    assert verdict(roll("dnd death +d4", "1,4")) == "two failures"


def test_a_death_save_has_no_dc() -> None:
    # rule D6: its DC is always 10
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse("dnd death vs 12")
    assert "DC is 10" in caught.value.message


# -- rule D7: ability scores ----------------------------------------------------------


def test_ability_scores_drop_the_lowest_of_four() -> None:
    # rule D7: six scores, each the highest three of four d6
    faces = "6,6,6,1, 1,1,1,1, 3,4,5,2, 2,2,3,3, 5,1,5,6, 4,4,4,4"
    result = roll("dnd stats", faces.replace(" ", ""))
    assert fields(result)["scores"] == [18, 3, 12, 8, 16, 12]
    assert result.total == 18 + 3 + 12 + 8 + 16 + 12
    assert verdict(result) == "ability scores 18, 16, 12, 12, 8, 3"
    dropped = [n for n, die in enumerate(result.dice) if not die.kept]
    assert dropped == [3, 4, 11, 12, 17, 20]  # one a score, the first of equal lowest


def test_the_json_and_plain_lines() -> None:
    # rules D1, D3: the breakdown shows both dice and the AC
    result = roll("dnd attack +5 adv vs 15", "3,12")
    assert plain_line(result) == ("17\tdnd attack +5 adv vs 15\t[~3~, 12] + 5 vs AC 15 => hit")
