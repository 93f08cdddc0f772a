"""The exact odds of an ``l5r`` line (rules L1-L4), from the same rule decisions as the
rolling (:mod:`dicecli.systems.l5r.rules`).

A die's 10s explode without end, so no finite table holds every total; but every total
up to a bound ``cut`` is exact. A kept sum of ``s`` needs every die, kept or dropped, to
come to ``s`` or less (the kept dice include the highest, and every die is at least 1),
so counting the dice over the values up to ``cut`` (each with its exact chance, a
``10t + f`` with ``10**-(t + 1)``) counts every way to any total up to ``cut``, and
nothing else is needed for them. Hence:

- each row of the table (a total up to ``cut``) is exact;
- the chance of failing a TN (a total below it) is exact, so the chance of success is
  too: ``cut`` is never below TN - 1;
- what is left out is one number, exact: the chance of a total above ``cut``, which is
  below :data:`~dicecli.game.PRECISION` (``cut`` is raised until it is).

The sum of the highest ``kept`` of ``rolled`` dice is counted over those values in whole
numbers: going down the values, how many dice show each, until the kept ones are placed.

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from dicecli.game import PRECISION, Distribution, Odds, RuleError
from dicecli.systems.l5r.rules import target, ten_dice_rule

if TYPE_CHECKING:
    from dicecli.systems.l5r.checks import L5rCheck

MOST_TN = 300
"""The highest target number whose odds are worked out (dicecli's limit): an exact
chance of success needs every total below it, and its cost grows as its square; a TN
that high succeeds far less than once in 10**12 rolls."""

CUT_STEP = 20
"""How far the bound of the table is raised until what lies above is small enough."""


def die_weights(explodes: bool, cut: int) -> tuple[dict[int, int], int]:
    """Each value up to ``cut`` one die can come to, with a whole-number weight, and the
    weights' denominator: 1 to 9 plainly, 10 + the next die on a 10 (rule L1)."""
    if not explodes:
        return dict.fromkeys(range(1, 11), 1), 10
    tens = cut // 10
    weights = {
        10 * ten + face: 10 ** (tens - ten)
        for ten in range(tens + 1)
        for face in range(1, 10)
        if 10 * ten + face <= cut
    }
    return weights, 10 ** (tens + 1)


def kept_sums(rolled: int, kept: int, explodes: bool, cut: int) -> tuple[dict[int, int], int]:
    """The exact chance of each sum up to ``cut`` of the ``kept`` highest of ``rolled``
    dice (rule L2), as whole-number weights over a denominator."""
    weights, denominator = die_weights(explodes, cut)
    values = sorted(weights, reverse=True)
    below = {}
    running = 0
    for value in reversed(values):
        below[value] = running
        running += weights[value]
    sums: dict[int, int] = {}
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (dice placed, their sum) -> weight
    for value in values:
        w = weights[value]
        following: dict[tuple[int, int], int] = {}
        for (placed, total), weight in states.items():
            left = rolled - placed
            power = 1
            for j in range(left + 1):
                ways = weight * comb(left, j) * power
                if placed + j < kept:
                    reached = total + j * value
                    if reached + kept - placed - j > cut:  # the dice left add 1 or more each
                        break
                    key = (placed + j, reached)
                    following[key] = following.get(key, 0) + ways
                else:  # the kept dice are placed: the rest are lower
                    done = total + (kept - placed) * value
                    if done > cut:
                        break
                    sums[done] = sums.get(done, 0) + ways * below[value] ** (left - j)
                power *= w
        states = following
    return sums, denominator**rolled


def totals(
    rolled: int, kept: int, explodes: bool, bonus: int, at_least: int
) -> tuple[Distribution, int]:
    """The distribution of the kept sum plus ``bonus`` (rule L3), exact up to a bound no
    lower than ``at_least`` with less than :data:`PRECISION` above it (the residue), and
    that bound."""
    cut = max(at_least - bonus, 10 * kept + 100)
    while True:
        sums, denominator = kept_sums(rolled, kept, explodes, cut)
        residue = 1 - Fraction(sum(sums.values()), denominator)
        if residue < PRECISION:
            shifted = {total + bonus: weight for total, weight in sums.items()}
            return Distribution.from_weights(shifted, denominator, residue), cut + bonus
        cut += CUT_STEP


def odds(check: L5rCheck, env: object, text: str) -> Odds:
    """The chances of an ``l5r`` line."""
    effective = ten_dice_rule(check.rolled, check.kept)
    tn = None if check.target is None else target(check.target, check.raises)
    if tn is not None and tn > MOST_TN:
        raise RuleError(f"no odds for a TN above {MOST_TN} (it is all but never reached)")
    explodes = not check.unskilled
    distribution, cut = totals(
        effective.rolled, effective.kept, explodes, effective.bonus, 0 if tn is None else tn - 1
    )
    notes: tuple[str, ...] = ()
    if not distribution.exact:
        notes = (
            f"every chance is exact; a total above {cut} "
            f"({float(distribution.residue):.1e}) is left out",
        )
    if tn is None:
        return Odds(text, str(check), distribution=distribution, notes=notes)
    failure = sum((p for total, p in distribution.outcomes if total < tn), Fraction(0))
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=(("success", 1 - failure), ("failure", failure)),
        notes=notes,
        passing=(tn, None),
    )
