"""Exact odds of a check on an expression (``d20 + 5 >= 15``, ``3d6 <= 11``).

The two sides roll independent dice, so the margin (:func:`~dicecli.notation.semantics.
check_margin`) is a difference of two independent totals: one convolution. The chance of
success is the weight of the margins that pass; the total's distribution is the left
side's, as for a plain roll.
"""

from __future__ import annotations

from fractions import Fraction

from dicecli.environment import Environment
from dicecli.notation.nodes import Comparison
from dicecli.notation.semantics import check_margin, check_passes
from dicecli.probability.distribution import Distribution, Odds
from dicecli.probability.engine import weights
from dicecli.probability.weights import Weights, added, merged_notes, negated


def comparison_odds(check: Comparison, env: Environment, text: str) -> Odds:
    """The chance that ``check`` passes, the distribution of its total and its margin."""
    left, right = weights(check.left, env), weights(check.right, env)
    what = str(check)
    # margin = left - right (right - left for a roll-under check): always one sum
    if check.op in ("<=", "<"):
        margin = added(right, negated(left), what)
    else:
        margin = added(left, negated(right), what)
    # a margin of m passes as the total m above a target of 0 does
    passing = sum(
        count
        for value, count in margin.counts.items()
        if check_passes(check.op, check_margin(check.op, value, 0), 0)
    )
    total = left.to_distribution()
    margins = margin.to_distribution()
    notes = merged_notes(left.notes, right.notes)
    return Odds(
        input=text,
        expression=what,
        distribution=total,
        chances=(("success", Fraction(passing, margin.denominator)),),
        expectations=(("mean", _mean(left)), ("margin", _mean(margin))),
        notes=(*notes, *_cut_note(total, margins)),
        passing=_passing(check.op, right),
        unshown_cut=margins.residue,  # a target that explodes: the answer is not exact
    )


def _passing(op: str, right: Weights) -> tuple[int | None, int | None] | None:
    """The totals that pass against a fixed target, as :attr:`Odds.passing` (lowest,
    highest); None when the target is rolled too, or for ``!=`` (no single range)."""
    if len(right.counts) != 1:
        return None
    (target,) = right.counts
    bounds: dict[str, tuple[int | None, int | None]] = {
        ">=": (target, None),
        ">": (target + 1, None),
        "<=": (None, target),
        "<": (None, target - 1),
        "=": (target, target),
    }
    return bounds.get(op)


def _mean(found: Weights) -> Fraction:
    return Fraction(sum(value * count for value, count in found.counts.items()), found.total)


def _cut_note(total: Distribution, margins: Distribution) -> tuple[str, ...]:
    left_out = max(total.residue, margins.residue)
    if not left_out:
        return ()
    return (
        f"explosions were followed to a finite depth: the chance left out is "
        f"{float(left_out):.2g}, so the chance of success may be up to that much higher",
    )
