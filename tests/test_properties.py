"""Properties of the generic roller that must hold for every expression (Hypothesis).

The expressions come from ``tests/strategies.py``. The oracles here are written from
the rules and ``docs/grammar.md``, not from the core: :func:`bounds` computes the least
and greatest total an expression can roll by interval arithmetic over its syntax tree,
and :func:`reference_total` recomputes a total from the dice a roll reports.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import (
    CHECK_OPS,
    COMPARE_OPS,
    KEEP_KINDS,
    NAMES,
    comparison_nodes,
    custom_faces,
    die_values,
    endless_dice_text,
    exploding_values,
    expr_nodes,
    junk_text,
    line_text,
    near_miss_text,
    standing_values,
)

import dicecli
from dicecli import DiceError, RollLimitError, parse
from dicecli.breakdown import breakdown
from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.notation.dice import Die, die_for_sides
from dicecli.notation.nodes import (
    BinaryOp,
    Call,
    CheckOp,
    CompareOp,
    Comparison,
    ComputedDice,
    Condition,
    Dice,
    Expr,
    Group,
    Keep,
    KeepKind,
    Labelled,
    Modifiers,
    Name,
    Negate,
    Number,
    PercentOf,
    Roll,
    Sides,
)
from dicecli.notation.sides import FaceList
from dicecli.result_tree import dice_in
from dicecli.results import DieRoll
from dicecli.rolling.dice_steps import rolled_one_by_one_step, with_criticals
from dicecli.rolling.evaluate import Evaluation, step_of
from dicecli.rolling.rerolls_and_explosions import values_matching
from dicecli.rolling.sources import RandomSource, Roller
from dicecli.systems import registry

# Full example counts; the quick run tries fewer (tests/property_counts.py).
_RELAXED: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
MANY = settings(max_examples=examples(150), **_RELAXED)  # cheap examples
LINES = settings(max_examples=examples(60), **_RELAXED)  # whole generated lines
FEW = settings(max_examples=examples(25), **_RELAXED)  # each rolls up to the budget

T = TypeVar("T")
_GAME_WORDS = "0123456789 +-dD,.:=<>#vstnaF" + "".join(map(chr, range(ord("a"), ord("z") + 1)))
INF = math.inf
Bound = float  # an int, or +-inf


# --- the parser and the roller never crash ------------------------------------------


def _attempt(call: Callable[[], T]) -> T | DiceError:
    """What ``call`` returns, or the :class:`DiceError` it raises (any other error escapes)."""
    try:
        return call()
    except DiceError as error:
        return error


def _roll(text: str, **options: Any) -> dicecli.RollResult | None:
    """Roll ``text`` with :data:`NAMES`; None when it divided by zero, raised to a
    negative power or passed the digits a value may have."""
    outcome = _attempt(lambda: dicecli.roll(text, values=NAMES, **options))
    if isinstance(outcome, DiceError):
        arithmetic = ("division by zero", "a negative power", "value too large")
        assert any(words in outcome.message for words in arithmetic), outcome.message
        return None
    return outcome


@LINES
@given(st.one_of(junk_text(), near_miss_text(), line_text()))
def test_parse_returns_a_roll_or_raises_dice_error(text: str) -> None:
    outcome = _attempt(lambda: parse(text))
    assert isinstance(outcome, (Roll, DiceError))
    if isinstance(outcome, DiceError):
        assert outcome.message


@LINES
@given(st.one_of(junk_text(), near_miss_text(), line_text()))
def test_roll_returns_a_result_or_raises_dice_error(text: str) -> None:
    outcome = _attempt(lambda: dicecli.roll(text, seed=0))
    assert isinstance(outcome, (dicecli.RollResult, DiceError))
    if isinstance(outcome, dicecli.RollResult):
        assert isinstance(outcome.total, int)


@LINES
@given(
    st.sampled_from(sorted(registry.keywords())),
    st.one_of(junk_text(), near_miss_text(), st.text(st.sampled_from(_GAME_WORDS), max_size=30)),
)
def test_game_lines_never_crash(keyword: str, rest: str) -> None:
    # a line starting with a game keyword goes to that game's grammar and rules
    text = f"{keyword} {rest}"
    assert isinstance(_attempt(lambda: parse(text)), (Roll, DiceError))
    outcome = _attempt(lambda: dicecli.roll(text, seed=0))
    assert isinstance(outcome, (dicecli.RollResult, DiceError))


@LINES
@given(st.one_of(junk_text(), near_miss_text()))
def test_syntax_errors_point_inside_the_text(text: str) -> None:
    outcome = _attempt(lambda: parse(text))
    if isinstance(outcome, dicecli.DiceSyntaxError):
        assert outcome.text == text
        assert outcome.position is not None
        assert 0 <= outcome.position <= len(text)
        assert outcome.show().startswith("error: ")


@pytest.mark.parametrize("text", ["1/0", "d6/0", "5/(3-3)", "{1, 2}kh1/(d6-d6+0*d4-d6+d6)"])
def test_division_by_zero_is_a_dice_error(text: str) -> None:
    # "d6-d6+..." is zero only for some rolls: pin the dice so it is.
    given = ",".join(["3"] * text.count("d"))
    with pytest.raises(DiceError, match="division by zero"):
        dicecli.roll(text, given=given)


@MANY
@given(endless_dice_text())
def test_endless_rolls_are_refused_by_the_grammar(text: str) -> None:
    with pytest.raises(dicecli.DiceSyntaxError, match="never end"):
        parse(text)


# --- round trip: canonical text parses back to the same tree ------------------------


@LINES
@given(line_text())
def test_canonical_text_of_a_parsed_line_parses_back(text: str) -> None:
    line = parse(text)
    assert parse(str(line.body)).body == line.body
    assert parse(str(line)) == line
    assert str(parse(str(line.body)).body) == str(line.body)  # canonical is a fixed point


@MANY
@given(expr_nodes())
def test_printed_tree_parses_back_to_the_same_tree(node: Expr) -> None:
    assert parse(str(node)).body == node


@MANY
@given(comparison_nodes())
def test_printed_check_parses_back_to_the_same_check(node: Comparison) -> None:
    assert parse(str(node)).body == node


# --- totals lie within bounds -------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """The totals an expression can reach: ``low <= total <= high`` (ends may be inf)."""

    low: Bound
    high: Bound

    def __contains__(self, value: Bound) -> bool:
        return self.low <= value <= self.high


def _times(a: Bound, b: Bound) -> Bound:
    """a * b where 0 * inf is 0: a factor of exactly 0 makes the product 0."""
    return 0 if a == 0 or b == 0 else a * b


def _ceil_div(a: Bound, b: Bound) -> Bound:
    """a / b rounded up (rule N3), with limits at infinity."""
    if math.isinf(b):
        return 0
    if math.isinf(a):
        return a if b > 0 else -a
    return -(-int(a) // int(b))


def _power_bounds(base: Span, exponent: Span) -> Span:
    """The least and greatest ``a ^ e``: at the ends of the base (or -1, 0, 1 within
    it) and the ends of the exponent's whole-number part, each end of both parities (a
    negative base): an exponent from -4 to 4 ends at 0 and 1 below, not at -4."""
    if base.low < -1 and math.isinf(exponent.high):
        return Span(-INF, INF)
    ends = (exponent.low, exponent.low + 1, exponent.high - 1, exponent.high, 0, 1)
    exponents = {e for e in ends if e in exponent and e >= 0}
    if not exponents:
        return Span(0, 0)  # always a negative power: an error, never a total
    bases = {a for a in (base.low, base.high, -1, 0, 1) if a in base}
    return _spread([_power(a, e) for a in bases for e in exponents])


def _power(a: Bound, e: Bound) -> Bound:
    """a ^ e (e >= 0), infinite where it would pass the digits a value may have."""
    if e == 0:
        return 1
    if abs(a) > 1 and (math.isinf(a) or e > 400):
        return INF if a > 0 or (not math.isinf(e) and e % 2 == 0) else -INF
    if math.isinf(e):
        return 0 if a == 0 else 1 if a == 1 else INF  # -1 and the rest: a wide bound holds
    power: int = int(a) ** int(e)  # e >= 0: a whole number
    return power


def _spread(values: Sequence[Bound]) -> Span:
    return Span(min(values), max(values))


def _count_kept(keep: Keep | None, units: Span) -> Span:
    """How many units keep/drop keeps, from how many there are."""
    if keep is None:
        return units
    if keep.kind in ("kh", "kl", "km"):
        kept = Span(min(keep.amount, units.low), min(keep.amount, units.high))
    else:
        kept = Span(max(0, units.low - keep.amount), max(0, units.high - keep.amount))
    return _count_kept(keep.then, kept)  # a chain: each keeps of what the one before kept


def _sum_of(count: Span, each: Span) -> Span:
    """The sum of ``count`` values each within ``each``."""
    lows = [_times(c, each.low) for c in (count.low, count.high)]
    highs = [_times(c, each.high) for c in (count.low, count.high)]
    return Span(min(lows), max(highs))


def _score(value: int, modifiers: Modifiers) -> int:
    """+1 success (+2 when it meets ``ds`` too), -1 failure, 0 otherwise (docs/grammar.md,
    modifier order step 4)."""
    if modifiers.success is not None and modifiers.success.matches(value):
        return 2 if modifiers.double is not None and modifiers.double.matches(value) else 1
    if modifiers.failure is not None and modifiers.failure.matches(value):
        return -1
    return 0


def _scores_over(span: Span, modifiers: Modifiers) -> Span:
    """The scores values within ``span`` can get: sample every piece of the step function."""
    conditions = [
        c for c in (modifiers.success, modifiers.failure, modifiers.double) if c is not None
    ]
    points = {c.value + d for c in conditions for d in (-1, 0, 1)}
    far = 10**9
    candidates = [p for p in points if p in span]
    candidates += [int(end) for end in (span.low, span.high) if not math.isinf(end)]
    if span.low == -INF:
        candidates.append(-far)
    if span.high == INF:
        candidates.append(far)
    return _spread([_score(v, modifiers) for v in candidates])


def _clamp(value: int, modifiers: Modifiers) -> int:
    """What a die of natural worth ``value`` counts for within ``min``/``max`` clamps."""
    if modifiers.clamp_low is not None:
        value = max(value, modifiers.clamp_low)
    if modifiers.clamp_high is not None:
        value = min(value, modifiers.clamp_high)
    return value


def _unit_span(sides: Sides, modifiers: Modifiers) -> tuple[Span, Span]:
    """(what one unit keep/drop sees can be worth, how many units there are per die);
    each die is worth its clamped value (conditions judge the natural face)."""
    standing = standing_values(sides, modifiers.reroll)
    exploding = exploding_values(sides, modifiers)
    explode = modifiers.explode
    worth = [_clamp(v, modifiers) for v in standing]
    if explode is None or not exploding:
        return _spread(worth), Span(1, 1)
    if explode.kind == "!":
        return _spread(worth), Span(1, INF)
    if explode.kind == "!p":  # added dice are worth one less
        less_one = [_clamp(v - 1, modifiers) for v in standing]
        return Span(min(worth + less_one), max(worth + less_one)), Span(1, INF)
    # "!!", "!!p": one unit per die: the exploding faces, then one that does not explode
    less = 1 if explode.kind == "!!p" else 0  # each added die worth one less
    last = [_clamp(v, modifiers) for v in standing if v not in exploding]
    first = [_clamp(v, modifiers) for v in exploding]
    added_last = [_clamp(v - less, modifiers) for v in standing if v not in exploding]
    added_exploding = [_clamp(v - less, modifiers) for v in exploding]
    low: Bound = min(min(last), min(first) + min(added_last))
    if min(added_exploding) < 0 or min(first) + min(added_exploding) + min(added_last) < low:
        low = -INF  # an added die worth less than nothing may come again and again
    return Span(low, INF), Span(1, 1)


def _dice_bounds(node: Dice) -> Span:
    modifiers = node.modifiers
    each, units_per_die = _unit_span(node.sides, modifiers)
    units = Span(node.count * units_per_die.low, _times(node.count, units_per_die.high))
    kept = _count_kept(modifiers.keep, units)
    if modifiers.success is None:
        return _sum_of(kept, each)
    if math.isinf(each.low) or math.isinf(each.high):
        scores = _scores_over(each, modifiers)
    else:
        explode = modifiers.explode
        values = set(standing_values(node.sides, modifiers.reroll))
        if explode is not None and explode.kind == "!p" and exploding_values(node.sides, modifiers):
            values |= {v - 1 for v in values}
        scores = _spread([_score(_clamp(v, modifiers), modifiers) for v in values])
    return _sum_of(kept, scores)


def _choose(spans: list[Span], count: int) -> Span:
    """Any ``count`` of the items: at least the lowest lows, at most the highest highs."""
    lows = sorted(s.low for s in spans)[:count]
    highs = sorted((s.high for s in spans), reverse=True)[:count]
    return Span(sum(lows), sum(highs))


def _kept_ranks(keep: Keep | None, count: int) -> list[int]:
    """The ranks (0 the lowest) that a chain of keeps and drops keeps of ``count``
    values, each step taking from what the one before kept, as docs/grammar.md says:
    ``km`` keeps the middle, the dice left out split with the odd one on top."""
    ranks = list(range(count))
    while keep is not None:
        number = min(keep.amount, len(ranks))
        if keep.kind == "kh":
            ranks = ranks[len(ranks) - number :]
        elif keep.kind == "kl":
            ranks = ranks[:number]
        elif keep.kind == "dh":
            ranks = ranks[: len(ranks) - number]
        elif keep.kind == "dl":
            ranks = ranks[number:]
        else:
            start = (len(ranks) - number) // 2
            ranks = ranks[start : start + number]
        keep = keep.then
    return ranks


def _choose_window(spans: list[Span], keep: Keep) -> Span:
    """The items a keep chain keeps by rank: the k-th lowest value lies between the
    k-th lowest low and the k-th lowest high."""
    ranks = _kept_ranks(keep, len(spans))
    lows, highs = sorted(s.low for s in spans), sorted(s.high for s in spans)
    return Span(sum(lows[r] for r in ranks), sum(highs[r] for r in ranks))


def pooled_terms(node: Group) -> list[Dice] | None:
    """The dice terms a one-item group's keep/drop picks among, die by die
    (``{4d6+3d8}k4``; docs/grammar.md, "Groups"): dice added together that do not
    explode, keep, count, sort, are unique or clamped on their own. None for other
    groups."""
    if len(node.items) != 1 or node.modifiers.keep is None:
        return None
    terms, pending = [], [node.items[0]]
    while pending:
        item = pending.pop()
        mods = item.modifiers if isinstance(item, Dice) else None
        if isinstance(item, BinaryOp) and item.op == "+":
            pending += [item.right, item.left]
        elif mods is not None and not (mods.explode or mods.keep or mods.sort or mods.unique):
            if mods.success is not None or mods.failure is not None:
                return None
            if mods.clamp_low is not None or mods.clamp_high is not None:
                return None
            assert isinstance(item, Dice)
            terms.append(item)
        else:
            return None
    return terms


def _group_bounds(node: Group, divides: list[Span]) -> Span:
    pooled = pooled_terms(node)
    keep = node.modifiers.keep
    if pooled is not None and keep is not None:  # each die is an item
        dice = [_spread(standing_values(t.sides, t.modifiers.reroll)) for t in pooled]
        each = [span for term, span in zip(pooled, dice, strict=True) for _ in range(term.count)]
        count = int(_count_kept(keep, Span(len(each), len(each))).low)
        if node.modifiers.success is not None:  # each kept die scored
            return _choose([_scores_over(die, node.modifiers) for die in each], count)
        return _choose_window(each, keep)
    items = [bounds(item, divides) for item in node.items]
    keep = node.modifiers.keep
    count = int(_count_kept(keep, Span(len(items), len(items))).low)
    if node.modifiers.success is not None:  # kept by value, then scored: any subset
        return _choose([_scores_over(item, node.modifiers) for item in items], count)
    if keep is None:
        return _choose(items, count)
    return _choose_window(items, keep)


def _binary_bounds(node: BinaryOp, divides: list[Span]) -> Span:
    left, right = bounds(node.left, divides), bounds(node.right, divides)
    if node.op == "+":
        return Span(left.low + right.low, left.high + right.high)
    if node.op == "-":
        return Span(left.low - right.high, left.high - right.low)
    if node.op == "*":
        return _spread(
            [_times(a, b) for a in (left.low, left.high) for b in (right.low, right.high)]
        )
    if node.op == "^":
        return _power_bounds(left, right)
    if node.op == "//":
        divides.append(right)
        divisors = {d for d in {right.low, right.high, -1, 1} - {0} if d in right}
        if not divisors:
            return Span(0, 0)
        ends = (left.low, left.high)
        return _spread([_rounded_quotient("floor", a, d) for a in ends for d in divisors])
    if node.op == "%":  # a remainder lies between 0 and the divisor, which it never reaches
        divides.append(right)
        return Span(min(0, right.low + 1), max(0, right.high - 1))
    divides.append(right)
    divisors = {right.low, right.high, -1, 1} - {0}
    divisors = {d for d in divisors if d in right}
    if not divisors:
        return Span(0, 0)  # always divides by zero
    if any(math.isinf(a) for a in (left.low, left.high)) and any(map(math.isinf, divisors)):
        return Span(-INF, INF)
    return _spread([_ceil_div(a, d) for a in (left.low, left.high) for d in divisors])


def _rounded_quotient(function: str, a: Bound, b: Bound) -> Bound:
    """a / b, exact, rounded by ``function`` (floor, ceil, round: halves up)."""
    if math.isinf(b):
        return 0
    if math.isinf(a):
        return a if b > 0 else -a
    exact = Fraction(int(a), int(b))
    if function == "floor":
        return math.floor(exact)
    if function == "ceil":
        return math.ceil(exact)
    return math.floor(exact + Fraction(1, 2))


def _call_bounds(node: Call, divides: list[Span]) -> Span:
    first = node.args[0]
    rounding = node.function in ("floor", "ceil", "round")
    if rounding and isinstance(first, BinaryOp) and first.op == "/":
        left, right = bounds(first.left, divides), bounds(first.right, divides)
        divides.append(right)
        divisors = {d for d in {right.low, right.high, -1, 1} - {0} if d in right}
        if not divisors:
            return Span(0, 0)
        if any(math.isinf(a) for a in (left.low, left.high)) and any(map(math.isinf, divisors)):
            return Span(-INF, INF)
        ends = (left.low, left.high)
        return _spread([_rounded_quotient(node.function, a, d) for a in ends for d in divisors])
    if rounding and isinstance(first, PercentOf):
        inner = bounds(first.operand, divides)
        wholes = [_times(first.percent, end) for end in (inner.low, inner.high)]
        return _spread([_rounded_quotient(node.function, whole, 100) for whole in wholes])
    spans = [bounds(arg, divides) for arg in node.args]
    if node.function == "min":
        return Span(min(s.low for s in spans), min(s.high for s in spans))
    if node.function == "max":
        return Span(max(s.low for s in spans), max(s.high for s in spans))
    if node.function == "abs":
        (span,) = spans
        low = 0 if 0 in span else min(abs(span.low), abs(span.high))
        return Span(low, max(abs(span.low), abs(span.high)))
    return spans[0]  # floor, ceil, round of a whole number: that number


def _computed_dice_bounds(node: ComputedDice, divides: list[Span]) -> Span:
    """Every count and size the dice may come to: the widest of their bounds."""
    count = bounds(node.count, divides)
    sizes: list[Sides] = [node.sides] if isinstance(node.sides, str) else []
    if not isinstance(node.sides, str):
        span = bounds(node.sides, divides)
        sizes = list(range(int(span.low), int(span.high) + 1))
    counts = range(int(count.low), int(count.high) + 1)
    spans = [_dice_bounds(Dice(c, size, node.modifiers)) for c in counts for size in sizes]
    return Span(min(s.low for s in spans), max(s.high for s in spans))


def bounds(node: Expr, divides: list[Span]) -> Span:
    """The least and greatest total of ``node``; every divisor's span is put in ``divides``."""
    if isinstance(node, Call):
        return _call_bounds(node, divides)
    if isinstance(node, ComputedDice):
        return _computed_dice_bounds(node, divides)
    if isinstance(node, Number):
        return Span(node.value, node.value)
    if isinstance(node, Name):
        value = NAMES[node.name.casefold()]
        return Span(value, value)
    if isinstance(node, Dice):
        return _dice_bounds(node)
    if isinstance(node, Group):
        return _group_bounds(node, divides)
    if isinstance(node, Labelled):
        return bounds(node.expr, divides)
    if isinstance(node, Negate):
        inner = bounds(node.operand, divides)
        return Span(-inner.high, -inner.low)
    if isinstance(node, PercentOf):
        inner = bounds(node.operand, divides)
        return Span(*(_ceil_div(_times(node.percent, end), 100) for end in (inner.low, inner.high)))
    assert isinstance(node, BinaryOp)
    return _binary_bounds(node, divides)


