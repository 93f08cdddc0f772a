"""Exact odds of the Warhammer forms, checked against hand-worked figures and
brute-force oracles written independently of the module.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from fuzz.harness import StepCounter

import dicecli
from dicecli import Environment, RuleError
from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.notation.nodes import Check, Expr
from dicecli.probability.distribution import Odds
from dicecli.systems import registry
from dicecli.systems.warhammer.odds import (
    bearing_chances,
    rolloff_expected_rounds,
    rolloff_win_chance,
)

F = Fraction


def odds(text: str, env: Environment = EMPTY_ENVIRONMENT) -> Odds:
    body = dicecli.parse(text).body
    assert isinstance(body, Check)
    return registry.system("warhammer").odds(body, env, text)


def chance(text: str, name: str, env: Environment = EMPTY_ENVIRONMENT) -> Fraction:
    return dict(odds(text, env).chances)[name]


# ---------------------------------------------------------------------------- W9 table

W9_TABLE = {2: 1, 3: 3, 4: 6, 5: 10, 6: 15, 7: 21, 8: 26, 9: 30, 10: 33, 11: 35, 12: 36}


def leadership_oracle(leadership: int) -> int:
    """Passing pairs out of 36, straight from rule W9's wording."""
    return sum(
        1
        for a, b in itertools.product(range(1, 7), repeat=2)
        if a + b <= leadership or (a == 1 and b == 1)
    )


@pytest.mark.parametrize(("leadership", "passing"), W9_TABLE.items())
def test_leadership_pass_chances_match_the_published_table(leadership: int, passing: int) -> None:
    # rule W9: Ld 2..12 -> 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36 out of 36
    assert leadership_oracle(leadership) == passing
    assert chance(f"wfb ld {leadership}", "success") == F(passing, 36)


@pytest.mark.parametrize("leadership", [-3, 0, 1])
def test_double_one_keeps_a_chance_at_any_leadership(leadership: int) -> None:
    # rule W9: a natural double 1 always passes
    assert chance(f"wfb ld {leadership}", "success") == F(1, 36)


def test_leadership_distribution_is_the_natural_2d6() -> None:
    # rule N5: the distribution shown is of the natural roll
    distribution = odds("wfb ld 8").distribution
    assert distribution is not None
    assert distribution.as_dict()[7] == F(6, 36)


# ------------------------------------------------------------------------- W8, W10


@pytest.mark.parametrize(
    ("characteristic", "expected"),
    [(0, F(0)), (1, F(1, 6)), (3, F(3, 6)), (4, F(4, 6)), (5, F(5, 6)), (6, F(5, 6)), (9, F(5, 6))],
)
def test_characteristic_pass_chances(characteristic: int, expected: Fraction) -> None:
    # rule W8: D6 <= value, a 6 always fails, 0 always fails
    assert chance(f"wfb test {characteristic}", "success") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wfb break 8 lost by 3", F(10, 36)),  # Ld 5
        ("wfb break 8 lost by 0", F(26, 36)),  # Ld 8
        ("wfb break 8 lost by 7", F(1, 36)),  # Ld 1: only double 1
        ("wfb break 8 lost by 12", F(1, 36)),  # Ld -4: Insane Courage still
    ],
)
def test_break_test_chances(text: str, expected: Fraction) -> None:
    # rule W10
    assert chance(text, "success") == expected


def test_test_odds_use_named_values() -> None:
    # rule W9 with a named Leadership
    env = Environment(values={"Ld": 9})
    assert chance("wfb ld Ld - 1", "success", env) == F(26, 36)


# -------------------------------------------------------------------- W1 artillery


def test_artillery_die_odds() -> None:
    # rule W1: P(MISFIRE) = 1/6, each number 1/6
    result = odds("wfb artillery")
    assert dict(result.chances) == {"misfire": F(1, 6)}
    assert result.distribution is not None
    assert result.distribution.as_dict() == {n: F(1, 6) for n in (2, 4, 6, 8, 10)}
    assert result.distribution.mean() == 6  # mean of the rolls that did not misfire


def test_two_artillery_dice_misfire_if_either_does() -> None:
    # rule W1: a total that includes a MISFIRE is a misfire: 1 - (5/6)^2 = 11/36
    assert chance("wfb artillery + artillery", "misfire") == F(11, 36)


