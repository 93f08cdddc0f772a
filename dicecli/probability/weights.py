"""Exact integer arithmetic on distributions: the engine under :mod:`dicecli.probability.engine`.

A :class:`Weights` is a distribution kept as integer weights over one common
denominator: outcome ``k`` has probability ``counts[k] / denominator``. Working in
integers and turning them into :class:`~fractions.Fraction` s once, at the end, is what
makes the engine fast: no gcd on every addition. Weights may sum to less than the
denominator; the difference is the *residue*, the chance left out by a stated cut-off
(explosions followed to a finite depth), never hidden.

Sums of independent values are convolutions of their weights. A dense convolution is
done with one big-integer multiplication (Kronecker substitution): the weights are
packed side by side into one integer, ``slot`` bits each, wide enough that no product
coefficient can overflow into its neighbour; Python's multiplication (Karatsuba) then
does the work in C. ``100d6`` is ``packed(d6) ** 100``: well under a millisecond.

Every operation checks its size first and raises :class:`OddsTooBigError` instead of
running for minutes or exhausting memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from dicecli.errors import DiceError
from dicecli.probability.distribution import Distribution

MAX_OUTCOMES = 100_000
"""Most distinct outcomes one distribution may have."""

MAX_PAIRS = 2_000_000
"""Most outcome pairs a non-additive combination (``*``, ``/``) may visit."""

MAX_PACKED_BYTES = 1 << 20
"""Largest packed integer (1 MiB) a convolution may build: multiplying two of these
takes about a second (``500d6`` packs into 0.4 MiB, ``1000d6`` into 1.6 MiB)."""


class OddsTooBigError(DiceError):
    """The odds of this form are too big to compute exactly in reasonable time."""


Counts = dict[int, int]


@dataclass(frozen=True, eq=False)
class Weights:
    """Outcome -> integer weight, over ``denominator``; ``notes`` say what was cut.

    Treat ``counts`` as read-only: weights are shared through caches.
    """

    counts: Counts
    denominator: int
    notes: tuple[str, ...] = ()

    @classmethod
    def constant(cls, value: int) -> Weights:
        return cls({value: 1}, 1)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def residue(self) -> Fraction:
        return Fraction(self.denominator - self.total, self.denominator)

    def to_distribution(self) -> Distribution:
        denominator = self.denominator
        outcomes = tuple(
            (value, Fraction(count, denominator))
            for value, count in sorted(self.counts.items())
            if count
        )
        return Distribution(outcomes, self.residue)


def merged_notes(*groups: Iterable[str]) -> tuple[str, ...]:
    """The notes of several parts, each once, in order."""
    return tuple(dict.fromkeys(note for group in groups for note in group))


def check_outcomes(count: int, what: str) -> None:
    if count > MAX_OUTCOMES:
        raise OddsTooBigError(
            f"odds of {what}: about {count:,} possible totals, more than the "
            f"{MAX_OUTCOMES:,} that can be computed exactly here"
        )


def mapped(counts: Mapping[int, int], function: Callable[[int], int]) -> Counts:
    """The weights of ``function(outcome)``."""
    result: Counts = {}
    for value, count in counts.items():
        key = function(value)
        result[key] = result.get(key, 0) + count
    return result


def scaled(counts: Mapping[int, int], factor: int) -> Counts:
    return {value: count * factor for value, count in counts.items()}


def add_into(target: Counts, counts: Mapping[int, int], factor: int = 1) -> None:
    """``target += factor * counts``, outcome by outcome."""
    for value, count in counts.items():
        target[value] = target.get(value, 0) + count * factor


# --- packing: a polynomial of weights as one integer ------------------------------


def slot_bytes(bound: int) -> int:
    """Bytes per packed slot so that a coefficient up to ``bound`` fits."""
    return max(1, (bound.bit_length() + 8) // 8)


def pack(counts: Mapping[int, int], low: int, high: int, width: int) -> int:
    """Weights of outcomes ``low..high`` side by side, ``width`` bytes each."""
    get = counts.get
    raw = b"".join(get(value, 0).to_bytes(width, "little") for value in range(low, high + 1))
    return int.from_bytes(raw, "little")


def unpack(number: int, low: int, slots: int, width: int) -> Counts:
    """The inverse of :func:`pack`: non-zero weights of outcomes ``low..``."""
    raw = number.to_bytes(slots * width, "little")
    from_bytes = int.from_bytes
    result: Counts = {}
    for slot in range(slots):
        count = from_bytes(raw[slot * width : (slot + 1) * width], "little")
        if count:
            result[low + slot] = count
    return result


def _check_packed(slots: int, width: int, what: str) -> None:
    check_outcomes(slots, what)
    if slots * width > MAX_PACKED_BYTES:
        raise OddsTooBigError(
            f"odds of {what}: the exact numbers would need more than "
            f"{MAX_PACKED_BYTES >> 20} MiB; too big to compute exactly here"
        )


# --- sums of independent values ---------------------------------------------------


def convolve(a: Mapping[int, int], b: Mapping[int, int], what: str = "this roll") -> Counts:
    """The weights of ``x + y`` for independent ``x`` (weights ``a``) and ``y`` (``b``)."""
    if not a or not b:
        return {}
    if len(b) == 1:
        a, b = b, a
    if len(a) == 1:
        ((single, weight),) = a.items()
        return {single + value: weight * count for value, count in b.items()}
    low_a, high_a, low_b, high_b = min(a), max(a), min(b), max(b)
    slots = high_a - low_a + high_b - low_b + 1
    if len(a) * len(b) <= 256 or slots > 8 * len(a) * len(b):
        if len(a) * len(b) > MAX_PAIRS:
            raise OddsTooBigError(f"odds of {what}: too many combinations to compute exactly here")
        result: Counts = {}
        for x, p in a.items():
            for y, q in b.items():
                result[x + y] = result.get(x + y, 0) + p * q
        return result
    width = slot_bytes(sum(a.values()) * sum(b.values()))
    _check_packed(slots, width, what)
    product = pack(a, low_a, high_a, width) * pack(b, low_b, high_b, width)
    return unpack(product, low_a + low_b, slots, width)


def power(counts: Mapping[int, int], times: int, what: str = "this roll") -> Counts:
    """The weights of the sum of ``times`` independent values, each with ``counts``."""
    if times == 0:
        return {0: 1}
    if times == 1 or not counts:
        return dict(counts)
    if len(counts) == 1:
        ((value, weight),) = counts.items()
        return {value * times: weight**times}
    low, high = min(counts), max(counts)
    slots = (high - low) * times + 1
    width = slot_bytes(sum(counts.values()) ** times)
    _check_packed(slots, width, what)
    packed = pack(counts, low, high, width) ** times
    return unpack(packed, low * times, slots, width)


def combine(
    a: Weights, b: Weights, function: Callable[[int, int], int], what: str = "this roll"
) -> Weights:
    """The weights of ``function(x, y)`` for independent ``x``, ``y``: pair by pair."""
    if len(a.counts) * len(b.counts) > MAX_PAIRS:
        raise OddsTooBigError(f"odds of {what}: too many combinations to compute exactly here")
    result: Counts = {}
    for x, p in a.counts.items():
        for y, q in b.counts.items():
            key = function(x, y)
            result[key] = result.get(key, 0) + p * q
    return Weights(result, a.denominator * b.denominator, merged_notes(a.notes, b.notes))


def added(a: Weights, b: Weights, what: str = "this roll") -> Weights:
    """``x + y`` for independent ``x``, ``y``."""
    return Weights(
        convolve(a.counts, b.counts, what),
        a.denominator * b.denominator,
        merged_notes(a.notes, b.notes),
    )
