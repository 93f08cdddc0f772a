"""Rolling a ``cod`` line (rules K1-K5). Dice are drawn in the order ``--given`` takes
them: the pool's own dice (``cod 3+d2``) first, then each die of the pool followed by
its rote re-roll, then the dice its explosions roll, before the next die of the pool.

Rule numbers (K1, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    EXPLODED,
    EXPLOSION,
    REROLL,
    REROLLED,
    DiceShown,
    Outcome,
    RollResult,
    RuleError,
    Text,
    die_for_sides,
    roll_expression,
)
from dicecli.systems.cod.rules import (
    AGAIN,
    MOST_DICE,
    chance_verdict,
    explodes,
    is_success,
    verdict,
)

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, JSONValue, Roller, Segment
    from dicecli.systems.cod.checks import CodCheck

D10 = die_for_sides(10)


def pool_size(value: int) -> int:
    """The pool, refused above :data:`MOST_DICE`; 0 or less is a chance die (rule K5)."""
    if value > MOST_DICE:
        raise RuleError(f"a pool is at most {MOST_DICE} dice, not {value}")
    return max(value, 0)


def _one_die(roller: Roller, again: int | None, rote: bool) -> list[DieRoll]:
    """One die of the pool with its rote re-roll and its explosions (rules K2, K3)."""
    dice = [roller.roll(D10)]
    if rote and not is_success(dice[-1].value or 0):
        dice[-1] = dice[-1].marked(REROLLED, kept=False)
        dice.append(roller.roll(D10).marked(REROLL))
    while explodes(dice[-1].value or 0, again):
        dice[-1] = dice[-1].marked(EXPLODED)
        dice.append(roller.roll(D10).marked(EXPLOSION))
    return dice


def roll_check(check: CodCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a ``cod`` line."""
    rolled_pool = roll_expression(check.pool, roller, env)
    pool = pool_size(rolled_pool.value)
    shown: list[Segment] = []
    fields: list[tuple[str, JSONValue]]
    if pool == 0:  # rule K5: a chance die, no re-rolls
        die = roller.roll(D10)
        dice = [die]
        said = chance_verdict(die.value or 0)
        successes = 1 if die.value == 10 else 0
        passed = successes > 0
        fields = [("successes", successes), ("dramatic_failure", said == "dramatic failure")]
        shown += [DiceShown((die,)), Text(" (chance die)", "note")]
    else:
        dice = []
        for _ in range(pool):
            dice += _one_die(roller, AGAIN[check.again], check.rote)
        successes = sum(1 for d in dice if d.kept and is_success(d.value or 0))
        said = verdict(successes)
        passed = successes > 0
        fields = [("successes", successes), ("exceptional", successes >= 5)]
        shown.append(DiceShown(tuple(dice)))
    if not str(check.pool).lstrip("-").isdigit():
        shown += [Text(" pool ", "op"), *rolled_pool.shown]
    outcome = Outcome(said, passed, tuple(fields))
    all_dice = (*rolled_pool.dice, *dice)
    return RollResult(text, str(check), successes, all_dice, tuple(shown), outcome)
