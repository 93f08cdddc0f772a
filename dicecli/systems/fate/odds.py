"""The exact odds of a ``fate`` line (rules F1-F3), from the same rule decisions as the
rolling (:mod:`dicecli.systems.fate.rules`).

Rule numbers (F1, F2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from operator import add
from typing import TYPE_CHECKING

from dicecli.game import ZERO, Distribution, Odds, expression_odds
from dicecli.systems.fate.checks import Rung
from dicecli.systems.fate.rules import FATE_DICE, outcome

if TYPE_CHECKING:
    from fractions import Fraction

    from dicecli.game import Environment, Expr
    from dicecli.systems.fate.checks import FateCheck

ONE_DIE = Distribution.uniform((-1, 0, 1))


def fate_dice() -> Distribution:
    """The sum of four Fate dice, -4 to +4 (rule F1)."""
    total = Distribution.constant(0)
    for _ in range(FATE_DICE):
        total = total.combine(ONE_DIE, add)
    return total


def _of(part: Expr | Rung | None, env: Environment) -> tuple[Distribution, tuple[str, ...]]:
    if part is None:
        return Distribution.constant(0), ()
    if isinstance(part, Rung):
        return Distribution.constant(part.value), ()
    return expression_odds(part, env)


def odds(check: FateCheck, env: Environment, text: str) -> Odds:
    """The exact chances of a ``fate`` line."""
    skills, notes = _of(check.skill, env)
    totals = fate_dice().combine(skills, add)
    if check.difficulty is None:
        return Odds(text, str(check), distribution=totals, notes=notes)
    difficulties, more = _of(check.difficulty, env)
    shifts = totals.combine(difficulties, lambda total, against: total - against)
    found: dict[str, Fraction] = dict.fromkeys(
        ("fail", "tie", "succeed", "succeed with style"), ZERO
    )
    for value, p in shifts.outcomes:
        found[outcome(value)] += p
    passing = None
    if len(difficulties.outcomes) == 1:
        passing = (difficulties.outcomes[0][0] + 1, None)
    chances = (
        ("success", found["succeed"] + found["succeed with style"]),
        *((name.replace(" ", "_"), p) for name, p in found.items()),
    )
    return Odds(
        text,
        str(check),
        distribution=totals,
        chances=chances,
        tables=(("shifts", shifts),),
        notes=(*notes, *more),
        passing=passing,
    )
