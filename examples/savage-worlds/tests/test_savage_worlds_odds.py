"""The closed-form odds against brute-force enumeration.

Two enumerations, neither using the closed form:

1. every way each die can go, face by face, until it stops acing or its running total
   reaches a cap: exact for every event that the cap decides, so those chances must be
   *equal* to the closed form's;
2. every sequence of faces the game's own rolling code asks for (a scripted dice
   source), up to a number of dice: each finished roll's verdict weighted by its
   chance, and the unfinished rolls' chance left over; the closed form must lie within
   that leftover.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest
from dicecli.game import EMPTY_ENVIRONMENT, ONE, ZERO, Die, Roller

from savage_helpers import RULES, check
from savage_worlds.nodes import TraitTest
from savage_worlds.odds import PRECISION, Chances, at_least, exactly, mean
from savage_worlds.roll import resolve_test
from savage_worlds.rules import TRAIT_SIDES, WILD_SIDES, judge

CAP = 40
"""Running totals are followed up to here in the face-by-face enumeration."""


def capped_die(sides: int, cap: int = CAP) -> dict[tuple[int, int], Fraction]:
    """(first face, min(total, cap)) -> chance, face by face."""
    found: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    stack: list[tuple[int | None, int, Fraction]] = [(None, 0, ONE)]
    while stack:
        first, running, chance = stack.pop()
        for face in range(1, sides + 1):
            total, weight = running + face, chance / sides
            head = face if first is None else first
            if face == sides and total < cap:
                stack.append((head, total, weight))
            else:
                found[head, min(total, cap)] += weight
    return dict(found)


NO_WILD = {(0, 0): ONE}
"""An Extra's Wild Die: none, never better, never a 1."""


def brute_force(test: TraitTest) -> dict[tuple[int, bool], Fraction]:
    """(min(better die, cap) + modifier, critical failure) -> chance."""
    trait = capped_die(test.sides)
    wild = capped_die(WILD_SIDES) if test.wild_card else NO_WILD
    found: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    for (trait_first, trait_total), p in trait.items():
        for (wild_first, wild_total), q in wild.items():
            critical = test.wild_card and trait_first == 1 and wild_first == 1
            found[max(trait_total, wild_total) + test.modifier, critical] += p * q
    return dict(found)


LINES = [
    f"sw {extra}d{sides}{modifier} vs {target}"
    for sides in TRAIT_SIDES
    for extra in ("", "extra ")
    for modifier, target in (("", 4), ("+2", 6), ("-2", 4), ("+4", 4), ("-1", 9))
]


@pytest.mark.parametrize("line", LINES)
def test_chances_equal_brute_force(line: str) -> None:
    test = check(line)
    target = test.target_number
    assert target + 12 - test.modifier <= CAP  # every chance below is decided by the cap
    outcomes = brute_force(test)
    odds = RULES.odds(test, EMPTY_ENVIRONMENT, line)
    chances = dict(odds.chances)

    def passing(value: int) -> Fraction:
        return sum(
            (p for (total, critical), p in outcomes.items() if total >= value and not critical),
            ZERO,
        )

    assert chances["success"] == passing(target)
    for count in (1, 2, 3):
        assert chances[f"raises_at_least_{count}"] == passing(target + 4 * count)
    critical = sum((p for (_, c), p in outcomes.items() if c), ZERO)
    if test.wild_card:
        assert chances["critical_failure"] == critical == Fraction(1, 6 * test.sides)
    else:
        assert "critical_failure" not in chances
        assert critical == 0
    # every result below the cap, exactly
    assert odds.distribution is not None
    listed = odds.distribution.as_dict()
    by_total: dict[int, Fraction] = defaultdict(Fraction)
    for (total, _), p in outcomes.items():
        by_total[total] += p
    for total in range(1 + test.modifier, CAP + test.modifier):
        assert listed.get(total, ZERO) == by_total.get(total, ZERO), total


