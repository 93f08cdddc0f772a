"""Exact odds of AGE tests, by enumeration of the 216 outcomes of 3D6.

Everything is counted over :data:`OUTCOMES`: the 216 rolls of (d6, d6, Dragon die)
reduced to (sum, Dragon die, doubles) with their counts. Basic tests read the table
directly; opposed tests compare each side's (total, Dragon die, ability) and solve the
re-roll of a complete tie exactly (a geometric series per set of tied sides); advanced
tests follow the running total of Dragon dice roll by roll, up to the roll cap, and
state the probability left beyond it (the distribution's ``residue``).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from dicecli.environment import Environment
from dicecli.errors import RuleError
from dicecli.notation.nodes import assert_never
from dicecli.probability.distribution import ONE, ZERO, Distribution, Odds, percent
from dicecli.systems.age.nodes import AgeAdvanced, AgeForm, AgeOpposed, AgeRoll
from dicecli.systems.age.roll import (
    abilities,
    ability_value,
    refuse_endless,
)
from dicecli.systems.age.settings import ADVANCED_ROLLS, setting

ALL = 216
MAX_ODDS_SIDES = 6
"""Opposed tests with more sides are refused by ``odds``: the exact tie-break work
grows as 3 to the power of the sides."""


def _outcomes() -> Counter[tuple[int, int, bool]]:
    table: Counter[tuple[int, int, bool]] = Counter()
    for first, second, dragon in itertools.product(range(1, 7), repeat=3):
        doubles = len({first, second, dragon}) < 3
        table[first + second + dragon, dragon, doubles] += 1
    return table


OUTCOMES = _outcomes()
"""(sum of the three dice, Dragon die, doubles) -> how many of the 216 rolls."""


def _fraction(count: int) -> Fraction:
    return Fraction(count, ALL)


# -- basic test -------------------------------------------------------------------


def roll_odds(check: AgeRoll, env: Environment, text: str) -> Odds:
    """Rules G2, G5, G6: P(success), P(stunt points), E[stunt points], the degree."""
    ability, note = ability_value(check.test, env)
    modifier = ability + check.test.bonus
    notes = [note] if note else []
    totals: Counter[int] = Counter()
    for (dice, _, _), count in OUTCOMES.items():
        totals[dice + modifier] += count
    distribution = Distribution.from_counts(totals)
    doubles = _fraction(sum(c for (_, _, d), c in OUTCOMES.items() if d))
    if check.target is None:
        return Odds(text, str(check), distribution, chances=(("doubles", doubles),))
    target = check.target.value
    succeeded = {key: count for key, count in OUTCOMES.items() if key[0] + modifier >= target}
    success = _fraction(sum(succeeded.values()))
    points: Counter[int] = Counter({0: ALL - sum(succeeded.values())})
    degrees: Counter[int] = Counter()
    for (_, dragon, with_doubles), count in succeeded.items():
        points[dragon if with_doubles else 0] += count
        degrees[dragon] += count
    stunts = Distribution.from_counts(points)
    tables = [("stunt_points", stunts)]
    if degrees:
        tables.insert(0, ("degree", Distribution.from_counts(degrees)))
        notes.append("degree: the Dragon die, given a success")
    else:
        notes.append(f"{check.test} can never reach {target}")
    return Odds(
        text,
        str(check),
        distribution,
        chances=(("success", success), ("stunt", ONE - stunts.probability(lambda p: p == 0))),
        expectations=(("stunt_points", stunts.mean()),),
        tables=tuple(tables),
        notes=tuple(notes),
        passing=(target, None),
    )


# -- opposed test -----------------------------------------------------------------

Key = tuple[int, int, int]
"""What rule G4 compares, in order: total, Dragon die, ability."""


class _Side:
    """One side's keys and counts (out of 216), with counts below any key."""

    def __init__(self, modifier: int, ability: int) -> None:
        counts: Counter[Key] = Counter()
        for (dice, dragon, _), count in OUTCOMES.items():
            counts[dice + modifier, dragon, ability] += count
        self.counts = dict(counts)
        self.keys = sorted(counts)
        self._below = list(itertools.accumulate((counts[k] for k in self.keys), initial=0))
        self._prefixes = {depth: [k[:depth] for k in self.keys] for depth in (1, 2, 3)}

    def below(self, key: Key, depth: int = 3) -> int:
        """How many of the 216 rolls have a key less than ``key`` on its first
        ``depth`` parts (1: total only, 2: total and Dragon die, 3: all)."""
        position = bisect_left(self._prefixes[depth], key[:depth])
        return self._below[position]


