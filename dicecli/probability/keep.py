"""Keep/drop (``kh kl dh dl``) without listing every outcome.

All exact, all on integer weights (:mod:`dicecli.probability.weights`); each estimates
its work before doing it, and :func:`keep_identical` runs the cheapest of its three ways.

**Identical dice** (:func:`keep_identical`), three ways, and one for a single kept
die (``2d20kh1``, :func:`_keep_one`): the highest is at most a value when every die
is, so its weights are differences of powers of the running weights. *By threshold*
(:func:`_keep_by_threshold`): the value of the last kept die, the dice beyond it (one
packed polynomial, to a power by Horner's rule) and a binomial sum for those at it.
*Fair dice* (:func:`_keep_uniform`): the same sum, the faces beyond being a geometric
run, with no products of polynomials at all (``100d100kh50``). *The walk*
(:func:`_keep_by_walk`): ``n`` independent units with the same
weights, of which the ``kept`` highest (or lowest) count. Walk the faces in order from
one end. A state is "``c`` dice placed so far" with, as one packed integer, the
weights of the score those dice add; ``m`` more dice land on the next face in
``comb(n - c, m) * w**m`` ways. Once the *tracked* side is full, the rest is settled at
once: the sum over every ``m`` that fills it is a binomial expansion, so it is the
weights from this face on raised to a power (a total weight when the rest are dropped,
a packed polynomial when they are kept), less the few terms that do not fill it. We
track whichever side is smaller, the kept dice or the dropped ones, so ``4d6kh3``
walks one dropped die and ``10d10kh3`` three kept ones. The work grows as tracked**2 x
faces big-number steps, never with the number of outcomes.

**Exploding dice whose exploding values lie at one end** (:func:`keep_over_sorted_chains`):
two kinds of identical dice, one wholly kept or wholly dropped.

**Different units** (:class:`Tracker`, :func:`keep_over_items`, :func:`keep_over_chains`):
group items with different distributions, and exploding dice (``!``, ``!p``) whose
number of units is itself random. A state is the sorted tuple of the units at the
tracked end (at most ``capacity`` of them) with, when the dropped side is tracked, the
weights of the running score of every unit. Values that lead a tuple to the same next
tuple land together. This grows with the number of possible tuples, so it is capped
(:class:`OddsTooBigError`).

Ties never matter: equal values have equal scores, whichever of them is kept.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Mapping, Sequence

from dicecli.frozen import frozen
from dicecli.notation.nodes import Keep
from dicecli.notation.semantics import kept_slice, kept_window
from dicecli.probability import weights
from dicecli.probability.weights import (
    INTEGER_OP_WORK,
    Counts,
    OddsTooBigError,
    add_work,
    charge,
    check_estimate,
    check_memory,
    check_outcomes,
    check_work,
    convolve,
    convolve_work,
    multiply_work,
    pack,
    power,
    power_estimate,
    slot_bytes_for_bits,
    unpack,
)

Score = Callable[[int], int]
"""What a kept unit adds to the total: its value, or +1/-1/0 when counting successes."""

MAX_STATES = 200_000
"""Most distinct tracked tuples the different-units keep/drop may hold."""

MAX_TRACKED_STEPS = 1_000_000
"""Most steps the different-units keep/drop may take (under a second: a step takes
0.3-0.8 microseconds on a busy machine). Counted as it goes; groups are also refused
at once when an estimate before the work exceeds ten times this."""

COMB_STEP_WORK = 20
"""Work of one step of ``math.comb(n, k)`` (it takes about ``min(k, n - k)`` steps)."""

TRACKED_STEP_WORK = 300
"""Work (:data:`~dicecli.probability.weights.MAX_WORK`'s units) of one step of the
different-units keep/drop, charged to the question as the steps are taken."""

ROW_STEPS = 4
"""Steps charged per value when a tracked tuple first meets a set of values (working
out where each value leads costs about four ordinary steps)."""


def kept_end(keep: Keep, units: int) -> tuple[bool, int]:
    """For ``units`` units: whether the kept ones are the highest, and how many (read
    off the roller's own selection, :func:`~dicecli.notation.semantics.kept_slice`).
    A middle window (``km``, ``dl1kh2`` of 4) keeps neither end: the ways that follow
    one end refuse it (:func:`keep_middle_identical` works it out for identical units)."""
    kept = kept_slice(keep, units)
    if kept.start and kept.stop is not None:
        raise OddsTooBigError(
            f"odds of the keep {keep} over {units} units: keeping a middle window "
            "is worked out exactly only for identical dice"
        )
    return kept.stop is None, len(range(units)[kept])


def one_end(keep: Keep, units: int) -> Keep:
    """The one keep (``kh`` or ``kl``) that keeps what ``keep`` and those after it keep
    of ``units`` units; ``keep`` itself when it is one already. Refused for a middle
    window (:func:`kept_end`)."""
    if keep.then is None and keep.kind != "km":
        return keep
    keep_highest, kept = kept_end(keep, units)
    return Keep("kh" if keep_highest else "kl", kept)


def keeps_middle(keep: Keep, units: int) -> bool:
    """Whether ``keep`` over ``units`` units keeps a window closed at both ends."""
    low, high = kept_window(keep, units)
    return low > 0 and high < units


def keep_middle_identical(
    unit: Mapping[int, int], units: int, keep: Keep, score: Score, what: str
) -> Counts:
    """Weights of the summed score of the ranks ``keep`` keeps of ``units`` identical
    units, for any window (a middle one too: ``3d6km1``, ``4d6dl1kh2``).

    Walk the values lowest first. A state is how many units are placed so far, with
    the weights of the score of those placed in the window; ``m`` more landing on the
    next value take the next ``m`` ranks in ``comb(units - placed, m) * w**m`` ways
    and add the value's score once for each of those ranks inside the window."""
    low, high = kept_window(keep, units)
    values = sorted(unit)
    scores = [score(value) for value in values]
    span = (max(scores) - min(scores) + 1) * max(high - low, 1)
    check_work(len(values) * (units + 1) ** 2 * span, what)
    states: dict[int, Counts] = {0: {0: 1}}
    for value, value_score in zip(values, scores, strict=True):
        weight = unit[value]
        following: dict[int, Counts] = {}
        for placed, counts in states.items():
            free = units - placed
            for landing in range(free + 1):
                ways = math.comb(free, landing) * weight**landing
                inside = max(0, min(placed + landing, high) - max(placed, low))
                adds = inside * value_score
                target = following.setdefault(placed + landing, {})
                for total, count in counts.items():
                    key = total + adds
                    target[key] = target.get(key, 0) + count * ways
        states = following
    return states[units]


def keep_identical(
    unit: Mapping[int, int],
    units: int,
    keep_highest: bool,
    kept: int,
    score: Score,
    what: str,
) -> Counts:
    """Weights of the summed score of the ``kept`` highest/lowest of ``units`` units.

    Each unit has weights ``unit``; the result's weights are over the unit
    denominator to the power ``units``.
    """
    if kept == 0:
        return {0: sum(unit.values()) ** units}
    if kept == units:
        return power(_scored(unit, score), units, what)
    if kept == 1:
        check_work(_keep_one_work(unit, units), what)
        return _keep_one(unit, units, keep_highest, score)
    plan = _KeepPlan.of(unit, units, keep_highest, kept, score)
    lifted, width = plan.lifted, plan.width
    check_outcomes(plan.slots, what)
    check_memory(plan.slots * width, what)
    check_work(plan.cheapest + _plan_work(len(unit), kept), what)
    if plan.uniform <= min(plan.walk, plan.threshold):
        counts = _keep_uniform(unit, units, keep_highest, kept, lifted, width)
    elif plan.threshold <= plan.walk:
        counts = _keep_by_threshold(unit, units, keep_highest, kept, lifted, width)
    else:
        counts = _keep_by_walk(unit, units, keep_highest, kept, lifted, width)
    return {k + kept * plan.base: count for k, count in counts.items()}


def _keep_one(unit: Mapping[int, int], units: int, keep_highest: bool, score: Score) -> Counts:
    """The score of the one highest (lowest) of ``units`` units: it is at most (at least)
    a value when every unit is, so its weight at each value is the weight of every
    unit being at most that value, less that of every unit being below it."""
    result: Counts = {}
    within = previous = 0
    for value in sorted(unit, reverse=not keep_highest):
        within += unit[value]
        every = within**units
        key = score(value)
        result[key] = result.get(key, 0) + every - previous
        previous = every
    return result


def _keep_one_work(unit: Mapping[int, int], units: int) -> int:
    """Estimated work of :func:`_keep_one`: a power and a subtraction per value."""
    size = (sum(unit.values()) + 1).bit_length() * units // 8 + 1
    each = 3 * multiply_work(size // 2, size // 2) // 2 + add_work(size) + INTEGER_OP_WORK
    return len(unit) * each


@frozen
class _KeepPlan:
    """What :func:`keep_identical` works out before choosing a way: the scores lifted
    to start at 0 (``base`` taken off), the outcome slots and their width in bytes,
    and the estimated work of each of its three ways."""

    base: int
    lifted: dict[int, int]
    slots: int
    width: int
    walk: int
    threshold: int
    uniform: int

    @classmethod
    def of(
        cls, unit: Mapping[int, int], units: int, keep_highest: bool, kept: int, score: Score
    ) -> _KeepPlan:
        base = min(score(value) for value in unit)
        lifted = {value: score(value) - base for value in unit}
        slots = kept * max(lifted.values()) + 1
        width = slot_bytes_for_bits((sum(unit.values()) + 1).bit_length() * units)
        return cls(
            base,
            lifted,
            slots,
            width,
            _walk_work(len(unit), units, kept, slots, width),
            _threshold_work(unit, units, keep_highest, kept, lifted, width),
            _uniform_work(unit, units, keep_highest, kept, lifted, width),
        )

    @property
    def cheapest(self) -> int:
        return min(self.walk, self.threshold, self.uniform)


PLAN_VALUE_WORK = 1_500
"""Work per value of planning :func:`keep_identical` (sorting, lifting, the fair-die
test), beside :data:`PLAN_STEP_WORK`."""

PLAN_STEP_WORK = 800
"""Work of one step of the threshold way's estimate, one per value and kept die."""


def _plan_work(values: int, kept: int) -> int:
    """Estimated work of :meth:`_KeepPlan.of` itself: the threshold way's estimate adds
    up a product per value and kept die (a bound past 100,000 of them)."""
    steps = values * kept if values * kept <= 100_000 else values
    return values * PLAN_VALUE_WORK + steps * PLAN_STEP_WORK


def keep_identical_work(
    unit: Mapping[int, int], units: int, keep_highest: bool, kept: int, score: Score
) -> int:
    """The estimated work of :func:`keep_identical` (the cheapest of its ways)."""
    if kept in (0, units):
        return 0
    if kept == 1:
        return _keep_one_work(unit, units)
    plan = _KeepPlan.of(unit, units, keep_highest, kept, score)
    return plan.cheapest + _plan_work(len(unit), kept)


def _walk_work(values: int, units: int, kept: int, slots: int, width: int) -> int:
    """Estimated work of :func:`_keep_by_walk`: about tracked**2 / 2 big-number steps
    per value over up to ``slots * width`` bytes, the rest settled per value (when the
    dropped side is tracked, by powers of packed integers: ``tracked + 1`` per value,
    each of the faces from that value on, so they shrink along the walk: over the
    walk, about 0.4 times as much as that many of the first one)."""
    dropped = units - kept
    tracked = min(kept, dropped)
    work = tracked * tracked * values * slots * width // 4 + values * values * 600
    if dropped < kept:
        first = 3 * multiply_work(slots * width // 2, slots * width // 2) // 2
        work += values * (tracked + 1) * first * 2 // 5
    return work


def _threshold_work(
    unit: Mapping[int, int],
    units: int,
    keep_highest: bool,
    kept: int,
    lifted: Mapping[int, int],
    width: int,
) -> int:
    """Estimated work of :func:`_keep_by_threshold`: per value, ``kept - 1``
    products of a growing packed polynomial by the packed faces beyond it, and the
    binomial sums of the chances."""
    order = sorted(unit, reverse=keep_highest)
    scalar = (sum(unit.values()) + 1).bit_length() * units // 8 + 1  # bytes of a chance
    result_bytes = (kept * max(lifted.values()) + 1) * width
    work = len(order) * (kept * kept * (200 + scalar) + result_bytes)
    if len(order) * kept > 100_000:  # too long to add up one by one: a bound
        span = max(lifted.values()) - min(lifted.values()) + 1
        return work + len(order) * kept * multiply_work(kept * span * width, span * width)
    low = high = lifted[order[0]]
    for value in order[1:]:
        span, growth = high - low + 1, max(high - low, 1)
        for times in range(1, kept):  # Horner: the running sum times the values beyond
            work += multiply_work((times - 1) * growth * width + scalar, span * width)
        low, high = min(low, lifted[value]), max(high, lifted[value])
    return work


def _keep_by_threshold(
    unit: Mapping[int, int],
    units: int,
    keep_highest: bool,
    kept: int,
    lifted: Mapping[int, int],
    width: int,
) -> Counts:
    """Keep/drop by the value of the last kept die (the "threshold"): lifted scores.

    Walk the values from the kept end. When the last kept die shows ``v``, some
    ``c < kept`` dice lie beyond ``v`` (any values beyond it), and at least
    ``kept - c`` of the other ``units - c`` show ``v``, the rest lying short of it:

        sum over v, c:  comb(units, c) * S(v, c) * x**((kept - c) * lift(v)) * H(v)**c

    with ``H(v)`` the packed weights of the values beyond ``v`` and ``S(v, c)`` the
    weight of the ``units - c`` others (a binomial sum, less the terms with too few
    at ``v``). The sum over ``c`` is one polynomial in ``H(v)``, evaluated by Horner's
    rule: ``kept - 1`` products per value, whatever the number of units.
    """
    order = sorted(unit, reverse=keep_highest)
    bits = 8 * width
    after = [0] * (len(order) + 1)  # total weight of the values past a position
    for position in range(len(order) - 1, -1, -1):
        after[position] = after[position + 1] + unit[order[position]]
    result = 0
    beyond = 0  # packed weights of the values passed so far, shifted down by ``low``
    low = 0
    for position, value in enumerate(order):
        weight, lift, short_of = unit[value], lifted[value], after[position + 1]
        # exponent(c) = (kept - c) * lift + c * low: linear in c; factor out its least.
        most = kept - 1 if beyond else 0
        least = min(kept * lift, (kept - most) * lift + most * low)
        total = 0
        for c in range(most, -1, -1):
            others, need = units - c, kept - c
            short, ways = 0, 1  # the terms with fewer than ``need`` dice at ``value``
            for landing in range(need):
                if landing:
                    ways = ways * (others - landing + 1) // landing
                short += ways * weight**landing * short_of ** (others - landing)
            chance = math.comb(units, c) * ((weight + short_of) ** others - short)
            shift = (kept - c) * lift + c * low - least
            total = total * beyond + (chance << (bits * shift))
        result += total << (bits * least)
        if beyond and lift < low:
            beyond = (beyond << (bits * (low - lift))) + weight
            low = lift
        elif beyond:
            beyond += weight << (bits * (lift - low))
        else:
            beyond, low = weight, lift
    return unpack(result, 0, kept * max(lifted.values()) + 1, width)


def _is_uniform(unit: Mapping[int, int], keep_highest: bool, lifted: Mapping[int, int]) -> bool:
    """True when every value has the same weight and the lifted scores, walked from
    the kept end, step by one: a fair die's faces, scored as they are."""
    order = sorted(unit, reverse=keep_highest)
    step = -1 if keep_highest else 1
    first, weight = lifted[order[0]], unit[order[0]]
    return all(
        lifted[value] == first + step * position and unit[value] == weight
        for position, value in enumerate(order)
    )


def _uniform_work(
    unit: Mapping[int, int],
    units: int,
    keep_highest: bool,
    kept: int,
    lifted: Mapping[int, int],
    width: int,
) -> int:
    """Estimated work of :func:`_keep_uniform` (more than any other way when it does
    not apply): per value and ``c``, a binomial coefficient and a few products of a
    chance; ``kept**2 / 2`` signed terms per value, each a chance times a binomial
    coefficient of up to ``kept`` bits; ``kept`` running sums over the outcomes (two
    additions and a list's step each); a few powers per value."""
    if not _is_uniform(unit, keep_highest, lifted):
        return 1 << 62
    values = len(unit)
    scalar = (sum(unit.values()) + 1).bit_length() * units // 8 + 1
    outcomes = kept * (values - 1) + 1
    adding = add_work(scalar)
    terms = values * kept * kept // 2 * (multiply_work(scalar, kept // 16 + 1) + adding + 20)
    sums = kept * outcomes * (2 * adding + 10)
    comb = COMB_STEP_WORK * min(kept // 2, units - kept // 2) + INTEGER_OP_WORK
    chances = values * kept * (8 * multiply_work(scalar, 8) + comb)
    powers = (3 * values + kept) * 3 * multiply_work(scalar // 2, scalar // 2) // 2
    loops = values * (UNIFORM_VALUE_WORK + UNIFORM_STEP_WORK * kept)
    return terms + sums + chances + powers + loops


UNIFORM_VALUE_WORK = 2_000
"""Work of :func:`_keep_uniform`'s loops per value, beside their arithmetic."""

UNIFORM_STEP_WORK = 1_700
"""Work of :func:`_keep_uniform`'s loops per value and kept die (building a row of
chances, placing a value's signed terms), beside their arithmetic."""


def _keep_uniform(
    unit: Mapping[int, int],
    units: int,
    keep_highest: bool,
    kept: int,
    lifted: Mapping[int, int],
    width: int,
) -> Counts:
    """:func:`_keep_by_threshold` for a fair die scored as it stands (every value
    the same weight ``w``, lifted scores one apart): lifted scores.

    Then the values beyond the one at position ``s`` of the walk are a geometric run,
    ``H = w x**a (1 - x**s) / (1 - x)``, and the threshold sum is
    ``sum over c of M(c) * y**c`` with ``y = x / (1 - x)`` (``1 / (1 - x)`` keeping
    the lowest) and sparse ``M(c)``: ``(1 - x**s) ** c`` expands into ``c + 1``
    binomial terms. Horner's rule in ``y`` is a shift and a running sum (dividing
    by ``1 - x``) over the outcomes, exact when cut at the highest total. So the work
    is ``kept**2 / 2`` numbers per value and ``kept`` running sums, no products of
    polynomials.

    Each ``alpha(c) = comb(units, c) * (full - short)`` follows from the next ``c``:
    ``short(o + 1, r + 1) = (w + L) * short(o, r) + L * term(o, r)``, with ``o`` the
    dice left, ``r`` how many must show the value, ``L`` the weight short of it and
    ``term(o, r) = comb(o, r) * w**r * L**(o - r)``.
    """
    order = sorted(unit, reverse=keep_highest)
    values, weight = len(order), unit[order[0]]
    highest = kept * max(lifted.values())  # the highest lifted total
    chances: list[list[int]] = []  # per value, per c: comb(units, c) * (full - short) * w**c
    for beyond in range(values):
        short_of = weight * (values - 1 - beyond)
        most = kept - 1 if beyond else 0
        others, need = units - most, kept - most
        short, ways = 0, 1  # the terms with fewer than ``need`` dice at this value
        for landing in range(need):
            if landing:
                ways = ways * (others - landing + 1) // landing
            short += ways * weight**landing * short_of ** (others - landing)
        term = math.comb(others, need) * weight**need * short_of ** (others - need)
        full = (weight + short_of) ** others
        row = [0] * (most + 1)
        for c in range(most, -1, -1):
            row[c] = math.comb(units, c) * (full - short) * weight**c
            short = (weight + short_of) * short + short_of * term  # for c - 1
            term = term * weight * (others + 1) // (need + 1)
            full *= weight + short_of
            others, need = others + 1, need + 1
        chances.append(row)
    running: list[int] = []
    for c in range(kept - 1, -1, -1):
        part = [0] * (highest + 1)  # M(c)
        signs = [-b if i & 1 else b for i, b in enumerate(_binomial_row(c))]
        for beyond, value in enumerate(order):
            row = chances[beyond]
            if c >= len(row):
                continue
            lift = lifted[value]
            lowest = lift if keep_highest else lift - beyond
            start = lowest * (kept - 1) + lift + (0 if keep_highest else beyond * (kept - 1 - c))
            chance = row[c]
            if beyond:
                stop = start + beyond * c + 1
                here = part[start:stop:beyond]  # the terms past the highest total drop out
                part[start:stop:beyond] = [
                    have + chance * sign
                    for have, sign in zip(here, signs[: len(here)], strict=True)
                ]
            else:
                part[start] += chance * signs[0]
        if running:  # running * y + M(c): shift (keeping the highest), running sums
            shifted = [0, *running[:-1]] if keep_highest else running
            running = [a + b for a, b in zip(itertools.accumulate(shifted), part, strict=True)]
        else:
            running = part
    return {total: count for total, count in enumerate(running) if count}


def _binomial_row(c: int) -> list[int]:
    return [math.comb(c, i) for i in range(c + 1)]


def _keep_by_walk(
    unit: Mapping[int, int],
    units: int,
    keep_highest: bool,
    kept: int,
    lifted: Mapping[int, int],
    width: int,
) -> Counts:
    """Keep/drop by walking the values from the tracked end (see the module's
    docstring): lifted scores."""
    dropped = units - kept
    track_kept = kept <= dropped
    tracked = kept if track_kept else dropped
    # Walk from the tracked end: the kept end when tracking kept dice.
    order = sorted(unit, reverse=keep_highest == track_kept)
    slots = kept * max(lifted.values()) + 1
    rest = _Rest(unit, order, lifted, width)
    bits = 8 * width
    states = [1] + [0] * (tracked - 1)  # dice placed -> packed weights of their score
    result = 0
    for position, value in enumerate(order):
        weight, lift = unit[value], lifted[value]
        following = [0] * tracked
        for placed, state in enumerate(states):
            if not state:
                continue
            left, need = units - placed, tracked - placed
            # ``landing`` of the ``left`` dice land here, comb(left, landing) *
            # weight**landing ways; fewer than ``need``: the tracked side is not full.
            ways, short = 1, 0
            for landing in range(need):
                if landing:
                    ways = ways * (left - landing + 1) * weight // landing
                after = left - landing
                if track_kept:
                    following[placed + landing] += (state * ways) << (bits * lift * landing)
                    short += ways * rest.weight(position + 1, after)
                else:
                    following[placed + landing] += state * ways
                    short += (ways << (bits * lift * landing)) * rest.scores(position + 1, after)
            # ``need`` or more land here: the binomial sum over every landing count is
            # the weights from this face on, to the power ``left``; less the short ones.
            if track_kept:  # the tracked (kept) side fills here; the rest are dropped
                full = rest.weight(position, left) - short
                result += (state * full) << (bits * lift * need)
            else:  # the tracked (dropped) side fills here; the rest are kept
                full = (rest.scores(position, left) - short) >> (bits * lift * need)
                result += state * full
        states = following
    return unpack(result, 0, slots, width)


def _scored(unit: Mapping[int, int], score: Score) -> Counts:
    result: Counts = {}
    for value, count in unit.items():
        key = score(value)
        result[key] = result.get(key, 0) + count
    return result


class _Rest:
    """The dice from a position of the walk on, to a power: their total weight (when
    they are dropped) or their packed score weights (when they are kept). Cached."""

    def __init__(
        self, unit: Mapping[int, int], order: Sequence[int], lifted: Mapping[int, int], width: int
    ) -> None:
        self.unit, self.order, self.lifted, self.width = unit, order, lifted, width
        self._weights: dict[tuple[int, int], int] = {}
        self._scores: dict[tuple[int, int], int] = {}
        self._from = [0] * (len(order) + 1)  # total weight of the faces from a position
        for position in range(len(order) - 1, -1, -1):
            self._from[position] = self._from[position + 1] + unit[order[position]]
        self._packed: dict[int, int] = {}

    def weight(self, position: int, dice: int) -> int:
        key = (position, dice)
        found = self._weights.get(key)
        if found is None:
            found = self._weights[key] = int(self._from[position] ** dice)
        return found

    def scores(self, position: int, dice: int) -> int:
        key = (position, dice)
        found = self._scores.get(key)
        if found is None:
            found = self._scores[key] = int(self._packed_from(position) ** dice)
        return found

    def _packed_from(self, position: int) -> int:
        packed = self._packed.get(position)
        if packed is None:
            faces: Counts = {}
            for value in self.order[position:]:
                lift = self.lifted[value]
                faces[lift] = faces.get(lift, 0) + self.unit[value]
            packed = pack(faces, 0, max(faces), self.width) if faces else 0
            self._packed[position] = packed
        return packed


# --- units with different distributions ----------------------------------------

Held = tuple[int, ...]
"""The tracked units, sorted ascending."""

States = dict[Held, Counts]
"""Tracked tuple -> weights of the running score (always 0 when the kept side is
tracked: its score is read from the tuple at the end)."""


@frozen
class Tracker:
    """Follows the units at one end: the ``capacity`` highest (``high``) or lowest.

    ``tracks_kept``: the tracked units are the kept ones (``kh``, ``kl``); otherwise
    they are the dropped ones (``dh``, ``dl``) and the running score of every unit is
    carried too, from which the dropped ones are taken at the end.
    """

    high: bool
    capacity: int
    tracks_kept: bool
    score: Score

    @classmethod
    def for_keep(cls, keep: Keep, score: Score) -> Tracker:
        """The tracker for ``keep`` over any number of units: one keep or drop at one
        end (a chain or ``km`` is first made one for a known number of units,
        :func:`one_end`)."""
        if keep.then is not None or keep.kind == "km":
            raise OddsTooBigError(
                f"odds of the keep {keep}: several keeps, or keeping the middle, over a "
                "number of units that is not known in advance are not worked out exactly"
            )
        high = keep.kind in ("kh", "dh")
        return cls(high, keep.amount, keep.kind in ("kh", "kl"), score)

    def other_side(self, units: int) -> Tracker:
        """For exactly ``units`` units, the tracker of the other side: ``kh k`` is
        ``dl (units - k)``, and so on."""
        capacity = min(self.capacity, units)
        return Tracker(not self.high, units - capacity, not self.tracks_kept, self.score)

    def start(self) -> States:
        return {(): {0: 1}}

    def absorb(self, held: Held, value: int) -> Held:
        """The tracked units once ``value`` lands."""
        if len(held) < self.capacity:
            grown = list(held)
        elif not held:
            return held
        elif self.high and value > held[0]:
            grown = list(held[1:])
        elif not self.high and value < held[-1]:
            grown = list(held[:-1])
        else:
            return held
        bisect.insort(grown, value)
        return tuple(grown)

    def gain(self, value: int) -> int:
        """What ``value`` adds to the running score."""
        return 0 if self.tracks_kept else self.score(value)

    def final(self, held: Held, running: int) -> int:
        tracked = sum(self.score(value) for value in held)
        return tracked if self.tracks_kept else running - tracked


def _too_big(what: str) -> OddsTooBigError:
    return OddsTooBigError(
        f"odds of {what}: keep/drop over these dice has too many cases to compute exactly here"
    )


class _Walk:
    """Lands units on tracked states, counting the work against
    :data:`MAX_TRACKED_STEPS` (a step: one running score of one state, one outcome),
    and charging it to the question as it goes (:data:`TRACKED_STEP_WORK` a step).

    For each tracked tuple, the values that lead to the same tuple (and add the same
    to the running score) are merged first: keeping the 2 highest, every value below
    the tuple leaves it as it is, so they land in one step.
    """

    def __init__(self, tracker: Tracker, what: str) -> None:
        self.tracker = tracker
        self.what = what
        self.taken = 0
        self._rows: dict[tuple[Held, int], list[tuple[Held, int, int]]] = {}
        self._pinned: list[Mapping[int, int]] = []  # keeps the ids in _rows' keys valid

    def _row(self, held: Held, values: Mapping[int, int]) -> list[tuple[Held, int, int]]:
        """``(tuple after, score added, weight)`` for each way ``values`` can land."""
        key = (held, id(values))
        row = self._rows.get(key)
        if row is None:
            if not self._pinned or self._pinned[-1] is not values:
                self._pinned.append(values)
            self.taken += ROW_STEPS * len(values)
            absorb, gain = self.tracker.absorb, self.tracker.gain
            merged: dict[tuple[Held, int], int] = {}
            for value, count in values.items():
                outcome = (absorb(held, value), gain(value))
                merged[outcome] = merged.get(outcome, 0) + count
            row = self._rows[key] = [(after, step, w) for (after, step), w in merged.items()]
        return row

    def land(self, states: States, values: Mapping[int, int], into: States, scale: int = 1) -> None:
        """Add to ``into`` every state of ``states`` after one unit with ``values``
        (value -> weight) lands, weights times ``scale``."""
        if len(states) > MAX_STATES:
            raise _too_big(self.what)
        for held, running in states.items():
            before = self.taken
            row = self._row(held, values)
            self.taken += len(row) * len(running)
            if self.taken > MAX_TRACKED_STEPS:
                raise _too_big(self.what)
            charge((self.taken - before) * TRACKED_STEP_WORK, self.what)
            for after, step, count in row:
                target = into.get(after)
                if target is None:
                    target = into[after] = {}
                factor = count * scale
                for total, weight in running.items():
                    total += step
                    target[total] = target.get(total, 0) + weight * factor

    def finish(self, states: States) -> Counts:
        result: Counts = {}
        final = self.tracker.final
        for held, running in states.items():
            for total, weight in running.items():
                key = final(held, total)
                result[key] = result.get(key, 0) + weight
        return result


def keep_over_items(items: Sequence[Mapping[int, int]], keep: Tracker, what: str) -> Counts:
    """Weights of the kept score over independent items (a group ``{...}kh1``); the
    denominator is the product of the items' denominators. Tracks whichever side,
    kept or dropped, looks cheaper."""
    direct, other = keep, keep.other_side(len(items))
    work = {tracker: _estimate(items, tracker) for tracker in (direct, other)}
    tracker = min(work, key=work.__getitem__)
    if work[tracker] > 10 * MAX_TRACKED_STEPS:  # refuse at once, not after a second's work
        raise _too_big(what)
    walk = _Walk(tracker, what)
    states = tracker.start()
    for item in items:
        following: States = {}
        walk.land(states, item, following)
        states = following
    return walk.finish(states)


def _estimate(items: Sequence[Mapping[int, int]], tracker: Tracker) -> int:
    """At most about how many steps :func:`keep_over_items` takes with ``tracker``
    (before values that land alike are merged)."""
    values = len(set().union(*items))
    tuples = math.comb(values + tracker.capacity, tracker.capacity)  # at most this many
    states, running, work = 1, 1, 0  # running: how many running scores per state
    for item in items:
        work += states * running * len(item)
        states = min(states * len(item), tuples)
        if not tracker.tracks_kept:
            running = min(running * len(item), running + max(item) - min(item))
    return work


@frozen
class Chain:
    """One exploding die (``!`` or ``!p``): each die stands on ``standing`` (weights
    over ``denominator``); a value in ``explodes`` adds another die; the added dice are
    worth ``penalty`` less (1 for ``!p``); at most ``depth`` dice are added. ``worth``
    clamps what each die is worth (``min3``, ``max6``), None when it does not."""

    standing: Mapping[int, int]
    denominator: int
    explodes: frozenset[int]
    penalty: int
    depth: int
    worth: Callable[[int], int] | None = None


def keep_over_sorted_chains(
    chain: Chain, dice: int, keep: Keep, score: Score, what: str
) -> Counts | None:
    """Weights of the kept score over ``dice`` exploding dice (``!``) when every value
    that explodes lies beyond every value that stops, on the same side (``d20!``:
    20 above 1-19; ``d10!<=2``: 1-2 below 3-10). None when that does not hold, or for
    ``!p``: then :func:`keep_over_chains` does it.

    The units rolled are then ``dice`` stopping units (each chain ends on one) and
    ``j`` exploding units, all independent, and every exploding one is beyond every
    stopping one: keep/drop over the two kinds is keep/drop over one kind, with the
    other wholly kept or wholly dropped. ``j`` added dice fall among the chains (each
    at most ``depth``) in as many ways as the coefficient of ``x**j`` in
    ``(1 + x + ... + x**depth) ** dice``; the chains that stop sooner carry the
    unused depth in the denominator. Same weights, same denominator and same residue
    as :func:`keep_over_chains`, with work in the number of dice, not of tuples.
    """
    if chain.penalty or chain.worth is not None:
        return None
    stopping = {v: c for v, c in chain.standing.items() if v not in chain.explodes}
    exploding = {v: c for v, c in chain.standing.items() if v in chain.explodes}
    if not stopping or not exploding:
        return None
    if min(exploding) > max(stopping):
        low, high, high_is_exploding = stopping, exploding, True
    elif max(exploding) < min(stopping):
        low, high, high_is_exploding = exploding, stopping, False
    else:
        return None
    ways = power(dict.fromkeys(range(chain.depth + 1), 1), dice, what)
    cases = []
    for added in ways:
        high_units, low_units = (added, dice) if high_is_exploding else (dice, added)
        keep_highest, kept = kept_end(keep, dice + added)
        cases.append((added, _two_kinds(low, low_units, high, high_units, keep_highest, kept)))
    # Each case's keep/drop, powers and sums charge the question as they run: refuse
    # now if all of it is too much, and charge here only what nothing else does.
    own = len(cases) * CASE_WORK + _spreading_work(chain, dice, cases, ways, score)
    estimated = own
    for _, two in cases:  # added up until past what any question may take
        if estimated > weights.MAX_WORK:
            break
        estimated += _keep_over_two_work(two, score)
    check_estimate(estimated, what)
    check_work(own, what)
    result: Counts = {}
    for added, two in cases:
        spread = ways[added]
        counts = _keep_over_two(two, score, what)
        factor = spread * chain.denominator ** (chain.depth * dice - added)
        for total, count in counts.items():
            result[total] = result.get(total, 0) + count * factor
    return result


def _spreading_work(
    chain: Chain,
    dice: int,
    cases: Sequence[tuple[int, _TwoKinds]],
    ways: Mapping[int, int],
    score: Score,
) -> int:
    """The estimated work of spreading each case's weights over the chains that stopped
    sooner (:func:`keep_over_sorted_chains`): a product for each total of each case, of
    a weight by ``denominator ** (depth * dice - added)``, a number of thousands of
    digits when the chains may be long (``10d100kl2!>=4``). A case's totals are those
    of its kept units: from the near kind, and from the far one past it; when the far
    kind is all dropped, its total weight to the power of its units multiplies each
    (:func:`_keep_over_two`), a number as long when the chains are
    (``4d100kl1!>=4``)."""
    bits = chain.denominator.bit_length()
    spans: dict[int, int] = {}  # each kind's span of scores, by identity (two kinds)
    work = 0
    for added, two in cases:
        for kind in (two.near, two.far):
            if id(kind) not in spans:
                spans[id(kind)] = _score_span(kind, score)
        near_kept = min(two.kept, two.near_units)
        totals = near_kept * spans[id(two.near)] + (two.kept - near_kept) * spans[id(two.far)]
        factor_bytes = (bits * (chain.depth * dice - added) + ways[added].bit_length()) // 8 + 1
        weight_bytes = bits * (dice + added) // 8 + 1
        work += (totals + 1) * multiply_work(factor_bytes, weight_bytes)
        if two.kept <= two.near_units:  # the far kind only weighs: a power, and products
            far_bytes = sum(two.far.values()).bit_length() * two.far_units // 8 + 1
            near_bytes = sum(two.near.values()).bit_length() * two.near_units // 8 + 1
            work += 3 * multiply_work(far_bytes // 2, far_bytes // 2) // 2
            work += (totals + 1) * multiply_work(near_bytes, far_bytes)
    return work


def _score_span(kind: Mapping[int, int], score: Score) -> int:
    """The highest score less the lowest of a kind of units."""
    scores = [score(value) for value in kind]
    return max(scores) - min(scores)


CASE_WORK = 40_000
"""Work of setting up one case of :func:`keep_over_sorted_chains`, beside its
keep/drop: its two kinds, and the estimate of its keep/drop, made before any case is
worked out (about as long as the plan the keep/drop then makes again)."""


@frozen
class _TwoKinds:
    """Keep/drop over two kinds of identical units, every ``far`` value beyond every
    ``near`` value as seen from the kept end: ``kept`` of them, counted from the
    near end."""

    near: Mapping[int, int]
    near_units: int
    far: Mapping[int, int]
    far_units: int
    keep_highest: bool
    kept: int


def _two_kinds(
    low: Mapping[int, int],
    low_units: int,
    high: Mapping[int, int],
    high_units: int,
    keep_highest: bool,
    kept: int,
) -> _TwoKinds:
    """``low_units`` units with weights ``low``, ``high_units`` with ``high``, every
    ``high`` value above every ``low`` value."""
    if keep_highest:
        return _TwoKinds(high, high_units, low, low_units, keep_highest, kept)
    return _TwoKinds(low, low_units, high, high_units, keep_highest, kept)


def _keep_over_two(two: _TwoKinds, score: Score, what: str) -> Counts:
    """The kept score's weights: all kept from the near kind (the far kind only
    weighs), or the near kind wholly kept and the rest kept from the far kind."""
    if two.kept <= two.near_units:
        counts = keep_identical(two.near, two.near_units, two.keep_highest, two.kept, score, what)
        weight = sum(two.far.values()) ** two.far_units
        return {total: count * weight for total, count in counts.items()}
    every_near = power(_scored(two.near, score), two.near_units, what)
    rest_kept = two.kept - two.near_units
    rest = keep_identical(two.far, two.far_units, two.keep_highest, rest_kept, score, what)
    return convolve(every_near, rest, what)


def _keep_over_two_work(two: _TwoKinds, score: Score) -> int:
    """The estimated work of :func:`_keep_over_two`."""
    if two.kept <= two.near_units:
        return keep_identical_work(two.near, two.near_units, two.keep_highest, two.kept, score)
    rest_kept = two.kept - two.near_units
    rest = keep_identical_work(two.far, two.far_units, two.keep_highest, rest_kept, score)
    near = _scored(two.near, score)
    far = _scored(two.far, score)
    near_bits = sum(near.values()).bit_length() * two.near_units
    far_bits = sum(far.values()).bit_length() * two.far_units
    near_span = (max(near) - min(near)) * two.near_units
    far_span = (max(far) - min(far)) * rest_kept
    together = convolve_work(
        (near_span + 1, near_span, near_bits), (far_span + 1, far_span, far_bits)
    )
    return rest + power_estimate(near, two.near_units) + together


def keep_over_chains(chain: Chain, dice: int, tracker: Tracker, what: str) -> Counts:
    """Weights of the kept score over ``dice`` exploding dice, each a separate unit
    per die rolled; the denominator is ``chain.denominator ** ((depth + 1) * dice)``.
    Chains that would explode past ``depth`` are left out (the residue)."""
    walk = _Walk(tracker, what)
    states = tracker.start()
    for _ in range(dice):
        states = _one_chain(states, chain, walk)
    return walk.finish(states)


def _one_chain(states: States, chain: Chain, walk: _Walk) -> States:
    """Every state after one more exploding die, followed to ``chain.depth``."""
    settled: States = {}
    active = states
    for step in range(chain.depth + 1):
        penalty = chain.penalty if step else 0
        exploding: Counts = {}
        stopping: Counts = {}
        for natural, count in chain.standing.items():
            side = exploding if natural in chain.explodes else stopping
            value = natural - penalty if chain.worth is None else chain.worth(natural - penalty)
            side[value] = side.get(value, 0) + count
        walk.land(active, stopping, settled, chain.denominator ** (chain.depth - step))
        if step < chain.depth:
            following: States = {}
            walk.land(active, exploding, following)
            active = following
    return settled
