"""Rolling an ``l5r`` line (rules L1-L4): each die followed by the dice its 10s roll,
die after die, as ``--given`` takes them.

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    DROPPED,
    EXPLODED,
    EXPLOSION,
    DiceShown,
    Outcome,
    RollResult,
    Text,
    die_for_sides,
)
from dicecli.systems.l5r.rules import target, ten_dice_rule

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, JSONValue, Roller, Segment
    from dicecli.systems.l5r.checks import L5rCheck

D10 = die_for_sides(10)


def _die(roller: Roller, explodes: bool) -> list[DieRoll]:
    """One die and the dice its 10s roll, added to it (rule L1)."""
    dice = [roller.roll(D10)]
    while explodes and dice[-1].value == 10:
        dice[-1] = dice[-1].marked(EXPLODED)
        dice.append(roller.roll(D10).marked(EXPLOSION))
    return dice


def roll_check(check: L5rCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an ``l5r`` line."""
    effective = ten_dice_rule(check.rolled, check.kept)
    groups = [_die(roller, not check.unskilled) for _ in range(effective.rolled)]
    values = [sum(d.value or 0 for d in group) for group in groups]
    order = sorted(range(len(groups)), key=lambda i: (-values[i], i))
    kept = set(order[: effective.kept])
    dice: list[DieRoll] = []
    for i, group in enumerate(groups):
        if i in kept:
            dice += group
        else:
            dice += [d.marked(DROPPED, kept=False) for d in group]
    total = sum(values[i] for i in kept) + effective.bonus
    shown: list[Segment] = [DiceShown(tuple(dice))]
    if (effective.rolled, effective.kept) != (check.rolled, check.kept):
        shown.append(Text(f" (ten dice rule: {effective.rolled}k{effective.kept})", "note"))
    if effective.bonus:
        shown += [Text(" + ", "op"), Text(str(effective.bonus), "number")]
    kept_values: list[JSONValue] = [values[i] for i in sorted(kept, key=order.index)]
    fields: list[tuple[str, JSONValue]] = [("kept", kept_values)]
    if check.target is None:
        outcome = None
    else:
        tn = target(check.target, check.raises)
        shown += [Text(" vs ", "op"), Text(f"TN {tn}", "target")]
        passed = total >= tn
        said = "success" if passed else "failure"
        if check.raises:
            said += f" ({check.raises} raise{'s' if check.raises > 1 else ''} called)"
        fields += [("tn", tn), ("margin", total - tn)]
        outcome = Outcome(said, passed, tuple(fields))
    return RollResult(text, str(check), total, tuple(dice), tuple(shown), outcome)
