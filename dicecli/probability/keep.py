"""Keep/drop (``kh kl dh dl``) without listing every outcome.

Two algorithms, both exact, both on integer weights (:mod:`dicecli.probability.weights`):

**Identical dice** (:func:`keep_identical`): ``n`` independent units with the same
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
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from dicecli.notation.nodes import Keep
from dicecli.notation.semantics import kept_slice
from dicecli.probability.weights import (
    MAX_PACKED_BYTES,
    Counts,
    OddsTooBigError,
    check_outcomes,
    pack,
    power,
    slot_bytes,
    unpack,
)

Score = Callable[[int], int]
"""What a kept unit adds to the total: its value, or +1/-1/0 when counting successes."""

MAX_KEEP_WORK = 2_000_000_000
"""Most byte-steps the identical-dice keep/drop may take (about a second and a half)."""

MAX_STATES = 200_000
"""Most distinct tracked tuples the different-units keep/drop may hold."""

MAX_TRACKED_STEPS = 3_000_000
"""Most steps the different-units keep/drop may take (about a second: a step takes
0.25-0.4 microseconds)."""

ROW_STEPS = 4
"""Steps charged per value when a tracked tuple first meets a set of values (working
out where each value leads costs about four ordinary steps)."""


def kept_end(keep: Keep, units: int) -> tuple[bool, int]:
    """For ``units`` units: whether the kept ones are the highest, and how many (read
    off the roller's own selection, :func:`~dicecli.notation.semantics.kept_slice`)."""
    kept = kept_slice(keep, units)
    return kept.stop is None, len(range(units)[kept])


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
    dropped = units - kept
    track_kept = kept <= dropped
    tracked = kept if track_kept else dropped
    # Walk from the tracked end: the kept end when tracking kept dice.
    order = sorted(unit, reverse=keep_highest == track_kept)
    base = min(score(value) for value in unit)
    lifted = {value: score(value) - base for value in unit}
    slots = kept * max(lifted.values()) + 1
    width = slot_bytes((sum(unit.values()) + 1) ** units)
    check_outcomes(slots, what)
    # About tracked**2 / 2 big-number steps per face, each over up to slots * width bytes.
    work = tracked * tracked * len(unit) // 2 * slots * width
    if slots * width > MAX_PACKED_BYTES or work > MAX_KEEP_WORK:
        raise OddsTooBigError(
            f"odds of {what}: keeping {kept} of {units} dice with {len(unit)} values each "
            "is too big to compute exactly here"
        )
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
    return {k + kept * base: count for k, count in unpack(result, 0, slots, width).items()}


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


@dataclass(frozen=True)
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
        """The tracker for ``keep`` over any number of units."""
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
    :data:`MAX_TRACKED_STEPS` (a step: one running score of one state, one outcome).

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
            row = self._row(held, values)
            self.taken += len(row) * len(running)
            if self.taken > MAX_TRACKED_STEPS:
                raise _too_big(self.what)
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


@dataclass(frozen=True)
class Chain:
    """One exploding die (``!`` or ``!p``): each die stands on ``standing`` (weights
    over ``denominator``); a value in ``explodes`` adds another die; the added dice are
    worth ``penalty`` less (1 for ``!p``); at most ``depth`` dice are added."""

    standing: Mapping[int, int]
    denominator: int
    explodes: frozenset[int]
    penalty: int
    depth: int


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
            side[natural - penalty] = count
        walk.land(active, stopping, settled, chain.denominator ** (chain.depth - step))
        if step < chain.depth:
            following: States = {}
            walk.land(active, exploding, following)
            active = following
    return settled
