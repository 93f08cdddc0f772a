"""The exact odds of a ``coc`` line (rules C1-C5), from the same rule decisions as the
rolling (:mod:`dicecli.systems.coc.rules`).

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dicecli.game import ZERO, Distribution, Odds, assert_never, expression_odds
from dicecli.systems.coc.checks import OpposedRoll, SkillRoll
from dicecli.systems.coc.rules import (
    LEVELS,
    extra_dice,
    level,
    opposed_winner,
    passes,
    percentile,
)

if TYPE_CHECKING:
    from dicecli.game import Environment
    from dicecli.systems.coc.checks import CocCheck

TENS = tuple(10 * n for n in range(10))


def odds(check: CocCheck, env: Environment, text: str) -> Odds:
    """The exact chances of any ``coc`` line."""
    match check:
        case SkillRoll():
            return _skill_odds(check, env, text)
        case OpposedRoll():
            return _opposed_odds(check, env, text)
        case _:
            return assert_never(check)


def results(bonus: int, penalty: int) -> Distribution:
    """The d100 result kept with these bonus and penalty dice (rules C1, C4): for each
    units die, the lowest (bonus) or highest (penalty) of ``count + 1`` tens dice."""
    count, which = extra_dice(bonus, penalty)
    if which is None:
        return Distribution.uniform(range(1, 101))
    k = count + 1
    chances: dict[int, Fraction] = {}
    for units in range(10):
        ordered = sorted(percentile(tens, units) for tens in TENS)
        for rank, value in enumerate(ordered):  # rank 0 is the lowest of the ten
            if which == "bonus":  # P(lowest = value): all at or above it, less all above
                p = Fraction(10 - rank, 10) ** k - Fraction(9 - rank, 10) ** k
            else:
                p = Fraction(rank + 1, 10) ** k - Fraction(rank, 10) ** k
            chances[value] = chances.get(value, ZERO) + p / 10
    return Distribution.from_probabilities(chances)


def levels(
    check: SkillRoll, env: Environment
) -> tuple[dict[tuple[str, int], Fraction], tuple[str, ...]]:
    """The chance of each (level, skill) pair of one roll, and the skill's notes."""
    skills, notes = expression_odds(check.skill, env)
    rolled = results(check.bonus, check.penalty)
    found: dict[tuple[str, int], Fraction] = {}
    for skill, p in skills.outcomes:
        for result, q in rolled.outcomes:
            key = (level(result, skill), skill)
            found[key] = found.get(key, ZERO) + p * q
    return found, notes


def _skill_odds(check: SkillRoll, env: Environment, text: str) -> Odds:
    found, notes = levels(check, env)
    by_level = dict.fromkeys(reversed(LEVELS), ZERO)
    for (name, _), p in found.items():
        by_level[name] += p
    difficulty = check.difficulty or "regular"
    success = sum((p for name, p in by_level.items() if passes(name, difficulty)), ZERO)
    chances = (
        ("success", success),
        *((name.replace(" ", "_"), p) for name, p in by_level.items()),
    )
    rolled = results(check.bonus, check.penalty)
    return Odds(text, str(check), distribution=rolled, chances=chances, notes=notes)


def _opposed_odds(check: OpposedRoll, env: Environment, text: str) -> Odds:
    first, first_notes = levels(check.sides[0], env)
    second, second_notes = levels(check.sides[1], env)
    wins = [ZERO, ZERO]
    none = ZERO
    for (level_a, skill_a), p in first.items():
        for (level_b, skill_b), q in second.items():
            winner = opposed_winner((level_a, level_b), (skill_a, skill_b))
            if winner is None:
                none += p * q
            else:
                wins[winner] += p * q
    return Odds(
        text,
        str(check),
        wins=(("#1", wins[0]), ("#2", wins[1])),
        chances=(("no_winner", none),),
        notes=(*first_notes, *second_notes),
    )
