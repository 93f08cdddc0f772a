"""The ``age`` line grammar: what parses to what, canonical text, and error messages.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecli import DiceSyntaxError, parse
from dicecli.systems.age.nodes import AgeAdvanced, AgeOpposed, AgeRoll, AgeTest, Target
from dicecli.systems.age.rules import ABILITIES, DIFFICULTIES, THRESHOLDS


def body(text: str) -> object:
    return parse(text).body


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("age STR+2 vs 13", AgeRoll(AgeTest("STR", 0, (2,)), Target(13))),  # rules G1, G2
        ("age 3 +focus vs 13", AgeRoll(AgeTest(None, 3, (), True), Target(13))),  # rule G1
        ("age 5 vs 11", AgeRoll(AgeTest(None, 5), Target(11))),
        ("age -1 vs 11", AgeRoll(AgeTest(None, -1), Target(11))),
        ("age STR+2-1 vs 9", AgeRoll(AgeTest("STR", 0, (2, -1)), Target(9))),
        ("age DEX +1 +focus", AgeRoll(AgeTest("DEX", 0, (1,), True))),
        ("age dex +focus +1", AgeRoll(AgeTest("DEX", 0, (1,), True))),
        ("AGE Willpower VS Hard", AgeRoll(AgeTest("WIL"), Target(15, "hard"))),  # rule G3
        ("age 0 vs nigh impossible", AgeRoll(AgeTest(None, 0), Target(21, "nigh-impossible"))),
        ("age 2 vs age 3", AgeOpposed((AgeTest(None, 2), AgeTest(None, 3)))),  # rule G4
        (
            "age 2 vs age 3 vs age PER",
            AgeOpposed((AgeTest(None, 2), AgeTest(None, 3), AgeTest("PER"))),
        ),
        (
            "age 3 vs 13 until 15",  # rule G7
            AgeAdvanced(AgeTest(None, 3), Target(13), Target(15)),
        ),
        (
            "age CUN+focus vs hard until hard",  # rule G3 vs 15, rule G7 until 20
            AgeAdvanced(AgeTest("CUN", 0, (), True), Target(15, "hard"), Target(20, "hard")),
        ),
    ],
)
def test_forms(text: str, node: object) -> None:
    assert body(text) == node


def test_comment() -> None:
    assert parse("age 3 vs 13 # climb the wall").comment == "climb the wall"


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("age 3 +focus +focus vs 13", "a second +focus", 13),
        ("age STR-focus", "a focus adds +2", 7),
        ("age FOO vs 13", "expected an ability (STR, DEX", 4),
        ("age 3 until 15", "an advanced test needs a target", 6),
        ("age 2 vs age 3 until 4", "not an opposed test", 15),
        ("age 3 vs 13 until 0", "at least 1", 18),
        ("age 3 vs age 2 vs 13", "expected 'age'", 18),
        ("age 3 vs 13 until routine", "expected a threshold", 18),
        ("age 3 vs", "expected a target number, a difficulty or 'age'", 8),
        ("age 3 +", "expected a number or 'focus'", 7),
        ("age", "expected an ability", 3),
    ],
)
def test_errors(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert message in caught.value.message
    assert caught.value.position == position


def test_too_many_sides() -> None:
    with pytest.raises(DiceSyntaxError, match="at most 12 sides"):
        parse(" vs ".join(["age 1"] * 13))


tests = st.builds(
    AgeTest,
    st.one_of(st.none(), st.sampled_from(sorted(ABILITIES))),
    st.integers(-5, 20),
    st.lists(st.integers(-9, 9), max_size=3).map(tuple),
    st.booleans(),
).map(lambda t: t if t.ability is None else AgeTest(t.ability, 0, t.modifiers, t.focus))
targets = st.one_of(
    st.integers(0, 40).map(Target),
    st.sampled_from(sorted(DIFFICULTIES)).map(lambda n: Target(DIFFICULTIES[n], n)),
)
thresholds = st.one_of(
    st.integers(1, 60).map(Target),
    st.sampled_from(sorted(THRESHOLDS)).map(lambda n: Target(THRESHOLDS[n], n)),
)
checks = st.one_of(
    st.builds(AgeRoll, tests, st.one_of(st.none(), targets)),
    st.builds(AgeOpposed, st.lists(tests, min_size=2, max_size=5).map(tuple)),
    st.builds(AgeAdvanced, tests, targets, thresholds),
)


@given(checks)
def test_canonical_text_parses_back(check: AgeRoll | AgeOpposed | AgeAdvanced) -> None:
    assert body(str(check)) == check