def opposed_odds(check: AgeOpposed, env: Environment, text: str) -> Odds:
    """Rule G4 with the re-roll of complete ties: each side's chance to win."""
    if len(check.sides) > MAX_ODDS_SIDES:
        raise RuleError(f"exact odds of an opposed test go up to {MAX_ODDS_SIDES} sides")
    values, notes = abilities(check.sides, env)
    sides = tuple(
        _Side(value + test.bonus, value) for test, value in zip(check.sides, values, strict=True)
    )
    everyone = frozenset(range(len(sides)))
    wins = _wins(sides, everyone, {})
    labels = [
        str(test) if test.name is not None else f"#{i + 1} {test}"
        for i, test in enumerate(check.sides)
    ]
    notes.append(
        "a complete tie (total, Dragon die, ability) is re-rolled by the tied sides until "
        "one wins (an assumption); the chances include those re-rolls exactly"
    )
    return Odds(
        text,
        str(check),
        wins=tuple((labels[i], wins[i]) for i in sorted(wins)),
        chances=_deciders(sides),
        notes=tuple(notes),
    )


def _product(numbers: Iterable[int]) -> int:
    result = 1
    for number in numbers:
        result *= number
    return result


def _round(
    sides: tuple[_Side, ...], group: frozenset[int]
) -> tuple[dict[int, int], dict[frozenset[int], int]]:
    """One round among ``group``: counts (out of 216^len) of each side winning outright
    and of each set of sides tied completely at the top."""
    outright: dict[int, int] = dict.fromkeys(group, 0)
    ties: dict[frozenset[int], int] = {}
    keys = sorted({key for i in group for key in sides[i].counts})
    for key in keys:
        below = {i: sides[i].below(key) for i in group}
        here = [i for i in group if key in sides[i].counts]
        for size in range(1, len(here) + 1):
            for tied in itertools.combinations(here, size):
                count = _product(sides[i].counts[key] for i in tied)
                count *= _product(below[i] for i in group if i not in tied)
                if size == 1:
                    outright[tied[0]] += count
                else:
                    ties[frozenset(tied)] = ties.get(frozenset(tied), 0) + count
    return outright, ties


def _wins(
    sides: tuple[_Side, ...],
    group: frozenset[int],
    solved: dict[frozenset[int], dict[int, Fraction]],
) -> dict[int, Fraction]:
    """P(each side of ``group`` wins), re-rolling complete ties among the tied sides:
    W(i) = (P(i outright) + sum over smaller tied sets T of P(T) W_T(i)) / (1 - P(all
    of ``group`` tied))."""
    if group in solved:
        return solved[group]
    whole = ALL ** len(group)
    outright, ties = _round(sides, group)
    again = Fraction(ties.pop(group, 0), whole)
    wins: dict[int, Fraction] = {}
    for i in sorted(group):
        chance = Fraction(outright[i], whole)
        for tied, count in ties.items():
            if i in tied:
                chance += Fraction(count, whole) * _wins(sides, tied, solved)[i]
        wins[i] = chance / (ONE - again)
    solved[group] = wins
    return wins


def _deciders(sides: tuple[_Side, ...]) -> tuple[tuple[str, Fraction], ...]:
    """P(the first round is decided by each tie-break of rule G4), and P(a complete
    tie, re-rolled)."""
    decided = [0, 0, 0]  # by total, by Dragon die, by ability
    for i, side in enumerate(sides):
        others = [other for j, other in enumerate(sides) if j != i]
        for key, count in side.counts.items():
            levels = [_product(o.below(key, depth) for o in others) for depth in (1, 2, 3)]
            decided[0] += count * levels[0]
            decided[1] += count * (levels[1] - levels[0])
            decided[2] += count * (levels[2] - levels[1])
    whole = ALL ** len(sides)
    chances = [Fraction(n, whole) for n in decided]
    names = ("decided_by_total", "decided_by_dragon", "decided_by_ability")
    return (*zip(names, chances, strict=True), ("complete_tie", ONE - sum(chances, ZERO)))


# -- advanced test ----------------------------------------------------------------


