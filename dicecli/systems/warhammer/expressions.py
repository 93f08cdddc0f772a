"""Evaluating the generic parts of Warhammer forms with the core evaluator.

:class:`WarhammerEvaluation` is the core :class:`~dicecli.rolling.evaluate.Evaluation` that also
rolls the artillery die where the word ``artillery`` stands, so distances and totals
inherit the core arithmetic (``/`` and ``N% of`` round up, rule N3). A MISFIRE has no
number: it counts 0 while the rest of the expression is rolled (so every die the player
threw is used), and the evaluation remembers it; the caller then reports a misfire with
no total (rule W1).

:func:`fixed_value` evaluates values that must not hold dice (a characteristic, a
Leadership, a combat result), with names from the environment.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import RuleError
from dicecli.frozen import frozen
from dicecli.notation.dice import Die
from dicecli.notation.nodes import BinaryOp, Expr, Name, Negate, Number, PercentOf
from dicecli.result_tree import Rolled, RolledDice
from dicecli.results import DiceShown, Segment, Text
from dicecli.rolling.evaluate import Evaluation
from dicecli.rolling.sources import Roller
from dicecli.systems.warhammer.dice import ARTILLERY
from dicecli.systems.warhammer.nodes import is_artillery


class WarhammerEvaluation(Evaluation):
    """The core evaluation, with the artillery die."""

    def __init__(self, roller: Roller, env: Environment) -> None:
        super().__init__(roller, env)
        self.misfired = False
        self.artillery_rolled = False

    def name(self, node: Name) -> Rolled:
        if is_artillery(node):
            return self._artillery()
        return super().name(node)

    def _artillery(self) -> Rolled:
        index = self.roller.draw(ARTILLERY)
        misfire = ARTILLERY.faces[index].value is None
        roll = ARTILLERY.roll_of(index, True, (MISFIRE_MARK,) if misfire else ())
        self.artillery_rolled = True
        if roll.value is None:
            self.misfired = True
        return RolledDice(roll.value or 0, DiceShown((roll,)))


MISFIRE_MARK = "misfire"
"""The mark of an artillery die showing MISFIRE: renderers style it unmistakably."""


class _NoDice:
    """A dice source for values that must not roll: any die is an error."""

    def __init__(self, what: str) -> None:
        self.what = what

    def draw(self, die: Die) -> int:
        raise RuleError(f"{self.what} cannot hold dice ({die.name}): give a number or a name")


@frozen
class FixedValue:
    """A value computed without dice, and how to show it."""

    value: int
    segments: tuple[Segment, ...]
    plain: bool  # True when typed as a bare number (nothing worth showing but the value)


def fixed_value(exprs: Sequence[Expr], env: Environment, what: str) -> FixedValue:
    """The highest of ``exprs`` (rules W8, W9: a unit tests its highest value).

    One bare number shows as itself; otherwise the expressions show as evaluated
    (``S(3) + 1``, ``max(7, 8)``).
    """
    if all(type(expr) is Number for expr in exprs):  # ``ld 8``: the same every roll
        return _numbers_value(tuple(cast(Number, expr).value for expr in exprs))
    return _evaluated(exprs, env, what)


@lru_cache(maxsize=256)
def _numbers_value(numbers: tuple[int, ...]) -> FixedValue:
    return _evaluated(tuple(Number(number) for number in numbers), EMPTY_ENVIRONMENT, "")


def _evaluated(exprs: Sequence[Expr], env: Environment, what: str) -> FixedValue:
    values: list[int] = []
    shown: list[Segment] = []
    for index, expr in enumerate(exprs):
        evaluation = WarhammerEvaluation(Roller(_NoDice(what)), env)
        values.append(evaluation.value(expr))
        if index:
            shown.append(Text(", ", "op"))
        shown.extend(evaluation.segments)
    if len(exprs) > 1:
        shown = [Text("max(", "op"), *shown, Text(")", "op")]
    plain = len(exprs) == 1 and isinstance(exprs[0], Number)
    return FixedValue(max(values), tuple(shown), plain)


def needs_parentheses(exprs: Sequence[Expr]) -> bool:
    """True when a single value is arithmetic that a following ``-`` would misread."""
    return len(exprs) == 1 and isinstance(exprs[0], (BinaryOp, Negate, PercentOf))
