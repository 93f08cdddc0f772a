"""Properties of AGE rolls over many dice and modifiers (Hypothesis).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli.environment import Environment
from dicecli.results import JSONValue, RollResult
from dicecli.systems import registry

faces = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))
modifiers = st.integers(-5, 12)
targets = st.integers(0, 30)


def outcome(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


@given(faces, modifiers, targets)
def test_basic_test_properties(dice: tuple[int, int, int], modifier: int, target: int) -> None:
    # rules G1, G2, G5, G6
    result = dicecli.roll(f"age {modifier} vs {target}", given=",".join(map(str, dice)))
    fields = outcome(result)
    assert result.total == sum(dice) + modifier  # rule G1
    assert fields["success"] is (result.total >= target)  # rule G2
    assert fields["dragon"] == dice[2]
    if fields["success"]:
        degree = fields["degree"]
        assert isinstance(degree, int)
        assert 1 <= degree <= 6  # rule G5
    else:
        assert fields["degree"] is None
    points = fields["stunt_points"]
    assert points in (0, dice[2])  # rule G6
    if points:
        assert fields["success"] is True
        assert fields["doubles"] is True
    assert fields["doubles"] is (len(set(dice)) < 3)


@settings(max_examples=examples(60))
@given(st.lists(st.tuples(modifiers, st.booleans()), min_size=2, max_size=5), st.integers())
def test_opposed_roll_has_one_winner(sides: list[tuple[int, bool]], seed: int) -> None:
    # rule G4: one winner, and without re-rolls the winner's (total, Dragon die,
    # ability) is the highest
    text = " vs ".join(f"age {m}" + ("+focus" if focus else "") for m, focus in sides)
    result = dicecli.roll(text, seed=seed)
    fields = outcome(result)
    winner = fields["winner"]
    assert isinstance(winner, int)
    assert 1 <= winner <= len(sides)
    assert fields["tiebreak"] in ("total", "dragon", "ability", "reroll")
    rolled = fields["sides"]
    assert isinstance(rolled, list)
    keys = []
    for side in rolled:
        assert isinstance(side, dict)
        keys.append((side["total"], side["dragon"], side["ability"]))
    if fields["rerolls"] == 0:
        best = keys[winner - 1]
        assert all(key < best for i, key in enumerate(keys) if i != winner - 1)
    assert len(result.dice) % 3 == 0


@settings(max_examples=examples(40))
@given(st.lists(st.integers(-3, 6), min_size=2, max_size=3))
def test_opposed_chances_sum_to_one(abilities: list[int]) -> None:
    # rule G4: someone always wins
    text = " vs ".join(f"age {a}" for a in abilities)
    result = registry.system("age").odds(dicecli.parse(text).body, Environment(), text)
    assert sum(chance for _, chance in result.wins) == 1
    assert sum(chance for _, chance in result.chances) == 1


@settings(max_examples=examples(40))
@given(modifiers, st.integers(3, 20), st.integers(1, 30), st.integers())
def test_advanced_test_reaches_its_threshold(
    modifier: int, target: int, threshold: int, seed: int
) -> None:
    # rule G7: it stops once the Dragon dice of successes reach the threshold
    text = f"age {modifier} vs {target} until {threshold}"
    assume(18 + modifier >= target)
    result = dicecli.roll(text, seed=seed)
    fields = outcome(result)
    rolls = fields["rolls"]
    progress = fields["progress"]
    assert isinstance(rolls, int)
    assert isinstance(progress, int)
    assert len(result.dice) == 3 * rolls
    assert fields["success"] is (progress >= threshold)
    assert progress < threshold + 6


@settings(max_examples=examples(30))
@given(modifiers, targets)
def test_basic_odds_are_a_distribution(modifier: int, target: int) -> None:
    text = f"age {modifier} vs {target}"
    result = registry.system("age").odds(dicecli.parse(text).body, Environment(), text)
    chances = dict(result.chances)
    assert 0 <= chances["stunt"] <= chances["success"] <= 1
    assert chances["stunt"] <= Fraction(4, 9)  # rule G6: P(doubles) = 4/9
    for _, table in result.tables:
        assert table.total == 1
