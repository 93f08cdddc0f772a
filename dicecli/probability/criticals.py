"""Exact chances of a critical: that some dice term of a line marks a die critical.

A dice term marks its kept dice critical by a condition on each die's value
(:func:`~dicecli.notation.semantics.critical_conditions`), as a success condition
counts them; so the chance that a term marks none is the chance that the same term,
counting successes on that condition, counts 0, which the engine already computes
exactly. Every dice term (each use of a saved roll too) rolls its own dice, so the
chance that none of a line's terms marks a die is the product over its terms.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

from dicecli.environment import Environment
from dicecli.notation.nodes import Comparison, Condition, Dice, Expr, Name, children
from dicecli.notation.semantics import critical_conditions, name_meaning
from dicecli.probability.engine import dice_weights

ONE = Fraction(1)


def critical_chances(body: Expr | Comparison, env: Environment) -> tuple[tuple[str, Fraction], ...]:
    """``critical_success`` and ``critical_failure``: the chance that the line marks at
    least one die so; only the kinds some term of the line can mark."""
    terms = list(_dice_terms(body, env, 0))
    chances = []
    for name, which in (("critical_success", 0), ("critical_failure", 1)):
        conditions = [(term, critical_conditions(term)[which]) for term in terms]
        marking = [(term, condition) for term, condition in conditions if condition is not None]
        if not marking:
            continue
        none = ONE
        for term, condition in marking:
            none *= _chance_of_none(term, condition)
        chances.append((name, ONE - none))
    return tuple(chances)


def _chance_of_none(term: Dice, condition: Condition) -> Fraction:
    """The chance that ``term`` marks no kept die by ``condition``."""
    counting = replace(
        term.modifiers,
        success=condition,
        failure=None,
        critical_success=None,
        critical_failure=None,
    )
    found = dice_weights(Dice(term.count, term.sides, counting))
    return Fraction(found.counts.get(0, 0), found.denominator)


def _dice_terms(body: Expr | Comparison, env: Environment, depth: int) -> Iterator[Dice]:
    """Every dice term the line rolls, a saved roll's as often as it is named."""
    if isinstance(body, Comparison):
        yield from _dice_terms(body.left, env, depth)
        yield from _dice_terms(body.right, env, depth)
        return
    if isinstance(body, Dice):
        yield body
        return
    if isinstance(body, Name):
        meaning = name_meaning(body, env, depth)
        if not isinstance(meaning, int):
            yield from _dice_terms(meaning, env, depth + 1)
        return
    for child in children(body):
        yield from _dice_terms(child, env, depth)
