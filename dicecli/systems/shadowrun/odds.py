"""The exact odds of an ``sr`` line (rules S1-S5), from the same rule decisions as the
rolling (:mod:`dicecli.systems.shadowrun.rules`).

Without Edge every chance is exact. With Edge a die's 6s roll again without end, so no
finite table holds every count of hits; but hits only add up, so the chance of each
count up to a bound is exact (the dice past the bound cannot bring a count back under
it). The bound is raised until the chance of more hits is below
:data:`~dicecli.game.PRECISION`, and never lies below the threshold, so:

- each row of the table (a count of hits up to the bound) is exact, and so is the chance
  of success (falling short of the threshold is a finite sum);
- the glitches are exact: they look at the pool's own dice, not at what Edge rolls;
- the mean of the hits is exact, in closed form: a die's expected hits ``e`` with Edge
  solve ``e = 1/6 + 1/6 (1 + e)`` (a 5, or a 6 and the die it rolls), so ``e = 2/5``;
- what is left out is one number, exact: the chance of more hits than the bound.

Rule numbers (S1, S2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from dicecli.game import PRECISION, ZERO, Distribution, Odds, expression_odds
from dicecli.systems.shadowrun.roll import limit_size, pool_size
from dicecli.systems.shadowrun.rules import counted_hits, glitch

if TYPE_CHECKING:
    from dicecli.game import Environment, Expr
    from dicecli.systems.shadowrun.checks import ShadowrunCheck

SIXTH = Fraction(1, 6)
Joint = dict[tuple[int, int], Fraction]
"""Chances of (hits, ones) pairs."""


def one_die(edge: bool, most: int) -> Joint:
    """One die of the pool: its hits (with Edge, those of the dice its 6s roll too) and
    whether it shows 1 (rules S1, S2, S4)."""
    if not edge:
        return {(0, 1): SIXTH, (0, 0): 3 * SIXTH, (1, 0): 2 * SIXTH}
    # the dice a 6 rolls: k hits when k - 1 sixes end in a 5, or k sixes end in 1-4
    chain = {0: Fraction(4, 6)}
    for k in range(1, most + 1):
        chain[k] = SIXTH**k * Fraction(10, 6)
    die: Joint = {(0, 1): SIXTH, (0, 0): 3 * SIXTH, (1, 0): SIXTH}
    for k, p in chain.items():
        if 1 + k <= most:
            die[(1 + k, 0)] = die.get((1 + k, 0), ZERO) + SIXTH * p
    return die


EDGE_MEAN = Fraction(2, 5)
"""A die's expected hits with Edge, its 6s rolled again without end (rules S1, S4)."""


def pool_joint(pool: int, edge: bool, at_least: int = 0) -> Joint:
    """(hits, ones) over the whole pool: with Edge, every count of hits up to a bound no
    lower than ``at_least``, exactly, and less than :data:`PRECISION` beyond it.

    A die that shows 1 has no hit, so the pool is its ones (binomial) and the hits of
    the other dice, convolved one die at a time: a walk over hits alone, where a walk
    over (hits, ones) pairs took 45 s for ``sr 50 edge``."""
    most = pool if not edge else max(2 * pool + 12, at_least)
    while True:
        die = one_die(edge, most)
        not_one = 1 - SIXTH
        other = {hits: p / not_one for (hits, ones), p in die.items() if not ones}
        hits_of: list[dict[int, Fraction]] = [{0: Fraction(1)}]  # of 0, 1, 2 ... dice
        for _ in range(pool):
            hits_of.append(_convolve_hits(hits_of[-1], other, most))
        total: Joint = {}
        for ones in range(pool + 1):
            weight = comb(pool, ones) * SIXTH**ones * not_one ** (pool - ones)
            for hits, p in hits_of[pool - ones].items():
                total[(hits, ones)] = weight * p
        if not edge or 1 - sum(total.values()) < PRECISION:
            return total
        most *= 2


def _convolve_hits(
    left: dict[int, Fraction], right: dict[int, Fraction], most: int
) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for h1, p in left.items():
        for h2, q in right.items():
            if h1 + h2 <= most:
                out[h1 + h2] = out.get(h1 + h2, ZERO) + p * q
    return out


def _left_out(distribution: Distribution) -> str:
    """What the odds leave out with Edge, and what is exact (rule S4)."""
    return (
        f"every chance is exact; more than {distribution.max} hits "
        f"({float(distribution.residue):.1e}) are left out"
    )


def _of(expr: Expr | None, env: Environment) -> tuple[Distribution | None, tuple[str, ...]]:
    return (None, ()) if expr is None else expression_odds(expr, env)


def odds(check: ShadowrunCheck, env: Environment, text: str) -> Odds:
    """The exact chances of an ``sr`` line."""
    pools, notes = expression_odds(check.pool, env)
    thresholds, more = _of(check.threshold, env)
    limits, most = _of(check.limit, env)
    notes = (*notes, *more, *most)
    found = {"success": ZERO, "glitch": ZERO, "critical_glitch": ZERO}
    totals: dict[int, Fraction] = {}
    short = ZERO
    highest = max((t for t, _ in thresholds.outcomes), default=0) if thresholds else 0
    mean = ZERO
    for size, p in pools.outcomes:
        pool = pool_size(size)
        mean += p * EDGE_MEAN * pool
        joint = pool_joint(pool, check.edge, highest)
        # the 1s are the pool's own dice, whatever Edge rolls: counted without it, exactly
        plain = pool_joint(pool, edge=False)
        found["glitch"] += p * sum((r for (_, o), r in plain.items() if glitch(o, pool)), ZERO)
        for limit, q in limits.outcomes if limits else ((None, Fraction(1)),):
            limit_size(limit)
            for (raw, ones), r in joint.items():
                hits = counted_hits(raw, limit, check.edge)
                chance = p * q * r
                totals[hits] = totals.get(hits, ZERO) + chance
                if glitch(ones, pool) and hits == 0:
                    found["critical_glitch"] += chance
                for threshold, t in thresholds.outcomes if thresholds else ((1, Fraction(1)),):
                    if hits < threshold:  # the tail a cut-off leaves out is all hits
                        short += chance * t
    found["success"] = 1 - short
    residue = 1 - sum(totals.values(), ZERO)
    distribution = Distribution.from_probabilities(totals, residue)
    if residue:
        notes = (*notes, _left_out(distribution))
    chances = tuple(found.items())
    if thresholds is None:
        chances = (("at_least_one_hit", found["success"]), *chances[1:])
    passing = None
    if thresholds is not None and len(thresholds.outcomes) == 1:
        passing = (thresholds.outcomes[0][0], None)
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=chances,
        expectations=(("mean_hits", mean if residue else distribution.mean()),),
        notes=notes,
        passing=passing,
    )