def _check_total_within_bounds(text: str, seed: int) -> Span:
    body = parse(text).body
    divides: list[Span] = []
    if isinstance(body, Comparison):  # the total is the left side's; the target's
        bounds(body.right, divides)  # divisors may divide by zero too
        body = body.left
    assert isinstance(body, Expr)
    span = bounds(body, divides)
    result = _roll(text, seed=seed)
    if result is None:
        assert any(0 in divisor for divisor in divides)
        return span
    assert result.total is not None
    assert result.total in span, f"{result.total} not in [{span.low}, {span.high}]"
    return span


@LINES
@given(line_text(explosions=False), st.integers(0, 2**32))
def test_total_lies_within_bounds(text: str, seed: int) -> None:
    span = _check_total_within_bounds(text, seed)
    assert not math.isinf(span.low)
    assert not math.isinf(span.high)


@LINES
@given(line_text(), st.integers(0, 2**32))
def test_total_with_explosions_lies_within_bounds(text: str, seed: int) -> None:
    _check_total_within_bounds(text, seed)


_PASSES: dict[CheckOp, Callable[[int, int], bool]] = {
    ">=": lambda total, target: total >= target,
    "<=": lambda total, target: total <= target,
    ">": lambda total, target: total > target,
    "<": lambda total, target: total < target,
    "=": lambda total, target: total == target,
    "!=": lambda total, target: total != target,
}


