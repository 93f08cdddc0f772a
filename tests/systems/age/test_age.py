"""AGE system rules G1-G8 with given dice. Every expected figure is worked out by hand
from the rule cited beside it (the Dragon die is the last face of each three).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

import dicecli
from dicecli import DiceSyntaxError, GivenFacesError, RuleError
from dicecli.character import load_character
from dicecli.environment import Environment
from dicecli.notation.nodes import Dice
from dicecli.results import JSONValue, RollResult


def roll(
    text: str,
    given: str,
    values: Mapping[str, int] | None = None,
    settings: Mapping[str, str] | None = None,
) -> RollResult:
    env = Environment(values=values or {}, settings=settings or {})
    return dicecli.roll(text, given=given, environment=env)


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


# -- rule G1: 3D6, the Dragon die, ability, focus -----------------------------------


def test_ability_test_adds_dice_ability_and_modifier() -> None:
    # rule G1: 2+5+5 = 12, STR 3, +2 -> 17
    result = roll("age STR+2 vs 13", "2,5,5", {"STR": 3})
    assert result.total == 17
    assert [die.value for die in result.dice] == [2, 5, 5]


def test_dragon_die_is_the_last_of_three_faces() -> None:
    # rule G1 and the --given order: the third face is the Dragon die
    first = roll("age 0 vs 3", "2,5,5")
    second = roll("age 0 vs 3", "5,5,2")
    assert fields(first)["dragon"] == 5
    assert fields(second)["dragon"] == 2
    dragon = first.dice[2]
    assert dragon.die == "dragon"
    assert "dragon" in dragon.marks
    assert all("dragon" not in die.marks for die in first.dice[:2])


def test_focus_adds_two() -> None:
    # rule G1: 1+2+3 = 6, ability 3, focus +2 -> 11
    result = roll("age 3 +focus vs 13", "1,2,3")
    assert result.total == 11
    assert fields(result)["margin"] == -2


def test_second_focus_is_refused() -> None:
    # rule G1: only one focus counts
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse("age 3 +focus +focus vs 13")
    assert "only one focus" in caught.value.message
    assert caught.value.position == len("age 3 +focus ")


def test_several_modifiers_add_up() -> None:
    # rule G1: 4+4+4 = 12, STR 1, +2 -1 -> 14; DEX 2 +1 +focus -> 12+5 = 17
    assert roll("age STR+2-1 vs 11", "4,4,4", {"STR": 1}).total == 14
    assert roll("age DEX +1 +focus", "4,4,4", {"DEX": 2}).total == 17


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("age STR vs 10", {"STR": 3}),  # rule G8: the abbreviation
        ("age STR vs 10", {"Strength": 3}),  # rule G8: the full name serves too
        ("age strength vs 10", {"str": 3}),  # any case
        ("age Str vs 10", {"STRENGTH": 3}),
        ("age INT vs 10", {"Intelligence": 3}),  # rule G8: Fantasy/Modern AGE ability
        ("age FGT vs 10", {"fighting": 3}),
    ],
)
def test_ability_values_by_abbreviation_or_full_name(text: str, values: Mapping[str, int]) -> None:
    # rule G8: 1+1+1 = 3, ability 3 -> 6
    result = roll(text, "1,1,1", values)
    assert result.total == 6
    assert result.outcome is not None
    assert result.outcome.notes == ()


def test_every_ability_of_rule_g8_parses() -> None:
    # rule G8: the abbreviations and the full names of both rule sets
    names = {
        "STR": "Strength",
        "DEX": "Dexterity",
        "CON": "Constitution",
        "COM": "Communication",
        "CUN": "Cunning",
        "MAG": "Magic",
        "PER": "Perception",
        "WIL": "Willpower",
        "ACC": "Accuracy",
        "FGT": "Fighting",
        "INT": "Intelligence",
    }
    for abbreviation, full in names.items():
        assert str(dicecli.parse(f"age {abbreviation} vs 9")) == f"age {abbreviation} vs 9"
        assert str(dicecli.parse(f"age {full.lower()} vs 9")) == f"age {abbreviation} vs 9"


def test_unset_ability_counts_zero_with_a_note() -> None:
    # rule G1: 2+5+5 = 12, STR not set -> 0, +2 -> 14
    result = roll("age STR+2 vs 13", "2,5,5")
    assert result.total == 14
    assert result.outcome is not None
    assert any("STR is not set" in note for note in result.outcome.notes)


def test_unset_ability_with_a_character_loaded_is_an_error(tmp_path: Path) -> None:
    # rule G8: with a sheet loaded, an ability it does not set is no silent 0
    sheet = tmp_path / "mira.toml"
    sheet.write_text('name = "Mira"\n[stats]\nDEX = 2\n', encoding="utf-8")
    env = load_character(sheet, Environment())
    with pytest.raises(RuleError, match=r"STR is not set for Mira .*--set STR=N"):
        dicecli.roll("age STR+2 vs 13", given="2,5,5", environment=env)
    with pytest.raises(RuleError, match="not set for Mira"):
        dicecli.odds("age Strength vs 13", environment=env)
    # the sheet's own ability, or one set beside it, rolls as before: 2+5+5 + 2 + 2
    assert dicecli.roll("age DEX+2 vs 13", given="2,5,5", environment=env).total == 16
    env = env.with_value("STR", 1)
    assert dicecli.roll("age STR+2 vs 13", given="2,5,5", environment=env).total == 15


def test_a_nameless_sheet_is_named_by_its_file(tmp_path: Path) -> None:
    # rule G8
    sheet = tmp_path / "brannoc.toml"
    sheet.write_text("[stats]\nDEX = 2\n", encoding="utf-8")
    env = load_character(sheet, Environment())
    with pytest.raises(RuleError, match=r"not set for brannoc\.toml"):
        dicecli.roll("age STR vs 13", given="2,5,5", environment=env)


def test_ability_that_is_a_saved_roll_is_refused() -> None:
    env = Environment(rolls={"STR": Dice(1, 6)})
    with pytest.raises(RuleError):
        dicecli.roll("age STR vs 10", given="1,1,1", environment=env)


# -- rules G2, G3: target numbers ---------------------------------------------------


@pytest.mark.parametrize(
    ("given", "success", "margin"),
    [("3,3,4", True, 0), ("3,3,3", False, -1), ("6,6,6", True, 8)],
)
def test_success_at_or_above_the_target(given: str, success: bool, margin: int) -> None:
    # rule G2: 10 >= 10 succeeds, 9 fails, 18 succeeds by 8
    result = roll("age 0 vs 10", given)
    assert fields(result)["success"] is success
    assert fields(result)["margin"] == margin
    assert result.failed is not success


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("routine", 7),
        ("Easy", 9),
        ("AVERAGE", 11),
        ("challenging", 13),
        ("hard", 15),
        ("formidable", 17),
        ("imposing", 19),
        ("nigh-impossible", 21),
        ("Nigh Impossible", 21),
    ],
)
def test_named_difficulties(name: str, target: int) -> None:
    # rule G3: each name's target number; a total one below it fails, at it succeeds
    below = roll(f"age {target - 4} vs {name}", "1,1,1")  # 3 + target-4 = target-1
    at = roll(f"age {target - 3} vs {name}", "1,1,1")
    assert fields(below)["target"] == target
    assert fields(below)["success"] is False
    assert fields(at)["success"] is True


# -- rules G5, G6: degree of success and stunt points -------------------------------


def test_degree_is_the_dragon_die_not_the_highest_die() -> None:
    # rule G5: 6+1+3 = 10 vs 10 succeeds; the Dragon die (last) shows 3
    result = roll("age 0 vs 10", "6,1,3")
    assert fields(result)["degree"] == 3
    assert fields(result)["stunt_points"] == 0  # rule G6: no doubles


def test_no_degree_on_failure() -> None:
    # rule G5: the Dragon die means nothing on a failure
    result = roll("age 0 vs 15", "1,2,6")
    assert fields(result)["success"] is False
    assert fields(result)["degree"] is None


@pytest.mark.parametrize(
    ("text", "given", "points"),
    [
        ("age 0 vs 10", "2,5,5", 5),  # rule G6: doubles with the Dragon die: SP = 5
        ("age 0 vs 10", "5,2,5", 5),  # the other d6 pairs with the Dragon die
        ("age 0 vs 10", "4,4,6", 6),  # doubles of the two d6; SP = Dragon die 6
        ("age 2 vs 11", "3,3,3", 3),  # triples count: 9+2 = 11 succeeds, SP 3
        ("age 0 vs 9", "1,2,6", 0),  # success without doubles: no SP
        ("age 0 vs 15", "4,4,2", 0),  # doubles but 10 < 15 fails: no SP
        ("age 0 vs 15", "6,6,6", 6),  # 18 with triples
    ],
)
def test_stunt_points(text: str, given: str, points: int) -> None:
    result = roll(text, given)
    assert fields(result)["stunt_points"] == points
    if points:
        assert result.outcome is not None
        assert f"{points} SP" in result.outcome.verdict


def test_failed_roll_with_doubles_reports_doubles_but_no_sp() -> None:
    # rule G6: SP need a success
    result = roll("age 0 vs 15", "4,4,2")
    assert fields(result)["doubles"] is True
    assert fields(result)["stunt_points"] == 0
    assert result.outcome is not None
    assert "SP" not in result.outcome.verdict


def test_json_outcome_fields_of_a_basic_test() -> None:
    # rules G2, G5, G6: 2+5+5 +2 = 14 vs 13
    result = roll("age STR+2 vs challenging", "2,5,5")
    assert result.as_dict()["outcome"] == {
        "verdict": "success, degree 5, 5 SP",
        "passed": True,
        "success": True,
        "target": 13,
        "difficulty": "challenging",
        "margin": 1,
        "dragon": 5,
        "doubles": True,
        "degree": 5,
        "stunt_points": 5,
        "notes": ["STR is not set: counted as 0 (set it with --set STR=N or let STR = N)"],
    }


def test_a_test_without_target_is_not_judged() -> None:
    # rule G1 alone: 1+2+3 +1 = 7
    result = roll("age 1", "1,2,3")
    assert result.total == 7
    assert result.outcome is not None
    assert result.outcome.passed is None
    assert fields(result) == {"dragon": 3, "doubles": False}


# -- rule G4: opposed tests ---------------------------------------------------------


def test_opposed_higher_total_wins() -> None:
    # rule G4: 3+4+5 +1 = 13 against 3+3+4 +2 = 12
    result = roll("age 1 vs age 2", "3,4,5,3,3,4")
    assert fields(result)["winner"] == 1
    assert fields(result)["tiebreak"] == "total"
    assert result.total == 13


def test_opposed_tie_goes_to_the_higher_dragon_die() -> None:
    # rule G4: 1+6+3 = 10 and 2+4+4 = 10; Dragon dice 3 and 4
    result = roll("age 0 vs age 0", "1,6,3,2,4,4")
    assert fields(result)["winner"] == 2
    assert fields(result)["tiebreak"] == "dragon"


def test_opposed_tie_then_the_higher_ability() -> None:
    # rule G4: 1+1+4 + STR 2 = 8 and 1+2+4 + DEX 1 = 8; Dragon dice 4 and 4; STR 2 > DEX 1
    result = roll("age STR vs age DEX", "1,1,4,1,2,4", {"STR": 2, "DEX": 1})
    assert fields(result)["winner"] == 1
    assert fields(result)["tiebreak"] == "ability"


def test_modifiers_are_not_the_ability_in_a_tie_break() -> None:
    # rule G4: 3 against 2+1 with the same dice: totals 9 and 9, Dragon dice 3 and 3;
    # the abilities are 3 and 2, so the first side wins
    result = roll("age 3 vs age 2+1", "1,2,3,1,2,3")
    assert fields(result)["winner"] == 1
    assert fields(result)["tiebreak"] == "ability"


def test_complete_tie_is_rerolled_by_the_tied_sides() -> None:
    # rule G4 + assumption: 3+4+5 = 4+3+5 = 12, Dragon 5 and 5, ability 2 and 2: re-roll;
    # then 1+1+1 +2 = 5 against 2+2+2 +2 = 8
    result = roll("age 2 vs age 2", "3,4,5,4,3,5,1,1,1,2,2,2")
    assert fields(result)["winner"] == 2
    assert fields(result)["tiebreak"] == "reroll"
    assert fields(result)["rerolls"] == 1
    assert [die.kept for die in result.dice] == [False] * 6 + [True] * 6
    assert all("rerolled" in die.marks for die in result.dice[:6])
    assert all("reroll" in die.marks for die in result.dice[6:])
    assert fields(result)["stunt_points"] == 2  # the winner's triples, Dragon die 2
    assert result.outcome is not None
    assert any("assumption" in note for note in result.outcome.notes)


def test_three_sides_highest_total_wins() -> None:
    # rule G4: 18+2 = 20, 3+3 = 6, 6+1 = 7
    result = roll("age 2 vs age 3 vs age 1", "6,6,6,1,1,1,2,2,2")
    assert fields(result)["winner"] == 1
    assert fields(result)["tiebreak"] == "total"


def test_three_sides_only_the_tied_leaders_reroll() -> None:
    # rule G4: 3+3+4 = 10, 1+1+1 = 3, 4+2+4 = 10 (Dragon 4 and 4, ability 0 and 0):
    # sides 1 and 3 re-roll: 1+2+3 = 6 against 1+2+4 = 7
    result = roll("age 0 vs age 0 vs age 0", "3,3,4,1,1,1,4,2,4,1,2,3,1,2,4")
    assert fields(result)["winner"] == 3
    assert fields(result)["tiebreak"] == "reroll"
    kept = [die.kept for die in result.dice]
    assert kept == [False] * 3 + [True] * 3 + [False] * 3 + [True] * 6


def test_three_sides_dragon_die_breaks_a_tie_among_the_leaders() -> None:
    # rule G4: 2+3+5 = 10, 2+2+6 = 10, 1+1+2 = 4 -> Dragon 6 beats 5
    result = roll("age 0 vs age 0 vs age 0", "2,3,5,2,2,6,1,1,2")
    assert fields(result)["winner"] == 2
    assert fields(result)["tiebreak"] == "dragon"
    assert fields(result)["stunt_points"] == 6  # assumption: the winner's doubles count


def test_loser_with_doubles_earns_nothing() -> None:
    # rule G6 (assumption for opposed tests): 6+5+4 = 15 beats 1+1+2 = 4
    result = roll("age 0 vs age 0", "6,5,4,1,1,2")
    assert fields(result)["winner"] == 1
    assert fields(result)["stunt_points"] == 0
    sides = fields(result)["sides"]
    assert isinstance(sides, list)
    assert sides[1] == {"total": 4, "dragon": 2, "doubles": True, "ability": 0}


def test_endless_tie_stops_at_the_cap() -> None:
    # assumption: at most age.max_rerolls re-rolls, then an error
    with pytest.raises(RuleError):
        roll("age 0 vs age 0", "1,2,3," * 4, settings={"age.max_rerolls": "1"})


def test_opposed_needs_enough_given_faces() -> None:
    with pytest.raises(GivenFacesError):
        roll("age 0 vs age 0", "1,2,3")


# -- rule G7: advanced tests --------------------------------------------------------


def test_advanced_test_adds_dragon_dice_of_successes() -> None:
    # rule G7: 18+3 = 21 succeeds +6; 3+3 = 6 fails; 15+3 succeeds +5 -> 11;
    # 3+3+4 +3 = 13 succeeds +4 -> 15: threshold reached on roll 4
    result = roll("age 3 vs 13 until 15", "6,6,6,1,1,1,5,5,5,3,3,4")
    assert fields(result) == {
        "success": True,
        "target": 13,
        "threshold": 15,
        "rolls": 4,
        "progress": 15,
    }
    assert result.total == 15


def test_advanced_test_failed_rolls_add_nothing() -> None:
    # rule G7: 6+6+5 = 17 < 18 (Dragon 5 not added); 18 succeeds: 6 >= 1 after 2 rolls
    result = roll("age 0 vs 18 until 1", "6,6,5,6,6,6")
    assert fields(result)["rolls"] == 2
    assert fields(result)["progress"] == 6


@pytest.mark.parametrize(
    ("name", "threshold"),
    [("easy", 5), ("average", 10), ("challenging", 15), ("hard", 20), ("formidable", 25)],
)
def test_named_thresholds(name: str, threshold: int) -> None:
    # rule G7: Easy 5, Average 10, Challenging 15, Hard 20, Formidable 25; every roll
    # of 6,6,6 succeeds and adds 6
    rolls = -(-threshold // 6)
    result = roll(f"age 0 vs 3 until {name}", ",".join(["6,6,6"] * rolls))
    assert fields(result)["threshold"] == threshold
    assert fields(result)["rolls"] == rolls


def test_advanced_test_stops_at_the_cap() -> None:
    # assumption: at most age.max_rolls rolls; 2 rolls of +6 reach 12 of 20
    result = roll("age 0 vs 10 until 20", "6,6,6,6,6,6", settings={"age.max_rolls": "2"})
    assert fields(result)["success"] is False
    assert fields(result)["progress"] == 12
    assert result.failed
    assert result.outcome is not None
    assert any("2 rolls" in note for note in result.outcome.notes)


def test_advanced_test_that_can_never_succeed_is_refused() -> None:
    # rule G7: 3D6 + 0 is at most 18 < 19, so no roll could ever add anything
    with pytest.raises(RuleError):
        roll("age 0 vs 19 until 5", "")


def test_bad_setting_is_refused() -> None:
    with pytest.raises(RuleError):
        roll("age 0 vs 10 until 5", "6,6,6", settings={"age.max_rolls": "lots"})


def test_comment_is_kept() -> None:
    result = roll("age 0 vs 10 # sneak past", "6,6,6")
    assert result.comment == "sneak past"


def test_seeded_rolls_repeat() -> None:
    first = dicecli.roll("age 1 vs age 1 vs age 1", seed=7)
    again = dicecli.roll("age 1 vs age 1 vs age 1", seed=7)
    assert first == again


# Named sides of an opposed test.


def test_g4_named_sides_are_shown_and_win_by_name() -> None:
    # rule G4: the higher total wins; Ayla 6+5+5+1 = 17, Orc 2+4+2+2 = 10
    result = dicecli.roll("age Ayla: DEX+1 vs Orc: DEX+2", given="6,5,5,2,4,2")
    assert result.outcome is not None
    assert result.outcome.verdict.startswith("Ayla wins on total")
    assert dict(result.outcome.fields)["winner"] == "Ayla"
    shown = "".join(s.text for s in result.breakdown if hasattr(s, "text"))
    assert "Ayla " in shown
    assert "Orc " in shown


def test_g4_named_sides_read_back_with_the_keyword() -> None:
    for line in ("age Ayla: DEX+1 vs Orc: DEX+2", "age Ayla: DEX+1 vs age Orc: DEX+2"):
        assert str(dicecli.parse(line).body) == "age Ayla: DEX+1 vs age Orc: DEX+2"
    mixed = dicecli.parse("age DEX+1 vs Orc: PER+2").body
    assert str(mixed) == "age DEX+1 vs age Orc: PER+2"


def test_g4_an_unnamed_side_is_numbered() -> None:
    result = dicecli.roll("age DEX+1 vs Orc: DEX", given="6,5,5,2,4,2")
    assert result.outcome is not None
    assert result.outcome.verdict.startswith("#1 wins")
    assert dict(result.outcome.fields)["winner"] == 1


def test_g4_named_sides_in_the_odds() -> None:
    found = dicecli.odds("age Ayla: DEX+1 vs Orc: DEX+2")
    assert [label for label, _ in found.wins] == ["Ayla: DEX+1", "Orc: DEX+2"]
