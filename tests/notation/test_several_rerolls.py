"""Several re-rolls on one term (issue 26): Roll20's ``2d8r1r3``, Dice Maiden's
``3d6 r1 ir1`` and ``5d6 rg6 irg6``. A die is re-rolled while it meets a repeated
condition (``r``), and at most once more when it meets only a once (``ro``) condition
(docs/grammar.md, "Several re-rolls on a term"). Repeated re-rolls never end by brute
force, so the exact odds are held to an independent oracle: each die's standing value
solved as a two-state chain (a once re-roll left, or spent)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from brute import brute_distribution

import dicecli
from dicecli import parse
from dicecli.notation.nodes import Condition, Dice, Modifiers, Reroll


def _standing(sides: int, repeated: set[int], once: set[int]) -> dict[int, Fraction]:
    """One die's standing value: D_spent = stand / (1 - p(repeated)); D_fresh =
    (stand_fresh + p(once only) * D_spent) / (1 - p(repeated))."""
    face = Fraction(1, sides)
    faces = range(1, sides + 1)
    p_repeat = face * sum(1 for v in faces if v in repeated)
    spent = {v: face / (1 - p_repeat) for v in faces if v not in repeated}
    p_once = face * sum(1 for v in faces if v in once and v not in repeated)
    fresh: dict[int, Fraction] = {}
    for v in faces:
        if v in repeated:
            continue
        stands = face if v not in once else Fraction(0)
        fresh[v] = (stands + p_once * spent[v]) / (1 - p_repeat)
    return {v: p for v, p in fresh.items() if p}


def _sum_of(die: dict[int, Fraction], count: int) -> dict[int, Fraction]:
    total = {0: Fraction(1)}
    for _ in range(count):
        following: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in die.items():
                following[a + b] = following.get(a + b, Fraction(0)) + p * q
        total = following
    return total


@pytest.mark.parametrize(
    ("text", "reroll", "canonical"),
    [
        (
            "2d8r1r3",
            Reroll(Condition("=", 1), False, then=Reroll(Condition("=", 3), False)),
            "2d8r1r3",
        ),
        (
            "3d6 r1 ir1",
            Reroll(Condition("=", 1), False, then=Reroll(Condition("<=", 1), False)),
            "3d6r1r<=1",
        ),
        (
            "5d6 rg6 irg6",
            Reroll(Condition(">=", 6), True, then=Reroll(Condition(">=", 6), False)),
            "5d6ro>=6r>=6",
        ),
        (
            "d6r1ro6",
            Reroll(Condition("=", 1), False, then=Reroll(Condition("=", 6), True)),
            "d6r1ro6",
        ),
    ],
)
def test_re_rolls_are_kept_in_written_order(text: str, reroll: Reroll, canonical: str) -> None:
    node = parse(text).body
    assert isinstance(node, Dice)
    assert node.modifiers == Modifiers(reroll=reroll)
    assert str(node) == canonical
    assert parse(canonical).body == node


@pytest.mark.parametrize(
    ("text", "given", "total", "faces"),
    [
        # 1 and 3 re-rolled, however often they come (Roll20)
        ("d8r1r3", "1,3,1,5", 5, [1, 3, 1, 5]),
        # 1 re-rolled always; 6 re-rolled once, the next face stands unless it is a 1
        ("d6r1ro6", "1,6,1,3", 3, [1, 6, 1, 3]),
        ("d6r1ro6", "6,6", 6, [6, 6]),
        ("d6ro1ro6", "1,6", 6, [1, 6]),  # once in all: the second face stands
    ],
)
def test_given_dice(text: str, given: str, total: int, faces: list[int]) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == total
    assert [die.value for die in result.dice] == faces
    assert [die.kept for die in result.dice] == [False] * (len(faces) - 1) + [True]


@pytest.mark.parametrize(
    ("text", "sides", "count", "repeated", "once"),
    [
        ("2d8r1r3", 8, 2, {1, 3}, set()),
        ("3d6 r1 ir1", 6, 3, {1}, set()),
        ("5d6 rg6 irg6", 6, 5, {6}, {6}),
        ("d6r1ro6", 6, 1, {1}, {6}),
        ("2d4ro4r1", 4, 2, {1}, {4}),
        ("3d6r1r2r3", 6, 3, {1, 2, 3}, set()),
        ("2d6ro1ro2", 6, 2, set(), {1, 2}),
    ],
)
def test_exact_odds_equal_the_oracle(
    text: str, sides: int, count: int, repeated: set[int], once: set[int]
) -> None:
    found = dicecli.odds(text).distribution
    assert found is not None
    assert found.as_dict() == _sum_of(_standing(sides, repeated, once), count)


@pytest.mark.parametrize("text", ["d6ro1ro2", "2d4ro1ro4", "3d4ro1ro4kh2"])
def test_once_re_rolls_equal_brute_force(text: str) -> None:
    found = dicecli.odds(text).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(text)


def test_re_rolls_that_together_leave_no_face_are_refused() -> None:
    with pytest.raises(dicecli.DiceSyntaxError, match="every face re-rolls"):
        parse("d2r1r2")