@MANY
@given(comparison_nodes(), st.integers(0, 2**32))
def test_a_check_passes_when_its_total_compares_so_with_its_target(
    node: Comparison, seed: int
) -> None:
    result = _roll(str(node), seed=seed)
    if result is None:
        return
    assert result.outcome is not None
    assert result.total is not None
    fields = dict(result.outcome.fields)
    target = fields["target"]
    assert isinstance(target, int)
    passed = _PASSES[node.op](result.total, target)
    assert result.outcome.passed is fields["success"] is passed
    # the margin is how far past the target, the way the check wants (down for <=, <)
    downwards = node.op in ("<=", "<")
    assert fields["margin"] == (target - result.total if downwards else result.total - target)
    assert result.failed is not passed
    # the target is the right side rolled after the left: its own bounds hold
    assert target in bounds(node.right, [])
    assert node.op in CHECK_OPS


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [  # the oracle itself, against ranges worked out by hand
        ("D6+2", 3, 8),  # rule N1
        ("3D6-3", 0, 15),  # rule N1
        ("D6x5", 5, 30),  # rule N1
        ("2D6/2", 1, 6),  # rule N3: 2/2 = 1, 12/2 = 6
        ("3/2D6", 1, 2),  # rule N3: 3/12 rounds up to 1, 3/2 to 2
        ("10% of 51", 6, 6),  # rule N3
        ("D3", 1, 3),  # rule N4
        ("4d6kh3", 3, 18),
        ("4d6dl1", 3, 18),
        ("5dF", -5, 5),
        ("2d6r<3", 6, 12),
        ("2d6ro<3", 2, 12),
        ("4d6>=5f1", -4, 4),
        ("4d6>=7", 0, 0),
        ("{d6, d8, 5}kh1", 5, 8),
        ("-(d6 - d4)*2", -10, 6),
        ("d6!", 1, INF),
        ("3d6!kh2", 2, 12),
        ("d6!!", 1, INF),
        ("d6!p", 0, INF),  # a true bound, if loose: the least total is 1
        ("6/(d6-d4)", -6, 6),  # the divisor spans 0: -1 and 1 bound it
        ("dF!!", -1, INF),
        ("3d{-1,0,1}", -3, 3),  # custom faces: their values
        ("2d{1,1,2,3,5,8}", 2, 16),
        ("4d{1..4,10}kh2", 2, 20),
        ("2d{-2..2}r", -2, 4),  # the bare r re-rolls the lowest face, -2
        ("3d{-1,0,1}>=1f=-1", -3, 3),
        ("d{1..4,10}!", 1, INF),
        ("(d4)d{0,1}", 0, 4),
    ],
)
def test_bounds_oracle_matches_hand_worked_ranges(text: str, low: Bound, high: Bound) -> None:
    body = parse(text).body
    assert isinstance(body, Expr)
    assert bounds(body, []) == Span(low, high)