def test_halving_odds_round_up() -> None:
    # rule N3: 2D6/2 is 3 when 2D6 is 5 or 6: (4 + 5)/36
    distribution = odds("wfb 2D6/2").distribution
    assert distribution is not None
    assert distribution.as_dict()[3] == F(9, 36)
    assert distribution.total == 1


# ----------------------------------------------------------------- W2, W3 scatter


def test_scatter_hit_chance() -> None:
    # rule W2: P(HIT) = 1/3
    result = odds("wfb scatter")
    assert dict(result.chances) == {"hit": F(1, 3), "arrow": F(2, 3)}
    assert bearing_chances() == {degrees: F(1, 12) for degrees in range(0, 360, 30)}
    assert "12 clock directions, each 1/12" in result.notes[0]


def test_scatter_distance_distribution_counts_hit_as_zero() -> None:
    # rule W3: HIT -> no move (0); an arrow -> the 2D6, so P(7) = 2/3 * 6/36
    result = odds("wfb scatter 2D6")
    assert result.distribution is not None
    moved = result.distribution.as_dict()
    assert moved[0] == F(1, 3)
    assert moved[7] == F(1, 9)
    assert result.distribution.total == 1
    assert dict(result.tables)["distance dice"].as_dict()[7] == F(1, 6)


@pytest.mark.parametrize("distance", ["2D6", "1d6-3", "d6!", "3d10kh2"])
def test_scatter_distance_is_a_hit_or_the_distance_dice(distance: str) -> None:
    # rule W3: a HIT (1/3) moves 0; an arrow (2/3) the distance dice, 0 below 0; what
    # a cut-off of the dice left out (d6!) stays out, times the arrow
    result = odds(f"wfb scatter {distance}")
    dice = dict(result.tables)["distance dice"]
    expected: dict[int, F] = {0: F(1, 3)}
    for value, chance in dice.outcomes:
        expected[max(value, 0)] = expected.get(max(value, 0), F(0)) + F(2, 3) * chance
    assert result.distribution is not None
    assert result.distribution.as_dict() == expected
    assert result.distribution.residue == F(2, 3) * dice.residue
    assert dice == dicecli.odds(distance).distribution


def test_scatter_of_many_distance_dice_is_worked_in_integers() -> None:
    """The fuzz profile found ``odds wfb scatter 210d106`` taking 1.6 s, nearly all of
    it sums of 22,000 fractions over a denominator of 425 digits (507,000 profile
    events for 60d50, 166,000 now)."""
    odds("wfb scatter 2d6")  # imports, off the count
    with StepCounter(250_000):
        result = odds("wfb scatter 60d50")
    assert result.distribution is not None
    assert result.distribution.total == 1


def test_scatter_artillery_misfire_chance() -> None:
    # rule W3: artillery distance: misfire 1/6 even on a HIT (documented default)
    result = odds("wfb scatter artillery")
    assert dict(result.chances)["misfire"] == F(1, 6)
    assert result.distribution is not None
    assert result.distribution.as_dict()[0] == F(1, 3) * F(5, 6)
    assert result.distribution.total == F(5, 6)


def test_scatter_artillery_misfire_chance_when_a_hit_ignores_it() -> None:
    # rule W3 with the setting warhammer.misfire_on_hit=ignore: 2/3 * 1/6
    env = Environment(settings={"warhammer.misfire_on_hit": "ignore"})
    result = odds("wfb scatter artillery", env)
    assert dict(result.chances)["misfire"] == F(1, 9)
    assert result.distribution is not None
    assert result.distribution.as_dict()[0] == F(1, 3)


# ------------------------------------------------------------------------ W6 roll-off


def rolloff_oracle(players: int) -> list[Fraction]:
    """P(each player wins), by enumerating every round of the tied players by identity
    and solving the all-tied repeat as a geometric series."""

    def wins(group: tuple[int, ...]) -> dict[int, Fraction]:
        if len(group) == 1:
            return {group[0]: F(1)}
        result = dict.fromkeys(group, F(0))
        repeat = F(0)
        outcomes = list(itertools.product(range(1, 7), repeat=len(group)))
        for rolled in outcomes:
            top = max(rolled)
            tied = tuple(p for p, v in zip(group, rolled, strict=True) if v == top)
            weight = F(1, len(outcomes))
            if tied == group:
                repeat += weight
                continue
            for player, p in wins(tied).items():
                result[player] += weight * p
        return {player: p / (1 - repeat) for player, p in result.items()}

    found = wins(tuple(range(players)))
    return [found[player] for player in range(players)]


