"""Rolling a ``yz`` line (rules Y1-Y3). Dice are drawn in the order ``--given`` takes
them: the counts' own dice first, then the base dice, the skill dice, the gear dice;
then, pushed, the dice rolled again in that order.

Rule numbers (Y1, Y2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    REROLL,
    REROLLED,
    DiceShown,
    Die,
    Face,
    Outcome,
    RollResult,
    RuleError,
    Text,
    roll_expression,
)
from dicecli.systems.yearzero.rules import MOST_DICE, SUCCESS, is_bane, kept_on_push
from dicecli.systems.yearzero.settings import KINDS

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, JSONValue, Roller, Segment
    from dicecli.systems.yearzero.checks import YearZeroCheck

DICE = {kind: Die(f"{kind} d6", tuple(Face(str(n), n) for n in range(1, 7))) for kind in KINDS}
"""A d6 of each kind, named so that ``--given`` errors and JSON say which it is."""


def count(value: int, kind: str) -> int:
    """How many dice of a kind, refused outside 0 to :data:`MOST_DICE`."""
    if not 0 <= value <= MOST_DICE:
        raise RuleError(f"{kind} dice are 0 to {MOST_DICE}, not {value}")
    return value


def roll_check(check: YearZeroCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a ``yz`` line."""
    counted: dict[str, int] = {}
    extra: list[DieRoll] = []
    for kind, expr in zip(KINDS, (check.base, check.skill, check.gear), strict=True):
        if expr is not None:
            rolled = roll_expression(expr, roller, env)
            extra += rolled.dice
            counted[kind] = count(rolled.value, kind)
    dice: dict[str, list[DieRoll]] = {
        kind: [roller.roll(DICE[kind]) for _ in range(n)] for kind, n in counted.items()
    }
    if check.push:  # rule Y3: every die that may be pushed, once
        for kind, rolled_dice in dice.items():
            again: list[DieRoll] = []
            for die in rolled_dice:
                if kept_on_push(kind, die.value or 0):
                    again.append(die)
                else:
                    again += [
                        die.marked(REROLLED, kept=False),
                        roller.roll(DICE[kind]).marked(REROLL),
                    ]
            dice[kind] = again
    kept = {kind: [d for d in ds if d.kept] for kind, ds in dice.items()}
    successes = sum(1 for ds in kept.values() for d in ds if d.value == SUCCESS)
    banes = {kind: sum(1 for d in ds if is_bane(kind, d.value or 0)) for kind, ds in kept.items()}
    shown: list[Segment] = []
    for kind, ds in dice.items():
        if shown:
            shown.append(Text(" ", "plain"))
        shown += [Text(f"{kind} ", "label"), DiceShown(tuple(ds))]
    said = f"{successes} success{'es' if successes != 1 else ''}" if successes else "failure"
    notes = []
    if banes.get("base"):
        notes.append(
            f"{banes['base']} on base dice: damage or stress"
            if check.push
            else f"{banes['base']} base 1s"
        )
    if banes.get("gear"):
        notes.append(
            f"{banes['gear']} gear 1s: the gear wears" if check.push else f"{banes['gear']} gear 1s"
        )
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("successes", successes),
        ("base_ones", banes.get("base", 0)),
        ("gear_ones", banes.get("gear", 0)),
        ("pushed", check.push),
    )
    outcome = Outcome(said, successes > 0, fields, notes=tuple(notes))
    every = (*extra, *(d for ds in dice.values() for d in ds))
    return RollResult(text, str(check), successes, every, tuple(shown), outcome)
