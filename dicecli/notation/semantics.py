"""What the notation means, shared by the roller and the exact-odds engine.

Rolling (:mod:`dicecli.rolling.evaluate`) and the odds (:mod:`dicecli.probability.engine`)
walk the same tree and must agree to the letter, so every rule of meaning they both
need is written once, here: rounding up (rule N3), a percentage of a value, the score of
a die when counting successes, which dice keep/drop keeps, the check that refuses a roll
that would never end, and what a name stands for.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.errors import DiceError, UnknownNameError
from dicecli.notation.dice import die_for_sides
from dicecli.notation.nodes import Condition, Dice, Expr, Keep, Modifiers, Name

if TYPE_CHECKING:
    from dicecli.environment import Environment

MAX_DICE_COUNT = 10_000  # the roll budget (sources.DEFAULT_BUDGET); larger is refused at once
MAX_SIDES = 10_000  # every face is built once; d10000 takes milliseconds, d1000000 seconds

MAX_NAME_DEPTH = 16
"""How deep saved rolls may refer to other saved rolls (``a = b + 1``)."""


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer division rounding up (rule N3): 7/2 -> 4, -7/2 -> -3."""
    return -(-numerator // denominator)


def percent_of(percent: int, whole: int) -> int:
    """``10% of 51`` -> 6: the percentage rounded up (rule N3)."""
    return ceil_div(percent * whole, 100)


def count_one(value: int, modifiers: Modifiers) -> int:
    """What a kept die scores when counting (step 4 of the modifier order): +1 for a
    success, -1 for a failure, 0 otherwise."""
    if modifiers.success is not None and modifiers.success.matches(value):
        return 1
    if modifiers.failure is not None and modifiers.failure.matches(value):
        return -1
    return 0


def kept_slice(keep: Keep, count: int) -> slice:
    """What ``keep`` keeps of ``count`` values ranked lowest first; the sort is stable,
    so equal values rank by position, the later one higher."""
    number = min(keep.amount, count)
    if keep.kind == "kh":
        return slice(count - number, None)
    if keep.kind == "kl":
        return slice(0, number)
    if keep.kind == "dh":
        return slice(0, count - number)
    return slice(number, None)


def kept_positions(values: list[int], keep: Keep) -> set[int]:
    """Positions (into ``values``) that ``keep`` keeps."""
    order = sorted(range(len(values)), key=values.__getitem__)
    return set(order[kept_slice(keep, len(values))])


def endless_roll(node: Dice) -> str | None:
    """Why ``node``'s modifiers would roll forever (``d6r<7``, ``d1!``, ``d6r<6!``), or
    None when the roll ends."""
    values = die_for_sides(node.sides).values
    mods = node.modifiers
    standing = values
    if mods.reroll and not mods.reroll.once:
        standing = tuple(v for v in values if not mods.reroll.condition.matches(v))
        if not standing:
            return f"{node}: every face re-rolls, so the roll would never end"
    if mods.explode:
        condition = mods.explode.condition or Condition(">=", values[-1])
        if all(map(condition.matches, standing)):
            return f"{node}: every face explodes, so the roll would never end"
    return None


def name_meaning(node: Name, env: Environment, depth: int) -> int | Expr:
    """What a name stands for: a named number, or the expression of a saved roll.

    ``depth`` is how many saved rolls are already being expanded: rolling and the exact
    odds share the errors for an unknown name and for a saved roll that refers to itself.
    """
    number = env.value(node.name)
    if number is not None:
        return number
    saved = env.roll(node.name)
    if saved is None:
        raise UnknownNameError.unset(node.name, node.position)
    if depth >= MAX_NAME_DEPTH:
        raise DiceError(f"'{node.name}' refers to itself, or nests more than {MAX_NAME_DEPTH}")
    return saved
