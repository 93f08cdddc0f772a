"""The exact odds of a ``cod`` line (rules K1-K5), from the same rule decisions as the
rolling (:mod:`dicecli.systems.cod.rules`).

Under 10-again and the like a pool's dice roll again without end, so no finite table
holds every count of successes; but successes only add up, so the chance of each count
up to a bound is exact (dice past the bound cannot bring a count back under it). The
bound is raised until the chance of more successes is below
:data:`~dicecli.game.PRECISION`. So:

- each row of the table (a count of successes up to the bound) is exact, and so are the
  chances of failure, success and an exceptional success (they depend only on the
  chance of fewer than five successes, a finite sum);
- the mean of the successes is exact, in closed form: a die's expected successes ``e``
  solve ``e = s + r e`` (``s`` the chance of a success, ``r`` of rolling again), so
  ``e = s / (1 - r)``, and a rote pool's failed first die, a chance ``f``, rolls a
  fresh die: ``e (1 + f)``;
- what is left out is one number, exact: the chance of more successes than the bound.

Rule numbers (K1, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dicecli.game import PRECISION, ZERO, Distribution, Odds, expression_odds
from dicecli.systems.cod.roll import pool_size
from dicecli.systems.cod.rules import AGAIN, EXCEPTIONAL_AT, die_chances

if TYPE_CHECKING:
    from dicecli.game import Environment
    from dicecli.systems.cod.checks import CodCheck


def one_die(again: int | None, rote: bool, most: int) -> list[Fraction]:
    """The chance of 0, 1 ... ``most`` successes from one die of the pool, its rote
    re-roll and explosions included (rules K1-K3)."""
    fail, plain, rolls_again = die_chances(again)
    # a die and the dice it rolls again: C(0) = fail, C(k) = plain r**(k-1) + fail r**k
    chain = [fail] + [
        plain * rolls_again ** (k - 1) + fail * rolls_again**k for k in range(1, most + 1)
    ]
    if not rote:
        return chain
    # rote (rule K3): a failed first die is rolled again once, as a fresh die (its chain);
    # a success counts 1, and 1 + the next die's chain when it rolls again
    found = [fail * chain[0]]
    for k in range(1, most + 1):
        found.append(fail * chain[k] + (plain if k == 1 else ZERO) + rolls_again * chain[k - 1])
    return found


def die_mean(again: int | None, rote: bool) -> Fraction:
    """One die's expected successes, the dice it rolls again and its rote re-roll
    included (rules K1-K3)."""
    fail, plain, rolls_again = die_chances(again)
    mean = (plain + rolls_again) / (1 - rolls_again)
    return mean * (1 + fail) if rote else mean


def _convolve(left: list[Fraction], right: list[Fraction], most: int) -> list[Fraction]:
    out = [ZERO] * (most + 1)
    for i, p in enumerate(left):
        if p:
            for j, q in enumerate(right[: most + 1 - i]):
                out[i + j] += p * q
    return out


def pool_successes(pool: int, again: int | None, rote: bool) -> tuple[list[Fraction], int]:
    """The chance of each count of successes of a pool, up to where the rest is below
    :data:`PRECISION`, and that count."""
    most = 4 * pool + 10
    while True:
        power = one_die(again, rote, most)
        total = [Fraction(1)] + [ZERO] * most
        left = pool
        while left:  # the pool's dice are alike: convolve by squaring
            if left & 1:
                total = _convolve(total, power, most)
            left >>= 1
            if left:
                power = _convolve(power, power, most)
        if 1 - sum(total) < PRECISION or again is None:
            return total, most
        most *= 2


def odds(check: CodCheck, env: Environment, text: str) -> Odds:
    """The exact chances of a ``cod`` line."""
    pools, notes = expression_odds(check.pool, env)
    failure = exceptional = dramatic = ZERO
    counts: dict[int, Fraction] = {}
    mean = ZERO
    for value, p in pools.outcomes:
        pool = pool_size(value)
        mean += p * (
            Fraction(1, 10) if pool == 0 else pool * die_mean(AGAIN[check.again], check.rote)
        )
        if pool == 0:  # rule K5: a chance die
            dramatic += p / 10
            failure += p * Fraction(9, 10)
            counts[1] = counts.get(1, ZERO) + p / 10
            counts[0] = counts.get(0, ZERO) + p * Fraction(9, 10)
            continue
        found, _ = pool_successes(pool, AGAIN[check.again], check.rote)
        failure += p * found[0]
        exceptional += p * (1 - sum(found[:EXCEPTIONAL_AT], ZERO))
        for k, q in enumerate(found):
            if q:
                counts[k] = counts.get(k, ZERO) + p * q
    residue = 1 - sum(counts.values(), ZERO)
    distribution = Distribution.from_probabilities(counts, residue)
    if residue:
        notes = (
            *notes,
            f"every chance is exact; more than {distribution.max} successes "
            f"({float(residue):.1e}) are left out",
        )
    chances = (
        ("success", 1 - failure),
        ("exceptional_success", exceptional),
        ("failure", failure - dramatic),
        ("dramatic_failure", dramatic),
    )
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=chances,
        expectations=(("mean_successes", mean),),
        notes=notes,
        passing=(1, None),
    )