@pytest.mark.parametrize("line", LINES)
def test_table_and_mean(line: str) -> None:
    test = check(line)
    odds = RULES.odds(test, EMPTY_ENVIRONMENT, line)
    assert odds.distribution is not None
    residue = odds.distribution.residue
    assert 0 < residue <= PRECISION
    assert odds.distribution.total + residue == ONE
    assert odds.kind().startswith("to a precision of")
    # the exact mean against the capped enumeration: E[min(X, cap)] <= E[X], and the
    # rest is at most the sum of both dice's tails beyond the cap
    capped_mean = sum((t * p for (t, _), p in brute_force(test).items()), ZERO)
    exact = dict(odds.expectations)["mean"]
    tail = sum(
        (at_least(test.sides, x) + at_least(WILD_SIDES, x) for x in range(CAP + 1, 20 * CAP)),
        ZERO,
    )
    assert capped_mean <= exact <= capped_mean + tail + Fraction(1, 10**12)


@pytest.mark.parametrize("sides", [*TRAIT_SIDES, WILD_SIDES])
def test_one_acing_die(sides: int) -> None:
    die = capped_die(sides)
    for x in range(1, CAP + 1):
        reached = sum((p for (_, total), p in die.items() if total >= x), ZERO)
        assert at_least(sides, x) == reached
    for t in range(1, CAP):
        assert exactly(sides, t) == sum((p for (_, total), p in die.items() if total == t), ZERO)
    assert mean(sides) == Fraction(sides * (sides + 1), 2 * (sides - 1))


def test_known_values() -> None:
    # d8 and d6 against 4: fail only when both are under 4 (3/8 * 1/2)
    chances = dict(RULES.odds(check("sw d8"), EMPTY_ENVIRONMENT, "sw d8").chances)
    assert chances["success"] == Fraction(13, 16)
    assert chances["critical_failure"] == Fraction(1, 48)
    # an Extra's d4: 4 or more is an ace (1/4)
    extra = dict(RULES.odds(check("sw extra d4"), EMPTY_ENVIRONMENT, "").chances)
    assert extra["success"] == Fraction(1, 4)
    # a critical failure fails even when 1 + 5 would pass
    plus = dict(RULES.odds(check("sw d8+5"), EMPTY_ENVIRONMENT, "").chances)
    assert plus["success"] == 1 - Fraction(1, 48)


# -- the rolling code against the odds ------------------------------------------------


class _OutOfFacesError(Exception):
    def __init__(self, die: Die) -> None:
        self.die = die


class _Script:
    """Faces by index, in order; asks for more by raising."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.used = 0

    def draw(self, die: Die) -> int:
        if self.used == len(self.faces):
            raise _OutOfFacesError(die)
        self.used += 1
        return self.faces[self.used - 1]


MOST_DICE = 7


@pytest.mark.parametrize(
    "line", ["sw d4", "sw d6 -1 vs 5", "sw d8 +1 vs 6", "sw extra d10 vs 5", "sw d12+2 vs 8"]
)
def test_the_rolling_agrees_with_the_odds(line: str) -> None:
    test = check(line)
    passed = unfinished = ZERO
    verdicts: dict[str, Fraction] = defaultdict(Fraction)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), ONE)]
    while stack:
        faces, chance = stack.pop()
        try:
            result = resolve_test(test, Roller(_Script(faces)), line)
        except _OutOfFacesError as more:
            if len(faces) == MOST_DICE:
                unfinished += chance
                continue
            sides = len(more.die.faces)
            stack.extend(((*faces, index), chance / sides) for index in range(sides))
            continue
        assert result.outcome is not None
        assert result.total is not None
        kept = [die for die in result.dice if die.kept]
        assert result.total == sum(die.value or 0 for die in kept) + test.modifier
        firsts = [die.value for die in result.dice if "explosion" not in die.marks]
        critical = test.wild_card and firsts == [1, 1]
        assert result.outcome.verdict == judge(result.total, test.target_number, critical).verdict
        verdicts[result.outcome.verdict] += chance
        if result.outcome.passed:
            passed += chance
    success = Chances(test).passes(test.target_number)
    assert unfinished < Fraction(1, 100)  # the bound below says something
    assert passed <= success <= passed + unfinished
    if test.wild_card:
        assert verdicts["critical failure"] == Fraction(1, 6 * test.sides)
