"""Are the dice fair? Chi-square goodness-of-fit tests of every die kind.

Each die kind is rolled 60,000 times through :func:`dicecli.roll` from one seeded
:class:`~dicecli.RandomSource`, so the test is reproducible and never flaky. The
statistic is computed here and compared with the critical value at p = 0.001: a fair
die fails one such test once in a thousand seeds, and a die whose first face comes up
twice as often as it should fails every time (:func:`test_a_biased_die_is_caught`
proves the check can fail). The critical values are checked against an independent
computation of the chi-square tail (:func:`chi_square_tail`), so a typo in the table
cannot pass unnoticed.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping

import pytest

import dicecli
from dicecli import DiceSource, RandomSource
from dicecli.notation.dice import Die

ROLLS = 60_000
PER_ROLL = 10_000  # the most dice one roll may hold (grammar.MAX_DICE_COUNT)
SEED = 20261129

CRITICAL_AT_0_001: dict[int, float] = {
    1: 10.828,
    2: 13.816,
    3: 16.266,
    5: 20.515,
    7: 24.322,
    9: 27.877,
    11: 31.264,
    19: 43.820,
    35: 66.619,
    99: 148.230,
}
"""Chi-square critical values, upper tail p = 0.001, by degrees of freedom. Source: NIST/
SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4 "Critical Values of the
Chi-Square Distribution" (https://www.itl.nist.gov/div898/handbook/eda/section3/eda3674.htm),
column 0.999 of the upper-tail table."""


def chi_square(observed: Mapping[str, int], expected_share: Mapping[str, float]) -> float:
    """Pearson's statistic: the sum over categories of (observed - expected)^2 / expected.
    Categories never observed count as 0; observed ones that are not expected fail."""
    assert set(observed) <= set(expected_share), set(observed) - set(expected_share)
    total = sum(observed.values())
    statistic = 0.0
    for category, share in expected_share.items():
        expected = total * share
        statistic += (observed.get(category, 0) - expected) ** 2 / expected
    return statistic


def chi_square_tail(degrees: int, statistic: float) -> float:
    """P(X >= statistic) for X chi-square with ``degrees`` degrees of freedom, from the
    series of the regularized lower incomplete gamma function P(k/2, x/2)."""
    a, x = degrees / 2, statistic / 2
    term = total = 1 / a
    n = 1
    while term > total * 1e-17:
        term *= x / (a + n)
        total += term
        n += 1
    return 1 - math.exp(a * math.log(x) - x - math.lgamma(a) + math.log(total))


def is_plausibly_fair(observed: Mapping[str, int], expected_share: Mapping[str, float]) -> bool:
    """True unless the counts are too far from the expected shares (p < 0.001)."""
    degrees = len(expected_share) - 1
    return chi_square(observed, expected_share) < CRITICAL_AT_0_001[degrees]


def uniform(faces: list[str]) -> dict[str, float]:
    return {face: 1 / len(faces) for face in faces}


def numbered(sides: int) -> list[str]:
    return [str(n) for n in range(1, sides + 1)]


# term as typed -> the faces it shows, each equally likely
DIE_KINDS: dict[str, list[str]] = {
    "d4": numbered(4),
    "d6": numbered(6),
    "d8": numbered(8),
    "d10": numbered(10),
    "d12": numbered(12),
    "d20": numbered(20),
    "d%": numbered(100),
    "dF": ["-", "0", "+"],
    "D3": numbered(6),  # rule N4: the face is the D6's; its value is the face halved
}


def roll_many(term: str, source: DiceSource) -> list[dicecli.results.DieRoll]:
    """Roll ``ROLLS`` dice of ``term`` with ``dicecli.roll``, ``PER_ROLL`` at a time."""
    dice: list[dicecli.results.DieRoll] = []
    for _ in range(ROLLS // PER_ROLL):
        dice.extend(dicecli.roll(f"{PER_ROLL}{term}", source=source).dice)
    assert len(dice) == ROLLS
    return dice


@pytest.mark.parametrize("degrees", sorted(CRITICAL_AT_0_001))
def test_critical_values_are_the_0_001_quantiles(degrees: int) -> None:
    tail = chi_square_tail(degrees, CRITICAL_AT_0_001[degrees])
    assert tail == pytest.approx(0.001, rel=1e-3)


@pytest.mark.parametrize("term", sorted(DIE_KINDS))
def test_every_face_is_equally_likely(term: str) -> None:
    dice = roll_many(term, RandomSource(SEED))
    counts = Counter(die.face for die in dice)
    assert is_plausibly_fair(counts, uniform(DIE_KINDS[term])), counts


def test_the_d3_is_worth_one_two_or_three_equally_often() -> None:
    # rule N4: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3
    dice = roll_many("D3", RandomSource(SEED))
    counts = Counter(str(die.value) for die in dice)
    assert is_plausibly_fair(counts, uniform(["1", "2", "3"])), counts


def test_consecutive_dice_are_independent() -> None:
    # each pair of successive d6 is one of 36 equally likely pairs
    dice = roll_many("d6", RandomSource(SEED))
    pairs = Counter(f"{a.face}{b.face}" for a, b in zip(dice[::2], dice[1::2], strict=True))
    every_pair = [a + b for a in numbered(6) for b in numbered(6)]
    assert is_plausibly_fair(pairs, uniform(every_pair)), pairs


def test_the_first_roll_of_each_seed_is_fair() -> None:
    # seeds 0..11999, one d6 each: nearby seeds must not start alike
    counts = Counter(dicecli.roll("d6", seed=seed).dice[0].face for seed in range(12_000))
    assert is_plausibly_fair(counts, uniform(numbered(6))), counts


class BiasedSource:
    """A seeded source whose dice land on their first face twice as often as on any
    other: the die a fairness check must catch."""

    def __init__(self, seed: int) -> None:
        self._randrange: Callable[[int], int] = random.Random(seed).randrange

    def draw(self, die: Die) -> int:
        faces = len(die.faces)
        pick = self._randrange(faces + 1)  # faces + 1 slots: two of them are face 0
        return 0 if pick == faces else pick


@pytest.mark.parametrize("term", sorted(DIE_KINDS))
def test_a_biased_die_is_caught(term: str) -> None:
    dice = roll_many(term, BiasedSource(SEED))
    counts = Counter(die.face for die in dice)
    assert counts[DIE_KINDS[term][0]] > counts[DIE_KINDS[term][1]]  # the bias is there
    assert not is_plausibly_fair(counts, uniform(DIE_KINDS[term]))
