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

import heapq
import math
from fractions import Fraction

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError
from dicecli.frozen import frozen, replace
from dicecli.identity_cache import SizedCache
from dicecli.notation.dialects import NO_DICE_AS_ZERO
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
    Sides,
    assert_never,
    children,
)
from dicecli.notation.semantics import (
    applied,
    ceil_div,
    computed_dice,
    count_one,
    floor_div,
    kept_slice,
    modulo,
    multiply,
    name_meaning,
    percent_of,
    pooled_dice,
    rounded,
    to_power,
)
from dicecli.notation.sides import DieName
from dicecli.probability.distribution import Distribution, fraction_text, reduced_fraction
from dicecli.probability.keep import (
    Chain,
    Score,
    Tracker,
    keep_identical,
    keep_middle_identical,
    keep_over_chains,
    keep_over_items,
    keep_over_sorted_chains,
    keeps_middle,
    kept_end,
    one_end,
)
from dicecli.probability.weights import (
    MAX_WORK,
    Counts,
    OddsTooBigError,
    Weights,
    add_into,
    check_estimate,
    check_memory,
    check_outcomes,
    check_work,
    combine,
    convolve,
    convolve_work,
    mapped,
    merged_notes,
    negated,
    packed_power_work,
    power,
    power_estimate,
    power_work,
    question,
    recurrence_work,
    scaled,
    slot_bytes_for_bits,
)

PRECISION = Fraction(1, 10**12)
"""Most probability one dice term's cut-off of explosions may leave out."""

MAX_EXPLOSION_DEPTH = 2_000
"""Deepest an explosion chain is followed; a die exploding so often is refused."""


@frozen
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
    with question():
        if _is_closed(expr) and (env is None or env.dialect not in NO_DICE_AS_ZERO):
            return _closed_analysis(expr)  # the same in every environment
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
    env = env or EMPTY_ENVIRONMENT
    with question():
        check_names(expr, env)
        return _Weigher(env).weights(expr)


def check_names(expr: Expr, env: Environment) -> None:
    """Look up every name ``expr`` uses, in saved rolls too, and every die of a dice
    file it names, before any work: an unknown name is refused at once, not after the
    rest of the line has been computed."""
    names_read(expr, env)


def names_read(expr: Expr, env: Environment) -> tuple[tuple[object, object], ...]:
    """What ``expr``'s names stand for in ``env``, as :func:`check_names` looks them up
    (raising as it does): each name with its number or saved roll, each die of a dice
    file with the dice it is, in the order met. With the dialect, this is all of ``env``
    that ``expr``'s distribution depends on: equal for two environments, equal odds."""
    pending: list[tuple[Expr, int]] = [(expr, 0)]
    seen: set[str] = set()
    read: list[tuple[object, object]] = []
    while pending:
        node, depth = pending.pop()
        if isinstance(node, Dice) and isinstance(node.sides, DieName):
            from dicecli.dicefiles.load import looked_up  # docs/startup.md

            found = looked_up(node, env)
            read.append((node, found))
            node = found if isinstance(found, Name) else node
        if isinstance(node, Name):
            if node.name not in seen:
                seen.add(node.name)
                meaning = name_meaning(node, env, depth)
                read.append((node.name.casefold(), meaning))
                if not isinstance(meaning, int):
                    pending.append((meaning, depth + 1))
            continue
        pending.extend(reversed([(child, depth) for child in children(node)]))  # in order
    return tuple(read)


CACHED_BYTES = 32 << 20
"""About the most memory each of the two caches of answers (dice terms, whole lines) may
hold: a few big distributions (``1800d6``) make way for each other."""


def _analyse_closed(expr: Expr) -> Analysis:
    return _analysis(_Weigher(EMPTY_ENVIRONMENT).weights(expr))


