"""Exact odds of the symbols a pool of dice from a dice file shows (``docs/dice.md``).

``dicecli odds '2dAbility + 1dDifficulty'``: the distribution of each symbol's count,
and of each cancelling pair's net (``success - failure``: above 0, successes are left;
below 0, failures), with the chance that the net is 1 or more. Worked out exactly: the
joint distribution of every symbol's count is built die by die (a convolution of count
vectors, with integer weights), then read symbol by symbol.

A pool is a sum of dice terms (``2dAbility + 1dDifficulty + dBoost``), without
modifiers: symbols are counted, not kept or re-rolled.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator

from dicecli.dicefiles.model import DiceBook
from dicecli.errors import DiceError
from dicecli.notation.dice import Die
from dicecli.notation.nodes import NO_MODIFIERS, BinaryOp, Dice, Expr, Labelled
from dicecli.notation.sides import DieName
from dicecli.probability.weights import check_work

MAX_STATES = 200_000
"""Most different combinations of symbol counts one pool's odds may hold."""

Counts = dict[tuple[int, ...], int]


def named_terms(expr: Expr) -> Iterator[Dice]:
    """Every dice term of ``expr`` that names a die of a dice file."""
    from dicecli.notation.nodes import children  # docs/startup.md

    if isinstance(expr, Dice) and isinstance(expr.sides, DieName):
        yield expr
    for child in children(expr):
        yield from named_terms(child)


def pool_terms(expr: Expr) -> list[Dice] | None:
    """The dice terms of ``expr`` when it is a sum of dice terms without modifiers,
    else None."""
    if isinstance(expr, Labelled):
        return pool_terms(expr.expr)
    if isinstance(expr, Dice):
        return [expr] if expr.modifiers == NO_MODIFIERS else None
    if isinstance(expr, BinaryOp) and expr.op == "+":
        left, right = pool_terms(expr.left), pool_terms(expr.right)
        if left is None or right is None:
            return None
        return left + right
    return None


def added_terms(expr: Expr) -> list[Expr]:
    """The terms ``expr`` adds up: through labels, ``+``, and the left side of ``-``
    (``2dMix + 1d6kh1 - 2`` -> ``2dMix``, ``1d6kh1``, ``2``); what a ``-`` takes away
    counts as one term of its own."""
    if isinstance(expr, Labelled):
        return added_terms(expr.expr)
    if isinstance(expr, BinaryOp) and expr.op == "+":
        return added_terms(expr.left) + added_terms(expr.right)
    if isinstance(expr, BinaryOp) and expr.op == "-":
        return [*added_terms(expr.left), expr.right]
    return [expr]


def pool_dice(terms: list[Dice], book: DiceBook) -> list[tuple[Die, int]]:
    """Each term's die (looked up in ``book``) and count."""
    from dicecli.dicefiles.load import unknown_die  # docs/startup.md
    from dicecli.notation.dice import die_for_sides

    found: list[tuple[Die, int]] = []
    for term in terms:
        sides = term.sides
        if isinstance(sides, DieName):
            die = book.die(sides.name)
            if die is None:
                raise unknown_die(book, sides.name, sides.position)
        else:
            die = die_for_sides(sides)
        found.append((die, term.count))
    return found


def joint_counts(dice: list[tuple[Die, int]], symbols: tuple[str, ...]) -> tuple[Counts, int]:
    """The joint distribution of every symbol's count: count vector (in the order of
    ``symbols``) -> integer weight, over the returned denominator."""
    place = {symbol: index for index, symbol in enumerate(symbols)}
    joint: Counts = {(0,) * len(symbols): 1}
    denominator = 1
    for die, count in dice:
        faces: Counts = {}
        for face in die.faces:
            vector = [0] * len(symbols)
            for symbol in face.symbols:
                vector[place[symbol]] += 1
            key = tuple(vector)
            faces[key] = faces.get(key, 0) + 1
        for _ in range(count):
            joint = _convolved(joint, faces)
            denominator *= len(die.faces)
    return joint, denominator


PAIR_WORK = 300
"""Work (:data:`~dicecli.probability.weights.MAX_WORK`'s units, about a nanosecond) of
one pair of a state and a face, beside the work of each symbol counted."""

SYMBOL_WORK = 40
"""Work of one symbol's count in a state (a tuple of counts is made per pair)."""


def _convolved(joint: Counts, faces: Counts) -> Counts:
    width = len(next(iter(joint)))
    check_work(len(joint) * len(faces) * (PAIR_WORK + width * SYMBOL_WORK), "these dice")
    found: Counts = {}
    for state, weight in joint.items():
        for face, ways in faces.items():
            key = tuple(map(operator.add, state, face))  # of one length: the symbols
            found[key] = found.get(key, 0) + weight * ways
    if len(found) > MAX_STATES:
        raise DiceError(
            f"too many dice for exact odds of their symbols (over {MAX_STATES:,} "
            "combinations of counts)"
        )
    return found


def symbol_tables(
    joint: Counts, symbols: tuple[str, ...], cancels: tuple[tuple[str, str], ...]
) -> tuple[list[tuple[str, dict[int, int]]], list[tuple[str, int]]]:
    """Each symbol's count distribution, then each pair's net (``success - failure``),
    as integer weights; and for each pair the weight of a net of 1 or more."""
    place = {symbol: index for index, symbol in enumerate(symbols)}
    check_work(len(joint) * (len(symbols) + len(cancels)) * PAIR_WORK, "these dice")
    tables: list[tuple[str, dict[int, int]]] = []
    for symbol in symbols:
        index = place[symbol]
        table: dict[int, int] = {}
        for state, weight in joint.items():
            table[state[index]] = table.get(state[index], 0) + weight
        tables.append((symbol, table))
    at_least_one: list[tuple[str, int]] = []
    for one, other in cancels:
        first, second = place[one], place[other]
        net: dict[int, int] = {}
        for state, weight in joint.items():
            value = state[first] - state[second]
            net[value] = net.get(value, 0) + weight
        tables.append((f"{one} - {other}", net))
        at_least_one.append((one, sum(w for value, w in net.items() if value >= 1)))
    return tables, at_least_one
