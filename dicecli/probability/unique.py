"""Exact odds of unique dice (``u``, ``uo``): the one dice term whose dice depend on
each other, since each die is re-rolled on a value an earlier die stands on.

The die that stands after its own re-rolls (``r``, ``ro``) lands on ``standing`` (weights
over a denominator, natural values). Two ways to the same exact weights:

- **Subsets** (``u`` with no condition, every standing value equally likely, the usual
  case: ``4d6u``, ``3d20r1u``): re-rolling until unique draws, die after die, uniformly
  among the values not yet taken, so the values standing are a uniformly random set of
  ``count`` distinct values, each of the ``C(values, count)`` sets equally likely. The
  total over the sets is a walk over the values in order (highest first when keeping the
  highest), counting sets by how many values were chosen and what the kept ones add up
  to: work in values x dice x totals, no set is listed.
- **Die by die** (``uo``, a condition ``u=5``, or unequal standing weights ``dF.1u``,
  ``d6rou``): the exact chance of each value for the next die given what stands, walked
  over the values standing so far (only what the unique rule needs and what keep/drop
  reads), in integer weights over one denominator per die. Refused when that walk
  takes more than :data:`MAX_UNIQUE_STEPS` steps.

Clamps (``min3``, ``max6``) change what a die is worth, never which values are unique;
keep/drop and counting read the worth, as the roller does.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from dicecli.notation.nodes import Dice, Modifiers
from dicecli.notation.semantics import count_one, kept_slice, kept_window
from dicecli.probability.weights import Counts, OddsTooBigError, Weights, charge, check_work

MAX_UNIQUE_STEPS = 500_000
"""Most steps (a state of the values standing so far, and a value for the next die) the
die-by-die walk may take (under a second); counted die by die, before each die's."""

UNIQUE_STEP_WORK = 1_000
"""The work (:data:`~dicecli.probability.weights.MAX_WORK`'s units) of one step of the
die-by-die walk, charged to the question before each die: computed dice of many counts
share one account, not a limit each."""

Worth = Callable[[int], int]


def unique_dice_weights(node: Dice, standing: Counts, denominator: int) -> Weights:
    """The weights of a dice term with ``u`` or ``uo`` (and any re-roll, keep/drop,
    counting and clamps; explosions are refused by the grammar)."""
    modifiers = node.modifiers
    unique = modifiers.unique
    assert unique is not None
    worth = _worth(modifiers)
    equally_likely = len(set(standing.values())) == 1
    if not unique.once and unique.condition is None and equally_likely:
        return _uniform_subsets(node, sorted(standing), worth)
    return _die_by_die(node, standing, denominator, worth)


def _worth(modifiers: Modifiers) -> Worth:
    """What a kept die adds to the total: its clamped value, or its score if counting."""
    clamped = modifiers.clamped if modifiers.clamps else None
    if modifiers.counts_successes:
        if clamped is None:
            return lambda value: count_one(value, modifiers)
        return lambda value: count_one(clamped(value), modifiers)
    return clamped if clamped is not None else _same


def _same(value: int) -> int:
    return value


def _uniform_subsets(node: Dice, values: list[int], worth: Worth) -> Weights:
    """Every set of ``node.count`` distinct ``values`` equally likely (see the module)."""
    count, keep = node.count, node.modifiers.keep
    # the ranks kept, counted from the highest: the values are walked highest first
    first, kept = 0, count
    if keep is not None:
        low, high = kept_window(keep, count)
        first, kept = count - high, count - low
    ordered = sorted(values, reverse=True)
    worths = [worth(value) for value in ordered]
    span = max(worths) - min(worths) + 1
    check_work(len(values) * count * span * min(kept, count) * 20, str(node))
    # by_chosen[j]: sets of j values among those walked so far, by what the kept add
    by_chosen: list[Counts] = [{0: 1}] + [{} for _ in range(count)]
    for place, value_worth in enumerate(worths):
        for chosen in range(min(place, count - 1), -1, -1):
            adds = value_worth if first <= chosen < kept else 0  # walked in the window
            target = by_chosen[chosen + 1]
            for total, ways in by_chosen[chosen].items():
                target[total + adds] = target.get(total + adds, 0) + ways
    return Weights(by_chosen[count], math.comb(len(values), count))


def _too_many_steps(node: Dice) -> OddsTooBigError:
    return OddsTooBigError(
        f"odds of {node}: unique dice need more than {MAX_UNIQUE_STEPS:,} "
        "steps to follow every set of values standing, more than can be "
        "computed exactly here"
    )


State = tuple[int, int | tuple[int, ...]]
"""The values a duplicate of re-rolls (taken and meeting the condition), as bits by
their place among the standing values, and the total so far (no keep/drop) or every
value standing, sorted (keep/drop reads them all)."""


def _die_by_die(node: Dice, standing: Counts, denominator: int, worth: Worth) -> Weights:
    """Each die in turn, with its exact chances given the values standing before it, as
    integer weights: one denominator per die (``uo``: the standing denominator squared;
    ``u``: the least common multiple of what the values left free weigh)."""
    modifiers = node.modifiers
    unique = modifiers.unique
    assert unique is not None
    condition, once, keep = unique.condition, unique.once, modifiers.keep
    values = sorted(standing)
    weights = [standing[value] for value in values]
    blocks = [condition is None or condition.matches(value) for value in values]
    worths = [worth(value) for value in values]
    start: int | tuple[int, ...] = () if keep is not None else 0
    states: dict[State, int] = {(0, start): 1}
    common = 1
    steps = 0
    for _ in range(node.count):
        steps += len(states) * len(values)  # the values each state may go on to
        if steps > MAX_UNIQUE_STEPS:
            raise _too_many_steps(node)
        charge(len(states) * len(values) * UNIQUE_STEP_WORK, str(node))
        following: dict[State, int] = {}
        blocked_weights = {
            blocked: sum(w for place, w in enumerate(weights) if blocked >> place & 1)
            for blocked, _ in states
        }
        if once:
            step_denominator = denominator * denominator
        else:
            step_denominator = math.lcm(*(denominator - w for w in blocked_weights.values()))
        common *= step_denominator
        for (blocked, so_far), chance in states.items():
            blocked_weight = blocked_weights[blocked]
            scale = 0 if once else step_denominator // (denominator - blocked_weight)
            for place in range(len(values)):
                taken = blocked >> place & 1
                weight = weights[place]
                if once:  # the first die if free, else a second die, which stands
                    share = (0 if taken else weight * denominator) + blocked_weight * weight
                elif taken:
                    continue
                else:
                    share = weight * scale
                now_blocked = blocked | (blocks[place] << place)
                if isinstance(so_far, tuple):
                    now: int | tuple[int, ...] = tuple(sorted((*so_far, place)))
                else:
                    now = so_far + worths[place]
                key = (now_blocked, now)
                following[key] = following.get(key, 0) + chance * share
        states = following
    counts: Counts = {}
    for (_, so_far), chance in states.items():
        if isinstance(so_far, tuple):
            chosen = so_far[kept_slice(keep, len(so_far))] if keep is not None else so_far
            total = sum(worths[place] for place in chosen)
        else:
            total = so_far
        counts[total] = counts.get(total, 0) + chance
    return Weights({total: count for total, count in counts.items() if count}, common)
