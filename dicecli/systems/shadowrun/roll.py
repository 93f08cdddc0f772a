"""Rolling an ``sr`` line (rules S1-S5). Dice are drawn in the order ``--given`` takes
them: the pool's, threshold's and limit's own dice first, then each die of the pool
followed, with Edge, by the dice its 6s roll.

Rule numbers (S1, S2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    D6,
    EXPLODED,
    EXPLOSION,
    DiceShown,
    Outcome,
    RollResult,
    RuleError,
    Text,
    roll_expression,
)
from dicecli.systems.shadowrun.rules import MOST_DICE, counted_hits, glitch, is_hit, verdict

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, Expr, JSONValue, Roller, Segment
    from dicecli.systems.shadowrun.checks import ShadowrunCheck


def pool_size(value: int) -> int:
    """The pool, refused outside 1 to :data:`MOST_DICE` (rule S1)."""
    if not 1 <= value <= MOST_DICE:
        raise RuleError(f"a pool is 1 to {MOST_DICE} dice, not {value}")
    return value


def limit_size(value: int | None) -> int | None:
    """The limit, refused below 1 (rule S5): a limit of 0 would count no hit of those
    rolled, and a negative one negative hits."""
    if value is not None and value < 1:
        raise RuleError(f"a limit is at least 1, not {value}")
    return value


def _value(
    expr: Expr | None, roller: Roller, env: Environment
) -> tuple[int | None, list[DieRoll], list[Segment]]:
    if expr is None:
        return None, [], []
    rolled = roll_expression(expr, roller, env)
    return rolled.value, list(rolled.dice), list(rolled.shown)


def roll_check(check: ShadowrunCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an ``sr`` line."""
    pool_value, pool_dice, pool_shown = _value(check.pool, roller, env)
    pool = pool_size(pool_value or 0)
    threshold, threshold_dice, threshold_shown = _value(check.threshold, roller, env)
    limit_value, limit_dice, _ = _value(check.limit, roller, env)
    limit = limit_size(limit_value)
    dice: list[DieRoll] = []
    ones = 0
    for _ in range(pool):
        die = roller.roll(D6)
        ones += die.value == 1
        dice.append(die)
        while check.edge and dice[-1].value == 6:  # rule S4: the rule of six
            dice[-1] = dice[-1].marked(EXPLODED)
            dice.append(roller.roll(D6).marked(EXPLOSION))
    hits = counted_hits(sum(1 for d in dice if is_hit(d.value or 0)), limit, check.edge)
    said, passed = verdict(hits, ones, pool, threshold)
    shown: list[Segment] = [DiceShown(tuple(dice))]
    if not str(check.pool).isdigit():
        shown += [Text(" pool ", "op"), *pool_shown]
    if limit is not None:
        shown.append(Text(f" limit {limit}" + (" (edge: ignored)" if check.edge else ""), "label"))
    if threshold is not None:
        shown += [Text(" vs ", "op"), *threshold_shown]
    fields: list[tuple[str, JSONValue]] = [
        ("hits", hits),
        ("glitch", glitch(ones, pool)),
        ("critical_glitch", glitch(ones, pool) and hits == 0),
    ]
    if threshold is not None:
        fields.append(("net_hits", hits - threshold))
    all_dice = (*pool_dice, *threshold_dice, *limit_dice, *dice)
    return RollResult(
        text, str(check), hits, all_dice, tuple(shown), Outcome(said, passed, tuple(fields))
    )