@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_rolloff_chances_match_the_oracle(players: int) -> None:
    # rule W6: each player wins 1/n, the ties being re-rolled
    assert rolloff_oracle(players) == [F(1, players)] * players
    assert rolloff_win_chance(players) == F(1, players)


def test_rolloff_odds_per_player() -> None:
    # rule W6
    result = odds("wfb rolloff Alice Bob Carl")
    assert result.wins == (("Alice", F(1, 3)), ("Bob", F(1, 3)), ("Carl", F(1, 3)))


@pytest.mark.parametrize("players", [5, 8, 20])
def test_rolloff_chances_sum_to_one(players: int) -> None:
    # rule W6: always exactly one winner
    assert sum(chance for _, chance in odds(f"wfb rolloff {players}").wins) == 1


def test_rolloff_expected_rounds() -> None:
    # rule W6: 2 players tie 1/6 of the time, so 1 / (5/6) = 6/5 rounds on average
    assert rolloff_expected_rounds(2) == F(6, 5)
    # 3 players: P(all tie) = 1/36, P(two tie on top) = 3 * (1/36) * (15/6)/6 ... = 5/24;
    # R3 = (1 + 5/24 * 6/5) / (1 - 1/36) = 9/7
    assert rolloff_expected_rounds(3) == F(9, 7)


# ---------------------------------------------------------------------- W7 allocation


@pytest.mark.parametrize("candidates", [1, 2, 5, 6, 7, 13, 36, 37, 216, 1000])
def test_allocation_is_uniform(candidates: int) -> None:
    # rule W7: each candidate equally likely, by the documented method
    distribution = odds(f"wfb allocate {candidates}").distribution
    assert distribution is not None
    assert distribution.as_dict() == dict.fromkeys(range(1, candidates + 1), F(1, candidates))


def test_allocation_oracle_for_seven() -> None:
    # rule W7 (n > 6 method): enumerate the 36 pairs; 35 accepted, 5 per candidate
    picked: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        number = (a - 1) * 6 + b
        if number <= 35:
            candidate = (number - 1) % 7 + 1
            picked[candidate] = picked.get(candidate, 0) + 1
    assert picked == dict.fromkeys(range(1, 8), 5)


def test_allocation_expected_dice() -> None:
    # rule W7: 5 candidates accept 5 of 6 faces: 6/5 dice on average
    assert dict(odds("wfb allocate 5").expectations)["dice rolled"] == F(6, 5)


def test_modified_dice_use_the_core_odds() -> None:
    # rule W3 with generic dice: scatter D6 highest of 2 -> P(6) = 11/36, times an arrow
    result = odds("wfb scatter 2d6kh1")
    assert result.distribution is not None
    assert result.distribution.as_dict()[6] == F(2, 3) * F(11, 36)


def test_saved_roll_holding_the_artillery_die() -> None:
    # rule W1 through a saved roll: cannon = artillery + 1, misfire 1/6
    cannon = dicecli.parse("artillery + 1").body
    assert isinstance(cannon, Expr)
    env = Environment(rolls={"cannon": cannon})
    assert chance("wfb cannon * 2", "misfire", env) == F(1, 6)


def test_artillery_inside_a_group_is_refused() -> None:
    with pytest.raises(RuleError):
        odds("wfb {artillery, 4}kh1")


def test_each_part_is_asked_once_whether_it_rolls_the_artillery_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 24 (fuzz seed 11): the walk asked of every part of a long sum whether it
    held the artillery die, and each answer walked the whole part again (a square of
    the terms: 0.34 s for 500). Each node is now looked at once a question, without
    recursion: on Python 3.12 a sum of 500 terms was refused as too deeply nested,
    though a line of 1,000 terms has odds (docs/limits.md)."""
    from dicecli.systems.warhammer import odds as warhammer_odds
    from dicecli.systems.warhammer.nodes import is_artillery

    walked = 0

    def counted(expr: Expr) -> bool:
        nonlocal walked
        walked += 1
        return is_artillery(expr)

    monkeypatch.setattr(warhammer_odds, "is_artillery", counted)
    found = dicecli.odds("wfb artillery" + " + 1" * 999)
    assert found.distribution is not None
    assert found.distribution.max == 10 + 999  # rule W1: the artillery die's highest is 10
    assert walked <= 2 * 1999  # the 1,999 nodes of the sum, not a million visits
