"""Rolling a ``blades`` line (rules B1-B3): the pool's own dice (``blades Prowl+d2``)
first, then the pool's d6 in order, as ``--given`` takes them.

Rule numbers (B1, B2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    D6,
    DROPPED,
    DiceShown,
    Outcome,
    RollResult,
    RuleError,
    Text,
    roll_expression,
)
from dicecli.systems.blades.rules import (
    MOST_DICE,
    action_verdict,
    counted,
    dice_rolled,
    stress,
)

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, Roller, Segment
    from dicecli.systems.blades.checks import BladesCheck


def pool_size(value: int) -> int:
    """The pool, refused outside 0 to :data:`MOST_DICE` (rule B2)."""
    if not 0 <= value <= MOST_DICE:
        raise RuleError(f"a pool is 0 to {MOST_DICE} dice, not {value}")
    return value


def roll_check(check: BladesCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a ``blades`` line."""
    rolled_pool = roll_expression(check.pool, roller, env)
    pool = pool_size(rolled_pool.value)
    indexes = [roller.draw(D6) for _ in range(dice_rolled(pool))]
    faces = tuple(D6.face_values[i] for i in indexes)
    highest, critical = counted(pool, faces)
    kept = faces.index(highest)
    dice: tuple[DieRoll, ...] = tuple(
        D6.roll_of(i, kept=pool > 0 or n == kept, marks=() if pool > 0 or n == kept else (DROPPED,))
        for n, i in enumerate(indexes)
    )
    shown: list[Segment] = [DiceShown(dice)]
    if not str(check.pool).isdigit():  # a named or rolled pool: show what it came to
        shown += [Text(" pool ", "op"), *rolled_pool.shown]
    if pool == 0:
        shown.append(Text(" (zero dice: the lower of two)", "note"))
    fields: list[tuple[str, int | bool | str]] = [("highest", highest), ("critical", critical)]
    if check.resist:
        cost = stress(highest, critical)
        verdict = "critical: clear 1 stress" if critical else f"take {cost} stress"
        outcome = Outcome(verdict, None, (*fields, ("stress", cost)))
        total = cost
    else:
        verdict = action_verdict(highest, critical)
        outcome = Outcome(verdict, highest >= 4, tuple(fields))
        total = highest
    return RollResult(text, str(check), total, (*rolled_pool.dice, *dice), tuple(shown), outcome)
