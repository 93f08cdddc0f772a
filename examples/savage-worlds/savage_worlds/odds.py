"""Exact odds of a trait test, in closed form.

A die of ``s`` sides that aces without limit totals ``t = s·j + f`` after ``j`` aces
and a last face ``f`` of 1 to ``s - 1``, with chance ``(1/s)^(j+1)``; so it totals at
least ``x = s·k + r + 1`` (``0 <= r < s``) with chance ``(1/s)^k · (s - r)/s``
(:func:`at_least`). The trait die and the Wild Die are independent, so the better of
the two reaches ``x`` unless both fall short: ``1 - (1 - A_trait(x))(1 - A_wild(x))``.
A critical failure is both first dice on 1, chance ``1/(6s)``, and then both totals
are 1; it is taken out of every "at least" whose threshold a total of 1 (plus the
modifier) would reach.

So the chances (success, at least 1, 2, 3 raises, critical failure) and the mean are
exact fractions, with no cut-off. Only the table of results is unbounded: it is listed
until the chance of any higher result is at most :data:`PRECISION`, as the core does
for exploding dice, and that chance is the distribution's ``residue``.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from dicecli.game import ONE, ZERO, Distribution, Environment, Odds, assert_never

from savage_worlds.nodes import SavageForm, TraitTest
from savage_worlds.rules import RAISE_STEP, WILD_SIDES

PRECISION = Fraction(1, 10**12)
"""The most probability the table of results may leave out (the core's precision)."""

RAISES_LISTED = (1, 2, 3)
"""The chances of at least this many raises are given."""


def at_least(sides: int, x: int) -> Fraction:
    """P(an acing d``sides`` totals ``x`` or more), exactly."""
    if x <= 1:
        return ONE
    k, r = divmod(x - 1, sides)
    return Fraction(sides - r, sides ** (k + 1))


def exactly(sides: int, t: int) -> Fraction:
    """P(an acing d``sides`` totals exactly ``t``): a multiple of ``sides`` never
    stands (the die rolls on)."""
    if t < 1 or t % sides == 0:
        return ZERO
    return Fraction(1, sides ** (t // sides + 1))


def mean(sides: int) -> Fraction:
    """E[an acing d``sides``] = ((s + 1)/2) / (1 - 1/s)."""
    return Fraction(sides * (sides + 1), 2 * (sides - 1))


class Chances:
    """The chances of one trait test: the better die (or the trait die alone, for an
    Extra) plus the modifier."""

    def __init__(self, check: TraitTest) -> None:
        self.sides = check.sides
        self.wild = WILD_SIDES if check.wild_card else None
        self.modifier = check.modifier
        self.critical = Fraction(1, check.sides * WILD_SIDES) if check.wild_card else ZERO

    def reaches(self, value: int) -> Fraction:
        """P(the result, the better die plus the modifier, is ``value`` or more),
        critical failures included (their result is 1 plus the modifier)."""
        x = value - self.modifier
        below = ONE - at_least(self.sides, x)
        if self.wild is not None:
            below *= ONE - at_least(self.wild, x)
        return ONE - below

    def passes(self, value: int) -> Fraction:
        """P(the result is ``value`` or more and the roll is no critical failure)."""
        chance = self.reaches(value)
        if 1 + self.modifier >= value:
            chance -= self.critical
        return chance

    def mean(self) -> Fraction:
        """E[result], exactly: E[max] = E[T] + E[W] - sum over x of A_T(x) A_W(x), and
        that sum shrinks by the same factor every lcm(s, 6) steps: a geometric series."""
        if self.wild is None:
            return mean(self.sides) + self.modifier
        period = lcm(self.sides, self.wild)
        ratio = Fraction(
            1, self.sides ** (period // self.sides) * self.wild ** (period // self.wild)
        )
        both = sum(
            (at_least(self.sides, x) * at_least(self.wild, x) for x in range(1, period + 1)),
            ZERO,
        )
        return mean(self.sides) + mean(self.wild) - both / (1 - ratio) + self.modifier

    def results(self) -> Distribution:
        """The results, from the lowest up to where the chance of any higher one is at
        most :data:`PRECISION`; that chance is the residue."""
        value = 1 + self.modifier
        found: dict[int, Fraction] = {}
        while True:
            higher = self.reaches(value + 1)
            chance = self.reaches(value) - higher
            if chance:
                found[value] = chance
            value += 1
            if higher <= PRECISION:
                return Distribution.from_probabilities(found, higher)


def trait_test_odds(check: TraitTest, text: str) -> Odds:
    """P(success), P(at least 1, 2, 3 raises), P(critical failure), the exact mean and
    the table of results."""
    test = Chances(check)
    target = check.target_number
    chances = [("success", test.passes(target))]
    for count in RAISES_LISTED:
        name = f"raises_at_least_{count}"
        chances.append((name, test.passes(target + RAISE_STEP * count)))
    if check.wild_card:
        chances.append(("critical_failure", test.critical))
    results = test.results()
    notes = [
        "success, raises, critical failure and the mean are exact (closed form, aces "
        "without limit)",
        f"the results are listed until the chance of a higher one is at most "
        f"{float(PRECISION):.0e}; {float(results.residue):.2g} is left out (the spread "
        "is that of the results listed)",
    ]
    if not check.wild_card:
        notes.append("an Extra rolls no Wild Die and is never reported as a critical failure")
    return Odds(
        text,
        str(check),
        results,
        chances=tuple(chances),
        expectations=(("mean", test.mean()),),
        notes=tuple(notes),
    )


def odds(form: SavageForm, env: Environment, text: str) -> Odds:
    """The exact odds of a Savage Worlds line."""
    match form:
        case TraitTest():
            return trait_test_odds(form, text)
        case _:
            return assert_never(form)
