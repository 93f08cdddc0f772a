"""Rolling trait tests with given faces: aces, the Wild Die, the dropped chain, raises,
critical failures, and the outcome's fields."""

from __future__ import annotations

import pytest
from dicecli.game import DROPPED, EXPLODED, EXPLOSION, GivenFacesError, plain_line

from savage_helpers import roll
from savage_worlds import GAME
from savage_worlds.dice import WILD_MARK


def test_the_better_die_counts_and_the_other_is_dropped() -> None:
    result = roll("sw d8", "3,5")
    assert result.total == 5
    trait, wild = result.dice
    assert (trait.die, trait.value, trait.kept) == ("d8", 3, False)
    assert DROPPED in trait.marks
    assert (wild.die, wild.value, wild.kept) == ("wild", 5, True)
    assert WILD_MARK in wild.marks
    assert plain_line(result) == "5\tsw d8\td8 [~3~] wild [5] vs 4 => success"


def test_a_tie_keeps_the_trait_die() -> None:
    result = roll("sw d8", "4,4")
    assert [die.kept for die in result.dice] == [True, False]


def test_aces_add_without_limit_and_are_marked() -> None:
    result = roll("sw d8", "8,8,8,2,6,1")
    assert result.total == 26
    marks = [die.marks for die in result.dice]
    assert marks[0] == (EXPLODED,)
    assert marks[1] == (EXPLOSION, EXPLODED)
    assert marks[3] == (EXPLOSION,)
    assert marks[4] == (WILD_MARK, EXPLODED, DROPPED)
    assert marks[5] == (WILD_MARK, EXPLOSION, DROPPED)
    assert plain_line(result) == (
        "26\tsw d8\td8 [8!, 8!, 8!, 2] wild [~6!~, ~1~] vs 4 => success with 5 raises"
    )


def test_the_wild_die_aces_too() -> None:
    result = roll("sw d4+1 vs 6", "2,6,6,3")
    assert result.total == 16
    assert result.outcome is not None
    assert result.outcome.as_dict() == {
        "verdict": "success with 2 raises",
        "passed": True,
        "success": True,
        "raises": 2,
        "target": 6,
        "margin": 10,
        "critical_failure": False,
        "wild_card": True,
    }


@pytest.mark.parametrize(
    ("line", "given", "verdict", "passed", "raises"),
    [
        ("sw d6", "3,2", "failure", False, 0),
        ("sw d6", "4,2", "success", True, 0),
        ("sw d6", "6,1,2", "success", True, 0),  # 7: three over, no raise
        ("sw d6", "6,2,2", "success with 1 raise", True, 1),  # 8
        ("sw d10 -2 vs 6", "10,3,1", "success with 1 raise", True, 1),  # 11
        ("sw d10 -2 vs 6", "7,5", "failure", False, 0),  # 5
        ("sw d8", "1,1", "critical failure", False, 0),
        ("sw d8 +5", "1,1", "critical failure", False, 0),  # 6 would pass: still fails
        ("sw extra d6", "1", "failure", False, 0),  # an Extra: no critical failure
        ("sw extra d6", "6,6,4", "success with 3 raises", True, 3),
        ("sw d12+2", "12,1,2", "success with 2 raises", True, 2),  # 13 + 2
    ],
)
def test_verdicts(line: str, given: str, verdict: str, passed: bool, raises: int) -> None:
    result = roll(line, given)
    assert result.outcome is not None
    assert result.outcome.verdict == verdict
    assert result.outcome.passed is passed
    assert result.failed is not passed  # the exit status: 1 on a failure
    fields = dict(result.outcome.fields)
    assert fields["raises"] == raises
    assert fields["critical_failure"] == (verdict == "critical failure")


def test_an_extra_rolls_no_wild_die() -> None:
    result = roll("sw extra d8", "5")
    assert [die.die for die in result.dice] == ["d8"]
    assert plain_line(result) == "5\tsw extra d8\t[5] vs 4 => success"


def test_given_faces_name_the_wild_die() -> None:
    with pytest.raises(GivenFacesError, match="not a face of wild"):
        roll("sw d8", "3,7")


def test_the_modifiers_are_shown_as_typed() -> None:
    result = roll("sw d8 +2 -1 vs 5", "3,4")
    assert plain_line(result) == "5\tsw d8 +2 -1 vs 5\td8 [~3~] wild [4] + 2 - 1 vs 5 => success"


def test_every_help_example_rolls() -> None:
    assert GAME.help is not None
    lines = [GAME.example, *(line for line, _ in GAME.help.examples)]
    if GAME.odds_example is not None:
        lines.append(GAME.odds_example[0])
    for seed, line in enumerate(lines):
        result = roll(line, seed=seed)
        assert result.outcome is not None, line


@pytest.mark.parametrize("seed", range(40))
def test_seeded_rolls_are_consistent(seed: int) -> None:
    result = roll("sw d4 -1 vs 5", seed=seed)
    kept = [die for die in result.dice if die.kept]
    assert kept
    assert {die.die for die in kept} in ({"d4"}, {"wild"})
    assert result.total == sum(die.value or 0 for die in kept) - 1