def _analysis_size(expr: Expr, found: Analysis) -> int:
    """About the bytes ``found`` holds: each outcome's weight and fraction."""
    weights = found.distribution.weights
    each = 3 * (weights[1].bit_length() // 8) + 150 if weights is not None else 150
    return 200 + len(found.distribution.outcomes) * each


_closed_analysis: SizedCache[Expr, Analysis] = SizedCache(
    _analyse_closed, _analysis_size, CACHED_BYTES, 256
)
"""The analysis of an expression that names nothing (a whole line), cached."""


def _analysis(found: Weights) -> Analysis:
    # The mean from the integer weights: one fraction instead of one per outcome.
    weighted = sum(value * count for value, count in found.counts.items())
    mean = reduced_fraction(weighted, found.total)
    return Analysis(found.to_distribution(), mean, found.notes)


def clear_caches() -> None:
    """Forget every cached distribution (for cold timings)."""
    _closed_analysis.cache_clear()
    dice_weights.cache_clear()


def _is_closed(expr: Expr) -> bool:
    """True when ``expr`` names nothing, so its distribution depends on it alone."""
    if isinstance(expr, Name) or (isinstance(expr, Dice) and isinstance(expr.sides, DieName)):
        return False  # a die of a dice file depends on the dice file in force
    # A loop, not all(...): a generator recurses through C (see nodes._wrap).
    for child in children(expr):  # noqa: SIM110
        if not _is_closed(child):
            return False
    return True


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
                if isinstance(node.sides, DieName):  # a die of a dice file (docs/dice.md)
                    from dicecli.dicefiles.load import looked_up  # docs/startup.md

                    term = looked_up(node, self.env)
                    if isinstance(term, Name):
                        return self._name(term)
                    return dice_weights(term)
                return dice_weights(node)
            case BinaryOp():
                return self._binary(node)
            case Negate():
                return negated(self.weights(node.operand))
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
        if node.op in ("+", "-"):
            return self._sum(node)
        left, right = self.weights(node.left), self.weights(node.right)
        what = str(node)
        if node.op == "*":
            return combine(left, right, multiply, what)
        if node.op == "^":
            return combine(left, right, to_power, what)
        _refuse_zero_divisor(node, right)
        quotient = {"/": ceil_div, "%": modulo, "//": floor_div}[node.op]
        return combine(left, right, quotient, what)

    def _sum(self, node: BinaryOp) -> Weights:
        """A chain of ``+`` and ``-`` as one sum of its terms: each term weighed once, a
        term repeated (``d20 + d20 + ...``: the same cached weights) raised to a power,
        and the parts added smallest first, so that no sum is convolved term by term
        with one ever longer."""
        terms: list[tuple[Expr, bool]] = []  # each term, and whether it is subtracted
        pending: list[tuple[Expr, bool]] = [(node, False)]
        while pending:
            part, negative = pending.pop()
            if isinstance(part, BinaryOp) and part.op in ("+", "-"):
                pending.append((part.right, negative != (part.op == "-")))
                pending.append((part.left, negative))
            else:
                terms.append((part, negative))
        weighed = [(self.weights(term), negative) for term, negative in terms]
        what = str(node)
        alike: dict[tuple[int, int, bool], tuple[Weights, bool, int]] = {}
        for found, negative in weighed:
            key = (id(found.counts), found.denominator, negative)
            _, _, times = alike.get(key, (found, negative, 0))
            alike[key] = (found, negative, times + 1)
        parts: list[tuple[int, int, Counts]] = []  # (outcomes, order, weights)
        denominator = 1
        for order, (found, negative, times) in enumerate(alike.values()):
            counts = mapped(found.counts, int.__neg__) if negative else found.counts
            counts = power(counts, times, what) if times > 1 else counts
            denominator *= found.denominator**times
            heapq.heappush(parts, (len(counts), order, counts))
        order = len(parts)
        while len(parts) > 1:
            _, _, first = heapq.heappop(parts)
            _, _, second = heapq.heappop(parts)
            total = convolve(first, second, what)
            heapq.heappush(parts, (len(total), order, total))
            order += 1
        notes = merged_notes(*(found.notes for found, _ in weighed))
        return Weights(parts[0][2], denominator, notes)

    def _computed_dice(self, node: ComputedDice) -> Weights:
        """A mixture: for each count and size the dice may come to, with its chance,
        the weights of that many such dice (an impossible count or size is refused, as
        rolling it would be, whatever its chance)."""
        count = self.weights(node.count)
        none = count.counts.get(0, 0) if self.env.dialect in NO_DICE_AS_ZERO else 0
        counted = {dice: weight for dice, weight in count.counts.items() if dice or not none}
        if not counted:  # d20: no dice, worth 0, whatever their size
            return Weights({0: none}, count.denominator, count.notes)
        sides: Weights | None = None if isinstance(node.sides, str) else self.weights(node.sides)
        sizes = {node.sides: 1} if isinstance(node.sides, str) else (sides.counts if sides else {})
        what = str(node)
        check_outcomes(len(counted) * len(sizes), what)
        low, high = min(counted), max(counted)
        numbers = sorted(size for size in sizes if isinstance(size, int))
        first = next(iter(sizes))
        ends = [(low, first), (high, first)] + [(low, size) for size in numbers[:1] + numbers[-1:]]
        for dice, size in ends:  # an impossible count or size: its error, before any work
            computed_dice(node, dice, size)
        raw = [
            (count_weight * size_weight, Dice(dice, size, node.modifiers))
            for dice, count_weight in counted.items()
            for size, size_weight in sizes.items()
        ]
        check_estimate(mixture_work([term for _, term in raw]), what)
        parts = [
            (weight, dice_weights(computed_dice(node, term.count, term.sides)))
            for weight, term in raw
        ]
        common = math.lcm(*(part.denominator for _, part in parts))
        counts: Counts = {}
        for weight, part in parts:
            add_into(counts, part.counts, weight * (common // part.denominator))
        if none:  # d20: a count of 0 rolls nothing, worth 0, over every size
            add_into(counts, {0: 1}, none * (sides.denominator if sides else 1) * common)
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
        if any(isinstance(term.sides, DieName) for term in terms):  # dice of a dice file
            from dicecli.dicefiles.load import looked_up  # docs/startup.md

            found = [looked_up(term, self.env) for term in terms]
            terms = tuple(term for term in found if isinstance(term, Dice))
            if len(terms) < len(found):  # dEX read as the name dex: no pool of dice
                raise DiceError(f"{node}: no odds for a name in a pool of dice")
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
        keep = one_end(node.modifiers.keep, len(items))
        tracker = Tracker.for_keep(keep, _score(node.modifiers))
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
        if modifiers.keep is not None and _all_alike(items):  # {20d6, 20d6, 20d6}kh2
            if keeps_middle(modifiers.keep, len(items)):
                unit = items[0].counts
                counts = keep_middle_identical(unit, len(items), modifiers.keep, score, what)
                return Weights(counts, denominator, notes)
            keep_highest, kept = kept_end(modifiers.keep, len(items))
            counts = keep_identical(items[0].counts, len(items), keep_highest, kept, score, what)
            return Weights(counts, denominator, notes)
        if modifiers.keep is not None:
            tracker = Tracker.for_keep(one_end(modifiers.keep, len(items)), score)
            counts = keep_over_items([item.counts for item in items], tracker, what)
            return Weights(counts, denominator, notes)
        total: Counts = {0: 1}
        for item in items:
            total = convolve(total, mapped(item.counts, score), what)
        return Weights(total, denominator, notes)


def _all_alike(items: list[Weights]) -> bool:
    """True when every item has the same weights (identical units for keep/drop)."""
    first = items[0]
    return all(
        item.counts is first.counts
        or (item.denominator == first.denominator and item.counts == first.counts)
        for item in items[1:]
    )


def _refuse_zero_divisor(node: BinaryOp, right: Weights) -> None:
    if right.counts.get(0):
        chance = Fraction(right.counts[0], right.denominator)
        raise DiceError(
            f"{node} divides by zero {_chance_words(chance)}, so it has no odds; "
            "make sure the divisor cannot be 0"
        )


def _chance_words(chance: Fraction) -> str:
    """``with chance 1/6``; a fraction too long to read by its value (``≈1.7e-05``),
    one too small for a float by its power of ten (``≈6.2e-1284``)."""
    if chance >= 1:
        return "always"
    if float(chance) == 0:
        power = math.log10(chance.numerator) - math.log10(chance.denominator)
        exponent = math.floor(power)
        return f"with chance ≈{10 ** (power - exponent):.2g}e{exponent}"
    return f"with chance {fraction_text(chance)}"


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

MIX_WORK = 300
"""Work of making one outcome of a dice term and adding it into a mixture, beside the
work of its big-number arithmetic."""


def mixture_work(terms: list[Dice]) -> int:
    """A quick estimate of the work of weighing every one of ``terms`` (the dice that
    computed dice may come to) and adding them up, made before any of it: at least
    what their outcomes take to make and add, and for dice without explosions or unique
    dice the estimate of the step itself. Stops adding once past :data:`MAX_WORK`."""
    sizes = [_term_size(term) for term in terms]
    work = sum(outcomes * (MIX_WORK + width) for outcomes, width in sizes)
    for term, (outcomes, width) in zip(terms, sizes, strict=True):
        if work > MAX_WORK:
            break
        work += _plain_dice_work(term, outcomes, width)
    return work


def _term_size(node: Dice) -> tuple[int, int]:
    """About how many outcomes a dice term has, and the bytes of each weight, from its
    count and faces alone (explosions counted as one die more each)."""
    low, high, faces = _face_range(node.sides)
    modifiers = node.modifiers
    units = node.count
    if modifiers.keep is not None:
        units = len(range(node.count)[kept_slice(modifiers.keep, node.count)])
    if modifiers.counts_successes:
        low, high = -1, 2
    dice = node.count * (2 if modifiers.explode is not None else 1)
    outcomes = units * (high - low) * (2 if modifiers.explode is not None else 1) + 1
    return outcomes, max(1, faces.bit_length() * dice // 8)


def _die_by_die_work(node: Dice) -> int:
    """At least the work of unique dice followed die by die (``uo``, ``u=5``): before
    the ``k``-th die stand at least as many sets as the totals ``k`` dice can reach,
    and each set meets every face."""
    from dicecli.probability.unique import UNIQUE_STEP_WORK  # docs/startup.md

    low, high, faces = _face_range(node.sides)
    modifiers = node.modifiers
    if modifiers.clamp_low is not None:
        low = max(low, min(modifiers.clamp_low, high))
    if modifiers.clamp_high is not None:
        high = min(high, max(modifiers.clamp_high, low))
    span = 2 if modifiers.counts_successes else high - low
    count = node.count
    totals = span * count * (count - 1) // 2 + count  # sum over k < count of k * span + 1
    return totals * faces * UNIQUE_STEP_WORK


def _face_range(sides: Sides) -> tuple[int, int, int]:
    """A die's lowest and highest face and its number of faces (without building a
    die of many faces)."""
    if isinstance(sides, int):
        return 1, sides, sides
    values = [face.value or 0 for face in die_for_sides(sides).faces]
    return min(values), max(values), len(values)


def _plain_dice_work(node: Dice, outcomes: int, width: int) -> int:
    """The estimated work of a dice term without explosions or unique dice (0 for
    those: they estimate their own work as they go)."""
    modifiers = node.modifiers
    unique = modifiers.unique
    if unique is not None and (unique.once or unique.condition is not None):
        return _die_by_die_work(node)
    if modifiers.explode is not None or unique is not None or node.count == 1:
        return 0
    if modifiers.keep is None and isinstance(node.sides, int) and not modifiers.counts_successes:
        fair = recurrence_work(outcomes, 3, width, True)  # a fair die: its recurrence
        return min(fair, packed_power_work(outcomes, width))
    low, high, faces = _face_range(node.sides)
    return power_work(high - low, faces - 1, faces.bit_length(), node.count)


def _weights_size(node: Dice, found: Weights) -> int:
    """About the bytes ``found`` holds: its weights, and the denominator."""
    return sum(count.bit_length() // 8 + 40 for count in found.counts.values()) + 200


def _dice_weights(node: Dice) -> Weights:
    """The weights of one dice term with all its modifiers."""
    what = str(node)
    if isinstance(node.sides, int):  # the plain 1..N: no die to build
        check_outcomes(node.sides, what)  # before a list of a million faces
        faces, last = list(range(1, node.sides + 1)), node.sides
    else:
        die = die_for_sides(node.sides)
        faces = [face.value for face in die.faces if face.value is not None]
        if len(faces) < len(die.faces):
            raise DiceError(f"{die.name} has faces without numbers: no odds for a total")
        last = die.values[-1]
    modifiers = node.modifiers
    standing, denominator = standing_weights(faces, modifiers.reroll)
    score = _score(modifiers)
    explodes: frozenset[int] = frozenset()
    if modifiers.explode is not None:
        condition = modifiers.explode.condition or Condition("=", last)
        explodes = frozenset(value for value in standing if condition.matches(value))
    if modifiers.implode is not None:  # Dice Maiden's i1
        from dicecli.probability.implosions import (  # docs/startup.md
            imploding_dice_weights,
            without_implosion,
        )

        one = None if modifiers.keep is not None else dice_weights(without_implosion(node, 1))
        return imploding_dice_weights(node, standing, denominator, explodes, one)
    if modifiers.unique is not None:
        # Imported when first needed (docs/startup.md).
        from dicecli.probability.unique import unique_dice_weights  # imported on first use

        return unique_dice_weights(node, standing, denominator)
    if not explodes:  # no explosion, or none can happen after the re-rolls
        worth = mapped(standing, modifiers.clamped) if modifiers.clamps else standing
        counts = _identical_units(worth, node.count, modifiers, score, what)
        return Weights(counts, denominator**node.count)
    return _exploding_dice(node, standing, denominator, explodes, score)


dice_weights: SizedCache[Dice, Weights] = SizedCache(
    _dice_weights, _weights_size, CACHED_BYTES, 512
)
"""The weights of one dice term with all its modifiers (:func:`_dice_weights`), cached
(terms are frozen)."""


def _exploding_dice(
    node: Dice, standing: Counts, denominator: int, explodes: frozenset[int], score: Score
) -> Weights:
    """Step 2 onwards for a term whose standing dice can explode."""
    what, modifiers, count = str(node), node.modifiers, node.count
    assert modifiers.explode is not None
    if modifiers.explode.once:
        return _exploding_once(node, standing, denominator, explodes, score)
    chance = Fraction(sum(standing[v] for v in explodes), denominator)
    if chance == 1:
        raise DiceError(f"{what}: every face that can stand explodes, so the roll would never end")
    depth = explosion_depth(chance, count, what)
    notes = (f"{what}: explosions followed up to {depth} extra dice per die",)
    check_memory((depth + 1) * count * denominator.bit_length() // 8, what)  # the denominator
    kind = modifiers.explode.kind
    compounding = kind in ("!!", "!!p")
    penalty = 1 if kind == "!p" else 0
    clamp = modifiers.clamped if modifiers.clamps else None
    if not compounding and modifiers.keep is not None:  # a unit per die: keep/drop sees all
        chain = Chain(standing, denominator, explodes, penalty, depth, clamp)
        kept = keep_over_sorted_chains(chain, count, modifiers.keep, score, what)
        if kept is None:
            tracker = Tracker.for_keep(modifiers.keep, score)
            kept = keep_over_chains(chain, count, tracker, what)
        return Weights(kept, _chains_denominator(denominator, depth, count), notes)

    def later(value: int) -> int:
        return score(value - penalty)

    # ``!!``, ``!!p``: one unit per die, the compounded total (``!!p``: each added die
    # one less); ``!``, ``!p``: each die's score.
    first: Score
    then: Score
    if compounding:
        first, then = _identity, (_less_one if kind == "!!p" else _identity)
    else:
        first, then = score, later
    if clamp is not None:  # each die worth its clamped value, conditions on its face
        first, then = _clamped_scores(clamp, first, then, compounding, penalty, score)
    # Refused now when too big as a whole; its steps charge the question as they run.
    check_estimate(chain_work(standing, explodes, depth, first, then), what)
    if modifiers.keep is None and count > 1 and compounding:  # then its units' total
        # Refused now, before the chains' work; charged by the total itself.
        scores = [first(value) for value in standing] + [then(value) for value in standing]
        span = (depth + 1) * (max(scores) - min(scores))
        work = power_work(span, span, (depth + 1) * denominator.bit_length(), count)
        check_estimate(work, what)
    per_die = chain_total(standing, explodes, depth, first, then, what)
    if modifiers.keep is None and count > 1 and not compounding:
        # and then the chain's total to a power, refused as a whole before its own
        # checks (of its totals, of its memory); estimated from the chain's weights,
        # as an estimate from their span and size alone is several times the work.
        check_estimate(power_estimate(per_die, count), what)
    if compounding:
        counts = _identical_units(per_die, count, modifiers, score, what)
    else:
        counts = power(per_die, count, what)
    return Weights(counts, _chains_denominator(denominator, depth, count), notes)


def _exploding_once(
    node: Dice, standing: Counts, denominator: int, explodes: frozenset[int], score: Score
) -> Weights:
    """Step 2 onwards for ``!o``: a die that explodes adds one die, which stands
    whatever it shows (worth one less for ``!po``). Exact: no chain to cut off.

    Over ``denominator ** 2`` per die. Keep/drop over ``!o`` (a unit per die) sums, over
    the number ``j`` of dice that explode, the ``comb(count, j)`` ways to pick them:
    ``count - j`` stopping dice, ``j`` exploding ones and ``j`` added ones, kept over as
    different units; a stopping die carries the ``denominator`` of the die it did not
    add."""
    what, modifiers, count = str(node), node.modifiers, node.count
    assert modifiers.explode is not None
    kind = modifiers.explode.kind
    penalty = 1 if kind in ("!p", "!!p") else 0
    clamp = modifiers.clamped if modifiers.clamps else _identity
    stop = mapped({v: c for v, c in standing.items() if v not in explodes}, clamp)
    on = mapped({v: c for v, c in standing.items() if v in explodes}, clamp)
    added = mapped(standing, lambda value: clamp(value - penalty))
    if kind in ("!!", "!!p"):  # one unit per die: the two dice added
        unit = scaled(stop, denominator)
        add_into(unit, convolve(on, added, what))
        counts = _identical_units(unit, count, modifiers, score, what)
        return Weights(counts, denominator ** (2 * count))
    if modifiers.keep is None:
        per_die = scaled(mapped(stop, score), denominator)
        add_into(per_die, convolve(mapped(on, score), mapped(added, score), what))
        return Weights(power(per_die, count, what), denominator ** (2 * count))
    total: Counts = {}
    for exploded in range(count + 1):
        items = [stop] * (count - exploded) + [on, added] * exploded
        if any(not item for item in items):
            continue
        keep = one_end(modifiers.keep, len(items))
        kept = keep_over_items(items, Tracker.for_keep(keep, score), what)
        factor = math.comb(count, exploded) * denominator ** (count - exploded)
        add_into(total, scaled(kept, factor))
    return Weights(total, denominator ** (2 * count))


def _clamped_scores(
    clamp: Score, first: Score, then: Score, compounding: bool, penalty: int, score: Score
) -> tuple[Score, Score]:
    """What the first and each added die of a chain add up to when every die is worth
    its clamped value (``!!``: summed as worth, scored as a unit afterwards)."""
    if compounding:
        lowered = 1 if then is _less_one else 0
        return clamp, lambda value: clamp(value - lowered)
    return (lambda value: score(clamp(value))), (lambda value: score(clamp(value - penalty)))


def _chains_denominator(denominator: int, depth: int, count: int) -> int:
    """Every chain followed to ``depth`` added dice: the common denominator."""
    common: int = denominator ** ((depth + 1) * count)
    return common


def standing_weights(faces: list[int], reroll: Reroll | None) -> tuple[Counts, int]:
    """The value a die stands on after its re-rolls (natural values), as weights over
    a denominator. ``faces`` are the values of equally likely faces."""
    sides = len(faces)
    plain: Counts = {}
    for value in faces:
        plain[value] = plain.get(value, 0) + 1
    if reroll is None:
        return plain, sides
    if reroll.then is not None:
        return _chained_standing(plain, reroll)
    matches = reroll.condition.matches
    again = sum(count for value, count in plain.items() if matches(value))
    if reroll.once:  # the first face if it stands, else a fresh one, which stands
        once = {v: (0 if matches(v) else sides * c) + again * c for v, c in plain.items()}
        return {v: c for v, c in once.items() if c}, sides * sides
    standing = {v: c for v, c in plain.items() if not matches(v)}
    if not standing:
        raise DiceError("every face re-rolls, so the roll would never end")
    return standing, sides - again


def _chained_standing(plain: Counts, reroll: Reroll) -> tuple[Counts, int]:
    """Where a die stands after several re-rolls (``2d8r1r3``, ``r1ro6``): re-rolled
    while a repeated condition holds, so the first face beyond them is any of the ``n``
    faces they let stand alike; when that face meets only a once condition (``o`` such
    faces), once more, again to any of those ``n``. So each face left standing weighs
    ``n`` when no once condition holds for it, ``0`` when one does, plus ``o``, over
    ``n * n``."""
    free = {v: c for v, c in plain.items() if not reroll.repeats(v)}
    n = sum(free.values())
    if not n:
        raise DiceError("every face re-rolls, so the roll would never end")
    o = sum(c for v, c in free.items() if reroll.once_only(v))
    standing = {v: c * ((0 if reroll.once_only(v) else n) + o) for v, c in free.items()}
    return {v: c for v, c in standing.items() if c}, n * n


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


def _chain_parts(
    standing: Counts, explodes: frozenset[int], first: Score, later: Score
) -> tuple[Counts, Counts, Counts, Counts]:
    """The scored weights of the first die and of an added die, each split into the
    faces that explode and those that stop: first_on, first_off, later_on, later_off."""

    def part(score: Score, exploding: bool) -> Counts:
        return mapped({v: c for v, c in standing.items() if (v in explodes) == exploding}, score)

    return part(first, True), part(first, False), part(later, True), part(later, False)


def chain_work(
    standing: Counts, explodes: frozenset[int], depth: int, first: Score, later: Score
) -> int:
    """Estimated work of :func:`chain_total`: a power of the exploding faces, one
    division of polynomials as long as it, and two small convolutions."""
    if depth == 0:
        return 0
    first_on, _, later_on, later_off = _chain_parts(standing, explodes, first, later)
    span = max(later_on) - min(later_on)
    bits = sum(standing.values()).bit_length()
    width = slot_bytes_for_bits(bits * depth)
    series = span * (depth - 1) + 1
    work = power_estimate(later_on, depth) + division_work(series, len(later_on), width)
    ends = (len(first_on) * len(later_off), span + max(first_on) - min(first_on), 2 * bits)
    return work + convolve_work((series, series, bits * depth), ends)


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
    added. Weights are over the standing denominator to the power ``depth + 1``.

    A chain that stops after ``s`` added dice is a first die that explodes, ``s - 1``
    added dice that explode and one that stops; scaled to the common denominator
    ``D ** (depth + 1)`` it carries ``D ** (depth - s)``. Summed over ``s``:
    ``first_off * D**depth + first_on * later_off * G`` with the geometric series
    ``G = sum(later_on**t * D**(depth - 1 - t) for t < depth)``, which is
    ``(later_on**depth - D**depth) / (later_on - D)``: one power and one exact
    division of polynomials (:func:`geometric_series`).
    """
    denominator = sum(standing.values())
    first_on, first_off, later_on, later_off = _chain_parts(standing, explodes, first, later)
    total = scaled(first_off, denominator**depth)
    if depth and first_on:
        ends = convolve(first_on, later_off, what)
        add_into(total, convolve(ends, geometric_series(later_on, denominator, depth, what), what))
    return total


def division_work(length: int, terms: int, width: int) -> int:
    """Estimated work of :func:`geometric_series`'s exact division: ``terms`` products
    of big integers (of ``width`` bytes) for each of the quotient's ``length``
    coefficients."""
    return recurrence_work(length, terms, width, False)


def geometric_series(ratio: Counts, constant: int, terms: int, what: str) -> Counts:
    """``sum(ratio**t * constant**(terms - 1 - t) for t in range(terms))`` as weights
    (``ratio`` a polynomial, its keys the exponents; ``constant`` larger than its
    total weight), by ``(A**terms - B**terms) / (A - B)``.

    With ``m`` the lowest exponent of ``ratio``, write ``ratio = x**m * R`` (``R`` has
    a constant term). For ``m >= 0``, ``A = x**m * R`` and ``B = constant``; for
    ``m < 0``, ``A = R`` and ``B = constant * x**-m``, and the sum is the quotient
    times ``x**(m * (terms - 1))``. Either way ``A - B`` has a non-zero constant term,
    so the quotient, a polynomial with integer coefficients, comes out lowest
    coefficient first, each one an exact integer division.
    """
    if terms == 0:
        return {}
    low = min(ratio)
    up, down = max(low, 0), max(-low, 0)
    a = {value - low + up: weight for value, weight in ratio.items()}
    numerator = power(a, terms, what)
    b_power = down * terms
    numerator[b_power] = numerator.get(b_power, 0) - constant**terms
    divisor = dict(a)
    divisor[down] = divisor.get(down, 0) - constant
    steps = sorted((degree, weight) for degree, weight in divisor.items() if weight and degree)
    lead = divisor[0]
    length = max(numerator) - max(divisor) + 1
    width = slot_bytes_for_bits(constant.bit_length() * terms)
    check_work(division_work(length, len(steps) + 1, width), what)
    quotient: list[int] = []
    for k in range(length):
        remainder = numerator.get(k, 0)
        for exponent, weight in steps:
            if exponent > k:
                break
            remainder -= weight * quotient[k - exponent]
        quotient.append(remainder // lead)
    shift = low * (terms - 1) if low < 0 else 0
    return {k + shift: count for k, count in enumerate(quotient) if count}


def _identical_units(
    unit: Counts, count: int, modifiers: Modifiers, score: Score, what: str
) -> Counts:
    """``count`` independent identical units, kept/dropped and scored."""
    if modifiers.keep is None:
        return power(mapped(unit, score), count, what)
    if keeps_middle(modifiers.keep, count):  # km, dl1kh2: a window of the ranks
        return keep_middle_identical(unit, count, modifiers.keep, score, what)
    keep_highest, kept = kept_end(modifiers.keep, count)
    return keep_identical(unit, count, keep_highest, kept, score, what)
