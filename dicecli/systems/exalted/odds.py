"""The exact odds of an ``ex`` line (rules X1-X3), from the same rule decisions as the
rolling (:mod:`dicecli.systems.exalted.rules`).

Rule numbers (X1, X2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dicecli.game import ZERO, Distribution, Odds, expression_odds
from dicecli.systems.exalted.roll import pool_size
from dicecli.systems.exalted.rules import successes

if TYPE_CHECKING:
    from dicecli.game import Environment
    from dicecli.systems.exalted.checks import ExaltedCheck

Joint = dict[tuple[int, bool], Fraction]
"""Chances of (successes, any 1 rolled) pairs."""


def pool_joint(pool: int) -> Joint:
    """(successes, whether a 1 was rolled) over a pool (rules X1, X3)."""
    die: Joint = {}
    for face in range(1, 11):
        key = (successes(face), face == 1)
        die[key] = die.get(key, ZERO) + Fraction(1, 10)
    total: Joint = {(0, False): Fraction(1)}
    for _ in range(pool):
        step: Joint = {}
        for (s1, o1), p in total.items():
            for (s2, o2), q in die.items():
                key = (s1 + s2, o1 or o2)
                step[key] = step.get(key, ZERO) + p * q
        total = step
    return total


def odds(check: ExaltedCheck, env: Environment, text: str) -> Odds:
    """The exact chances of an ``ex`` line."""
    pools, notes = expression_odds(check.pool, env)
    difficulties = None
    if check.difficulty is not None:
        difficulties, more = expression_odds(check.difficulty, env)
        notes += more
    totals: dict[int, Fraction] = {}
    success = botch = ZERO
    for size, p in pools.outcomes:
        for (total, one), q in pool_joint(pool_size(size)).items():
            totals[total] = totals.get(total, ZERO) + p * q
            if total == 0 and one:
                botch += p * q
            for difficulty, r in difficulties.outcomes if difficulties else ((1, Fraction(1)),):
                if total >= difficulty and not (total == 0 and one):
                    success += p * q * r
    distribution = Distribution.from_probabilities(totals)
    first = "success" if difficulties else "at_least_one_success"
    passing = None
    if difficulties is not None and len(difficulties.outcomes) == 1:
        passing = (max(difficulties.outcomes[0][0], 1), None)
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=((first, success), ("botch", botch)),
        expectations=(("mean_successes", distribution.mean()),),
        notes=notes,
        passing=passing,
    )
