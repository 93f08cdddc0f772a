"""Exact weights of a dice term that implodes (``4d6i1``, Dice Maiden's ``i``), as the
roller rolls it (:mod:`dicecli.rolling.implosions`): each die first rolled that stands
at the bound or less subtracts one more plain die of its kind, whatever is kept.

- Without keep/drop, the dice are independent: each contributes its own worth (its
  explosion chain included), less a plain die when it stands at the bound or less, so
  the term is that one die's weights to the power of the count.
- With keep/drop (and no explosion), split the dice by the ``k`` of them standing at
  the bound or less: those rank below all the others, so the window keep/drop keeps
  falls on each group as a window of identical dice
  (:func:`~dicecli.probability.keep.keep_middle_identical` and its kin), and the ``k``
  subtracted dice add on. Summed over ``k`` with ``comb(count, k)`` ways.

A face that both implodes and explodes, and keep/drop over explosions, are refused
(:class:`~dicecli.probability.weights.OddsTooBigError`): neither is worked out here.
Loaded for the first imploding term (docs/startup.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from dicecli.frozen import replace
from dicecli.notation.dice import die_for_sides
from dicecli.notation.nodes import Dice, Keep
from dicecli.notation.semantics import kept_window
from dicecli.probability.keep import keep_identical, keep_middle_identical
from dicecli.probability.weights import (
    Counts,
    OddsTooBigError,
    Weights,
    add_into,
    convolve,
    power,
    scaled,
)


def imploding_dice_weights(
    node: Dice,
    standing: Counts,
    denominator: int,
    explodes: frozenset[int],
    inner: Weights | None,
) -> Weights:
    """The weights of ``node``, an imploding term whose die stands on ``standing`` (over
    ``denominator``) after its re-rolls and explodes on ``explodes``. ``inner``: the
    weights of one such die without its implosion (its chain, when it explodes), needed
    without keep/drop."""
    what = str(node)
    bound = node.modifiers.implode
    assert bound is not None
    low = {value: ways for value, ways in standing.items() if value <= bound}
    high = {value: ways for value, ways in standing.items() if value > bound}
    if explodes & low.keys():
        raise OddsTooBigError(
            f"odds of {what}: a face that both implodes and explodes is not worked out"
        )
    subtracted: Counts = {}
    for face in die_for_sides(node.sides).faces:
        assert face.value is not None  # the engine refuses faces without numbers
        subtracted[-face.value] = subtracted.get(-face.value, 0) + 1
    plain = len(die_for_sides(node.sides).faces)
    if node.modifiers.keep is None:
        assert inner is not None
        return _independent(node, low, denominator, subtracted, plain, inner)
    if explodes:
        raise OddsTooBigError(
            f"odds of {what}: keep/drop over dice that explode and implode is not worked out"
        )
    return _kept(node, low, high, denominator, subtracted, plain, node.modifiers.keep)


def without_implosion(node: Dice, count: int) -> Dice:
    """``count`` dice of ``node`` with its modifiers but the implosion."""
    return Dice(count, node.sides, replace(node.modifiers, implode=None))


def _independent(
    node: Dice,
    low: Counts,
    denominator: int,
    subtracted: Counts,
    plain: int,
    inner: Weights,
) -> Weights:
    """No keep/drop: one die's weights, a plain die subtracted when it stands low, to
    the power of the count. A low face does not explode, so it stands in ``inner``
    with the weight of its face times the chains it did not roll."""
    what = str(node)
    chains = inner.denominator // denominator
    per_die = dict(inner.counts)
    for value, ways in low.items():
        per_die[value] -= ways * chains
        if not per_die[value]:
            del per_die[value]
    per_die = scaled(per_die, plain)
    add_into(per_die, convolve(scaled(low, chains), subtracted, what))
    counts = power(per_die, node.count, what)
    return Weights(counts, (inner.denominator * plain) ** node.count, inner.notes)


def _kept(
    node: Dice,
    low: Counts,
    high: Counts,
    denominator: int,
    subtracted: Counts,
    plain: int,
    keep: Keep,
) -> Weights:
    """Keep/drop without explosions: by the number ``k`` of dice standing low."""
    what, count = str(node), node.count
    first, last = kept_window(keep, count)
    total: Counts = {}
    for lows in range(count + 1):
        highs = count - lows
        if (lows and not low) or (highs and not high):
            continue
        kept = convolve(
            _window(low, lows, first, last, what),
            _window(high, highs, first - lows, last - lows, what),
            what,
        )
        if lows:
            kept = convolve(kept, power(subtracted, lows, what), what)
        add_into(total, kept, math.comb(count, lows) * plain**highs)
    return Weights(total, (denominator * plain) ** count)


def _window(unit: Mapping[int, int], units: int, first: int, last: int, what: str) -> Counts:
    """The sum of the ranks ``first`` to ``last`` (lowest first, ``last`` left out) of
    ``units`` identical dice of weights ``unit``; ranks outside 0 to ``units`` are none."""
    first, last = max(first, 0), min(last, units)
    if last <= first:
        return {0: sum(unit.values()) ** units}
    if first == 0 and last == units:
        return power(unit, units, what)
    if first == 0:
        return keep_identical(unit, units, False, last, _identity, what)
    if last == units:
        return keep_identical(unit, units, True, units - first, _identity, what)
    window = Keep("dl", first, Keep("kl", last - first))
    return keep_middle_identical(unit, units, window, _identity, what)


def _identity(value: int) -> int:
    return value
