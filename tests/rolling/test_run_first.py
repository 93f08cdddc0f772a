"""A sum of one dice term and numbers is rolled directly the first time it is rolled,
and by its step after: both give the same result from the same dice.

:func:`dicecli.rolling.evaluate.roll` makes a line's step on its second roll, not its
first (a piped line is mostly rolled once); the tree the direct roll builds must be the
one the step builds, for every dice term the notation has and every way numbers are put
to it, brackets included. Dice of computed faces (``17d743``: any size but the usual
ones, which ``strategies.SIDES`` leaves out) are rolled without their step too when they
have no modifier: that shortcut rests on such dice having no criticals, which only a
lone d20 has by default, and is checked here with sizes up to 10,000 and from several
seeds a line (a difference on a few faces shows within a few).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import dice_modifiers, dice_text, lowest_condition, modifiers_text

from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation import grammar
from dicecli.notation.nodes import BinaryOp, Dice, Expr, Modifiers, Number, Roll
from dicecli.results import CRITICAL_FAILURE, CRITICAL_SUCCESS, RollResult
from dicecli.rolling import evaluate
from dicecli.rolling.sources import GivenSource, RandomSource, Roller

_SETTINGS = settings(
    max_examples=examples(1000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

SEEDS = 4
"""Seeds each line is rolled from, by a tree of its own each time."""


@st.composite
def _numbered_dice(draw: st.DrawFn) -> str:
    """``17d743``, ``3d7r1!``, ``1d9999kh1``: a numbered die of any size (most with
    computed faces), modifiers or none, one die or many."""
    sides = draw(st.one_of(st.integers(1, 30), st.integers(31, 10_000)))
    count = draw(st.one_of(st.just(1), st.integers(1, 30)))
    mods = draw(dice_modifiers(sides, count)) if draw(st.booleans()) else Modifiers()
    return f"{count}d{sides}" + draw(modifiers_text(mods, True, lowest_condition(sides)))


@st.composite
def _sums(draw: st.DrawFn) -> str:
    """A dice term with numbers put to it one by one, each step perhaps in brackets
    (``(4d6kh3 + 1) * 2 ^ 2``)."""
    text = draw(st.one_of(dice_text(), _numbered_dice()))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["+", "-", "*", "^"]))
        number = draw(st.integers(0, 30))
        if draw(st.booleans()):
            text = f"({text})"
        text = f"{text} {op} {number}"
    return text


def _numbers_put_to_dice(node: Expr) -> bool:
    """Whether ``node`` is a dice term with numbers put to it one by one (without
    brackets, ``d6 + 1 * 2`` is not: the product is a term of its own)."""
    while isinstance(node, BinaryOp) and isinstance(node.right, Number):
        node = node.left
    return isinstance(node, Dice)


def _rolled(text: str, tree: Roll, seed: int) -> RollResult | str:
    try:
        return evaluate.roll(tree, Roller(RandomSource(seed)), Environment(), text)
    except DiceError as error:
        return f"{type(error).__name__}: {error}"


@_SETTINGS
@given(_sums(), st.integers(0, 2**32))
def test_the_first_roll_is_the_steps_roll(text: str, seed: int) -> None:
    for each in range(seed, seed + SEEDS):
        tree = grammar.parse(text)  # a new tree: never rolled before
        assert isinstance(tree.body, (BinaryOp, Dice))
        first = _rolled(text, tree, each)
        if _numbers_put_to_dice(tree.body):
            assert evaluate.prepared.found(tree.body) is None  # rolled without its step
        second = _rolled(text, tree, each)
        assert first == second, (text, each)
        if not isinstance(second, str):
            assert evaluate.prepared.found(tree.body) is not None  # made ready on its second
        assert _rolled(text, tree, each) == second, text  # and rolled by it from then on


@pytest.mark.parametrize("text", ["d20", "1d20 + 5", "d20 * 2 - 1", "(1d20 + 2) ^ 1"])
@pytest.mark.parametrize(
    ("face", "marks"), [("20", (CRITICAL_SUCCESS,)), ("1", (CRITICAL_FAILURE,)), ("7", ())]
)
def test_a_lone_d20_marks_its_criticals_from_the_first_roll(
    text: str, face: str, marks: tuple[str, ...]
) -> None:
    """A lone d20's natural 20 and 1 are criticals (docs/grammar.md, "Criticals"): on
    the first roll, the one that makes the step, and one by the step."""
    tree = grammar.parse(text)
    for _ in range(3):
        result = evaluate.roll(tree, Roller(GivenSource([face])), Environment(), text)
        (die,) = result.dice
        assert (die.face, die.marks) == (face, marks)


def test_computed_faces_roll_alike_with_a_modifier_or_none() -> None:
    """Plain dice of computed faces, rolled without a step, and the same dice with a
    modifier that changes nothing, rolled by theirs, draw the same faces alike."""
    plain = _rolled("17d743 + 12", grammar.parse("17d743 + 12"), 7)
    kept = _rolled("17d743kh17 + 12", grammar.parse("17d743kh17 + 12"), 7)
    assert isinstance(plain, RollResult)
    assert isinstance(kept, RollResult)
    assert plain.total == kept.total
    assert [die.face for die in plain.dice] == [die.face for die in kept.dice]
    assert len(plain.dice) == 17
    assert all(die.die == "d743" and die.kept and not die.marks for die in plain.dice)
