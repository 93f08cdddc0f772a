"""Exact odds of Alkemy rolls, by enumeration: never by sampling.

A side rolls at most 4 dice (rule A7), so every face combination (at most 6**4 = 1296)
is enumerated and the kept pair chosen by the same rule the roller uses
(:meth:`PreparedSide.kept`). An opposed test compares the two sides' total
distributions; when the characteristics are equal a tie is re-rolled until one side
wins, so P(side wins) = P(wins one round) / (1 - P(tie)), the sum of the geometric
series over rounds (rule A2).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from dicecli.environment import Environment
from dicecli.errors import RuleError
from dicecli.notation.nodes import assert_never
from dicecli.probability.distribution import ONE, ZERO, Distribution, Odds
from dicecli.systems.alkemy.dice import dice_for
from dicecli.systems.alkemy.nodes import AlkemyCheck, AlkemyForm, AlkemyOpposed
from dicecli.systems.alkemy.rules import PreparedSide, look_up, prepare


def side_distribution(side: PreparedSide) -> Distribution:
    """The distribution of a side's total: the kept pair plus the characteristic."""
    faces = side.dice.values
    counts: dict[int, int] = {}
    for values in product(faces, repeat=side.count):
        first, second = side.kept(values)
        total = values[first] + values[second] + side.characteristic
        counts[total] = counts.get(total, 0) + 1
    return Distribution.from_counts(counts)


def compare(first: Distribution, second: Distribution) -> tuple[Fraction, Fraction, Fraction]:
    """``(P(first > second), P(second > first), P(tie))`` for independent totals."""
    ahead = behind = tie = ZERO
    for a, p in first.outcomes:
        for b, q in second.outcomes:
            if a > b:
                ahead += p * q
            elif a < b:
                behind += p * q
            else:
                tie += p * q
    return ahead, behind, tie


def _notes(sides: list[PreparedSide], prefix: bool) -> tuple[str, ...]:
    notes = []
    for side in sides:
        for note in side.notes():
            notes.append(f"side {side.number}: {note}" if prefix else note)
    return tuple(notes)


def check_odds(check: AlkemyCheck, env: Environment, text: str) -> Odds:
    side = prepare(check.side, 1, env, dice_for(env))
    distribution = side_distribution(side)
    chances: tuple[tuple[str, Fraction], ...] = ()
    passing: tuple[int | None, int | None] | None = None
    if check.difficulty is not None:
        difficulty = look_up(check.difficulty, env)
        success = distribution.at_least(difficulty)
        chances = (("success", success),)
        passing = (difficulty, None)
    return Odds(
        text,
        str(check),
        distribution=distribution,
        chances=chances,
        notes=_notes([side], prefix=False),
        passing=passing,
    )


def opposed_odds(check: AlkemyOpposed, env: Environment, text: str) -> Odds:
    dice_set = dice_for(env)
    first, second = prepare(check.first, 1, env, dice_set), prepare(check.second, 2, env, dice_set)
    first_totals, second_totals = side_distribution(first), side_distribution(second)
    ahead, behind, tie = compare(first_totals, second_totals)
    expectations: tuple[tuple[str, Fraction], ...] = ()
    tied_characteristics = first.characteristic == second.characteristic
    by_tie = "tie_rerolled" if tied_characteristics else "decided_by_characteristic"
    chances = (("decided_by_total", ahead + behind), (by_tie, tie))
    if first.characteristic > second.characteristic:
        wins = (ahead + tie, behind)
    elif first.characteristic < second.characteristic:
        wins = (ahead, behind + tie)
    elif tie == ONE:
        raise RuleError("these dice always tie, so the opposed roll would never end")
    else:
        wins = (ahead / (ONE - tie), behind / (ONE - tie))
        expectations = (("rounds", ONE / (ONE - tie)),)
    return Odds(
        text,
        str(check),
        chances=chances,
        wins=((first.title, wins[0]), (second.title, wins[1])),
        expectations=expectations,
        tables=((f"{first.title} total", first_totals), (f"{second.title} total", second_totals)),
        notes=_notes([first, second], prefix=True),
    )


def odds(form: AlkemyForm, env: Environment, text: str) -> Odds:
    """The exact odds of an Alkemy line (``dicecli odds``)."""
    match form:
        case AlkemyCheck():
            return check_odds(form, env, text)
        case AlkemyOpposed():
            return opposed_odds(form, env, text)
        case _:
            return assert_never(form)
