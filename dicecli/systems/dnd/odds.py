"""The exact odds of a ``dnd`` line (rules D1-D7), in fractions, from the same rule
decisions as the rolling (:mod:`dicecli.systems.dnd.rules`).

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from operator import add
from typing import TYPE_CHECKING

from dicecli.game import (
    ZERO,
    Distribution,
    Odds,
    RuleError,
    assert_never,
    expression_odds,
)
from dicecli.notation.nodes import NO_MODIFIERS, Dice
from dicecli.probability.engine import dice_weights, weights
from dicecli.probability.weights import (
    Weights,
    added,
    check_work,
    fractions_work,
    merged_notes,
    negated,
)
from dicecli.systems.dnd.checks import D20Roll, DamageRoll, StatsRoll
from dicecli.systems.dnd.roll import no_dice_in_damage_modifier
from dicecli.systems.dnd.rules import (
    DEATH_SAVE_DC,
    STAT_COUNT,
    STAT_DICE,
    attack_verdict,
    check_verdict,
    d20_chances,
    death_verdict,
    edge,
    stat_score,
)

if TYPE_CHECKING:
    from dicecli.game import Environment, Expr
    from dicecli.systems.dnd.checks import DndCheck


def odds(check: DndCheck, env: Environment, text: str) -> Odds:
    """The exact chances of any ``dnd`` line."""
    match check:
        case D20Roll():
            return _d20_odds(check, env, text)
        case DamageRoll():
            return _damage_odds(check, env, text)
        case StatsRoll():
            return _stats_odds(check, text)
        case _:
            return assert_never(check)


def _d20_odds(check: D20Roll, env: Environment, text: str) -> Odds:
    naturals = d20_chances(edge(check.advantage, check.disadvantage))
    modifier = Weights.constant(0) if check.modifier is None else weights(check.modifier, env)
    target = None if check.target is None else weights(check.target, env)
    # a verdict reads the natural and the total less the target only (rules D1, D2):
    # one walk over the naturals and that difference, not over every pair of sides
    # (+100d6 vs 100d6 took 45 s). The difference is worked out first, so that one too
    # big is refused on its estimate before any other work (+1000d6 vs 1000d6 was
    # refused after 2 s of adding up the totals).
    differences = None if target is None else added(modifier, negated(target))
    natural_weights = _weights_of(naturals)
    # the totals in whole counts, one fraction each at the end (in fractions, pair by
    # pair, +2000d6 took 20 s, +400d100 39 s)
    totals = _fractions(with_natural(natural_weights, modifier), modifier, check.modifier)
    notes = merged_notes(modifier.notes, () if target is None else target.notes)
    if check.kind == "death":
        return _death_odds(check, natural_weights, modifier, totals, notes, text)
    if target is None or differences is None:
        chances: tuple[tuple[str, Fraction], ...] = ()
        if check.kind == "attack":
            chances = (("critical_hit", naturals[20]), ("natural_1", naturals[1]))
        notes = (*notes, *_cut_note(totals.residue))
        return Odds(text, str(check), distribution=totals, chances=chances, notes=notes)
    if check.kind == "attack":
        counts = verdict_counts(natural_weights, differences, 0, _attack_against_0)
    else:
        counts = verdict_counts(natural_weights, differences, 0, _check_against_0)
    chance_of = _chances(counts, natural_weights.denominator * differences.denominator)
    passing = None
    fixed = [value for value, count in target.counts.items() if count]
    if len(fixed) == 1 and check.kind != "attack":
        passing = (fixed[0], None)
    if check.kind == "attack":
        hit = chance_of.get("hit", ZERO)
        critical = chance_of.get("critical hit", ZERO)
        miss = chance_of.get("miss", ZERO) + chance_of.get("miss (natural 1)", ZERO)
        chances = (
            ("success", hit + critical),
            ("critical_hit", critical),
            ("hit", hit),
            ("miss", miss),
        )
    else:
        success = chance_of.get("success", ZERO)
        chances = (("success", success), ("failure", chance_of.get("failure", ZERO)))
    return Odds(
        text,
        str(check),
        distribution=totals,
        chances=chances,
        notes=(*notes, *_cut_note(totals.residue, differences.residue)),
        passing=passing,
        unshown_cut=differences.residue,  # a target that explodes: not exact either
    )


def _fractions(totals: Weights, modifier: Weights, typed: Expr | None) -> Distribution:
    """The totals' fractions, their work charged to the question as the modifier's
    fractions (``typed``: the modifier as written; none, nothing charged). The totals
    have 19 more outcomes and a denominator 20 or 400 times the modifier's, so the two
    estimates differ little; charged so, a line is charged what it was before (the
    modifier's fractions, then the d20 added in fractions uncharged), and a line
    answered before is not refused now at the edge of the limit (``+93d6!``)."""
    if typed is not None:
        cut = modifier.total < modifier.denominator
        check_work(fractions_work(len(modifier.counts), modifier.denominator, cut), "this roll")
    return Distribution.from_weights(totals.counts, totals.denominator, totals.residue)


def _weights_of(chances: dict[int, Fraction]) -> Weights:
    """Exact chances as whole counts over their common denominator."""
    denominator = math.lcm(*(chance.denominator for chance in chances.values()))
    return Weights(
        {
            value: chance.numerator * (denominator // chance.denominator)
            for value, chance in chances.items()
        },
        denominator,
    )


def with_natural(naturals: Weights, modifier: Weights) -> Weights:
    """The natural d20 (``naturals``: a weight per face) plus the modifier: the sum of
    two independent values, as :func:`~dicecli.probability.weights.added` gives it.

    The d20's weights are the same for every face, or rise or fall by the same step
    from face to face (advantage, disadvantage; rule D3): so each total's weight is
    ``a * W0 + b * W1``, two sums over a window of 20 of the modifier's weights, each
    from running sums: a few additions per total, where pair by pair (and the engine's
    estimate of it) is twenty products per total (+400d100: 0.3 s, estimated as 0.8).
    Not charged to the question, as the sum of the totals in fractions before it was
    not: its work is some additions per total, and the fractions after it are charged.
    Weights of no such shape, or a modifier whose values are far apart, are added pair
    by pair."""
    faces = sorted(naturals.counts)
    values = sorted(modifier.counts)
    first, width = faces[0], faces[-1] - faces[0] + 1
    low, span = values[0], values[-1] - values[0] + 1
    rise = [naturals.counts.get(first + i, 0) for i in range(width)]
    step = rise[1] - rise[0] if width > 1 else 0
    linear = all(weight == rise[0] + step * i for i, weight in enumerate(rise))
    denominator = naturals.denominator * modifier.denominator
    notes = modifier.notes
    if not linear or span > 2 * len(values) + width:
        counts: dict[int, int] = {}
        for face, p in naturals.counts.items():
            for value, q in modifier.counts.items():
                counts[face + value] = counts.get(face + value, 0) + p * q
        return Weights(counts, denominator, notes)
    dense = [modifier.counts.get(low + j, 0) for j in range(span)]
    sums, moments = [0], [0]  # of dense[:m] and of j * dense[j] for j < m
    for j, weight in enumerate(dense):
        sums.append(sums[-1] + weight)
        moments.append(moments[-1] + j * weight)
    counts = {}
    for k in range(span + width - 1):
        start, end = max(0, k - width + 1), min(k, span - 1) + 1  # dense[start:end]
        window = sums[end] - sums[start]
        # sum over i of rise[i] * dense[k - i], rise[i] = rise[0] + step * i, i = k - j
        weight = (rise[0] + step * k) * window - step * (moments[end] - moments[start])
        if weight:
            counts[first + low + k] = weight
    return Weights(counts, denominator, notes)


def verdict_counts(
    naturals: Weights, others: Weights, target: int, verdict: Callable[[int, int], str]
) -> dict[str, int]:
    """The weight of each verdict over every pair of a natural and a value ``others`` adds
    to it (the modifier, or the modifier less the target), independent: ``verdict(natural,
    total)`` is the rules' (D1, D2, D6), which read the total only as reaching
    ``target`` or not. So each natural has two verdicts, one for the totals that reach
    the target and one for those that do not, each with a sum of ``others``' weights
    from running sums, where pair by pair was twenty products per value (``+90d1000
    vs d20`` took 6 s)."""
    values = sorted(value for value, weight in others.counts.items() if weight)
    below = [0]  # below[i]: the weight of values[:i]
    for value in values:
        below.append(below[-1] + others.counts[value])
    whole = below[-1]
    counts: dict[str, int] = {}
    for natural, p in naturals.counts.items():
        if not p:
            continue
        short = below[bisect.bisect_left(values, target - natural)]  # totals short of it
        for weight, total in ((whole - short, target), (short, target - 1)):
            if weight:
                found = verdict(natural, total)
                counts[found] = counts.get(found, 0) + p * weight
    return counts


def _attack_against_0(natural: int, total: int) -> str:
    return attack_verdict(natural, total, 0)[0]


def _check_against_0(natural: int, total: int) -> str:
    return check_verdict(total, 0)[0]


def _death(natural: int, total: int) -> str:
    return death_verdict(natural, total)[0]


def _chances(counts: dict[str, int], denominator: int) -> dict[str, Fraction]:
    """Each verdict's count over the denominator of the pairs counted."""
    return {verdict: Fraction(count, denominator) for verdict, count in counts.items()}


def _death_odds(
    check: D20Roll,
    naturals: Weights,
    modifiers: Weights,
    totals: Distribution,
    notes: tuple[str, ...],
    text: str,
) -> Odds:
    counts = verdict_counts(naturals, modifiers, DEATH_SAVE_DC, _death)
    chance_of = _chances(counts, naturals.denominator * modifiers.denominator)
    regain = chance_of.get("regains 1 hit point", ZERO)
    chances = (
        ("success", chance_of.get("success", ZERO) + regain),
        ("regains_1_hit_point", regain),
        ("failure", chance_of.get("failure", ZERO)),
        ("two_failures", chance_of.get("two failures", ZERO)),
    )
    notes = (*notes, *_cut_note(totals.residue))
    return Odds(text, str(check), distribution=totals, chances=chances, notes=notes)


def _cut_note(*left_out: Fraction) -> tuple[str, ...]:
    """What a cut-off of exploding dice (in the modifier or the target) means for the
    chances: each is that of the outcomes computed, so may be up to the most left out
    higher."""
    most = max(left_out)
    if not most:
        return ()
    return (
        f"explosions were followed to a finite depth: the chance left out is "
        f"{float(most):.2g}, so any chance shown may be up to that much higher",
    )


def _sum_of(count: int, sides: int) -> Distribution:
    """``count`` dice of ``sides`` added up, as the engine weighs ``NdS`` (a die added at
    a time in fractions took minutes for ``dnd damage 200d20 crit``)."""
    return dice_weights(Dice(count, sides, NO_MODIFIERS)).to_distribution()


def _damage_odds(check: DamageRoll, env: Environment, text: str) -> Odds:
    times = 2 if check.critical else 1
    total = Distribution.constant(0)
    for count, sides in check.dice:
        total = total.combine(_sum_of(count * times, sides), add)
    notes: tuple[str, ...] = ()
    if check.modifier is not None:
        modifiers, notes = expression_odds(check.modifier, env)
        if len(modifiers.outcomes) != 1:
            raise RuleError(no_dice_in_damage_modifier())
        total = total.combine(modifiers, add)
    mean = ("mean", total.mean())
    return Odds(text, str(check), distribution=total, expectations=(mean,), notes=notes)


def _stats_odds(check: StatsRoll, text: str) -> Odds:
    counts: Counter[int] = Counter(
        stat_score(faces)[0] for faces in product(range(1, 7), repeat=STAT_DICE)
    )
    score = Distribution.from_counts(counts)
    return Odds(
        text,
        str(check),
        distribution=score,
        expectations=(("mean", score.mean()), ("mean_total", score.mean() * STAT_COUNT)),
        notes=(f"the distribution of one score; the {STAT_COUNT} scores are independent",),
    )
