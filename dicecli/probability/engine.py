"""Exact distributions of the generic notation: the same syntax tree the evaluator rolls.

:func:`distribution` gives the exact :class:`~dicecli.probability.distribution.Distribution` of an
expression's total, following the evaluator (:mod:`dicecli.rolling.evaluate`) to the letter:

1. **re-roll**: the die that stands after ``ro`` is the first face unless it matches,
   then a fresh face; after ``r`` (repeat) it is uniform over the faces that do not
   match (the geometric series, solved exactly). Explosion dice are re-rolled too.
2. **explode**: a standing die that matches adds another. ``!!`` sums the chain into
   one die (``!!p`` with each added die worth one less); ``!`` makes each added die
   its own unit; ``!p`` too, worth one less (it explodes on its natural face).
   Explosions are unbounded, so each dice term follows them to the depth where the
   chance left out is below :data:`PRECISION`; that chance is the distribution's
   ``residue`` and the odds say so.
3. **keep/drop** over the units standing (:mod:`dicecli.probability.keep`).
4. **count**: a kept unit scores +1 on a success, else -1 on a failure, else 0.

Arithmetic follows the evaluator: ``/`` and ``N% of`` round up; names are looked up in
the :class:`~dicecli.environment.Environment` (values are constants, saved rolls are
expressions rolled anew at each use). Every node's dice are independent of every other
node's, so sums are convolutions and other operations combine outcome pairs.

All the work is on integer weights (:mod:`dicecli.probability.weights`); fractions are
made once at the end. A dice term's weights depend on the term alone and are cached.
Forms too big to compute exactly raise :class:`OddsTooBigError`: nothing is sampled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError
from dicecli.notation.dice import die_for_sides
from dicecli.notation.nodes import (
    ROUNDING_FUNCTIONS,
    BinaryOp,
    Call,
    ComputedDice,
    Condition,
    Dice,
    Expr,
    Group,
    Labelled,
    Modifiers,
    Name,
    Negate,
    Number,
    PercentOf,
    Reroll,
    assert_never,
    children,
)
from dicecli.notation.semantics import (
    applied,
    ceil_div,
    computed_dice,
    count_one,
    name_meaning,
    percent_of,
    pooled_dice,
    rounded,
)
from dicecli.probability.distribution import Distribution
from dicecli.probability.keep import (
    Chain,
    Score,
    Tracker,
    keep_identical,
    keep_over_chains,
    keep_over_items,
    kept_end,
)
from dicecli.probability.weights import (
    Counts,
    OddsTooBigError,
    Weights,
    add_into,
    added,
    check_outcomes,
    combine,
    convolve,
    mapped,
    merged_notes,
    power,
    scaled,
)

PRECISION = Fraction(1, 10**12)
"""Most probability one dice term's cut-off of explosions may leave out."""

MAX_EXPLOSION_DEPTH = 2_000
"""Deepest an explosion chain is followed; a die exploding so often is refused."""


@dataclass(frozen=True)
class Analysis:
    """An expression's distribution, its mean (over the totals computed) and notes on
    any cut-off made."""

    distribution: Distribution
    mean: Fraction
    notes: tuple[str, ...]


def distribution(expr: Expr, env: Environment | None = None) -> Distribution:
    """The exact distribution of ``expr``'s total (explosions to :data:`PRECISION`)."""
    return analyse(expr, env).distribution


def analyse(expr: Expr, env: Environment | None = None) -> Analysis:
    """The distribution of ``expr``'s total, its mean, and notes on any cut-off."""
    if _is_closed(expr):
        return _closed_analysis(expr)
    return _analysis(weights(expr, env))


def distribution_and_notes(
    expr: Expr, env: Environment | None = None
) -> tuple[Distribution, tuple[str, ...]]:
    """The distribution of ``expr``'s total, and notes on any cut-off made (for game
    modules that compute the generic parts of their forms here)."""
    found = analyse(expr, env)
    return found.distribution, found.notes


def weights(expr: Expr, env: Environment | None = None) -> Weights:
    """``expr``'s distribution as integer :class:`Weights` (for further combination)."""
    return _Weigher(env or EMPTY_ENVIRONMENT).weights(expr)


@lru_cache(maxsize=256)
def _closed_analysis(expr: Expr) -> Analysis:
    return _analysis(_Weigher(EMPTY_ENVIRONMENT).weights(expr))