def _success_counts(modifier: int, target: int) -> list[int]:
    """Counts (of 216) of a success with each Dragon die 1..6, at index 1..6."""
    counts = [0] * 7
    for (dice, dragon, _), count in OUTCOMES.items():
        if dice + modifier >= target:
            counts[dragon] += count
    return counts


PRECISION = Fraction(1, 10**6)
"""The rolls table of an advanced test stops once all but this much is accounted for."""


def advanced_odds(check: AgeAdvanced, env: Environment, text: str) -> Odds:
    """Rule G7: the number of rolls needed (to :data:`PRECISION`, within the cap), the
    chance to finish within the cap, and the exact mean."""
    ability, note = ability_value(check.test, env)
    notes = [note] if note else []
    modifier = ability + check.test.bonus
    target, threshold = check.target.value, check.threshold.value
    cap = setting(env, ADVANCED_ROLLS)
    successes = _success_counts(modifier, target)
    refuse_endless(check.test, ability, target)
    if threshold > 6 * cap:
        raise RuleError(f"a threshold of {threshold} needs more than the {cap}-roll cap")
    finished = _rolls_needed(successes, threshold, cap)
    within_cap = sum(finished.values(), ZERO)
    shown: dict[int, Fraction] = {}
    for roll, chance in sorted(finished.items()):
        if ONE - sum(shown.values(), ZERO) <= PRECISION:
            break
        shown[roll] = chance
    rolls = Distribution.from_probabilities(shown, ONE - sum(shown.values(), ZERO))
    if ONE - within_cap > PRECISION:  # the cap, not the precision, ends the table
        notes.append(
            f"rolls: listed up to the cap of {cap} rolls (setting age.max_rolls): "
            f"{percent(ONE - within_cap)} of tests need more and are left out; success: "
            "the threshold reached within the cap; the mean is exact, without that cap"
        )
    else:
        notes.append(
            f"rolls: listed until all but {percent(rolls.residue)} is accounted for "
            f"(precision {float(PRECISION):g}); success: the threshold reached within "
            f"the cap of {cap} rolls (setting age.max_rolls); the mean is exact, without "
            "that cap"
        )
    return Odds(
        text,
        str(check),
        chances=(("success", within_cap),),
        expectations=(("rolls", _mean_rolls(successes, threshold)),),
        tables=(("rolls", rolls),),
        notes=tuple(notes),
    )


def _rolls_needed(successes: list[int], threshold: int, cap: int) -> dict[int, Fraction]:
    """P(the threshold is first reached on roll r), r = 1..cap, by following the
    running total; counts are out of 216^r."""
    failure = ALL - sum(successes)
    standing = [0] * threshold  # running total -> count, out of 216^r
    standing[0] = 1
    done: dict[int, Fraction] = {}
    for roll in range(1, cap + 1):
        after = [0] * threshold
        finished = 0
        for progress, count in enumerate(standing):
            if not count:
                continue
            after[progress] += count * failure
            for dragon in range(1, 7):
                reached = progress + dragon
                if reached >= threshold:
                    finished += count * successes[dragon]
                else:
                    after[reached] += count * successes[dragon]
        standing = after
        if finished:
            done[roll] = Fraction(finished, ALL**roll)
    return done


@lru_cache(maxsize=64)
def _mean_from(successes: tuple[int, ...], threshold: int) -> Fraction:
    success = Fraction(sum(successes), ALL)
    expected = [ZERO] * (threshold + 6)  # from a running total at or past it: 0 more
    for progress in range(threshold - 1, -1, -1):
        onward = sum(
            (Fraction(successes[d], ALL) * expected[progress + d] for d in range(1, 7)), ZERO
        )
        expected[progress] = (1 + onward) / success
    return expected[0]


def _mean_rolls(successes: list[int], threshold: int) -> Fraction:
    """E[rolls] without a cap: E(s) = (1 + sum_d P(success, d) E(s + d)) / P(success)."""
    return _mean_from(tuple(successes), threshold)


def odds(form: AgeForm, env: Environment, text: str) -> Odds:
    """The exact odds of an AGE line."""
    match form:
        case AgeRoll():
            return roll_odds(form, env, text)
        case AgeOpposed():
            return opposed_odds(form, env, text)
        case AgeAdvanced():
            return advanced_odds(form, env, text)
        case _:
            return assert_never(form)
