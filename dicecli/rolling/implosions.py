"""Implosions (``4d6i1``, Dice Maiden's ``i``): each die first rolled that stands at the
bound or less rolls one more die of its kind, whose face is subtracted from the term.

The term is rolled first with its other modifiers (re-rolls, explosions, keep/drop);
then every die it first rolled, as it stands after its re-rolls, is looked at in roll
order, kept or dropped alike, and each one at the bound or less draws a plain die
(never re-rolled, exploded, kept over or counted). That die is shown after the term's
dice, marked :data:`~dicecli.results.IMPLOSION` and worth minus its face, so a
replay with ``--given`` draws the dice in the same order. The grammar refuses an
implosion beside counting, unique dice and clamps.

Loaded by :func:`dicecli.rolling.dice_steps.compile_dice` for the first such term
(docs/startup.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.notation.dice import die_for_sides
from dicecli.result_tree import RolledDice
from dicecli.results import COMPOUNDED, EXPLOSION, IMPLOSION, REROLLED, DiceShown, DieRoll

if TYPE_CHECKING:
    from dicecli.notation.nodes import Dice
    from dicecli.rolling.step import DiceStep, InProgress

_NOT_FIRST = frozenset((REROLLED, EXPLOSION, COMPOUNDED))
"""Marks of a die that is not one the term first rolled, as it stands: a face re-rolled
away, or a die an explosion added."""


def first_dice(dice: tuple[DieRoll, ...]) -> list[DieRoll]:
    """The dice a term first rolled, each as it stands after its re-rolls, in order."""
    return [die for die in dice if not _NOT_FIRST.intersection(die.marks)]


def imploding_step(node: Dice, step: DiceStep) -> DiceStep:
    """``step`` (which rolls ``node`` without its implosion), then ``node``'s
    implosion: a subtracted die for each first die at the bound or less."""
    bound = node.modifiers.implode
    assert bound is not None
    die = die_for_sides(node.sides)
    values = die.face_values

    def imploding(ev: InProgress) -> RolledDice:
        rolled = step(ev)
        dice = rolled.shown.dice
        total = rolled.value
        added: list[DieRoll] = []
        for first in first_dice(dice):
            if first.value is not None and first.value <= bound:
                index = ev.roller.draw(die)
                landed = die.roll_of(index, True, (IMPLOSION,))
                worth = -values[index]
                added.append(DieRoll(landed.die, landed.face, worth, True, (IMPLOSION,)))
                total += worth
        if not added:
            return rolled
        shown = DiceShown((*dice, *added))
        return RolledDice(total, shown, rolled.tally, rolled.order)

    return imploding