def _analysis(found: Weights) -> Analysis:
    # The mean from the integer weights: one fraction instead of one per outcome.
    weighted = sum(value * count for value, count in found.counts.items())
    mean = Fraction(weighted, found.total)
    return Analysis(found.to_distribution(), mean, found.notes)


def clear_caches() -> None:
    """Forget every cached distribution (for cold timings)."""
    _closed_analysis.cache_clear()
    dice_weights.cache_clear()


def _is_closed(expr: Expr) -> bool:
    """True when ``expr`` names nothing, so its distribution depends on it alone."""
    if isinstance(expr, Name):
        return False
    return all(_is_closed(child) for child in children(expr))


class _Weigher:
    """Walks a syntax tree, node by node, into :class:`Weights`."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.depth = 0

    def weights(self, node: Expr) -> Weights:
        match node:
            case Number():
                return Weights.constant(node.value)
            case Dice():
                return dice_weights(node)
            case BinaryOp():
                return self._binary(node)
            case Negate():
                inner = self.weights(node.operand)
                return Weights(mapped(inner.counts, int.__neg__), inner.denominator, inner.notes)
            case PercentOf():
                inner = self.weights(node.operand)
                percent = node.percent
                counts = mapped(inner.counts, lambda whole: percent_of(percent, whole))
                return Weights(counts, inner.denominator, inner.notes)
            case Labelled():
                return self.weights(node.expr)
            case Name():
                return self._name(node)
            case Group():
                return self._group(node)
            case Call():
                return self._call(node)
            case ComputedDice():
                return self._computed_dice(node)
            case _:
                return assert_never(node)

    def _binary(self, node: BinaryOp) -> Weights:
        left, right = self.weights(node.left), self.weights(node.right)
        what = str(node)
        if node.op == "+":
            return added(left, right, what)
        if node.op == "-":
            negated = Weights(mapped(right.counts, int.__neg__), right.denominator, right.notes)
            return added(left, negated, what)
        if node.op == "*":
            return combine(left, right, int.__mul__, what)
        _refuse_zero_divisor(node, right)
        return combine(left, right, ceil_div, what)

    def _computed_dice(self, node: ComputedDice) -> Weights:
        """A mixture: for each count and size the dice may come to, with its chance,
        the weights of that many such dice (an impossible count or size is refused, as
        rolling it would be, whatever its chance)."""
        count = self.weights(node.count)
        sides: Weights | None = None if isinstance(node.sides, str) else self.weights(node.sides)
        sizes = {node.sides: 1} if isinstance(node.sides, str) else (sides.counts if sides else {})
        check_outcomes(len(count.counts) * len(sizes), str(node))
        parts = [
            (count_weight * size_weight, dice_weights(computed_dice(node, dice, size)))
            for dice, count_weight in count.counts.items()
            for size, size_weight in sizes.items()
        ]
        common = math.lcm(*(part.denominator for _, part in parts))
        counts: Counts = {}
        for weight, part in parts:
            add_into(counts, part.counts, weight * (common // part.denominator))
        denominator = count.denominator * (sides.denominator if sides else 1) * common
        notes = merged_notes(
            count.notes, sides.notes if sides else (), *(p.notes for _, p in parts)
        )
        return Weights(counts, denominator, notes)

    def _call(self, node: Call) -> Weights:
        """A function of independent arguments; a rounding function over a division or
        percentage rounds the exact quotient (as the evaluator does)."""
        function, first, what = node.function, node.args[0], str(node)
        if function in ROUNDING_FUNCTIONS and isinstance(first, BinaryOp) and first.op == "/":
            left, right = self.weights(first.left), self.weights(first.right)
            _refuse_zero_divisor(first, right)
            return combine(left, right, lambda a, b: rounded(function, a, b), what)
        if function in ROUNDING_FUNCTIONS and isinstance(first, PercentOf):
            inner, percent = self.weights(first.operand), first.percent
            counts = mapped(inner.counts, lambda w: rounded(function, percent * w, 100))
            return Weights(counts, inner.denominator, inner.notes)
        if function in ("min", "max"):
            found = self.weights(first)
            for arg in node.args[1:]:
                pick = min if function == "min" else max
                found = combine(found, self.weights(arg), pick, what)
            return found
        inner = self.weights(first)
        counts = mapped(inner.counts, lambda value: applied(function, [value]))
        return Weights(counts, inner.denominator, inner.notes)

    def _name(self, node: Name) -> Weights:
        meaning = name_meaning(node, self.env, self.depth)
        if isinstance(meaning, int):
            return Weights.constant(meaning)
        self.depth += 1
        try:
            return self.weights(meaning)
        finally:
            self.depth -= 1

    def _pooled_group(self, node: Group, terms: tuple[Dice, ...]) -> Weights:
        """Keep/drop among the dice of a one-item group (``{4d6+3d8}k4``), each die an
        item of its own, and counting over the kept dice. Dice all alike (``{7d%}kh3``)
        are the dice term itself (``7d%kh3``): the identical-dice walk is far cheaper."""
        kinds = {(term.sides, term.modifiers.reroll) for term in terms}
        if len(kinds) == 1:
            ((sides, reroll),) = kinds
            group = node.modifiers
            alike = replace(group, reroll=reroll, critical_success=None, critical_failure=None)
            return dice_weights(Dice(sum(term.count for term in terms), sides, alike))
        items: list[Counts] = []
        denominator = 1
        for term in terms:
            die = die_for_sides(term.sides)
            faces = [face.value for face in die.faces if face.value is not None]
            if len(faces) < len(die.faces):
                raise DiceError(f"{die.name} has faces without numbers: no odds for a total")
            standing, each = standing_weights(faces, term.modifiers.reroll)
            items += [standing] * term.count
            denominator *= each**term.count
        assert node.modifiers.keep is not None
        tracker = Tracker.for_keep(node.modifiers.keep, _score(node.modifiers))
        return Weights(keep_over_items(items, tracker, str(node)), denominator)

    def _group(self, node: Group) -> Weights:
        pooled = pooled_dice(node)
        if pooled is not None:
            return self._pooled_group(node, pooled)
        items = [self.weights(item) for item in node.items]
        denominator = 1
        for item in items:
            denominator *= item.denominator
        notes = merged_notes(*(item.notes for item in items))
        modifiers = node.modifiers
        score = _score(modifiers)
        what = str(node)
        if modifiers.keep is not None:
            tracker = Tracker.for_keep(modifiers.keep, score)
            counts = keep_over_items([item.counts for item in items], tracker, what)
            return Weights(counts, denominator, notes)
        total: Counts = {0: 1}
        for item in items:
            total = convolve(total, mapped(item.counts, score), what)
        return Weights(total, denominator, notes)


def _refuse_zero_divisor(node: BinaryOp, right: Weights) -> None:
    if right.counts.get(0):
        chance = Fraction(right.counts[0], right.denominator)
        raise DiceError(
            f"{node} divides by zero {_chance_words(chance)}, so it has no odds; "
            "make sure the divisor cannot be 0"
        )


def _chance_words(chance: Fraction) -> str:
    return f"with chance {chance}" if chance < 1 else "always"


def _score(modifiers: Modifiers) -> Score:
    """What a kept unit adds to the total (step 4 of the evaluator)."""
    if not modifiers.counts_successes:
        return _identity

    def count(value: int) -> int:
        return count_one(value, modifiers)

    return count


def _identity(value: int) -> int:
    return value


def _less_one(value: int) -> int:
    return value - 1


# --- dice terms ------------------------------------------------------------------


@lru_cache(maxsize=512)
def dice_weights(node: Dice) -> Weights:
    """The weights of one dice term with all its modifiers (cached: terms are frozen)."""
    what = str(node)
    if isinstance(node.sides, int):
        check_outcomes(node.sides, what)  # before building a die of a million faces
    die = die_for_sides(node.sides)
    faces = [face.value for face in die.faces if face.value is not None]
    if len(faces) < len(die.faces):
        raise DiceError(f"{die.name} has faces without numbers: no odds for a total")
    modifiers = node.modifiers
    standing, denominator = standing_weights(faces, modifiers.reroll)
    score = _score(modifiers)
    explodes: frozenset[int] = frozenset()
    if modifiers.explode is not None:
        condition = modifiers.explode.condition or Condition("=", die.values[-1])
        explodes = frozenset(value for value in standing if condition.matches(value))
    if not explodes:  # no explosion, or none can happen after the re-rolls
        counts = _identical_units(standing, node.count, modifiers, score, what)
        return Weights(counts, denominator**node.count)
    return _exploding_dice(node, standing, denominator, explodes, score)


def _exploding_dice(
    node: Dice, standing: Counts, denominator: int, explodes: frozenset[int], score: Score
) -> Weights:
    """Step 2 onwards for a term whose standing dice can explode."""
    what, modifiers, count = str(node), node.modifiers, node.count
    assert modifiers.explode is not None
    chance = Fraction(sum(standing[v] for v in explodes), denominator)
    if chance == 1:
        raise DiceError(f"{what}: every face that can stand explodes, so the roll would never end")
    depth = explosion_depth(chance, count, what)
    notes = (f"{what}: explosions followed up to {depth} extra dice per die",)
    chains_denominator = denominator ** ((depth + 1) * count)
    kind = modifiers.explode.kind
    if kind in ("!!", "!!p"):  # one unit per die: the compounded total
        added_worth = _less_one if kind == "!!p" else _identity
        compounded = chain_total(standing, explodes, depth, _identity, added_worth, what)
        counts = _identical_units(compounded, count, modifiers, score, what)
        return Weights(counts, chains_denominator, notes)
    penalty = 1 if kind == "!p" else 0
    if modifiers.keep is not None:  # a unit per die rolled: keep/drop sees them all
        chain = Chain(standing, denominator, explodes, penalty, depth)
        tracker = Tracker.for_keep(modifiers.keep, score)
        return Weights(keep_over_chains(chain, count, tracker, what), chains_denominator, notes)

    def later(value: int) -> int:
        return score(value - penalty)

    per_die = chain_total(standing, explodes, depth, score, later, what)
    return Weights(power(per_die, count, what), chains_denominator, notes)


def standing_weights(faces: list[int], reroll: Reroll | None) -> tuple[Counts, int]:
    """The value a die stands on after its re-rolls (natural values), as weights over
    a denominator. ``faces`` are the values of equally likely faces."""
    sides = len(faces)
    plain: Counts = {}
    for value in faces:
        plain[value] = plain.get(value, 0) + 1
    if reroll is None:
        return plain, sides
    matches = reroll.condition.matches
    again = sum(count for value, count in plain.items() if matches(value))
    if reroll.once:  # the first face if it stands, else a fresh one, which stands
        once = {v: (0 if matches(v) else sides * c) + again * c for v, c in plain.items()}
        return {v: c for v, c in once.items() if c}, sides * sides
    standing = {v: c for v, c in plain.items() if not matches(v)}
    if not standing:
        raise DiceError("every face re-rolls, so the roll would never end")
    return standing, sides - again


def explosion_depth(chance: Fraction, dice: int, what: str) -> int:
    """How many added dice to follow per die so that ``dice`` chains, each exploding
    with ``chance`` per die, leave out at most :data:`PRECISION` between them."""
    depth, beyond = 0, chance  # beyond: the chance that a chain goes deeper than depth
    while dice * beyond > PRECISION:
        depth += 1
        beyond *= chance
        if depth > MAX_EXPLOSION_DEPTH:
            raise OddsTooBigError(
                f"odds of {what}: the dice explode so often that following them to a "
                f"precision of {float(PRECISION):.0e} is too big to compute here"
            )
    return depth


def chain_total(
    standing: Counts,
    explodes: frozenset[int],
    depth: int,
    first: Score,
    later: Score,
    what: str,
) -> Counts:
    """The weights of one exploding die's summed score: the first die scores
    ``first(natural)``, each added die ``later(natural)``; at most ``depth`` dice are
    added. Weights are over the standing denominator to the power ``depth + 1``."""
    denominator = sum(standing.values())

    def part(score: Score, exploding: bool) -> Counts:
        return mapped({v: c for v, c in standing.items() if (v in explodes) == exploding}, score)

    later_on, later_off = part(later, True), part(later, False)
    total = scaled(part(first, False), denominator**depth)
    active = part(first, True)
    for step in range(1, depth + 1):
        add_into(total, convolve(active, later_off, what), denominator ** (depth - step))
        active = convolve(active, later_on, what)
    return total


def _identical_units(
    unit: Counts, count: int, modifiers: Modifiers, score: Score, what: str
) -> Counts:
    """``count`` independent identical units, kept/dropped and scored."""
    if modifiers.keep is None:
        return power(mapped(unit, score), count, what)
    keep_highest, kept = kept_end(modifiers.keep, count)
    return keep_identical(unit, count, keep_highest, kept, score, what)
