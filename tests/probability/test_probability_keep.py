"""The fast algorithms of the odds engine against slow, obvious ones, on cases too big
for the evaluator-driven brute force of ``test_probability.py``."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli.notation.grammar import parse
from dicecli.notation.nodes import Condition, Dice, Expr, Group, Keep, KeepKind, Modifiers, Reroll
from dicecli.probability import weights as work_budget
from dicecli.probability.distribution import Distribution, small_factors
from dicecli.probability.engine import (
    _score,
    chain_total,
    clear_caches,
    dice_weights,
    distribution,
    geometric_series,
)
from dicecli.probability.keep import (
    Chain,
    Score,
    Tracker,
    _is_uniform,
    _keep_by_threshold,
    _keep_by_walk,
    _keep_uniform,
    keep_identical,
    keep_over_chains,
    keep_over_items,
    keep_over_sorted_chains,
    kept_end,
)
from dicecli.probability.weights import (
    OddsTooBigError,
    Weights,
    convolve,
    miller_power,
    multiply_work,
    power,
    recurrence_work,
    slot_bytes_for_bits,
)

KEEPS: list[KeepKind] = ["kh", "kl", "dh", "dl"]


def expr_of(text: str) -> Expr:
    body = parse(text).body
    assert isinstance(body, Expr)
    return body


# --- convolution --------------------------------------------------------------------


def naive_convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    result: dict[int, int] = {}
    for x, p in a.items():
        for y, q in b.items():
            result[x + y] = result.get(x + y, 0) + p * q
    return result


weights = st.dictionaries(st.integers(-30, 30), st.integers(1, 10**6), min_size=1, max_size=40)


@given(weights, weights)
def test_convolve_matches_the_obvious_double_loop(a: dict[int, int], b: dict[int, int]) -> None:
    assert convolve(a, b) == naive_convolve(a, b)


@settings(max_examples=examples(50))
@given(weights, st.integers(0, 12))
def test_power_matches_repeated_convolution(a: dict[int, int], times: int) -> None:
    expected: dict[int, int] = {0: 1}
    for _ in range(times):
        expected = naive_convolve(expected, a)
    assert power(a, times) == expected


def test_sparse_weights_take_the_pairwise_path() -> None:
    a = {0: 1, 10**6: 1}
    assert convolve(a, a) == {0: 1, 10**6: 2, 2 * 10**6: 1}


# --- keep/drop over identical dice --------------------------------------------------


def enumerate_keep(
    unit: dict[int, int], units: int, keep_highest: bool, kept: int, score: Score
) -> dict[int, int]:
    """Every ordered outcome of ``units`` dice, sorted, kept, scored: the slow truth."""
    result: dict[int, int] = {}
    for faces in itertools.product(unit, repeat=units):
        ordered = sorted(faces, reverse=keep_highest)
        total = sum(score(v) for v in ordered[:kept])
        ways = 1
        for face in faces:
            ways *= unit[face]
        result[total] = result.get(total, 0) + ways
    return result


def counting(value: int) -> int:
    return 1 if value >= 4 else -1 if value == 1 else 0


@settings(max_examples=examples(200))
@given(
    st.dictionaries(st.integers(-3, 8), st.integers(1, 9), min_size=1, max_size=5),
    st.integers(1, 5),
    st.booleans(),
    st.integers(0, 5),
    st.booleans(),
)
def test_keep_identical_matches_enumeration(
    unit: dict[int, int], units: int, keep_highest: bool, kept: int, count: bool
) -> None:
    kept = min(kept, units)
    score: Score = counting if count else (lambda value: value)
    found = keep_identical(unit, units, keep_highest, kept, score, "test")
    expected = enumerate_keep(unit, units, keep_highest, kept, score)
    assert {k: v for k, v in found.items() if v} == expected


@settings(max_examples=examples(80), deadline=None)
@given(
    st.integers(1, 8),
    st.sampled_from([2, 4, 6, 10, 12, "F", "3"]),
    st.sampled_from(KEEPS),
    st.integers(0, 9),
    st.none() | st.builds(Condition, st.sampled_from(["=", ">=", "<"]), st.integers(0, 12)),
    st.none()
    | st.builds(Reroll, st.builds(Condition, st.just("<"), st.integers(0, 3)), st.just(True)),
)
def test_dice_and_a_group_of_the_same_dice_agree(
    count: int,
    sides: int | str,
    kind: KeepKind,
    keep: int,
    success: Condition | None,
    reroll: Reroll | None,
) -> None:
    # Dice use the identical-dice keep; the tuple tracker is checked on the same units.
    one = Dice(1, sides, Modifiers(reroll=reroll))  # type: ignore[arg-type]
    many = Dice(count, sides, Modifiers(reroll=reroll, keep=Keep(kind, keep), success=success))  # type: ignore[arg-type]
    group = Group((one,) * count, Modifiers(keep=Keep(kind, keep), success=success))
    assert distribution(many) == distribution(group)
    unit = dice_weights(one)
    score = _score(group.modifiers)
    tracked = keep_over_items([unit.counts] * count, Tracker.for_keep(Keep(kind, keep), score), "t")
    expected = dice_weights(many).counts
    assert {k: v for k, v in tracked.items() if v} == {k: v for k, v in expected.items() if v}


def test_kept_end_of_each_kind() -> None:
    assert kept_end(Keep("kh", 3), 4) == (True, 3)
    assert kept_end(Keep("kl", 5), 4) == (False, 4)
    assert kept_end(Keep("dh", 1), 4) == (False, 3)
    assert kept_end(Keep("dl", 9), 4) == (True, 0)


def test_tracker_keeps_the_highest() -> None:
    tracker = Tracker.for_keep(Keep("kh", 2), lambda v: v)
    held: tuple[int, ...] = ()
    for value in (3, 6, 1, 5):
        held = tracker.absorb(held, value)
    assert held == (5, 6)
    assert tracker.gain(6) == 0  # the kept side's score is read from the tuple
    assert tracker.final(held, 0) == 11


def test_tracker_drops_the_lowest_from_a_running_total() -> None:
    tracker = Tracker.for_keep(Keep("dl", 1), lambda v: v)
    held: tuple[int, ...] = ()
    running = 0
    for value in (3, 6, 1, 5):
        held = tracker.absorb(held, value)
        running += tracker.gain(value)
    assert (held, running) == ((1,), 15)
    assert tracker.final(held, running) == 14


def test_tracker_of_the_other_side() -> None:
    tracker = Tracker.for_keep(Keep("kh", 9), lambda v: v).other_side(10)
    assert (tracker.capacity, tracker.high, tracker.tracks_kept) == (1, False, False)
    tracker = Tracker.for_keep(Keep("dh", 12), lambda v: v).other_side(10)
    assert (tracker.capacity, tracker.high, tracker.tracks_kept) == (0, False, True)


def test_keep_on_ten_d10_keep_three_pinned() -> None:
    # The chance that 10d10kh3 totals 30: at least three tens among ten dice.
    no_more_than_two = sum(
        Fraction(1, 10) ** k * Fraction(9, 10) ** (10 - k) * _comb(10, k) for k in range(3)
    )
    assert distribution(expr_of("10d10kh3")).as_dict()[30] == 1 - no_more_than_two


def _comb(n: int, k: int) -> int:
    import math

    return math.comb(n, k)


# --- speed and limits ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["3d6", "4d6kl2", "4d6kh3", "10d10kh3", "20d6", "100d6", "100d6kh50"]
)
def test_questions_asked_at_the_table_estimate_a_small_share_of_the_budget(text: str) -> None:
    """Everyday questions are answered at once: their estimated work, in the estimates'
    own units (bench/bench_estimates.py measures them against time), is under 1% of
    what one question may take."""
    parse(text)  # the line's reading is not the odds' work
    clear_caches()
    distribution(expr_of(text))
    assert 0 < work_budget._ACCOUNT.spent < work_budget.MAX_QUESTION_WORK // 100


@pytest.mark.parametrize(
    "text",
    [
        "10000d6",  # about 179 MiB of exact numbers
        "{300d6, 300d6, 300d6}kh2",
        "d6! * d6! * d6! * d6! * d6!",
        "d10000 * d10000",
        "5000d2!",
    ],
)
def test_too_big_forms_are_refused_clearly(text: str) -> None:
    with pytest.raises(OddsTooBigError, match="exactly here"):
        distribution(expr_of(text))


# --- powers by recurrence, fractions over one denominator -----------------------------


@settings(max_examples=examples(150))
@given(
    st.dictionaries(st.integers(-5, 12), st.integers(0, 9), min_size=1, max_size=10).filter(
        lambda counts: any(counts.values())
    ),
    st.integers(1, 25),
)
def test_miller_power_matches_repeated_convolution(counts: dict[int, int], times: int) -> None:
    counts = {value: count for value, count in counts.items() if count}
    expected: dict[int, int] = {0: 1}
    for _ in range(times):
        expected = naive_convolve(expected, counts)
    assert miller_power(counts, times) == {k: v for k, v in expected.items() if v}


def test_miller_power_of_a_fair_die_uses_its_symmetry() -> None:
    # 3d6 by hand: 1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1 ways.
    ways = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
    assert miller_power(dict.fromkeys(range(1, 7), 1), 3) == dict(enumerate(ways, start=3))


def test_power_takes_the_cheaper_method() -> None:
    # Few values, many dice: the recurrence; many values, few dice: the packed power.
    assert recurrence_work(5001, 5, 325, True) < 2 * multiply_work(5001 * 325 // 2, 5001 * 325 // 2)
    assert recurrence_work(2998, 999, 4, True) > 2 * multiply_work(2998 * 4 // 2, 2998 * 4 // 2)
    d200 = dict.fromkeys(range(1, 201), 1)
    assert power(d200, 3) == naive_convolve(naive_convolve(d200, d200), d200)


@settings(max_examples=examples(150))
@given(
    st.lists(st.integers(0, 6**40), min_size=8, max_size=30),
    st.lists(st.sampled_from([2, 3, 5, 7, 10, 12, 20, 100, 99991]), min_size=1, max_size=4),
    st.integers(1, 60),
)
def test_fractions_over_one_denominator_are_reduced_like_fraction(
    counts: list[int], sides: list[int], times: int
) -> None:
    denominator = 1
    for side in sides:
        denominator *= side**times
    found = Weights(dict(enumerate(counts)), denominator).to_distribution()
    expected = tuple((k, Fraction(c, denominator)) for k, c in enumerate(counts) if c)
    assert found.outcomes == expected
    for (_, made), (_, plain) in zip(found.outcomes, expected, strict=True):
        assert (made.numerator, made.denominator) == (plain.numerator, plain.denominator)


def test_small_factors() -> None:
    assert small_factors(2**10 * 3**4 * 99991) == {2: 10, 3: 4, 99991: 1}
    assert small_factors(1_000_003 * 1_000_033) is None  # primes beyond the trial bound


# --- keep/drop by the value of the last kept die --------------------------------------


@settings(max_examples=examples(200))
@given(
    st.dictionaries(st.integers(-3, 8), st.integers(1, 9), min_size=1, max_size=5),
    st.integers(1, 5),
    st.booleans(),
    st.integers(1, 5),
    st.booleans(),
)
def test_keep_by_threshold_and_by_walk_match_enumeration(
    unit: dict[int, int], units: int, keep_highest: bool, kept: int, count: bool
) -> None:
    kept = min(kept, units)
    score: Score = counting if count else (lambda value: value)
    base = min(score(value) for value in unit)
    lifted = {value: score(value) - base for value in unit}
    width = slot_bytes_for_bits((sum(unit.values()) + 1).bit_length() * units)
    expected = enumerate_keep(unit, units, keep_highest, kept, score)
    for way in (_keep_by_threshold, _keep_by_walk):
        found = way(unit, units, keep_highest, kept, lifted, width)
        assert {k + kept * base: v for k, v in found.items() if v} == expected


def test_few_dice_with_many_faces_keep_by_threshold() -> None:
    # 3d2000kh2 took 10 s by the walk; the largest total needs two 2000s among three.
    found = distribution(expr_of("3d2000kh2")).as_dict()
    assert found[4000] == Fraction(3 * 1999 + 1, 2000**3)
    assert found[2] == Fraction(1, 2000**3)


# --- keep/drop over exploding dice whose exploding values lie at one end --------------


@settings(max_examples=examples(150), deadline=None)
@given(
    st.integers(2, 6),
    st.integers(1, 3),
    st.booleans(),
    st.integers(0, 3),
    st.integers(1, 3),
    st.sampled_from(KEEPS),
    st.integers(0, 5),
    st.booleans(),
)
def test_keep_over_sorted_chains_matches_the_tuple_walk(
    sides: int,
    exploding: int,
    explode_high: bool,
    depth: int,
    dice: int,
    kind: KeepKind,
    amount: int,
    count: bool,
) -> None:
    exploding = min(exploding, sides - 1)
    standing = {face: 1 + face % 3 for face in range(1, sides + 1)}
    ends = sorted(standing)
    explodes = frozenset(ends[-exploding:] if explode_high else ends[:exploding])
    chain = Chain(standing, sum(standing.values()), explodes, 0, depth)
    score: Score = counting if count else (lambda value: value)
    keep = Keep(kind, amount)
    fast = keep_over_sorted_chains(chain, dice, keep, score, "test")
    slow = keep_over_chains(chain, dice, Tracker.for_keep(keep, score), "test")
    assert fast is not None
    assert {k: v for k, v in fast.items() if v} == {k: v for k, v in slow.items() if v}


def test_sorted_chains_leave_mixed_and_penalised_explosions_to_the_walk() -> None:
    standing = dict.fromkeys(range(1, 7), 1)
    keep = Keep("kh", 1)
    mixed = Chain(standing, 6, frozenset({1, 6}), 0, 2)
    penalised = Chain(standing, 6, frozenset({6}), 1, 2)
    assert keep_over_sorted_chains(mixed, 2, keep, lambda v: v, "test") is None
    assert keep_over_sorted_chains(penalised, 2, keep, lambda v: v, "test") is None


@pytest.mark.parametrize("text", ["4d20!dl2", "6d20!kl3", "3d%!dh3"])
def test_small_keeps_over_exploding_dice_are_answered(text: str) -> None:
    found = distribution(expr_of(text))
    assert 0 < found.residue < Fraction(1, 10**12)  # the documented explosion cut-off
    assert found.total + found.residue == 1


# --- exploding chains by a geometric series -------------------------------------------


def naive_chain_total(
    standing: dict[int, int], explodes: frozenset[int], depth: int, first: Score, later: Score
) -> dict[int, int]:
    """Every chain of at most ``depth`` added dice, one length at a time."""
    denominator = sum(standing.values())
    result: dict[int, int] = {}
    for v, c in standing.items():
        if v not in explodes:
            result[first(v)] = result.get(first(v), 0) + c * denominator**depth
    # running: the score so far of chains still exploding, by score
    running: dict[int, int] = {}
    for v, c in standing.items():
        if v in explodes:
            running[first(v)] = running.get(first(v), 0) + c
    for step in range(1, depth + 1):
        following: dict[int, int] = {}
        for total, weight in running.items():
            for v, c in standing.items():
                key = total + later(v)
                if v in explodes:
                    following[key] = following.get(key, 0) + weight * c
                else:
                    result[key] = result.get(key, 0) + weight * c * denominator ** (depth - step)
        running = following
    return result


@settings(max_examples=examples(150))
@given(
    st.dictionaries(st.integers(-2, 9), st.integers(1, 4), min_size=2, max_size=6),
    st.data(),
    st.integers(0, 7),
    st.sampled_from([0, 1]),
    st.booleans(),
)
def test_chain_total_matches_following_every_chain(
    standing: dict[int, int], data: st.DataObject, depth: int, penalty: int, count: bool
) -> None:
    values = sorted(standing)
    chosen = data.draw(st.sets(st.sampled_from(values), min_size=1, max_size=len(values) - 1))
    explodes = frozenset(chosen)
    score: Score = counting if count else (lambda value: value)

    def later(value: int) -> int:
        return score(value - penalty)

    found = chain_total(standing, explodes, depth, score, later, "test")
    expected = naive_chain_total(standing, explodes, depth, score, later)
    assert {k: v for k, v in found.items() if v} == {k: v for k, v in expected.items() if v}


@settings(max_examples=examples(150))
@given(
    st.dictionaries(st.integers(-4, 6), st.integers(1, 5), min_size=1, max_size=5),
    st.integers(1, 12),
    st.integers(0, 8),
)
def test_geometric_series_matches_its_sum(ratio: dict[int, int], extra: int, terms: int) -> None:
    constant = sum(ratio.values()) + extra
    expected: dict[int, int] = {}
    for t in range(terms):
        part = power(ratio, t)
        for key, count in part.items():
            expected[key] = expected.get(key, 0) + count * constant ** (terms - 1 - t)
    found = geometric_series(ratio, constant, terms, "test")
    assert found == {k: v for k, v in expected.items() if v}


# --- refused before the work ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("2000d6kh1000", "800 million"),
        ("10000d%>=5!>=5", "800 million"),  # a huge power before any check
        ("d%!>=5", "800 million"),
        ("1000d6dl1", "800 million"),
        ("d1000 * d1000", "200,000"),
        ("10000d6", "16 MiB"),
    ],
)
def test_forms_too_big_are_refused_naming_the_bound(text: str, bound: str) -> None:
    with pytest.raises(OddsTooBigError, match=bound):
        distribution(expr_of(text))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("d20!>=2", marks=pytest.mark.slow),
        "d20!>=5",
        pytest.param("50d6!", marks=pytest.mark.slow),
    ],
)
def test_long_explosion_chains_are_answered(text: str) -> None:
    found = distribution(expr_of(text))
    assert 0 < found.residue <= Fraction(1, 10**12)
    assert found.total + found.residue == 1


@pytest.mark.parametrize(
    ("text", "sides"),
    [("3d10000dl", 10_000), pytest.param("3d5000dl1", 5_000, marks=pytest.mark.slow)],
)
def test_few_dice_of_many_faces_keep_two_of_three(text: str, sides: int) -> None:
    # 368 s and 2.5 GB before. The top total needs two of the three dice at the top.
    found = distribution(expr_of(text)).as_dict()
    assert found[2 * sides] == Fraction(3 * (sides - 1) + 1, sides**3)
    assert found[2] == Fraction(1, sides**3)
    assert sum(found.values()) == 1


@settings(max_examples=examples(300))
@given(
    st.integers(-3, 3),
    st.integers(1, 8),
    st.integers(1, 3),
    st.integers(1, 8),
    st.integers(1, 8),
    st.booleans(),
)
def test_keep_of_fair_dice_matches_the_walk(
    low: int, faces: int, weight: int, units: int, kept: int, keep_highest: bool
) -> None:
    kept = min(kept, units)
    unit = dict.fromkeys(range(low, low + faces), weight)
    lifted = {value: value - low for value in unit}
    width = slot_bytes_for_bits((sum(unit.values()) + 1).bit_length() * units)
    fast = _keep_uniform(unit, units, keep_highest, kept, lifted, width)
    walked = _keep_by_walk(unit, units, keep_highest, kept, lifted, width)
    assert {k: v for k, v in fast.items() if v} == {k: v for k, v in walked.items() if v}


def test_hundred_d100_keep_fifty_is_answered() -> None:
    # icepool takes minutes; the top total needs fifty 100s among a hundred dice.
    found = distribution(expr_of("100d100kh50"))
    top = sum(Fraction(math.comb(100, j) * 99 ** (100 - j), 100**100) for j in range(50, 101))
    assert found.as_dict()[5000] == top
    assert found.min == 50
    assert found.total == 1


def test_uniform_keep_only_for_fair_dice_scored_as_they_stand() -> None:
    assert _is_uniform(dict.fromkeys(range(1, 7), 1), True, {v: v - 1 for v in range(1, 7)})
    uneven = {1: 1, 2: 2, 3: 1}
    assert not _is_uniform(uneven, True, {v: v - 1 for v in uneven})
    counted = dict.fromkeys(range(1, 7), 1)
    assert not _is_uniform(counted, True, {v: counting(v) + 1 for v in counted})


# --- a distribution's figures from its integer weights ----------------------------------


@settings(max_examples=examples(150))
@given(
    st.dictionaries(st.integers(-50, 50), st.integers(0, 6**30), min_size=1, max_size=40),
    st.integers(0, 6**5),
)
def test_figures_from_integer_weights_equal_those_from_fractions(
    counts: dict[int, int], missing: int
) -> None:
    if not any(counts.values()):
        counts = {0: 1}
    denominator = sum(counts.values()) + missing  # some weight left out: a residue
    fast = Weights(counts, denominator).to_distribution()
    slow = Distribution(fast.outcomes, fast.residue)  # the same, without its weights
    assert fast.weights is not None
    assert slow.weights is None
    assert fast.total == slow.total
    assert fast.mean() == slow.mean()
    assert fast.variance() == slow.variance()
    assert fast.at_least(3) == slow.at_least(3)
    assert fast.at_most(-7) == slow.at_most(-7)
    assert fast.at_least_each() == slow.at_least_each()
    assert fast == slow  # the weights take no part in equality


@settings(max_examples=examples(200))
@given(st.integers(1, 12), st.integers(1, 4), st.integers(-5, 5), st.integers(1, 15))
def test_power_of_a_fair_die_by_three_terms_matches_repeated_convolution(
    faces: int, weight: int, low: int, times: int
) -> None:
    die = dict.fromkeys(range(low, low + faces), weight)
    expected: dict[int, int] = {0: 1}
    for _ in range(times):
        expected = naive_convolve(expected, die)
    assert miller_power(die, times) == expected
