"""Dice terms with re-roll, unique, explode or clamp modifiers (steps 1 and 2 of the
modifier order), rolled one die at a time as the rules go.

The dice steps (:mod:`dicecli.rolling.dice_steps`) import this module for the first
such term they meet (see "Start-up" in the README). Keep/drop and counting (steps 3
and 4) are :mod:`dicecli.rolling.keep_and_count`'s, shared with every dice term.
(:mod:`dicecli.rolling.reroll_result` is another thing: re-rolling a whole result, rule W5.)

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.frozen import frozen
from dicecli.notation.nodes import Condition
from dicecli.results import (
    CLAMPED,
    COMPOUNDED,
    EXPLODED,
    EXPLOSION,
    PENETRATED,
    REROLL,
    REROLLED,
    DieRoll,
)

if TYPE_CHECKING:
    from dicecli.notation.dice import Die
    from dicecli.notation.nodes import ExplodeKind, Modifiers, Unique
    from dicecli.rolling.keep_and_count import KeepUnit
    from dicecli.rolling.sources import Roller


_EXPLOSIONS: dict[ExplodeKind | None, tuple[bool, tuple[str, ...], int]] = {
    "!": (False, (EXPLOSION,), 0),
    "!!": (True, (COMPOUNDED,), 0),
    "!p": (False, (EXPLOSION, PENETRATED), 1),
    "!!p": (True, (COMPOUNDED, PENETRATED), 1),
}
"""What each explosion rolls: whether it adds into the same die, the marks of the added
die, and what is taken off it (a penetrating die is worth one less)."""


@frozen
class RerollExplodeRules:
    """A die's re-roll and explosion rules (steps 1 and 2), worked out once per dice
    term: the natural values each applies to, as ranges (conditions compare numbers;
    ``<>`` is all but one value), its unique rule and its clamps."""

    die: Die
    rerolled_on: range | AllBut | AnyOf
    reroll_once: bool
    exploding_on: range | AllBut
    explode_kind: ExplodeKind | None
    unique: Unique | None = None
    modifiers: Modifiers | None = None  # when it clamps: what each die is worth
    explode_once: bool = False
    """``!o``: a die that explodes adds one die, which does not explode in turn."""
    once_more_on: range | AllBut | AnyOf = range(0)
    """Beside repeated re-rolls (``rerolled_on``), the values a once re-roll written
    on the same term re-rolls once more (``r1ro6``)."""

    @classmethod
    def of(cls, die: Die, modifiers: Modifiers) -> RerollExplodeRules:
        reroll, explode = modifiers.reroll, modifiers.explode
        nothing = range(0)
        exploding_on: range | AllBut = nothing
        if explode is not None:
            condition = explode.condition or Condition("=", die.values[-1])
            exploding_on = values_matching(condition)
        if reroll is not None and reroll.then is not None:  # several: 2d8r1r3, r1ro6
            return cls(
                die,
                AnyOf(reroll.conditions(False)),
                False,
                exploding_on,
                explode.kind if explode is not None else None,
                modifiers.unique,
                modifiers if modifiers.clamps else None,
                explode is not None and explode.once,
                AnyOf(reroll.conditions(True)),
            )
        return cls(
            die,
            values_matching(reroll.condition) if reroll is not None else nothing,
            reroll is not None and reroll.once,
            exploding_on,
            explode.kind if explode is not None else None,
            modifiers.unique,
            modifiers if modifiers.clamps else None,
            explode is not None and explode.once,
        )


class AllBut:
    """The integers but one: what ``<>3`` holds for."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def __contains__(self, number: object) -> bool:
        return number != self.value


class AnyOf:
    """The integers any of several conditions holds for (``2d8r1r3``: 1 and 3)."""

    __slots__ = ("conditions",)

    def __init__(self, conditions: tuple[Condition, ...]) -> None:
        self.conditions = conditions

    def __contains__(self, number: object) -> bool:
        assert isinstance(number, int)
        return any(condition.matches(number) for condition in self.conditions)


def values_matching(condition: Condition) -> range | AllBut:
    """The integers ``condition`` holds for: ``>=5`` -> 5, 6, 7 ... (up to a bound no die
    reaches); ``=3`` -> 3 alone; ``<>3`` -> all but 3."""
    value, op = condition.value, condition.op
    if op == "=":
        return range(value, value + 1)
    if op == "<>":
        return AllBut(value)
    if op == ">=":
        return range(value, _BEYOND_EVERY_DIE)
    if op == ">":
        return range(value + 1, _BEYOND_EVERY_DIE)
    if op == "<=":
        return range(-_BEYOND_EVERY_DIE, value + 1)
    return range(-_BEYOND_EVERY_DIE, value)


_BEYOND_EVERY_DIE = 10**9  # faces are capped far below (grammar.MAX_SIDES)


