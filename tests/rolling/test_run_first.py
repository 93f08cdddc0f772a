"""A sum of one dice term and numbers is rolled directly the first time it is rolled,
and by its step after: both give the same result from the same dice.

:func:`dicecli.rolling.evaluate.roll` makes a line's step on its second roll, not its
first (a piped line is mostly rolled once); the tree the direct roll builds must be the
one the step builds, for every dice term the notation has and every way numbers are put
to it, brackets included.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import dice_text

from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation import grammar
from dicecli.notation.nodes import BinaryOp, Dice, Expr, Number, Roll
from dicecli.results import RollResult
from dicecli.rolling import evaluate
from dicecli.rolling.sources import RandomSource, Roller

_SETTINGS = settings(
    max_examples=examples(500),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def _sums(draw: st.DrawFn) -> str:
    """A dice term with numbers put to it one by one, each step perhaps in brackets
    (``(4d6kh3 + 1) * 2 ^ 2``)."""
    text = draw(dice_text())
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
    tree = grammar.parse(text)  # a new tree: never rolled before
    assert isinstance(tree.body, (BinaryOp, Dice))
    first = _rolled(text, tree, seed)
    if _numbers_put_to_dice(tree.body):
        assert evaluate.prepared.found(tree.body) is None  # rolled without its step
    second = _rolled(text, tree, seed)
    assert first == second, text
    if not isinstance(second, str):
        assert evaluate.prepared.found(tree.body) is not None  # made ready on its second roll
    assert _rolled(text, tree, seed) == second, text  # and rolled by it from then on
