"""Alkemy exact odds against brute force, and properties of every roll (Hypothesis).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import Environment, RuleError
from dicecli.notation.nodes import Check
from dicecli.probability.distribution import Odds
from dicecli.systems import registry
from dicecli.systems.alkemy.dice import shipped_dice
from dicecli.systems.alkemy.nodes import AlkemySide, KeepChoice

FACES = {
    "white": (1, 2, 3, 4, 5, 6),
    "yellow": (1, 2, 3, 4, 4, 5),
    "red": (1, 2, 3, 3, 3, 4),
}
"""The shipped faces, written out here so the tests do not trust the code's reading."""

EMPTY = Environment()


@pytest.fixture(autouse=True)
def _no_user_dice_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "empty-config"))


def odds_of(text: str, env: Environment = EMPTY) -> Odds:
    check = dicecli.parse(text).body
    assert isinstance(check, Check)
    return registry.system("alkemy").odds(check, env, text)


# -- brute force, written independently of the module ---------------------------------------


def brute_totals(colour: str, characteristic: int, bonus: int, penalty: int) -> dict[int, int]:
    """Counts of each total over every face combination: net = bonus - penalty capped at
    ±2 (rules A6, A7); bonus keeps the two highest (A4), penalty the two lowest (A5)."""
    net = max(-2, min(2, bonus - penalty))
    counts: dict[int, int] = {}
    for faces in product(FACES[colour], repeat=2 + abs(net)):
        ordered = sorted(faces, reverse=net > 0)
        total = ordered[0] + ordered[1] + characteristic
        counts[total] = counts.get(total, 0) + 1
    return counts


def brute_success(
    colour: str, characteristic: int, bonus: int, penalty: int, target: int
) -> Fraction:
    counts = brute_totals(colour, characteristic, bonus, penalty)
    hits = sum(n for total, n in counts.items() if total >= target)
    return Fraction(hits, sum(counts.values()))


def brute_round(
    first: dict[int, int], second: dict[int, int]
) -> tuple[Fraction, Fraction, Fraction]:
    """One round of an opposed roll: P(first higher), P(second higher), P(equal totals)."""
    whole = sum(first.values()) * sum(second.values())
    ahead = sum(m * n for a, m in first.items() for b, n in second.items() if a > b)
    behind = sum(m * n for a, m in first.items() for b, n in second.items() if a < b)
    return Fraction(ahead, whole), Fraction(behind, whole), 1 - Fraction(ahead + behind, whole)


# -- worked figures -------------------------------------------------------------------------


def test_plain_check_is_two_d6_at_least_difficulty_minus_characteristic() -> None:
    # rule A1: success iff 2d6 + 8 >= 15, i.e. 2d6 >= 7: 21 of 36
    odds = odds_of("alkemy 8 vs 15")
    assert dict(odds.chances)["success"] == Fraction(21, 36)
    assert odds.distribution is not None
    assert odds.distribution.min == 10
    assert odds.distribution.max == 20


def test_one_bonus_die_by_hand() -> None:
    # rule A4: best two of three d6 sum to 12 only on at least two sixes: 16 of 216
    odds = odds_of("alkemy 0 vs 12 +1bonus")
    assert dict(odds.chances)["success"] == Fraction(16, 216)


def test_one_penalty_die_by_hand() -> None:
    # rule A5: lowest two of three d6 sum to 2 only with at least two ones: 16 of 216
    odds = odds_of("alkemy 0 vs 3 +1penalty")
    assert dict(odds.chances)["success"] == 1 - Fraction(16, 216)


def test_a2_example_odds_tie_goes_to_reflex_5() -> None:
    # rule A2: Reflex 2 wins only if its 2d6 beat the other 2d6 by more than 3
    odds = odds_of("alkemy 2 vs alkemy 5")
    ahead = sum(1 for a, b, c, d in product(range(1, 7), repeat=4) if a + b + 2 > c + d + 5)
    assert odds.wins[0][1] == Fraction(ahead, 6**4)
    assert odds.wins[1][1] == 1 - Fraction(ahead, 6**4)


def test_equal_characteristics_reroll_geometric() -> None:
    # rule A2: ties re-roll until decided: symmetric sides win half each
    odds = odds_of("alkemy 3 vs alkemy 3")
    assert [p for _, p in odds.wins] == [Fraction(1, 2), Fraction(1, 2)]
    tie = dict(odds.chances)["tie_rerolled"]
    assert tie == Fraction(146, 1296)  # sum over s of (ways to roll s on 2d6)**2 / 6**4
    assert dict(odds.expectations)["rounds"] == 1 / (1 - tie)


def test_keep_choice_odds_are_those_of_the_chosen_dice() -> None:
    # rule A4: keeping the 1st and 3rd die is plain 2d6, whatever the 2nd shows
    assert odds_of("alkemy 8 vs 15 +1bonus keep 1,3").chances == odds_of("alkemy 8 vs 15").chances


def test_odds_refuse_dice_that_always_tie(tmp_path: Path) -> None:
    path = tmp_path / "flat.toml"
    path.write_text("[white]\nfaces = [2, 2, 2, 2, 2, 2]\n")
    env = Environment(settings={"alkemy.dice_file": str(path)})
    with pytest.raises(RuleError, match="never end"):
        odds_of("alkemy 1 vs alkemy 1", env)


