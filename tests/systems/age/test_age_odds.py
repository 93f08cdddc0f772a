"""Exact odds of AGE tests, checked against brute-force enumeration written here
independently of :mod:`dicecli.systems.age.odds` (rules G4, G6, G7, G9).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

import pytest

import dicecli
from dicecli import RuleError
from dicecli.environment import Environment
from dicecli.probability.distribution import Odds
from dicecli.systems import registry

THREE_D6 = list(itertools.product(range(1, 7), repeat=3))  # (d6, d6, Dragon die)


def odds(text: str, values: Mapping[str, int] | None = None) -> Odds:
    env = Environment(values=values or {})
    return registry.system("age").odds(dicecli.parse(text).body, env, text)


def has_doubles(dice: tuple[int, ...]) -> bool:
    return len(set(dice)) < 3


# -- rule G9, G6, G5: basic tests --------------------------------------------------


def test_g9_by_enumeration_of_all_216_outcomes() -> None:
    # rule G9: modifier +2 against 13 succeeds iff 3D6 >= 11: 108 of 216; with
    # doubles: 48 of 216
    successes = [dice for dice in THREE_D6 if sum(dice) + 2 >= 13]
    with_stunts = [dice for dice in successes if has_doubles(dice)]
    assert len(THREE_D6) == 216
    assert Fraction(len(successes), 216) == Fraction(1, 2)
    assert Fraction(len(with_stunts), 216) == Fraction(2, 9)


@pytest.mark.parametrize(
    ("text", "values"),
    [("age STR+2 vs 13", {}), ("age STR vs 13", {"STR": 2}), ("age 1+1 vs challenging", {})],
)
def test_g9_odds(text: str, values: Mapping[str, int]) -> None:
    # rule G9: P(success) = 1/2, P(success with stunt points) = 2/9
    chances = dict(odds(text, values).chances)
    assert chances["success"] == Fraction(1, 2)
    assert chances["stunt"] == Fraction(2, 9)


def test_g9_every_outcome_rolled_through_the_rules() -> None:
    # rules G2, G5, G6, G9: each of the 216 outcomes, given, against the hand rule
    for dice in THREE_D6:
        result = dicecli.roll("age STR+2 vs 13", given=",".join(map(str, dice)))
        assert result.outcome is not None
        outcome = dict(result.outcome.fields)
        success = sum(dice) >= 11
        assert outcome["success"] is success
        assert outcome["degree"] == (dice[2] if success else None)
        assert outcome["stunt_points"] == (dice[2] if success and has_doubles(dice) else 0)


def test_doubles_chance_is_four_ninths() -> None:
    # rule G6: P(doubles) = 4/9
    assert Fraction(sum(map(has_doubles, THREE_D6)), 216) == Fraction(4, 9)
    assert dict(odds("age 0").chances)["doubles"] == Fraction(4, 9)


@pytest.mark.parametrize(("modifier", "target"), [(2, 13), (0, 3), (-3, 15), (5, 21), (0, 19)])
def test_basic_test_tables_by_enumeration(modifier: int, target: int) -> None:
    # rules G5, G6: stunt points and degree over the 216 outcomes
    result = odds(f"age {modifier} vs {target}")
    success = [d for d in THREE_D6 if sum(d) + modifier >= target]
    points = [d[2] if has_doubles(d) else 0 for d in success]
    assert dict(result.chances)["success"] == Fraction(len(success), 216)
    assert dict(result.expectations)["stunt_points"] == Fraction(sum(points), 216)
    tables = dict(result.tables)
    stunts = tables["stunt_points"].as_dict()
    for value in range(1, 7):
        assert stunts.get(value, 0) == Fraction(points.count(value), 216)
    if success:
        degree = tables["degree"].as_dict()
        for value in range(1, 7):
            expected = Fraction(sum(1 for d in success if d[2] == value), len(success))
            assert degree.get(value, 0) == expected
    else:
        assert "degree" not in tables
    assert result.distribution is not None
    assert result.distribution.min == 3 + modifier
    assert result.distribution.max == 18 + modifier


# -- rule G4: opposed tests ---------------------------------------------------------

Side = tuple[int, int]  # (modifier besides the ability, ability)


def _outcomes(side: Side) -> dict[tuple[int, int, int], int]:
    """(total, Dragon die, ability) -> count, by enumeration of the 216 rolls."""
    bonus, ability = side
    counts: dict[tuple[int, int, int], int] = {}
    for dice in THREE_D6:
        key = (sum(dice) + bonus + ability, dice[2], ability)
        counts[key] = counts.get(key, 0) + 1
    return counts


def oracle(sides: list[Side]) -> list[Fraction]:
    """P(each side wins): every combination of outcomes, the highest (total, Dragon
    die, ability) wins, complete ties re-rolled among the tied sides until one wins."""
    tables = [list(_outcomes(side).items()) for side in sides]
    whole = 216 ** len(sides)
    outright = [0] * len(sides)
    ties: dict[tuple[int, ...], int] = {}
    for combination in itertools.product(*tables):
        best = max(key for key, _ in combination)
        leaders = tuple(i for i, (key, _) in enumerate(combination) if key == best)
        weight = 1
        for _, count in combination:
            weight *= count
        if len(leaders) == 1:
            outright[leaders[0]] += weight
        else:
            ties[leaders] = ties.get(leaders, 0) + weight
    everyone = tuple(range(len(sides)))
    again = Fraction(ties.pop(everyone, 0), whole)
    wins = [Fraction(n, whole) for n in outright]
    for tied, count in ties.items():
        sub = oracle([sides[i] for i in tied])
        for position, i in enumerate(tied):
            wins[i] += Fraction(count, whole) * sub[position]
    return [w / (1 - again) for w in wins]


@pytest.mark.parametrize(
    ("text", "values", "sides"),
    [
        ("age 2 vs age 2", {}, [(0, 2), (0, 2)]),
        ("age DEX+1 vs age PER+2", {"DEX": 1, "PER": 0}, [(1, 1), (2, 0)]),
        ("age 3 vs age 2+1", {}, [(0, 3), (1, 2)]),
        ("age 0+focus vs age 1", {}, [(2, 0), (0, 1)]),
        pytest.param(
            "age 1 vs age 1 vs age 2-1", {}, [(0, 1), (0, 1), (-1, 2)], marks=pytest.mark.slow
        ),
    ],
)
def test_opposed_wins_match_brute_force(
    text: str, values: Mapping[str, int], sides: list[Side]
) -> None:
    # rule G4 with the re-roll of complete ties (assumption)
    result = odds(text, values)
    wins = [chance for _, chance in result.wins]
    assert wins == oracle(sides)
    assert sum(wins) == 1


def test_identical_sides_have_equal_chances() -> None:
    # rule G4: by symmetry
    wins = [chance for _, chance in odds("age 1 vs age 1 vs age 1 vs age 1").wins]
    assert wins == [Fraction(1, 4)] * 4


def test_opposed_deciders_match_brute_force() -> None:
    # rule G4: which tie-break decides the first round, two sides 3 vs 2+1
    decided = {"total": 0, "dragon": 0, "ability": 0, "tie": 0}
    for first, second in itertools.product(THREE_D6, repeat=2):
        a, b = (sum(first) + 3, first[2], 3), (sum(second) + 3, second[2], 2)
        if a[0] != b[0]:
            decided["total"] += 1
        elif a[1] != b[1]:
            decided["dragon"] += 1
        else:
            decided["ability"] += 1  # the abilities always differ here
    chances = dict(odds("age 3 vs age 2+1").chances)
    assert chances["decided_by_total"] == Fraction(decided["total"], 216**2)
    assert chances["decided_by_dragon"] == Fraction(decided["dragon"], 216**2)
    assert chances["decided_by_ability"] == Fraction(decided["ability"], 216**2)
    assert chances["complete_tie"] == 0


def test_opposed_odds_refuse_too_many_sides() -> None:
    with pytest.raises(RuleError):
        odds(" vs ".join(["age 1"] * 7))


# -- rule G7: advanced tests --------------------------------------------------------


def test_advanced_always_succeeding_two_rolls() -> None:
    # rule G7: every roll succeeds (3 >= 3); threshold 7 needs two Dragon dice summing
    # to 7 or more on the second roll: 21 of 36, else a third roll
    result = odds("age 0 vs 3 until 7")
    rolls = dict(result.tables)["rolls"].as_dict()
    assert 1 not in rolls
    assert rolls[2] == Fraction(21, 36)
    assert sum(rolls.values()) + dict(result.tables)["rolls"].residue == 1


def test_advanced_threshold_one_is_geometric() -> None:
    # rule G7: only 6,6,6 reaches 18: P = 1/216 per roll; P(r rolls) = (215/216)^(r-1)/216;
    # mean 216 exactly; P(more than 100 rolls) = (215/216)^100
    result = odds("age 0 vs 18 until 1")
    table = dict(result.tables)["rolls"]
    rolls = table.as_dict()
    assert rolls[1] == Fraction(1, 216)
    assert rolls[5] == Fraction(215, 216) ** 4 / 216
    assert dict(result.expectations)["rolls"] == 216
    assert dict(result.chances)["success"] == 1 - Fraction(215, 216) ** 100
    # the table is cut at the cap of 100 rolls here: P(more) is the residue
    assert max(rolls) == 100
    assert table.residue == Fraction(215, 216) ** 100


def test_advanced_table_stops_at_its_precision() -> None:
    # rule G7: always succeeding, threshold 100: the table stops once less than one in
    # a million is left, and says how much it left out
    table = dict(odds("age 0 vs 3 until 100").tables)["rolls"]
    assert 0 < table.residue <= Fraction(1, 10**6)
    assert table.total + table.residue == 1
    assert table.min == 17  # 16 rolls of 6 make 96


def test_advanced_table_cut_by_the_roll_cap_says_so() -> None:
    # rule G7: a hard test to 25 seldom ends within 100 rolls; the note says the cap, not
    # a precision, ends the table, and how much needs more rolls
    found = odds("age 0 vs 18 until 25")
    table = dict(found.tables)["rolls"]
    assert table.max == 100
    assert table.residue == 1 - dict(found.chances)["success"]
    assert any(note.startswith("rolls: listed up to the cap of 100 rolls") for note in found.notes)
    assert not any("listed up to the cap" in note for note in odds("age 3 vs 13 until 15").notes)


def test_advanced_mean_by_first_step_analysis() -> None:
    # rule G7: always succeeding, threshold 2: one roll unless the Dragon die is 1
    # (then exactly one more): E = 1 + 1/6
    assert dict(odds("age 0 vs 3 until 2").expectations)["rolls"] == Fraction(7, 6)


def test_advanced_odds_refuse_impossible_tests() -> None:
    with pytest.raises(RuleError):
        odds("age 0 vs 19 until 5")
    with pytest.raises(RuleError):
        odds("age 0 vs 3 until 601")  # more than 6 per roll for 100 rolls