def roll_modified_dice(
    roller: Roller, rules: RerollExplodeRules, count: int
) -> tuple[list[DieRoll], list[KeepUnit]]:
    """Roll ``count`` dice with re-rolls and explosions (steps 1 and 2)."""
    if rules.unique is not None or rules.modifiers is not None:
        return _roll_unique_or_clamped_dice(roller, rules, count)
    rolled: list[DieRoll] = []
    units: list[KeepUnit] = []
    kind = rules.explode_kind
    for _ in range(count):
        position, natural = _roll_one(roller, rules, rolled, (), 0)
        unit = [position]
        total = natural
        while natural in rules.exploding_on:
            rolled[position] = rolled[position].marked(EXPLODED)
            compounding, marks, penalty = _EXPLOSIONS[kind]
            position, natural = _roll_one(roller, rules, rolled, marks, penalty)
            if compounding:
                unit.append(position)
                total += natural - penalty
            else:
                units.append((total, unit))
                unit = [position]
                total = natural - penalty
            if rules.explode_once:
                break
        units.append((total, unit))
    return rolled, units


def _roll_unique_or_clamped_dice(
    roller: Roller, rules: RerollExplodeRules, count: int
) -> tuple[list[DieRoll], list[KeepUnit]]:
    """:func:`roll_modified_dice` for unique dice (a die repeating a value standing
    before it is rolled again) and clamps (each die standing worth its clamped value),
    apart so that the common terms pay nothing for them."""
    rolled: list[DieRoll] = []
    units: list[KeepUnit] = []
    kind = rules.explode_kind
    standing: list[int] = []  # natural values standing so far, for unique dice
    for _ in range(count):
        position, natural = _roll_one(roller, rules, rolled, (), 0)
        if rules.unique is not None:
            position, natural = _made_unique(roller, rules, rolled, standing, position, natural)
            standing.append(natural)
        unit = [position]
        total = _clamped(rolled, position, rules.modifiers)
        while natural in rules.exploding_on:  # never for unique dice (refused)
            rolled[position] = rolled[position].marked(EXPLODED)
            compounding, marks, penalty = _EXPLOSIONS[kind]
            position, natural = _roll_one(roller, rules, rolled, marks, penalty)
            if compounding:
                unit.append(position)
                total += _clamped(rolled, position, rules.modifiers)
            else:
                units.append((total, unit))
                unit = [position]
                total = _clamped(rolled, position, rules.modifiers)
            if rules.explode_once:
                break
        units.append((total, unit))
    return rolled, units


def _clamped(rolled: list[DieRoll], position: int, clamps: Modifiers | None) -> int:
    """What the die standing at ``position`` is worth within ``clamps`` (``min3``,
    ``max6``), marked ``clamped`` when that is not its own worth (its face, less one
    if penetrating): the die shows both, ``1→3``."""
    roll = rolled[position]
    worth = roll.value
    assert worth is not None  # the generic dice have numbers on every face
    if clamps is None:
        return worth
    value = clamps.clamped(worth)
    if value != worth:
        marks = (*roll.marks, CLAMPED)
        rolled[position] = DieRoll(
            roll.die, roll.face, value, roll.kept, marks, rerollable=roll.rerollable
        )
    return value


def _made_unique(
    roller: Roller,
    rules: RerollExplodeRules,
    rolled: list[DieRoll],
    standing: list[int],
    position: int,
    natural: int,
) -> tuple[int, int]:
    """Re-roll the die at ``position`` while its natural value is one an earlier die
    stands on (and meets the unique condition, if any); once for ``uo``. The die
    re-rolled is shown discarded, as re-rolls are; the new one is re-rolled by ``r``/``ro``
    as any die."""
    unique = rules.unique
    assert unique is not None
    condition = unique.condition
    while natural in standing and (condition is None or condition.matches(natural)):
        roll = rolled[position]
        marks = (*roll.marks, REROLLED)
        rolled[position] = DieRoll(
            roll.die, roll.face, roll.value, False, marks, rerollable=roll.rerollable
        )
        position, natural = _roll_one(roller, rules, rolled, (REROLL,), 0)
        if unique.once:
            break
    return position, natural


def _roll_one(
    roller: Roller,
    rules: RerollExplodeRules,
    rolled: list[DieRoll],
    marks: tuple[str, ...],
    penalty: int,
) -> tuple[int, int]:
    """Roll one die into ``rolled`` with its re-rolls: the position of the die standing
    and its natural value. Conditions read natural values; a penetrating die's
    ``penalty`` only lowers what each of its faces is worth, re-rolled ones included."""
    die, rerolled_on = rules.die, rules.rerolled_on
    values = die.face_values
    index = roller.draw(die)
    natural = values[index]
    these = marks
    once_more = rules.once_more_on
    while natural in rerolled_on or natural in once_more:
        if natural not in rerolled_on:  # a once re-roll beside repeated ones: spent
            once_more = range(0)
        rolled.append(_landed(die, index, False, (*these, REROLLED), penalty))
        index = roller.draw(die)
        natural = values[index]
        these = (*marks, REROLL)
        if rules.reroll_once:
            break
    rolled.append(_landed(die, index, True, these, penalty))
    return len(rolled) - 1, natural


def _landed(die: Die, index: int, kept: bool, marks: tuple[str, ...], penalty: int) -> DieRoll:
    roll = die.roll_of(index, kept, marks)
    if penalty:
        value = die.face_values[index] - penalty
        return DieRoll(roll.die, roll.face, value, kept, marks, rerollable=roll.rerollable)
    return roll
