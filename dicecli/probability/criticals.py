"""Exact chances of a critical: that some dice term of a line marks a die critical.

A dice term marks its kept dice critical by a condition on each die's value
(:func:`~dicecli.notation.semantics.critical_conditions`), as a success condition
counts them; so the chance that a term marks none is the chance that the same term,
counting successes on that condition, counts 0, which the engine already computes
exactly. Every dice term (each use of a saved roll too) rolls its own dice, so the
chance that none of a line's terms marks a die is the product over its terms.

Computed dice (``(d4)d20``) are a mixture over the counts and sizes they may come to;
their count and sides are terms of their own, taken as independent of the dice they
decide. That is exact unless the count or sides can themselves mark a critical (a lone
d20 deciding a count: ``(d20)d6``), where the two are linked.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from dicecli.environment import Environment
from dicecli.frozen import replace
from dicecli.notation.dialects import NO_DICE_AS_ZERO
from dicecli.notation.nodes import Comparison, ComputedDice, Condition, Dice, Expr, Name, children
from dicecli.notation.semantics import computed_dice, critical_conditions, name_meaning
from dicecli.notation.sides import DieName
from dicecli.probability.engine import dice_weights, weights

ONE = Fraction(1)


def critical_chances(body: Expr | Comparison, env: Environment) -> tuple[tuple[str, Fraction], ...]:
    """``critical_success`` and ``critical_failure``: the chance that the line marks at
    least one die so; only the kinds some term of the line can mark."""
    terms = list(_dice_terms(body, env, 0))
    if any(isinstance(term, ComputedDice) and _decided_by_criticals(term, env) for term in terms):
        raise LinkedCriticalsError(
            "no chance of a critical: a count or size of dice is rolled with dice that "
            "can be critical themselves, so the two are linked"
        )
    chances = []
    for name, which in (("critical_success", 0), ("critical_failure", 1)):
        none, marks = ONE, False
        for term in terms:
            if isinstance(term, ComputedDice):
                chance = _computed_chance_of_none(term, which, env)
            else:
                chance = _chance_of_none(term, critical_conditions(term)[which])
            if chance is not None:
                none *= chance
                marks = True
        if marks:
            chances.append((name, ONE - none))
    return tuple(chances)


class LinkedCriticalsError(Exception):
    """The chance of a critical is not computed for this line (the reason is the message)."""


def _decided_by_criticals(term: ComputedDice, env: Environment) -> bool:
    """Whether the count or sides of ``term`` roll dice that can be marked critical."""
    parts = [term.count] + ([] if isinstance(term.sides, str) else [term.sides])
    for part in parts:
        for inner in _dice_terms(part, env, 0):
            if isinstance(inner, ComputedDice) or critical_conditions(inner) != (None, None):
                return True
    return False


def _computed_chance_of_none(term: ComputedDice, which: int, env: Environment) -> Fraction | None:
    """The chance that the dice of ``term`` mark none (its count and sides are terms of
    their own, walked apart), over every count and size they may come to. None when
    no count and size can mark any."""
    count = weights(term.count, env)
    sides = None if isinstance(term.sides, str) else weights(term.sides, env)
    sizes: dict[int | str, int] = {term.sides: 1} if isinstance(term.sides, str) else {}
    if sides is not None:
        for value, weight in sides.counts.items():
            sizes[value] = weight
    size_total = sides.denominator if sides is not None else 1
    none, marks = Fraction(0), False
    for dice, count_weight in count.counts.items():
        for size, size_weight in sizes.items():
            chance = Fraction(count_weight * size_weight, count.denominator * size_total)
            if dice == 0 and env.dialect in NO_DICE_AS_ZERO:  # d20: no dice, none marked
                none += chance
                continue
            rolled = computed_dice(term, dice, size)
            of_none = _chance_of_none(rolled, critical_conditions(rolled)[which])
            marks = marks or of_none is not None
            none += chance * (ONE if of_none is None else of_none)
    return none if marks else None


def _chance_of_none(term: Dice, condition: Condition | None) -> Fraction | None:
    """The chance that ``term`` marks no kept die by ``condition`` (None: none can). An
    implosion's subtracted die is never kept over, dropped nor marked (docs/grammar.md,
    "Implode"): what the term keeps, and so marks, is the same without it."""
    if condition is None:
        return None
    counting = replace(
        term.modifiers,
        success=condition,
        failure=None,
        critical_success=None,
        critical_failure=None,
        implode=None,
    )
    found = dice_weights(Dice(term.count, term.sides, counting))
    return Fraction(found.counts.get(0, 0), found.denominator)


def _dice_terms(
    body: Expr | Comparison, env: Environment, depth: int
) -> Iterator[Dice | ComputedDice]:
    """Every dice term the line rolls, a saved roll's as often as it is named; the
    count and sides of computed dice are terms of their own."""
    if isinstance(body, Comparison):
        yield from _dice_terms(body.left, env, depth)
        yield from _dice_terms(body.right, env, depth)
        return
    if isinstance(body, Dice):
        if isinstance(body.sides, DieName):  # a die of a dice file (docs/dice.md)
            from dicecli.dicefiles.load import looked_up  # docs/startup.md

            term = looked_up(body, env)
            yield from _dice_terms(term, env, depth) if isinstance(term, Name) else (term,)
            return
        yield body
        return
    if isinstance(body, ComputedDice):
        yield body  # then its count's and sides' terms, below
    if isinstance(body, Name):
        meaning = name_meaning(body, env, depth)
        if not isinstance(meaning, int):
            yield from _dice_terms(meaning, env, depth + 1)
        return
    for child in children(body):
        yield from _dice_terms(child, env, depth)
