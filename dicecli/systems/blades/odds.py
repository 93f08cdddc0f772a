"""The exact odds of a ``blades`` line (rules B1-B3), from the same rule decisions as
the rolling (:mod:`dicecli.systems.blades.rules`).

Rule numbers (B1, B2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dicecli.game import ZERO, Distribution, Odds, expression_odds
from dicecli.systems.blades.roll import pool_size
from dicecli.systems.blades.rules import action_verdict, stress

if TYPE_CHECKING:
    from dicecli.game import Environment
    from dicecli.systems.blades.checks import BladesCheck

SIXTH = Fraction(1, 6)


def outcomes(pool: int) -> dict[tuple[int, bool], Fraction]:
    """The chance of each (die that counts, critical) pair for a pool (rules B1, B2)."""
    found: dict[tuple[int, bool], Fraction] = {}
    if pool == 0:  # the lower of two: P(lowest >= k) = ((7 - k) / 6) ** 2
        for k in range(1, 7):
            found[(k, False)] = (Fraction(7 - k, 6)) ** 2 - (Fraction(6 - k, 6)) ** 2
        return found
    for k in range(1, 6):  # highest k < 6: P(highest <= k) - P(highest <= k - 1)
        found[(k, False)] = Fraction(k, 6) ** pool - Fraction(k - 1, 6) ** pool
    one_six = pool * SIXTH * Fraction(5, 6) ** (pool - 1)
    found[(6, False)] = one_six
    found[(6, True)] = 1 - Fraction(5, 6) ** pool - one_six
    return found


def odds(check: BladesCheck, env: Environment, text: str) -> Odds:
    """The exact chances of a ``blades`` line."""
    pools, notes = expression_odds(check.pool, env)
    by_verdict: dict[str, Fraction] = {}
    totals: dict[int, Fraction] = {}
    for pool, p in pools.outcomes:
        for (highest, critical), q in outcomes(pool_size(pool)).items():
            if check.resist:
                total = stress(highest, critical)
                name = "clear_1_stress" if critical else f"stress_{total}"
            else:
                total = highest
                name = action_verdict(highest, critical).replace(" ", "_")
            by_verdict[name] = by_verdict.get(name, ZERO) + p * q
            totals[total] = totals.get(total, ZERO) + p * q
    if check.resist:
        order = ["clear_1_stress", *(f"stress_{n}" for n in range(6))]
        chances = tuple((name, by_verdict.get(name, ZERO)) for name in order)
        return Odds(
            text,
            str(check),
            distribution=Distribution.from_probabilities(totals),
            chances=chances,
            notes=notes,
        )
    names = ("critical_success", "full_success", "partial_success", "bad_outcome")
    found = {name: by_verdict.get(name, ZERO) for name in names}
    success = found["critical_success"] + found["full_success"] + found["partial_success"]
    return Odds(
        text,
        str(check),
        distribution=Distribution.from_probabilities(totals),
        chances=(("success", success), *found.items()),
        notes=notes,
        passing=(4, None),  # the total is the die that counts: 4 or more passes
    )
