"""Rolling an ``ex`` line (rules X1-X3): the pool's and difficulty's own dice first,
then the pool's d10 in order, as ``--given`` takes them.

Rule numbers (X1, X2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    DiceShown,
    Outcome,
    RollResult,
    RuleError,
    Text,
    die_for_sides,
    roll_expression,
)
from dicecli.systems.exalted.rules import MOST_DICE, successes, verdict

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, JSONValue, Roller, Segment
    from dicecli.systems.exalted.checks import ExaltedCheck

D10 = die_for_sides(10)


def pool_size(value: int) -> int:
    """The pool, refused outside 1 to :data:`MOST_DICE` (rule X1)."""
    if not 1 <= value <= MOST_DICE:
        raise RuleError(f"a pool is 1 to {MOST_DICE} dice, not {value}")
    return value


def roll_check(check: ExaltedCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an ``ex`` line."""
    rolled_pool = roll_expression(check.pool, roller, env)
    pool = pool_size(rolled_pool.value)
    extra: list[DieRoll] = list(rolled_pool.dice)
    difficulty = None
    difficulty_shown: list[Segment] = []
    if check.difficulty is not None:
        rolled = roll_expression(check.difficulty, roller, env)
        difficulty = rolled.value
        extra += rolled.dice
        difficulty_shown = [Text(" vs ", "op"), *rolled.shown]
    dice = tuple(roller.roll(D10) for _ in range(pool))
    total = sum(successes(d.value or 0) for d in dice)
    ones = sum(1 for d in dice if d.value == 1)
    said, passed = verdict(total, ones, difficulty)
    shown: list[Segment] = [DiceShown(dice)]
    if not str(check.pool).isdigit():
        shown += [Text(" pool ", "op"), *rolled_pool.shown]
    shown += difficulty_shown
    fields: list[tuple[str, JSONValue]] = [("successes", total), ("botch", said == "botch")]
    if difficulty is not None:
        fields.append(("threshold_successes", max(total - difficulty, 0)))
    outcome = Outcome(said, passed, tuple(fields))
    return RollResult(text, str(check), total, (*extra, *dice), tuple(shown), outcome)
