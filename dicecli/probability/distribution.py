"""Exact probability distributions and the odds of a roll.

A :class:`Distribution` maps integer outcomes to exact :class:`~fractions.Fraction`
probabilities that sum to 1 (or to ``1 - residue`` when an unbounded form was cut off
at a stated precision: ``residue`` is the probability mass left out, never hidden).
:class:`Odds` is what ``dicecli odds`` reports for one line; game modules build it for
their checks, :mod:`dicecli.probability.engine` for the generic notation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

ONE = Fraction(1)
ZERO = Fraction(0)


@dataclass(frozen=True)
class Distribution:
    """Outcome -> probability, outcomes ascending, every probability > 0."""

    outcomes: tuple[tuple[int, Fraction], ...]
    residue: Fraction = ZERO  # probability left out by a stated cut-off

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
        return cls(tuple((k, p) for k, p in sorted(probabilities.items()) if p), residue)

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
        return sum((p for _, p in self.outcomes), ZERO)

    @property
    def min(self) -> int:
        return self.outcomes[0][0]

    @property
    def max(self) -> int:
        return self.outcomes[-1][0]

    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.outcomes), ZERO) / self.total

    def variance(self) -> Fraction:
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
        return sum((p for k, p in self.outcomes if predicate(k)), ZERO)

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


def percent(probability: Fraction) -> str:
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


def exact_text(value: Fraction) -> str:
    """``7/12``, however many digits: the exact text the JSON output keeps, past
    Python's 4,300-digit limit on integer-to-text conversions too."""
    numerator, denominator = value.numerator, value.denominator
    parts = [_int_text(numerator)] + ([] if denominator == 1 else [_int_text(denominator)])
    return "/".join(parts)


def _int_text(number: int) -> str:
    if number.bit_length() < 14_000:  # under 4,214 digits: str() never refuses it
        return str(number)
    sign, number = ("-", -number) if number < 0 else ("", number)
    chunks: list[str] = []
    while number:  # base 10**1000 by divmod: no conversion of more than 1,000 digits
        number, chunk = divmod(number, _CHUNK)
        chunks.append(str(chunk))
    head, *rest = reversed(chunks)
    return sign + head + "".join(chunk.zfill(1000) for chunk in rest)


_CHUNK = 10**1000


@dataclass(frozen=True)
class Odds:
    """The exact chances of one line, for ``dicecli odds``.

    - ``distribution``: the total's distribution (plain rolls; a check's total too);
    - ``chances``: named probabilities (``success``, and a game's own),
      in display order;
    - ``wins``: opposed rolls and roll-offs: each side's label and chance to win;
    - ``expectations``: named expected values (``mean``, a game's own);
    - ``tables``: other named distributions (``degree``, ``distance``);
    - ``notes``: what the reader must know (a cut-off's precision, an assumption).
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
        return max((d.residue for d in found), default=ZERO)

    @property
    def exact(self) -> bool:
        return self.estimated is None and self.left_out == 0

    def kind(self) -> str:
        """``exact``, ``to a precision of …`` or ``estimated: …``, as the output says it."""
        if self.estimated is not None:
            return f"estimated: {self.estimated}"
        left_out = self.left_out
        return "exact" if left_out == 0 else f"to a precision of {float(left_out):.1e} left out"
