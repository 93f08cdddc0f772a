"""Exact probability distributions and the odds of a roll.

A :class:`Distribution` maps integer outcomes to exact :class:`~fractions.Fraction`
probabilities that sum to 1 (or to ``1 - residue`` when an unbounded form was cut off
at a stated precision: ``residue`` is the probability mass left out, never hidden).
:class:`Odds` is what ``dicecli odds`` reports for one line; game modules build it for
their checks, :mod:`dicecli.probability.engine` for the generic notation.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from dicecli.frozen import field, frozen

if TYPE_CHECKING:
    from decimal import Decimal

ONE = Fraction(1)
ZERO = Fraction(0)


# --- fractions over one denominator -------------------------------------------------


def _coprime_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for coprime numbers, ``denominator > 0``,
    without the gcd and type checks of ``Fraction()`` (2.3 microseconds a call, more
    than the rest of the work). Python 3.12 has this as ``Fraction._from_coprime_ints``;
    on 3.10 and 3.11 the two slots are filled the same way."""
    fraction = object.__new__(Fraction)
    fraction._numerator = numerator  # type: ignore[attr-defined]
    fraction._denominator = denominator  # type: ignore[attr-defined]
    return fraction


def reduced_fraction(count: int, denominator: int) -> Fraction:
    """``Fraction(count, denominator)`` for ``denominator > 0``: one gcd, without the
    type checks of ``Fraction()``."""
    common = math.gcd(count, denominator)
    return _coprime_fraction(count // common, denominator // common)


LARGEST_TRIAL_FACTOR = 1 << 17
"""Trial factors tried on a denominator (dice have at most 100,000 faces)."""


def small_factors(number: int) -> dict[int, int] | None:
    """``number``'s prime factorisation (prime -> exponent) when every prime is at
    most :data:`LARGEST_TRIAL_FACTOR`, else None."""
    factors: dict[int, int] = {}
    twos = (number & -number).bit_length() - 1
    if twos:
        factors[2] = twos
        number >>= twos
    candidate = 3
    while number > 1 and candidate <= LARGEST_TRIAL_FACTOR:
        if number % candidate == 0:
            exponent = 0
            while number % candidate == 0:
                number //= candidate
                exponent += 1
            factors[candidate] = exponent
        candidate += 2
    return factors if number == 1 else None


def _fraction_maker(denominator: int, how_many: int) -> Callable[[int], Fraction]:
    """``count -> Fraction(count, denominator)``, fast for many counts over one big
    denominator made of small primes (dice denominators are): a count's gcd with the
    denominator is read off one remainder by a word-sized product of those primes,
    instead of a gcd of two big numbers each time."""
    factors = small_factors(denominator) if how_many >= 8 else None
    if factors is None or denominator.bit_length() < 256:
        return partial(reduced_fraction, denominator=denominator)
    twos = factors.pop(2, 0)
    primes = sorted(factors)
    # Powers of each odd prime, small enough together to fit a machine word or so.
    share = max(1, 62 // max(len(primes), 1))
    caps = [min(factors[p], max(1, share // p.bit_length())) for p in primes]
    chunks = [p**cap for p, cap in zip(primes, caps, strict=True)]
    modulus = math.prod(chunks)
    reduced: dict[tuple[int, ...], int] = {}

    def fraction(count: int) -> Fraction:
        if count == 0:
            return Fraction(0)
        shift = min((count & -count).bit_length() - 1, twos)
        count >>= shift
        rest = count % modulus
        taken = [shift]
        common = 1
        for prime, cap, chunk in zip(primes, caps, chunks, strict=True):
            times = 0
            while times < cap and rest % prime == 0:
                rest //= prime
                times += 1
            if times == cap < factors[prime]:  # divisible by the whole chunk: go on
                part = count // (common * chunk)
                while times + cap <= factors[prime] and part % chunk == 0:
                    part //= chunk
                    times += cap
                while times < factors[prime] and part % prime == 0:
                    part //= prime
                    times += 1
            taken.append(times)
            common *= prime**times
        key = tuple(taken)
        smaller = reduced.get(key)
        if smaller is None:
            smaller = reduced[key] = denominator // (common << shift)
        return _coprime_fraction(count // common if common > 1 else count, smaller)

    return fraction


WEIGHED_OUTCOMES = 64
"""Outcomes from which :meth:`Distribution.from_probabilities` works out the integer
weights."""
WEIGHED_BITS = 4_096
"""The largest common denominator (in bits) it works them out over."""


@frozen
class Distribution:
    """Outcome -> probability, outcomes ascending, every probability > 0.

    ``weights``, when known (the odds engine sets it), is the same as integer counts
    over one denominator, ``(counts, denominator)``, counts in the order of
    ``outcomes``: totals, means, spreads and tails are then sums of integers, one
    fraction at the end, instead of thousands of additions of fractions with huge
    denominators. It takes no part in equality.
    """

    outcomes: tuple[tuple[int, Fraction], ...]
    residue: Fraction = ZERO  # probability left out by a stated cut-off
    weights: tuple[tuple[int, ...], int] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_weights(
        cls, counts: Mapping[int, int], denominator: int, residue: Fraction = ZERO
    ) -> Distribution:
        """From integer counts over ``denominator`` (the exact probabilities)."""
        pairs = sorted((value, count) for value, count in counts.items() if count)
        # Weights with a cut-off (explosions followed to a depth) share irregular
        # powers of the denominator with it, which a gcd reads off in about the same
        # time whatever they are; the remainders of the maker take longer the more
        # they share.
        fraction = (
            partial(reduced_fraction, denominator=denominator)
            if residue
            else _fraction_maker(denominator, len(pairs))
        )
        outcomes = tuple((value, fraction(count)) for value, count in pairs)
        weights = (tuple(count for _, count in pairs), denominator)
        return cls(outcomes, residue, weights)

    @classmethod
    def from_counts(cls, counts: Mapping[int, int], residue: Fraction = ZERO) -> Distribution:
        """From integer weights (``{2: 1, 3: 2, ...}``), scaled to sum to ``1 - residue``."""
        whole = sum(counts.values())
        scale = (ONE - residue) / whole
        return cls(tuple((k, v * scale) for k, v in sorted(counts.items()) if v), residue)

    @classmethod
    def from_probabilities(
        cls, probabilities: Mapping[int, Fraction], residue: Fraction = ZERO
    ) -> Distribution:
        """From exact probabilities; a long one (a game's table of thousands of
        distances) gets its integer ``weights`` too when the probabilities share a
        small enough denominator, so that its tails, mean and spread are sums of
        integers rather than of thousands of fractions."""
        outcomes = tuple((k, p) for k, p in sorted(probabilities.items()) if p)
        if len(outcomes) < WEIGHED_OUTCOMES:
            return cls(outcomes, residue)
        denominator = 1
        for _, p in outcomes:
            denominator = math.lcm(denominator, p.denominator)
            if denominator.bit_length() > WEIGHED_BITS:
                return cls(outcomes, residue)
        counts = tuple(p.numerator * (denominator // p.denominator) for _, p in outcomes)
        return cls(outcomes, residue, (counts, denominator))

    @classmethod
    def constant(cls, value: int) -> Distribution:
        return cls(((value, ONE),))

    @classmethod
    def uniform(cls, values: Iterable[int]) -> Distribution:
        """Equally likely faces (repeats count twice: the D3's 1,1,2,2,3,3)."""
        counts: dict[int, int] = {}
        for value in values:
            counts[value] = counts.get(value, 0) + 1
        return cls.from_counts(counts)

    def as_dict(self) -> dict[int, Fraction]:
        return dict(self.outcomes)

    @property
    def exact(self) -> bool:
        return self.residue == 0

    @property
    def total(self) -> Fraction:
        if self.weights is not None:
            counts, denominator = self.weights
            return Fraction(sum(counts), denominator)
        return sum((p for _, p in self.outcomes), ZERO)

    @property
    def min(self) -> int:
        return self.outcomes[0][0]

    @property
    def max(self) -> int:
        return self.outcomes[-1][0]

    def mean(self) -> Fraction:
        if self.weights is not None:
            counts = self.weights[0]
            return Fraction(
                sum(k * c for (k, _), c in zip(self.outcomes, counts, strict=True)), sum(counts)
            )
        return sum((k * p for k, p in self.outcomes), ZERO) / self.total

    def variance(self) -> Fraction:
        if self.weights is not None:  # (S * sum(k*k*c) - sum(k*c) ** 2) / S**2, S = sum(c)
            counts = self.weights[0]
            whole = sum(counts)
            first = sum(k * c for (k, _), c in zip(self.outcomes, counts, strict=True))
            second = sum(k * k * c for (k, _), c in zip(self.outcomes, counts, strict=True))
            return Fraction(whole * second - first * first, whole * whole)
        mean = self.mean()
        return sum(((k - mean) ** 2 * p for k, p in self.outcomes), ZERO) / self.total

    def stdev(self) -> float:
        variance = self.variance()
        try:
            return math.sqrt(variance)
        except OverflowError:  # a variance beyond a float: its square root may not be
            numerator, denominator = variance.numerator, variance.denominator
            return float(math.isqrt(numerator * denominator) // denominator)

    def probability(self, predicate: Callable[[int], bool]) -> Fraction:
        if self.weights is not None:
            counts, denominator = self.weights
            chosen = sum(c for (k, _), c in zip(self.outcomes, counts, strict=True) if predicate(k))
            return Fraction(chosen, denominator)
        return sum((p for k, p in self.outcomes if predicate(k)), ZERO)

    def at_least_each(self) -> tuple[Fraction, ...]:
        """For each outcome in order, the chance of it or more (exact; fast when the
        integer ``weights`` are known)."""
        if self.weights is not None:
            counts, denominator = self.weights
            fraction = _fraction_maker(denominator, len(counts))
            tails = itertools.accumulate(reversed(counts))
            return tuple(fraction(tail) for tail in reversed(list(tails)))
        remaining, found = self.total, []
        for _, chance in self.outcomes:
            found.append(remaining)
            remaining -= chance
        return tuple(found)

    def at_least_floats(self) -> tuple[float, ...]:
        """:meth:`at_least_each` as floats, for a table's percentages: from the integer
        ``weights`` when known, whose quotients round as the fractions' do, without
        making one fraction per outcome."""
        if self.weights is None:
            return tuple(float(tail) for tail in self.at_least_each())
        counts, denominator = self.weights
        tails = list(itertools.accumulate(reversed(counts)))
        return tuple(tail / denominator for tail in reversed(tails))

    def at_least(self, value: int) -> Fraction:
        return self.probability(lambda k: k >= value)

    def at_most(self, value: int) -> Fraction:
        return self.probability(lambda k: k <= value)

    def map(self, function: Callable[[int], int]) -> Distribution:
        mapped: dict[int, Fraction] = {}
        for k, p in self.outcomes:
            key = function(k)
            mapped[key] = mapped.get(key, ZERO) + p
        return Distribution.from_probabilities(mapped, self.residue)

    def combine(self, other: Distribution, function: Callable[[int, int], int]) -> Distribution:
        """The distribution of ``function(a, b)`` for independent ``a`` from self and
        ``b`` from ``other``."""
        result: dict[int, Fraction] = {}
        for a, p in self.outcomes:
            for b, q in other.outcomes:
                key = function(a, b)
                result[key] = result.get(key, ZERO) + p * q
        residue = ONE - (ONE - self.residue) * (ONE - other.residue)
        return Distribution.from_probabilities(result, residue)

    def __add__(self, other: Distribution) -> Distribution:
        return self.combine(other, int.__add__)


def percent(probability: Fraction | float) -> str:
    """``Fraction(1, 3)`` -> ``"33.33%"``; tiny chances keep significant digits."""
    value = float(probability) * 100
    if value == 0 or value >= 0.01:
        return f"{value:.2f}%"
    return f"{value:.2g}%"


LONGEST_FRACTION = 24
"""Fractions longer than this many characters are shown by their decimal value (the
JSON output keeps them whole)."""


def fraction_text(probability: Fraction) -> str:
    """``7/12``; a fraction too long to read (``123…/456…``) as ``≈0.0123456789``."""
    # Sized by bits first: a fraction of thousands of digits is never turned into text
    # (past 4,300 digits Python refuses to).
    bits = probability.numerator.bit_length() + probability.denominator.bit_length()
    text = str(probability) if bits <= 4 * LONGEST_FRACTION else ""
    if text and len(text) <= LONGEST_FRACTION:
        return text
    return f"≈{float(probability):.10g}"


def exact_text(value: Fraction, denominators: dict[int, str] | None = None) -> str:
    """``7/12``, however many digits: the exact text the JSON output keeps, past
    Python's 4,300-digit limit on integer-to-text conversions too. ``denominators``
    keeps the text of each denominator written, for a distribution whose thousands of
    chances share a few denominators of thousands of digits."""
    numerator, denominator = value.numerator, value.denominator
    if denominator == 1:
        return _int_text(numerator)
    if denominators is None:
        return f"{_int_text(numerator)}/{_int_text(denominator)}"
    below = denominators.get(denominator)
    if below is None:
        below = denominators[denominator] = _int_text(denominator)
    return f"{_int_text(numerator)}/{below}"


def _int_text(number: int) -> str:
    if number.bit_length() < 14_000:  # under 4,214 digits: str() never refuses it
        return str(number)
    import decimal  # docs/startup.md: only a number of thousands of digits comes here

    context = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX)
    with decimal.localcontext(context):
        return str(_as_decimal(number, number.bit_length(), decimal.Decimal, {}))


def _as_decimal(
    number: int, bits: int, decimal: type[Decimal], powers: dict[int, Decimal]
) -> Decimal:
    """``number`` (of at most ``bits`` bits) as an exact decimal, halves at a time: its
    high bits times a power of two, plus its low bits. The decimal module multiplies
    numbers of thousands of digits far faster than ``int`` divides them (``str`` of an
    ``int`` divides by powers of ten)."""
    if bits <= _DECIMAL_BITS:
        return decimal(number)
    half = _DECIMAL_BITS
    while half * 2 < bits:
        half *= 2
    high = number >> half
    low = number - (high << half)
    power = powers.get(half)
    if power is None:
        power = powers[half] = decimal(2) ** half
    return (
        _as_decimal(low, half, decimal, powers)
        + _as_decimal(high, bits - half, decimal, powers) * power
    )


_DECIMAL_BITS = 1024


@frozen
class Odds:
    """The exact chances of one line, for ``dicecli odds``.

    - ``distribution``: the total's distribution (plain rolls; a check's total too);
    - ``chances``: named probabilities (``success``, and a game's own),
      in display order;
    - ``wins``: opposed rolls and roll-offs: each side's label and chance to win;
    - ``expectations``: named expected values (``mean``, a game's own);
    - ``tables``: other named distributions (``degree``, ``distance``);
    - ``notes``: what the reader must know (a cut-off's precision, an assumption);
    - ``unshown_cut``: see below.
    ``estimated`` is None for exact answers; otherwise it says how the figures were
    sampled (sample size and error bound). ``passing``: for a check, the values of
    ``distribution`` that pass, as (lowest, highest), None for no bound: ``(None, 8)``
    for a roll-under test of 8, ``(15, None)`` for a total of 15 or more (a terminal
    colours those rows).
    """

    input: str
    expression: str
    distribution: Distribution | None = None
    chances: tuple[tuple[str, Fraction], ...] = ()
    wins: tuple[tuple[str, Fraction], ...] = ()
    expectations: tuple[tuple[str, Fraction], ...] = ()
    tables: tuple[tuple[str, Distribution], ...] = ()
    notes: tuple[str, ...] = ()
    estimated: str | None = None
    passing: tuple[int | None, int | None] | None = None
    unshown_cut: Fraction = ZERO
    """The probability a cut-off left out of what no distribution here shows: the
    margin of a check whose target explodes (``d6 <= d6!``)."""

    def passes(self, value: int) -> bool | None:
        """Whether ``value`` of the distribution passes; None when it is no check."""
        if self.passing is None:
            return None
        low, high = self.passing
        return (low is None or value >= low) and (high is None or value <= high)

    @property
    def left_out(self) -> Fraction:
        """The most probability any of the distributions leaves out (a stated cut-off)."""
        found = [self.distribution] if self.distribution is not None else []
        found.extend(table for _, table in self.tables)
        return max((self.unshown_cut, *(d.residue for d in found)))

    @property
    def exact(self) -> bool:
        return self.estimated is None and self.left_out == 0

    def kind(self) -> str:
        """``exact``, ``to a precision of …`` or ``estimated: …``, as the output says it."""
        if self.estimated is not None:
            return f"estimated: {self.estimated}"
        left_out = self.left_out
        return "exact" if left_out == 0 else f"to a precision of {float(left_out):.1e} left out"
