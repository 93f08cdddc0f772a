"""The exact odds of a ``dnd`` line (rules D1-D7), in fractions, from the same rule
decisions as the rolling (:mod:`dicecli.systems.dnd.rules`).

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
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
from dicecli.probability.weights import Weights, added, merged_notes, negated
from dicecli.systems.dnd.checks import D20Roll, DamageRoll, StatsRoll
from dicecli.systems.dnd.roll import no_dice_in_damage_modifier
from dicecli.systems.dnd.rules import (
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


def _of(expr: Expr | None, env: Environment) -> tuple[Distribution, tuple[str, ...]]:
    if expr is None:
        return Distribution.constant(0), ()
    return expression_odds(expr, env)


def _d20_odds(check: D20Roll, env: Environment, text: str) -> Odds:
    naturals = d20_chances(edge(check.advantage, check.disadvantage))
    modifiers, notes = _of(check.modifier, env)
    targets, target_notes = _of(check.target, env)
    notes = merged_notes(notes, target_notes)
    totals = Distribution.from_probabilities(naturals).combine(modifiers, add)
    if check.kind == "death":
        return _death_odds(check, naturals, modifiers, totals, notes, text)
    if check.target is None:
        chances: tuple[tuple[str, Fraction], ...] = ()
        if check.kind == "attack":
            chances = (("critical_hit", naturals[20]), ("natural_1", naturals[1]))
        notes = (*notes, *_cut_note(totals.residue))
        return Odds(text, str(check), distribution=totals, chances=chances, notes=notes)
    chance_of: dict[str, Fraction] = {}
    # a verdict reads the natural and the total less the target only (rules D1, D2):
    # one walk over the naturals and that difference, not over every pair of sides
    # (+100d6 vs 100d6 took 45 s)
    differences = _difference(check.modifier, check.target, env)
    for natural, p in naturals.items():
        for difference, q in differences.outcomes:
            total = natural + difference  # against a target of 0
            if check.kind == "attack":
                verdict, _ = attack_verdict(natural, total, 0)
            else:
                verdict, _ = check_verdict(total, 0)
            chance_of[verdict] = chance_of.get(verdict, ZERO) + p * q
    passing = None
    if len(targets.outcomes) == 1 and check.kind != "attack":
        passing = (targets.outcomes[0][0], None)
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


def _difference(modifier: Expr | None, target: Expr, env: Environment) -> Distribution:
    """The modifier less the target, in whole counts (the engine's weights: a sum of
    fractions, pair by pair, took seconds for ``+100d6 vs 100d6``)."""
    left = Weights.constant(0) if modifier is None else weights(modifier, env)
    return added(left, negated(weights(target, env))).to_distribution()


def _death_odds(
    check: D20Roll,
    naturals: dict[int, Fraction],
    modifiers: Distribution,
    totals: Distribution,
    notes: tuple[str, ...],
    text: str,
) -> Odds:
    chance_of: dict[str, Fraction] = {}
    for natural, p in naturals.items():
        for modifier, q in modifiers.outcomes:
            verdict, _ = death_verdict(natural, natural + modifier)
            chance_of[verdict] = chance_of.get(verdict, ZERO) + p * q
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