def test_assumption_is_noted_in_the_odds() -> None:
    # rule A9
    assert any("A9" in note for note in odds_of("alkemy 2 vs alkemy 5 red").notes)


# -- properties -----------------------------------------------------------------------------

colours = st.sampled_from(sorted(FACES))
extra = st.integers(min_value=0, max_value=5)
characteristic = st.integers(min_value=0, max_value=12)


@given(colours, characteristic, extra, extra, st.integers(min_value=0, max_value=30))
@settings(max_examples=examples(60), deadline=None)
def test_check_odds_match_brute_force(
    colour: str, char: int, bonus: int, penalty: int, target: int
) -> None:
    # rules A1, A3-A7
    text = f"alkemy {char} vs {target} {colour} +{bonus}bonus +{penalty}penalty"
    odds = odds_of(text)
    chances = dict(odds.chances)
    assert chances["success"] == brute_success(colour, char, bonus, penalty, target)
    assert odds.distribution is not None
    assert odds.distribution.total == 1
    expected = brute_totals(colour, char, bonus, penalty)
    whole = sum(expected.values())
    assert odds.distribution.as_dict() == {k: Fraction(n, whole) for k, n in expected.items()}


@given(colours, colours, characteristic, characteristic, extra, extra)
@settings(max_examples=examples(40), deadline=None)
def test_opposed_odds_solve_the_reroll_loop(
    colour_a: str, colour_b: str, char_a: int, char_b: int, bonus: int, penalty: int
) -> None:
    # rule A2: P(win) = P(win this round) + P(tie) * P(win), or the characteristic decides
    text = f"alkemy {char_a} {colour_a} +{bonus}bonus vs alkemy {char_b} {colour_b} +{penalty}p"
    odds = odds_of(text)
    first, second = (p for _, p in odds.wins)
    assert first + second == 1
    ahead, behind, tie = brute_round(
        brute_totals(colour_a, char_a, bonus, 0), brute_totals(colour_b, char_b, 0, penalty)
    )
    chances = dict(odds.chances)
    assert chances["decided_by_total"] == ahead + behind
    assert sum(chances.values()) == 1
    if char_a > char_b:
        assert first == ahead + tie
    elif char_a < char_b:
        assert second == behind + tie
    else:
        assert first == ahead + tie * first
        assert second == behind + tie * second


sides = st.builds(
    AlkemySide,
    characteristic,
    st.none(),
    colours,
    extra,
    extra,
)


@given(sides, st.integers(min_value=0, max_value=2**32))
@settings(max_examples=examples(200), deadline=None)
def test_every_roll_keeps_exactly_two_dice_of_its_colour(side: AlkemySide, seed: int) -> None:
    # rules A3, A7, A8: 2 to 4 dice of the state's colour, exactly 2 kept
    result = dicecli.roll(f"{side} vs 10", seed=seed)
    assert 2 <= len(result.dice) <= 4
    assert sum(die.kept for die in result.dice) == 2
    assert {die.die for die in result.dice} == {f"alkemy-{side.colour}"}
    assert all(die.value in FACES[side.colour] for die in result.dice)
    kept = [die.value for die in result.dice if die.kept]
    assert isinstance(side.characteristic, int)
    assert result.total == sum(v for v in kept if v is not None) + side.characteristic


@given(st.permutations([1, 2, 3, 4]), st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_keep_choice_keeps_exactly_the_chosen_dice(order: list[int], faces: list[int]) -> None:
    # rule A4
    first, second = order[:2]
    text = f"alkemy 0 +2bonus {KeepChoice(first, second)}"
    result = dicecli.roll(text, given=",".join(map(str, faces)))
    assert [die.kept for die in result.dice] == [n in (first, second) for n in range(1, 5)]
    assert result.total == faces[first - 1] + faces[second - 1]


@given(sides, sides, st.integers(min_value=0, max_value=2**32))
@settings(max_examples=examples(200), deadline=None)
def test_an_opposed_roll_always_ends_with_one_winner(
    first: AlkemySide, second: AlkemySide, seed: int
) -> None:
    # rule A2
    result = dicecli.roll(f"{first} vs {second}", seed=seed)
    assert result.outcome is not None
    facts = dict(result.outcome.fields)
    winner, totals = facts["winner"], facts["totals"]
    assert winner in (1, 2)
    assert isinstance(winner, int)
    assert isinstance(totals, list)
    mine, theirs = totals[winner - 1], totals[2 - winner]
    assert isinstance(mine, int)
    assert isinstance(theirs, int)
    if facts["tiebreak"] == "characteristic":
        assert mine == theirs
        assert first.characteristic != second.characteristic
    else:
        assert mine > theirs
    assert result.total == mine
    # every round but the last counts nothing; the last keeps two dice a side
    assert sum(die.kept for die in result.dice) == 4


@given(sides)
def test_canonical_text_parses_back(side: AlkemySide) -> None:
    node = dicecli.parse(f"{side} vs 12").body
    assert dicecli.parse(str(node)).body == node


def test_shipped_faces_are_the_ones_these_tests_assume() -> None:
    dice = shipped_dice()
    assert {colour: dice[colour].values for colour in FACES} == FACES  # type: ignore[index]