# --- seeds, marks, keep counts, die values ------------------------------------------


@LINES
@given(line_text(), st.integers(0, 2**64))
def test_same_text_and_seed_roll_the_same(text: str, seed: int) -> None:
    first = _roll(text, seed=seed)
    again = _roll(text, seed=seed)
    assert (first and first.as_dict()) == (again and again.as_dict())


@LINES
@given(line_text(), st.integers(0, 2**32))
def test_discarded_dice_say_why(text: str, seed: int) -> None:
    result = _roll(text, seed=seed)
    for die in result.dice if result else ():
        if not die.kept:
            assert {"dropped", "rerolled"} & set(die.marks), die
        if "rerolled" in die.marks or "dropped" in die.marks:
            assert not die.kept, die


_FACE_VALUES: dict[str, dict[str, int]] = {
    "dF": {"-": -1, "0": 0, "+": 1},
    "dF.1": {"-": -1, "0": 0, "+": 1},
    "D3": {str(n): (n + 1) // 2 for n in range(1, 7)},  # rule N4
}


@LINES
@given(line_text(), st.integers(0, 2**32))
def test_every_die_shows_its_natural_face_and_its_worth(text: str, seed: int) -> None:
    # rule N5: the natural face is kept beside what the die is worth
    result = _roll(text, seed=seed)
    for die in result.dice if result else ():
        natural = _FACE_VALUES.get(die.die, {}).get(die.face)
        if natural is None and die.die.startswith("d{"):  # custom faces: shown as written
            natural = int(die.face)
            assert natural in custom_faces(FaceList(die.die[1:])), die
        elif natural is None:
            natural = int(die.face)
            sides = 100 if die.die == "d%" else int(die.die[1:])
            assert 1 <= natural <= sides
        worth = natural - 1 if "penetrated" in die.marks else natural
        if "clamped" in die.marks:  # min3/max6: worth the bound, beyond its face
            assert die.value != worth, die
        else:
            assert die.value == worth, die


def _worth(die: DieRoll) -> int:
    assert die.value is not None, die
    return die.value


@st.composite
def keep_dice_text(draw: st.DrawFn) -> tuple[str, Keep, int]:
    """``NdS`` with keep/drop and perhaps a re-roll: (text, keep, dice count)."""
    sides = draw(st.sampled_from([2, 4, 6, 10, 20, "%", "F"]))
    count = draw(st.integers(1, 8))
    kind: KeepKind = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
    keep = Keep(kind, draw(st.integers(0, count + 2)))  # kh0 keeps nothing: worth 0
    endless_free = {2: "r1", "F": "r<0"}.get(sides, "r<2")  # never every face
    reroll = draw(st.sampled_from(["", "ro1", endless_free]))
    return f"{count}d{sides}{reroll}{keep}", keep, count


@MANY
@given(keep_dice_text(), st.integers(0, 2**32))
def test_keep_and_drop_keep_the_right_number_of_the_right_dice(
    case: tuple[str, Keep, int], seed: int
) -> None:
    text, keep, count = case
    result = dicecli.roll(text, seed=seed)
    standing = [die for die in result.dice if "rerolled" not in die.marks]
    assert len(standing) == count
    kept = [_worth(die) for die in standing if die.kept]
    dropped = [_worth(die) for die in standing if not die.kept]
    kept_count = min(keep.amount, count)
    if keep.kind in ("dh", "dl"):
        kept_count = count - kept_count
    assert len(kept) == kept_count
    if kept and dropped:
        if keep.kind in ("kh", "dl"):
            assert min(kept) >= max(dropped)
        else:
            assert max(kept) <= min(dropped)
    assert result.total == sum(kept)


_COUNTING_SIDES: tuple[Sides, ...] = (6, 10, 20, "F", "3")


@st.composite
def success_dice_text(draw: st.DrawFn) -> tuple[str, Condition, Condition | None]:
    sides = draw(st.sampled_from(_COUNTING_SIDES))
    values = die_values(sides)
    ops = st.sampled_from(COMPARE_OPS)
    success = Condition(draw(ops), draw(st.integers(max(0, values[0]), values[-1] + 1)))
    failure = draw(st.none() | st.builds(Condition, ops, st.integers(0, values[-1])))
    tail = "" if failure is None else f"f{failure}"
    return f"{draw(st.integers(1, 10))}d{sides}{success}{tail}", success, failure


@MANY
@given(success_dice_text(), st.integers(0, 2**32))
def test_success_counting_counts_successes_minus_failures(
    case: tuple[str, Condition, Condition | None], seed: int
) -> None:
    text, success, failure = case
    result = dicecli.roll(text, seed=seed)
    values = [die.value for die in result.dice]
    wins = sum(1 for v in values if v is not None and success.matches(v))
    losses = sum(
        1
        for v in values
        if v is not None and not success.matches(v) and failure and failure.matches(v)
    )
    assert result.total == wins - losses


# --- the table path of keep/count terms agrees with rolling one die at a time ------


@st.composite
def face_decided_dice(draw: st.DrawFn) -> Dice:
    """A dice term with keep/drop and/or success counting and no re-roll or explosion:
    the terms whose outcome the evaluator looks up per face (dice_steps.py)."""
    sides = draw(st.sampled_from((*_COUNTING_SIDES, 2, "%")))
    values = die_values(sides)
    count = draw(st.integers(1, 8))
    kind = draw(st.sampled_from(KEEP_KINDS))
    keep = draw(st.none() | st.builds(Keep, st.just(kind), st.integers(1, count + 1)))
    condition = st.builds(
        Condition, st.sampled_from(COMPARE_OPS), st.integers(values[0] - 1, values[-1] + 1)
    )
    success, failure = draw(st.none() | condition), draw(st.none() | condition)
    if keep is None and success is None and failure is None:
        keep = Keep("kh", 1)
    return Dice(count, sides, Modifiers(keep=keep, success=success, failure=failure))


@MANY
@given(face_decided_dice(), st.integers(0, 2**32))
def test_face_decided_terms_agree_with_rolling_one_die_at_a_time(node: Dice, seed: int) -> None:
    """The per-face tables are an optimisation: from the same draws, the general path
    (each die rolled in turn, then keep and count) shows the same dice, marks, breakdown
    and total."""
    fast = Evaluation(Roller(RandomSource(seed)), EMPTY_ENVIRONMENT)
    general = Evaluation(Roller(RandomSource(seed)), EMPTY_ENVIRONMENT)
    general_step = with_criticals(
        node, rolled_one_by_one_step(die_for_sides(node.sides), node.count, node.modifiers)
    )
    general_roll, fast_roll = general_step(general), step_of(node)(fast)
    assert general_roll.value == fast_roll.value
    assert dice_in(general_roll) == dice_in(fast_roll)
    assert breakdown(general_roll) == breakdown(fast_roll)
    assert general_roll == fast_roll


# --- given faces replay a seeded roll ----------------------------------------------


@LINES
@given(line_text(), st.integers(0, 2**32))
def test_given_faces_replay_a_seeded_roll(text: str, seed: int) -> None:
    seeded = _roll(text, seed=seed)
    if seeded is None:
        return
    faces = ",".join(die.face for die in seeded.dice)
    replayed = dicecli.roll(text, given=faces, values=NAMES)
    assert replayed.total == seeded.total
    assert replayed.dice == seeded.dice


# --- a reference evaluator for expressions whose dice have no modifiers --------------


def reference_total(node: Expr, dice: Iterator[int]) -> int:
    """The total of ``node`` with its dice worth ``dice`` in roll order."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Name):
        return NAMES[node.name]
    if isinstance(node, Dice):
        return sum(next(dice) for _ in range(node.count))
    if isinstance(node, Labelled):
        return reference_total(node.expr, dice)
    if isinstance(node, Negate):
        return -reference_total(node.operand, dice)
    if isinstance(node, PercentOf):
        return math.ceil(Fraction(node.percent * reference_total(node.operand, dice), 100))
    if isinstance(node, Group):
        pooled = pooled_terms(node)
        if pooled is not None:  # keep/drop among the dice themselves
            faces = [next(dice) for term in pooled for _ in range(term.count)]
            return reference_group_total(node, faces)  # as if each die were an item
        return reference_group_total(node, [reference_total(item, dice) for item in node.items])
    if isinstance(node, Call):
        return reference_call(node, dice)
    if isinstance(node, ComputedDice):  # the count, the sides, then that many dice
        count = reference_total(node.count, dice)
        if not isinstance(node.sides, str):
            reference_total(node.sides, dice)
        return sum(next(dice) for _ in range(count))
    assert isinstance(node, BinaryOp)
    left, right = reference_total(node.left, dice), reference_total(node.right, dice)
    if node.op == "/":
        if right == 0:
            raise ZeroDivisionError
        return math.ceil(Fraction(left, right))  # rule N3
    if node.op == "%":  # the remainder of the division rounded down
        if right == 0:
            raise ZeroDivisionError
        return left - right * math.floor(Fraction(left, right))
    if node.op == "//":  # d20's floor division
        if right == 0:
            raise ZeroDivisionError
        return math.floor(Fraction(left, right))
    if node.op == "^":
        if right < 0:
            raise ArithmeticError("a negative power")
        if abs(left) > 1 and right > 400:  # far more than 100 digits: not worked out
            raise OverflowError
        return _within_digits(left**right)
    if node.op == "*":
        return _within_digits(left * right)
    return {"+": left + right, "-": left - right}[node.op]


def _within_digits(value: int) -> int:
    """``value``, or OverflowError past the 100 digits a value may have (docs/limits.md)."""
    if abs(value) >= 10**100:
        raise OverflowError
    return value


def reference_call(node: Call, dice: Iterator[int]) -> int:
    """A function by the book: an exact quotient or percentage directly inside floor,
    ceil or round is rounded by it; round takes halves up."""
    first = node.args[0]
    exact: Fraction | None = None
    if node.function in ("floor", "ceil", "round"):
        if isinstance(first, BinaryOp) and first.op == "/":
            left, right = reference_total(first.left, dice), reference_total(first.right, dice)
            if right == 0:
                raise ZeroDivisionError
            exact = Fraction(left, right)
        elif isinstance(first, PercentOf):
            exact = Fraction(first.percent * reference_total(first.operand, dice), 100)
    if exact is None:
        values = [reference_total(arg, dice) for arg in node.args]
        if node.function == "min":
            return min(values)
        if node.function == "max":
            return max(values)
        return abs(values[0]) if node.function == "abs" else values[0]
    if node.function == "floor":
        return math.floor(exact)
    if node.function == "ceil":
        return math.ceil(exact)
    return math.floor(exact + Fraction(1, 2))


def reference_group_total(node: Group, values: list[int]) -> int:
    keep = node.modifiers.keep
    ranked = sorted(values)
    while keep is not None:  # each keep of a chain over what the one before kept
        count = min(keep.amount, len(ranked))
        left_out = len(ranked) - count
        ranked = {
            "kh": ranked[len(ranked) - count :],
            "kl": ranked[:count],
            "dh": ranked[: len(ranked) - count],
            "dl": ranked[count:],
            "km": ranked[left_out // 2 : left_out // 2 + count],  # Dice Maiden's middle
        }[keep.kind]
        keep = keep.then
    if node.modifiers.success is None:
        return sum(ranked)
    return sum(_score(v, node.modifiers) for v in ranked)


class RecordingSource:
    """A seeded source that also notes the value of every face it hands out."""

    def __init__(self, seed: int) -> None:
        self.source = dicecli.RandomSource(seed)
        self.values: list[int | None] = []

    def draw(self, die: Die) -> int:
        index = self.source.draw(die)
        self.values.append(die.faces[index].value)
        return index


@MANY
@given(expr_nodes(modifiers=False), st.integers(0, 2**32))
def test_total_matches_a_reference_evaluator(node: Expr, seed: int) -> None:
    source = RecordingSource(seed)
    result = _roll(str(node), source=source)
    dice = iter(v for v in source.values if v is not None)
    if result is None:  # ZeroDivisionError, OverflowError, a negative power
        with pytest.raises(ArithmeticError):
            reference_total(node, dice)
        return
    assert [die.value for die in result.dice] == source.values
    # dice without modifiers count, unless a group dropped the item they rolled for
    # (a lone d20 marks its 20 and 1 critical, dropped or not: docs/grammar.md)
    criticals = {"critical-success", "critical-failure"}
    assert all(die.kept or set(die.marks) - criticals == {"dropped"} for die in result.dice)
    assert result.total == reference_total(node, dice)
    assert next(dice, None) is None  # every die rolled was used, in order


# --- the roll budget ----------------------------------------------------------------


def test_a_roll_over_the_budget_is_refused_before_its_dice_are_rolled() -> None:
    """The term that would cross the budget is refused before any of its dice are
    drawn: the work is bounded by the budget, not by what the line asks."""

    class Counting(RandomSource):
        drawn = 0

        def draw(self, die: Die) -> int:
            Counting.drawn += 1
            return super().draw(die)

        def draw_many(self, die: Die, count: int) -> list[int]:
            Counting.drawn += count
            return super().draw_many(die, count)

    with pytest.raises(RollLimitError):
        dicecli.roll("5000d6+5001d6", source=Counting(1))
    assert Counting.drawn == 5000


@FEW
@given(st.integers(1, 10_000), st.integers(1, 10_000))
def test_two_terms_over_the_budget_are_refused(first: int, second: int) -> None:
    text = f"{first}d6+{second}d6"
    if first + second <= dicecli.DEFAULT_BUDGET:
        assert len(dicecli.roll(text, seed=0).dice) == first + second
    else:
        with pytest.raises(RollLimitError):
            dicecli.roll(text, seed=0)


@LINES
@given(line_text(), st.integers(0, 40), st.integers(0, 2**32))
def test_no_roll_draws_more_dice_than_its_budget(text: str, budget: int, seed: int) -> None:
    limited = _attempt(lambda: dicecli.roll(text, seed=seed, values=NAMES, budget=budget))
    unlimited = _roll(text, seed=seed)
    if isinstance(limited, RollLimitError):
        assert unlimited is None or len(unlimited.dice) > budget
    elif isinstance(limited, DiceError):
        assert "division by zero" in limited.message
    else:
        assert len(limited.dice) <= budget
        assert unlimited is not None
        assert limited.as_dict() == unlimited.as_dict()  # the budget never changes a roll


# --- regressions: core bugs these properties found (fixed in 0f059e6) ---------------


@pytest.mark.parametrize("text", ["d6>=5!", "3d6>=4f1!!", "2d10=10!p", "d6!>=5"])
def test_bare_explosion_beside_a_success_round_trips(text: str) -> None:
    # was: 'd6>=5!' printed as 'd6!>=5', which reads as "explode on >=5", no success
    body = parse(text).body
    assert parse(str(body)).body == body


def test_label_on_a_labelled_expression_round_trips() -> None:
    # was: '(d6[a])[b]' printed as 'd6[a][b]', which does not parse
    body = parse("(d6[a])[b]").body
    assert parse(str(body)).body == body


def test_d03_is_the_d3() -> None:
    # rule N4; was: 'd03' a three-sided die printed as 'd3', the D3: a different die
    assert parse("d03").body == parse("d3").body == Dice(1, "3")


def test_reroll_and_explode_that_never_end_are_refused_by_the_grammar() -> None:
    # was: 'd6r<6!' (every standing face explodes) only stopped by the roll budget
    with pytest.raises(dicecli.DiceSyntaxError, match="never end"):
        parse("d6r<6!")


def test_error_position_after_a_tab_points_at_the_fault() -> None:
    # was: pyparsing expanded tabs, so the position ran past the end of the text
    with pytest.raises(dicecli.DiceSyntaxError) as caught:
        parse("2d6\t+\t?")
    assert caught.value.position == 6
    assert "found '?'" in caught.value.message


def test_tabs_in_labels_and_comments_are_kept() -> None:
    line = parse("d6[a\tb] # c\td")
    assert line.body == Labelled(Dice(1, 6), "a\tb")
    assert line.comment == "c\td"


def test_a_rerolled_penetrating_die_is_worth_one_less() -> None:
    # 2 explodes; the added d2 shows 1, is re-rolled (ro1), and the re-roll shows 1.
    # was: the discarded penetrating die kept its full value
    result = dicecli.roll("d2ro1!p", given="2,1,1")
    assert result.total == 2
    discarded = result.dice[1]
    assert discarded.marks == ("explosion", "penetrated", "rerolled")
    assert discarded.value == 0


@MANY
@given(st.sampled_from(COMPARE_OPS), st.integers(-5, 120), st.integers(-10, 130))
def test_values_matching_a_condition_are_the_values_it_holds_for(
    op: CompareOp, value: int, number: int
) -> None:
    """Re-roll and explosion conditions are checked as ranges (RerollExplodeRules)."""
    condition = Condition(op, value)
    assert (number in values_matching(condition)) == condition.matches(number)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("{0, 0, dex}km1", 0, 0),  # the middle of -1, 0, 0 (found at full example counts)
        ("{1, 2, 3, 4}km2", 5, 5),
        ("{1, 2, 3, 4}dl1kh2", 7, 7),
        ("{1, 2, 3, 4, 5}kh4kl2", 5, 5),
        ("4d6km2", 2, 12),
    ],
)
def test_the_bounds_of_a_keep_chain_follow_its_window(text: str, low: int, high: int) -> None:
    """The oracle itself: a middle window or a chain keeps ranks, not an end."""
    body = parse(text).body
    assert isinstance(body, Expr)
    assert bounds(body, []) == Span(low, high)
