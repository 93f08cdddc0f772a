"""Exact integer arithmetic on distributions: the engine under :mod:`dicecli.probability.engine`.

A :class:`Weights` is a distribution kept as integer weights over one common
denominator: outcome ``k`` has probability ``counts[k] / denominator``. Working in
integers and turning them into :class:`~fractions.Fraction` s once, at the end, is what
makes the engine fast: no gcd on every addition. Weights may sum to less than the
denominator; the difference is the *residue*, the chance left out by a stated cut-off
(explosions followed to a finite depth), never hidden.

Sums of independent values are convolutions of their weights. A dense convolution may
be done with one big-integer multiplication (Kronecker substitution): the weights are
packed side by side into one integer, ``slot`` bits each, wide enough that no product
coefficient can overflow into its neighbour; Python's multiplication (Karatsuba) then
does the work in C. A power of few values (``1000d6``) is cheaper by J.C.P. Miller's
recurrence (:func:`miller_power`).

Every costly operation estimates its work from the sizes involved (``*_work``, in
units of about a nanosecond on the reference machine), takes the cheaper of its
exact methods, and raises :class:`OddsTooBigError` when even that passes
:data:`MAX_WORK` or :data:`MAX_EXACT_BYTES`, before doing any of it.

One question (an ``odds`` line, a table's values) is many steps: each step's work is
charged to the question (:func:`question`, :func:`check_work`) before it is done, and
the question is refused once its steps together would pass
:data:`MAX_QUESTION_WORK`. Steps that count as they go (unique dice, keep/drop over
different units) charge the same account, so no limit restarts per part of a line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from math import comb
from typing import NoReturn

from dicecli.errors import DiceError
from dicecli.frozen import frozen
from dicecli.probability.distribution import ZERO, Distribution, reduced_fraction

MAX_OUTCOMES = 100_000
"""Most distinct outcomes one distribution may have."""

MAX_PAIRS = 200_000
"""Most outcome pairs a non-additive combination (``*``, ``/``) may visit (about half
a second: ``d400 * d400`` is 160,000; ``d1000 * d1000``, a million, is refused)."""

MAX_EXACT_BYTES = 16 << 20
"""Most memory (16 MiB) the exact weights of one distribution may take: ``2000d6``
fits, ``10000d6`` is refused."""

MAX_WORK = 800_000_000
"""Most estimated work one step of the odds may take, in units of about a nanosecond
of CPU time (so under a second, as much as the whole question may take, leaving room
for an estimate somewhat below the work and for a busy machine): every costly
step estimates its work from the sizes involved, before doing any of it, and is
refused beyond this. ``bench/bench_estimates.py`` measures the estimates against the
work."""


MAX_QUESTION_WORK = 800_000_000
"""Most estimated work one whole question may take, its steps together (under a
second): a line of many terms, or computed dice of many counts, is refused here even
when each of its steps is small."""


class OddsTooBigError(DiceError):
    """The odds of this form are too big to compute exactly in reasonable time."""


class _Account:
    """The work charged to the question being answered (:func:`question`)."""

    def __init__(self) -> None:
        self.open = 0
        self.spent = 0


_ACCOUNT = _Account()


@contextmanager
def question() -> Iterator[None]:
    """Answer one question: the work of every step inside is charged to one account,
    opened empty by the outermost ``with question()`` (a question asked inside another,
    such as a game's odds computing the parts of its form, shares the outer account)."""
    if not _ACCOUNT.open:
        _ACCOUNT.spent = 0
    _ACCOUNT.open += 1
    try:
        yield
    finally:
        _ACCOUNT.open -= 1


def charge(work: int, what: str) -> None:
    """Charge ``work`` to the question being answered, before doing it; refuse the
    question when its steps together would pass :data:`MAX_QUESTION_WORK`."""
    if not _ACCOUNT.open:
        return
    _ACCOUNT.spent += work
    if _ACCOUNT.spent > MAX_QUESTION_WORK:
        raise OddsTooBigError(
            f"odds of {what}: with the steps before it, an estimated "
            f"{_millions(_ACCOUNT.spent)} steps of exact arithmetic, more than the "
            f"{_millions(MAX_QUESTION_WORK)} (under a second) one question may take here"
        )


def check_estimate(work: int, what: str) -> None:
    """Refuse, before any of it is done, work estimated as a whole whose steps then
    charge the question as they run: too much for one step (:data:`MAX_WORK`), or for
    what the question has left."""
    if work > MAX_WORK:
        _refuse_step(work, what)
    if _ACCOUNT.open and _ACCOUNT.spent + work > MAX_QUESTION_WORK:
        charge(work, what)


Counts = dict[int, int]


@frozen(eq=False)
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
        left_out = self.denominator - self.total
        return reduced_fraction(left_out, self.denominator) if left_out else ZERO

    def to_distribution(self, what: str = "this roll") -> Distribution:
        """The exact fractions: each outcome's weight over the denominator, reduced
        (charged to the question first: thousands of big fractions take a while)."""
        residue = self.residue
        check_work(fractions_work(len(self.counts), self.denominator, residue > 0), what)
        return Distribution.from_weights(self.counts, self.denominator, residue)


def merged_notes(*groups: Iterable[str]) -> tuple[str, ...]:
    """The notes of several parts, each once, in order."""
    return tuple(dict.fromkeys(note for group in groups for note in group))


def check_work(work: int, what: str) -> None:
    """Refuse a step whose estimated ``work`` (see :data:`MAX_WORK`) is too much, else
    charge it to the question."""
    if work > MAX_WORK:
        _refuse_step(work, what)
    charge(work, what)


def _refuse_step(work: int, what: str) -> NoReturn:
    raise OddsTooBigError(
        f"odds of {what}: an estimated {_millions(work)} steps of exact arithmetic, "
        f"more than the {_millions(MAX_WORK)} (under a second) that can be "
        "computed exactly here"
    )


def _millions(work: int) -> str:
    return f"{work // 1_000_000:,} million" if work < 10**15 else f"{float(work):.0e}"


def check_outcomes(count: int, what: str) -> None:
    if count > MAX_OUTCOMES:
        raise OddsTooBigError(
            f"odds of {what}: about {count:,} possible totals, more than the "
            f"{MAX_OUTCOMES:,} that can be computed exactly here"
        )


def negated(found: Weights) -> Weights:
    """The weights of minus each outcome (``-x``; a difference is ``added(a, negated(b))``)."""
    return Weights(mapped(found.counts, int.__neg__), found.denominator, found.notes)


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
    check_memory(slots * width, what)


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
    width = slot_bytes_for_bits(sum(a.values()).bit_length() + sum(b.values()).bit_length())
    pairs = len(a) * len(b) * PAIR_WORK
    packed = (
        multiply_work((high_a - low_a + 1) * width, (high_b - low_b + 1) * width)
        + slots * SLOT_WORK
    )
    check_work(min(pairs, packed), what)
    if pairs <= packed:
        result: Counts = {}
        for x, p in a.items():
            for y, q in b.items():
                result[x + y] = result.get(x + y, 0) + p * q
        return result
    _check_packed(slots, width, what)
    product = pack(a, low_a, high_a, width) * pack(b, low_b, high_b, width)
    return unpack(product, low_a + low_b, slots, width)


def power(counts: Mapping[int, int], times: int, what: str = "this roll") -> Counts:
    """The weights of the sum of ``times`` independent values, each with ``counts``.

    Two exact methods; the one estimated cheaper runs. Few values (``1000d6``):
    J.C.P. Miller's recurrence, ``O(outcomes x values)`` additions of big integers.
    Many values (``3d1000``): one packed integer raised to the power (Kronecker
    substitution), whose cost grows like its size to the power 1.6.
    """
    if times == 0:
        return {0: 1}
    if times == 1 or not counts:
        return dict(counts)
    if len(counts) == 1:
        ((value, weight),) = counts.items()
        return {value * times: weight**times}
    low, high = min(counts), max(counts)
    slots = (high - low) * times + 1
    if len(counts) <= SPARSE_VALUES and comb(times + len(counts) - 1, times) * len(counts) < slots:
        return _sparse_power(counts, times, what)
    check_outcomes(slots, what)
    width = slot_bytes_for_bits(sum(counts.values()).bit_length() * times)
    check_memory(slots * width, what)
    recurrence, packed = _power_ways_work(counts, times)
    check_work(min(recurrence, packed), what)
    if recurrence <= packed:
        return miller_power(counts, times)
    _check_packed(slots, width, what)
    result = pack(counts, low, high, width) ** times
    return unpack(result, low * times, slots, width)


def power_estimate(counts: Mapping[int, int], times: int) -> int:
    """Estimated work of :func:`power` for dense weights (the cheaper of its ways)."""
    if times <= 1 or len(counts) <= 1:
        return 0
    return min(_power_ways_work(counts, times))


def _power_ways_work(counts: Mapping[int, int], times: int) -> tuple[int, int]:
    """Estimated work of :func:`power`'s two dense ways: the recurrence, the packed
    power."""
    low, high = min(counts), max(counts)
    slots = (high - low) * times + 1
    width = slot_bytes_for_bits(sum(counts.values()).bit_length() * times)
    palindrome = _is_palindrome(counts, low, high)
    if _is_fair(counts):
        recurrence = recurrence_work(slots, 3, width, palindrome)
    else:
        recurrence = miller_work(counts, times, slots, width, palindrome)
    return recurrence, packed_power_work(slots, width)


SPARSE_VALUES = 16
"""Values few enough, and far enough apart, for :func:`power` to count their sums one by
one (the faces of ``d{0,1000000}``) rather than over every number between."""


def _sparse_power(counts: Mapping[int, int], times: int, what: str) -> Counts:
    """:func:`power` for a few values far apart (``2d{0,1000000}``): there are at most
    ``comb(times + values - 1, times)`` sums, far fewer than the numbers they span, so
    they are added up one die at a time."""
    sums = comb(times + len(counts) - 1, times)
    check_outcomes(sums, what)
    check_work(sums * len(counts) * times * PAIR_WORK, what)
    result = dict(counts)
    for _ in range(times - 1):
        result = convolve(result, counts, what)
    return result


def miller_power(counts: Mapping[int, int], times: int) -> Counts:
    """``counts`` to the power ``times`` as a polynomial, by J.C.P. Miller's recurrence.

    With ``p`` the weights shifted to start at 0 (``p[0] > 0``) and ``q = p ** times``:
    ``q' p = times p' q`` gives, coefficient by coefficient,
    ``q[k] = sum((times + 1) * j - k) * p[j] * q[k - j] for j in 1..) / (k * p[0])``,
    an exact integer division. A palindromic ``p`` (a fair die) has a palindromic
    power: only the first half is computed.
    """
    if _is_fair(counts):
        return _fair_power(counts, times)
    low, high = min(counts), max(counts)
    first = counts[low]
    terms = [(j, counts.get(low + j, 0)) for j in range(1, high - low + 1)]
    terms = [(j, weight) for j, weight in terms if weight]
    top = (high - low) * times
    palindrome = _is_palindrome(counts, low, high)
    last = top // 2 if palindrome else top
    # q[k] * k * first = sum((step * j - k) * p[j] * q[k - j]): ``rising`` is step * j * p[j].
    step = times + 1
    rising = [(j, step * j * weight, weight) for j, weight in terms]
    q = [first**times]
    for k in range(1, last + 1):
        total = 0
        for j, up, weight in rising:
            if j > k:
                break
            total += (up - k * weight) * q[k - j]
        q.append(total // (k * first))
    if palindrome and top > last:
        q.extend(q[top - last - 1 :: -1])
    start = low * times
    return {start + k: count for k, count in enumerate(q) if count}


def _is_fair(counts: Mapping[int, int]) -> bool:
    """Every value from the lowest to the highest, all with the same weight."""
    low, high = min(counts), max(counts)
    weight = counts[low]
    return len(counts) == high - low + 1 and all(count == weight for count in counts.values())


def _fair_power(counts: Mapping[int, int], times: int) -> Counts:
    """:func:`miller_power` of a fair die's ``F`` faces, weight ``w`` each: with
    ``p = w (1 - x**F) / (1 - x)``, ``q' p = times p' q`` has three terms whatever
    ``F``: ``k u[k] = (k - 1 + N) u[k-1] + (k - F - N F) u[k-F]
    + (N (F - 1) - k + F + 1) u[k-F-1]`` for ``u = q / w**N`` (``N = times``)."""
    low, high = min(counts), max(counts)
    faces, weight = high - low + 1, counts[low]
    top = (faces - 1) * times
    last = top // 2  # palindromic: the first half
    u = [1]
    for k in range(1, last + 1):
        total = (k - 1 + times) * u[k - 1]
        if k >= faces:
            total += (k - faces - times * faces) * u[k - faces]
        if k > faces:
            total += (times * (faces - 1) - k + faces + 1) * u[k - faces - 1]
        u.append(total // k)
    if top > last:
        u.extend(u[top - last - 1 :: -1])
    scale, start = weight**times, low * times
    return {start + k: count * scale for k, count in enumerate(u)}


def _is_palindrome(counts: Mapping[int, int], low: int, high: int) -> bool:
    return all(counts.get(low + i, 0) == counts.get(high - i, 0) for i in range(high - low + 1))


# --- estimates of work (units of about a nanosecond of CPU time; bench_estimates.py) --

PAIR_WORK = 1_000
"""Work of one outcome pair in a pair-by-pair loop (a dict update of big integers)."""

SLOT_WORK = 400
"""Work of packing and unpacking one slot of a packed integer."""


FRACTION_WORK = 1_500
"""Work of making one outcome's reduced fraction, beside :data:`FRACTION_BIT_WORK`."""

FRACTION_BIT_WORK = 1
"""Work of making one outcome's fraction, per bit of the denominator."""

CUT_FRACTION_BIT_WORK = 5
"""The same for weights with a cut-off (explosions followed to a depth): a chain that
stops early carries the unused depth as a power of the denominator, a common factor
read off by a gcd of two big numbers."""

CUT_GCD_BITS = 800
"""Past some thousands of bits the gcd grows with the square of the bits: one unit of
work per this many squared bits (measured: about 1.5 ps per outcome and squared bit,
``d200max5!>=7ro<3``'s 6,740 outcomes over 20,608 bits took 4.2 s, where the linear
estimate said 0.7 s)."""


def fractions_work(outcomes: int, denominator: int, cut: bool = False) -> int:
    """Estimated work of turning ``outcomes`` weights over ``denominator`` into reduced
    fractions (:meth:`Weights.to_distribution`); ``cut``: the weights leave a residue."""
    bits = denominator.bit_length()
    if not cut:
        return outcomes * (FRACTION_WORK + FRACTION_BIT_WORK * bits)
    return outcomes * (FRACTION_WORK + CUT_FRACTION_BIT_WORK * bits + bits * bits // CUT_GCD_BITS)


DIGIT_PRODUCT_WORK = 0.75
"""Work of one product of two of CPython's 30-bit digits in a schoolbook product."""

KARATSUBA_DIGITS = 70
"""CPython's ``KARATSUBA_CUTOFF``: a product whose smaller factor has more digits is
done by Karatsuba's method."""

INTEGER_OP_WORK = 50
"""Work of one operation on Python integers, beside that of their digits."""


def digits(size: int) -> int:
    """CPython's 30-bit digits in an integer of ``size`` bytes."""
    return max(size, 1) * 8 // 30 + 1


def multiply_work(bytes_a: int, bytes_b: int) -> int:
    """Estimated work of multiplying two integers of these sizes, as CPython does it:
    digit by digit when the smaller has at most :data:`KARATSUBA_DIGITS` digits, else
    by Karatsuba's method (``3 ** k`` schoolbook products of the cut-off's size for
    factors ``2 ** k`` times it), a lopsided product cut into pieces the size of the
    smaller factor."""
    small, big = sorted((digits(bytes_a), digits(bytes_b)))
    if small <= KARATSUBA_DIGITS:
        return INTEGER_OP_WORK + int(DIGIT_PRODUCT_WORK * small * big)
    cutoff = DIGIT_PRODUCT_WORK * KARATSUBA_DIGITS**2
    return int(big / small * cutoff * (small / KARATSUBA_DIGITS) ** 1.585) + big


def add_work(size: int) -> int:
    """Estimated work of adding (or subtracting) integers of ``size`` bytes."""
    return ADD_WORK + 3 * digits(size) // 5


ADD_WORK = 35
"""Work of adding two Python integers, beside that of their digits."""


def packed_power_work(slots: int, width: int) -> int:
    """Estimated work of raising a packed integer to a power with ``slots`` slots of
    ``width`` bytes in the result (the last squaring is most of it)."""
    return multiply_work(slots * width // 2, slots * width // 2) * 2 + slots * SLOT_WORK


def power_work(span: int, terms: int, total_bits: int, times: int) -> int:
    """Estimated work of :func:`power` for values spread over ``span`` (highest less
    lowest), ``terms + 1`` of them, weights summing to a number of ``total_bits``."""
    slots = span * times + 1
    width = slot_bytes_for_bits(total_bits * times)
    return min(recurrence_work(slots, terms, width, False), packed_power_work(slots, width))


def convolve_work(sizes_a: tuple[int, int, int], sizes_b: tuple[int, int, int]) -> int:
    """Estimated work of :func:`convolve` for two weights given as (number of
    outcomes, span of the outcomes, bits of the weights' sum)."""
    (count_a, span_a, bits_a), (count_b, span_b, bits_b) = sizes_a, sizes_b
    width = slot_bytes_for_bits(bits_a + bits_b)
    packed = multiply_work((span_a + 1) * width, (span_b + 1) * width)
    return min(count_a * count_b * PAIR_WORK, packed + (span_a + span_b + 1) * SLOT_WORK)


def recurrence_work(slots: int, terms: int, width: int, palindrome: bool) -> int:
    """Estimated work of :func:`miller_power`: ``terms`` big additions per coefficient."""
    coefficients = slots // 2 + 1 if palindrome else slots
    return coefficients * max(terms, 1) * (100 + width) * 13 // 10


def miller_work(
    counts: Mapping[int, int], times: int, slots: int, width: int, palindrome: bool
) -> int:
    """Estimated work of :func:`miller_power` for weights that are not a fair die's: per
    coefficient of the power, a product of a weight and a coefficient (and a smaller
    product and two sums) for each weight but the first, and one exact division.

    A coefficient is as wide as ``width`` (the widest) only in the middle of the
    power: toward its ends it shrinks, down to about ``times`` weights' worth of bits
    (an exploding die's long tail makes most coefficients so). The mean of those two
    sizes stands for a coefficient's, and the widest weight for a weight's."""
    weights = [count for count in counts.values() if count]
    weight = max(weights).bit_length() // 8 + 1
    weight_bits = sum(count.bit_length() for count in weights) / len(weights)
    coefficient = int(times * weight_bits / 8 + width) // 2 + 1
    product = multiply_work(weight, coefficient)
    term = product + multiply_work(1, weight) + add_work(weight) + add_work(coefficient)
    coefficients = slots // 2 + 1 if palindrome else slots
    return coefficients * ((len(weights) - 1) * term + 2 * product)


def slot_bytes_for_bits(bits: int) -> int:
    """Bytes per packed slot so that a coefficient of ``bits`` bits fits."""
    return max(1, (bits + 8) // 8)


def check_memory(size: int, what: str) -> None:
    if size > MAX_EXACT_BYTES:
        raise OddsTooBigError(
            f"odds of {what}: the exact numbers would need about {_mebibytes(size)}, more "
            f"than the {MAX_EXACT_BYTES >> 20} MiB that can be computed exactly here"
        )


def _mebibytes(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB" if size >= 1 << 20 else "1 MiB"


def combine(
    a: Weights, b: Weights, function: Callable[[int, int], int], what: str = "this roll"
) -> Weights:
    """The weights of ``function(x, y)`` for independent ``x``, ``y``: pair by pair."""
    pairs = len(a.counts) * len(b.counts)
    if pairs > MAX_PAIRS:
        raise OddsTooBigError(
            f"odds of {what}: {pairs:,} pairs of outcomes, more than the {MAX_PAIRS:,} "
            "that can be combined exactly here"
        )
    result: Counts = {}
    for x, p in a.counts.items():
        for y, q in b.counts.items():
            key = function(x, y)
            result[key] = result.get(key, 0) + p * q
    check_outcomes(len(result), what)
    return Weights(result, a.denominator * b.denominator, merged_notes(a.notes, b.notes))


def added(a: Weights, b: Weights, what: str = "this roll") -> Weights:
    """``x + y`` for independent ``x``, ``y``."""
    return Weights(
        convolve(a.counts, b.counts, what),
        a.denominator * b.denominator,
        merged_notes(a.notes, b.notes),
    )
