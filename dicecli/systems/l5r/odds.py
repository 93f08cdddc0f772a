"""The odds of an ``l5r`` line (rules L1-L4), from the same rule decisions as the rolling
(:mod:`dicecli.systems.l5r.rules`).

A die's 10s explode without end, so each die is followed :data:`DEPTH` dice deep and the
rest is left out, as the odds say ("to a precision of ..."). The sum of the highest
``kept`` of ``rolled`` dice is counted exactly over those values, in whole numbers:
going down the values, how many dice show each, until the kept ones are placed.

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from dicecli.game import Distribution, Odds
from dicecli.systems.l5r.rules import target, ten_dice_rule

if TYPE_CHECKING:
    from dicecli.systems.l5r.checks import L5rCheck

DEPTH = 6
"""How many dice one exploding die is followed: what is left out is below 10**-6 a die."""


def die_weights(explodes: bool) -> tuple[dict[int, int], int]:
    """Each value one die can come to, with a whole-number weight, and the weights'
    denominator: 1 to 9 plainly, 10 + the next die on a 10 (rule L1)."""
    if not explodes:
        return dict.fromkeys(range(1, 11), 1), 10
    weights: dict[int, int] = {}
    for tens in range(DEPTH):
        for face in range(1, 10):
            weights[10 * tens + face] = 10 ** (DEPTH - tens - 1)
    return weights, 10**DEPTH


def kept_sums(rolled: int, kept: int, explodes: bool) -> tuple[dict[int, Fraction], Fraction]:
    """The chance of each sum of the ``kept`` highest of ``rolled`` dice (rule L2), and
    the probability left out."""
    weights, denominator = die_weights(explodes)
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
                    key = (placed + j, total + j * value)
                    following[key] = following.get(key, 0) + ways
                else:  # the kept dice are placed: the rest are lower
                    done = total + (kept - placed) * value
                    sums[done] = sums.get(done, 0) + ways * below[value] ** (left - j)
                power *= w
        states = following
    whole = denominator**rolled
    found = {total: Fraction(weight, whole) for total, weight in sums.items()}
    return found, 1 - sum(found.values(), Fraction(0))


def odds(check: L5rCheck, env: object, text: str) -> Odds:
    """The chances of an ``l5r`` line."""
    effective = ten_dice_rule(check.rolled, check.kept)
    found, residue = kept_sums(effective.rolled, effective.kept, not check.unskilled)
    totals = {total + effective.bonus: p for total, p in found.items()}
    distribution = Distribution.from_probabilities(totals, residue)
    if check.target is None:
        return Odds(text, str(check), distribution=distribution)
    tn = target(check.target, check.raises)
    failure = sum((p for total, p in totals.items() if total < tn), Fraction(0))
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=(("success", 1 - failure), ("failure", failure)),
        passing=(tn, None),
    )
