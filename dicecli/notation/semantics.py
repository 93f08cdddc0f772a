"""What the notation means, shared by the roller and the exact-odds engine.

Rolling (:mod:`dicecli.rolling.evaluate`) and the odds (:mod:`dicecli.probability.engine`)
walk the same tree and must agree to the letter, so every rule of meaning they both
need is written once, here: rounding up (rule N3), a percentage of a value, the score of
a die when counting successes, which dice keep/drop keeps, the check that refuses a roll
that would never end, and what a name stands for.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, cast

from dicecli.errors import DiceError, UnknownNameError
from dicecli.limits import MAX_VALUE, check_value
from dicecli.notation.dice import die_for_sides
from dicecli.notation.nodes import (
    BinaryOp,
    CheckOp,
    CompareOp,
    ComputedDice,
    Condition,
    Dice,
    Expr,
    FunctionName,
    Group,
    Keep,
    Modifiers,
    Name,
    Sides,
)
from dicecli.notation.sides import FaceList

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dicecli.notation.names import Names

MAX_DICE_COUNT = 10_000  # the roll budget (sources.DEFAULT_BUDGET); larger is refused at once
MAX_SIDES = 10_000  # what a table needs; the faces of a big die are computed, not built

MAX_NAME_DEPTH = 16
"""How deep saved rolls may refer to other saved rolls (``a = b + 1``)."""


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer division rounding up (rule N3): 7/2 -> 4, -7/2 -> -3."""
    return -(-numerator // denominator)


def rounded(function: FunctionName, numerator: int, denominator: int) -> int:
    """The exact quotient ``numerator / denominator`` rounded by ``floor``, ``ceil`` or
    ``round`` (``round`` takes halves up, towards the larger number, as Roll20 and RPG
    Dice Roller do: 7/2 is 4, -7/2 is -3). Integer arithmetic: no fractions to import
    at start-up."""
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    if function == "floor":
        return numerator // denominator
    if function == "ceil":
        return -(-numerator // denominator)
    return (2 * numerator + denominator) // (2 * denominator)


def applied(function: FunctionName, values: list[int]) -> int:
    """``abs``, ``min``, ``max`` of whole values; ``floor``/``ceil``/``round`` of a whole
    value is that value."""
    if function == "abs":
        return abs(values[0])
    if function == "min":
        return min(values)
    if function == "max":
        return max(values)
    return values[0]


def check_passes(op: CheckOp, total: int, target: int) -> bool:
    """Whether a check (``d20 + 5 >= 15``) passes: ``total`` compared with ``target``."""
    if op == ">=":
        return total >= target
    if op == "<=":
        return total <= target
    if op == ">":
        return total > target
    if op == "<":
        return total < target
    if op == "=":
        return total == target
    return total != target


def check_margin(op: CheckOp, total: int, target: int) -> int:
    """How far a check went past its target, in the direction it wants: ``total -
    target``, or ``target - total`` for a roll-under check (``<=``, ``<``)."""
    return target - total if op in ("<=", "<") else total - target


def percent_of(percent: int, whole: int) -> int:
    """``10% of 51`` -> 6: the percentage rounded up (rule N3)."""
    return ceil_div(multiply(percent, whole), 100)


def modulo(left: int, right: int) -> int:
    """``left % right``: the remainder of the division rounded down, with the sign of
    ``right`` (as Python and d20 (Avrae) have it); the caller refuses a zero ``right``."""
    return left % right


def floor_div(left: int, right: int) -> int:
    """``left // right``: the quotient rounded down (d20's ``//``); the caller refuses
    a zero ``right``."""
    return left // right


def to_power(base: int, exponent: int) -> int:
    """``base ^ exponent``, refused for a negative exponent (a fraction: values are
    whole numbers) and, before it is worked out, for a result of more digits than any
    value may have (:data:`dicecli.limits.MAX_DIGITS`)."""
    if exponent < 0:
        raise DiceError(
            f"{base}^{exponent}: a negative power is a fraction, and values are whole numbers"
        )
    if abs(base) > 1 and exponent > _LONGEST_POWER_OF_TWO:
        return check_value(MAX_VALUE + 1)  # the error: 2**333 already has 101 digits
    return check_value(base**exponent)


_LONGEST_POWER_OF_TWO = 332
"""The largest exponent of 2 within the digits a value may have (``2**332`` has 100)."""


def multiply(left: int, right: int) -> int:
    """``left * right``, refused when it has more digits than any value may
    (:data:`dicecli.limits.MAX_DIGITS`): repeated products grow without bound."""
    return check_value(left * right)


def count_one(value: int, modifiers: Modifiers) -> int:
    """What a kept die scores when counting (step 4 of the modifier order): +1 for a
    success (+2 when it also meets ``ds``), -1 for a failure, 0 otherwise."""
    if modifiers.success is not None and modifiers.success.matches(value):
        return 2 if modifiers.double is not None and modifiers.double.matches(value) else 1
    if modifiers.failure is not None and modifiers.failure.matches(value):
        return -1
    return 0


def kept_slice(keep: Keep, count: int) -> slice:
    """What ``keep`` keeps of ``count`` values ranked lowest first; the sort is stable,
    so equal values rank by position, the later one higher. A keep that leaves the
    highest values ends open (``slice(k, None)``), one that leaves the lowest starts at
    0; only a middle window (``km``, or a chain such as ``dl1kh2``) is closed on both
    sides."""
    if keep.then is None and keep.kind != "km":
        number = min(keep.amount, count)
        if keep.kind == "kh":
            return slice(count - number, None)
        if keep.kind == "kl":
            return slice(0, number)
        if keep.kind == "dh":
            return slice(0, count - number)
        return slice(number, None)
    low, high = kept_window(keep, count)
    if high == count:
        return slice(low, None)
    return slice(low, high)


def kept_window(keep: Keep, count: int) -> tuple[int, int]:
    """The ranks (lowest first) that ``keep`` and the keeps after it keep of ``count``
    values, as ``(low, high)``: each keep in the chain applies to the values the one
    before kept, in the order written (``4d6dl1kh3``, ``10d6kh5kl2kh1``)."""
    low, high = 0, count
    step: Keep | None = keep
    while step is not None:
        standing = high - low
        number = min(step.amount, standing)
        kind = step.kind
        if kind == "kh":
            low = high - number
        elif kind == "kl":
            high = low + number
        elif kind == "dh":
            high -= number
        elif kind == "dl":
            low += number
        else:  # km: of the dice left out, half from the bottom (rounded down), the rest on top
            left_out = standing - number
            low += left_out // 2
            high -= left_out - left_out // 2
        step = step.then
    return low, high


def pooled_dice(group: Group) -> tuple[Dice, ...] | None:
    """The dice terms whose dice a group's keep/drop picks among, one by one: when the
    group has a single item made of dice terms added together (``{4d6+3d8}k4``,
    ``{4d6}dl1``), as Roll20 and RPG Dice Roller read it. None for any other group
    (``{2d6, d8}kh1``, ``{d20 + 5}kh1``): its keep/drop picks among the items' values.
    A pooled group counts successes among its kept dice, as a dice term does.

    The dice pooled may re-roll, mark criticals and be sorted (sorting changes only
    the order they are shown in); dice that explode, keep, count, are unique or
    clamped on their own are not pooled: the group keeps or drops their sum, one value
    (:mod:`~dicecli.notation.other_readings` notes Roll20's reading)."""
    if len(group.items) != 1 or group.modifiers.keep is None:
        return None
    terms: list[Dice] = []
    pending: list[Expr] = [group.items[0]]
    while pending:
        node = pending.pop()
        if isinstance(node, BinaryOp) and node.op == "+":
            pending += [node.right, node.left]
        elif isinstance(node, Dice) and _poolable(node.modifiers):
            terms.append(node)
        else:
            return None
    return tuple(terms)


def _poolable(modifiers: Modifiers) -> bool:
    return (
        modifiers.explode is None
        and modifiers.keep is None
        and not modifiers.counts_successes
        and modifiers.unique is None
        and not modifiers.clamps
    )


def kept_positions(values: list[int], keep: Keep) -> set[int]:
    """Positions (into ``values``) that ``keep`` keeps."""
    order = sorted(range(len(values)), key=values.__getitem__)
    return set(order[kept_slice(keep, len(values))])


def kept_count(node: Dice) -> int:
    """How many dice of ``node`` keep/drop keeps (before explosions add any)."""
    keep = node.modifiers.keep
    if keep is None:
        return node.count
    return len(range(node.count)[kept_slice(keep, node.count)])


NATURAL_20 = Condition("=", 20)
NATURAL_1 = Condition("=", 1)


def critical_conditions(node: Dice) -> tuple[Condition | None, Condition | None]:
    """What marks a kept die of ``node`` a critical success and a critical failure.

    ``cs``/``cf`` when written (either replaces both defaults); else a lone ``d20``
    (one die kept, no explosion: ``d20``, ``2d20kh1``, ``d20ro1``) marks a natural 20
    and a natural 1; other dice mark nothing.
    """
    mods = node.modifiers
    if mods.critical_success is not None or mods.critical_failure is not None:
        return mods.critical_success, mods.critical_failure
    if node.sides == 20 and mods.explode is None and kept_count(node) == 1:
        return NATURAL_20, NATURAL_1
    return None, None


def condition_of(text: str) -> Condition:
    """A condition as typed after dice or a modifier's letter: ``>=5``, ``<>3`` (or
    ``!=3``), ``=-1``, or a bare ``1`` (equal to it). Shared by the grammar and the
    quick reader of common lines."""
    if text.startswith(("<>", "!=")):
        return Condition("<>", int(text[2:]))
    for op in _COMPARE_OPS:
        if text.startswith(op):
            return Condition(op, int(text[len(op) :]))
    return Condition("=", int(text))


_COMPARE_OPS: tuple[CompareOp, ...] = (">=", "<=", ">", "<", "=")


def bare_reroll_condition(raw_sides: str) -> Condition:
    """What a bare ``r`` re-rolls, for the sides as typed: the lowest face (a 1; the
    minus of a Fudge die; the lowest of custom faces)."""
    if isinstance(raw_sides, FaceList):
        from dicecli.notation.faces import lowest_face  # docs/startup.md

        return Condition("=", lowest_face(raw_sides))
    return Condition("<", 0) if raw_sides[0] in "fF" else Condition("=", 1)


def endless_roll(node: Dice) -> str | None:
    """Why ``node``'s modifiers would roll forever (``d6r<7``, ``d1!``, ``d6r<6!``), or
    None when the roll ends."""
    values = die_for_sides(node.sides).values
    mods = node.modifiers
    standing = values
    if mods.reroll:
        standing = tuple(v for v in values if not mods.reroll.repeats(v))
        if not standing:
            return f"{node}: every face re-rolls, so the roll would never end"
    if mods.explode and not mods.explode.once:  # !o adds one die at most
        condition = mods.explode.condition or Condition(">=", values[-1])
        if all(map(condition.matches, standing)):
            return f"{node}: every face explodes, so the roll would never end"
    if mods.unique is not None and not mods.unique.once:
        return too_few_faces(node, standing, mods.unique.condition)
    return None


def too_few_faces(node: Dice, standing: Sequence[int], condition: Condition | None) -> str | None:
    """Why unique dice (``u``) would roll forever: more dice than distinct values that
    can stand, when every value is one a duplicate of re-rolls (``4d3u``, ``7d6u<7``)."""
    if condition is not None and not all(map(condition.matches, standing)):
        return None  # a die can always stand on a value the condition lets repeat
    distinct = len(set(standing))
    if node.count <= distinct:
        return None
    return (
        f"{node}: {node.count} unique dice need {node.count} different values and "
        f"these dice can stand on {distinct}, so the roll would never end"
    )


@lru_cache(maxsize=1024)
def computed_dice(node: ComputedDice, count: int, sides: int | str) -> Dice:
    """The dice ``node`` rolls once its count and sides came out ``count`` and ``sides``
    (shared by the roller and the odds); a :class:`DiceError` naming the value when
    either is out of range, or when those dice would roll forever."""
    if not 1 <= count <= MAX_DICE_COUNT:
        raise DiceError(
            f"{node}: the dice count came out {count}; it must be 1 to {MAX_DICE_COUNT:,}"
        )
    if isinstance(sides, int) and not 1 <= sides <= MAX_SIDES:
        raise DiceError(f"{node}: the sides came out {sides}; a die needs 1 to {MAX_SIDES:,}")
    dice = Dice(count, cast("Sides", sides), node.modifiers)
    endless = endless_roll(dice)
    if endless is not None:
        raise DiceError(f"{node}: {endless}")
    return dice


def name_meaning(node: Name, env: Names, depth: int) -> int | Expr:
    """What a name stands for: a named number, or the expression of a saved roll.

    ``depth`` is how many saved rolls are already being expanded: rolling and the exact
    odds share the errors for an unknown name and for a saved roll that refers to itself.
    """
    number = env.value(node.name)
    if number is not None:
        return check_value(number)  # a value given through the API is not bounded else
    saved = env.roll(node.name)
    if saved is None:
        raise UnknownNameError.unset(node.name, node.position)
    if depth >= MAX_NAME_DEPTH:
        cycle = reference_cycle(node.name, env)
        if cycle:
            raise DiceError(f"'{node.name}' refers to itself ({' -> '.join(cycle)})")
        raise DiceError(f"saved rolls nest more than {MAX_NAME_DEPTH} deep, at '{node.name}'")
    return saved


def reference_cycle(name: str, env: Names) -> list[str]:
    """The names by which the saved roll ``name`` comes back to itself (``a -> b -> a``);
    empty when it does not."""
    from dicecli.notation.nodes import children  # docs/startup.md

    def names_of(expr: Expr) -> list[str]:
        found, stack = [], [expr]
        while stack:
            current = stack.pop()
            if isinstance(current, Name):
                found.append(current.name)
            stack.extend(children(current))
        return found

    folded = name.casefold()
    paths = [[name]]
    seen = {folded}
    while paths:
        path = paths.pop()
        saved = env.roll(path[-1])
        for used in names_of(saved) if saved is not None else []:
            if used.casefold() == folded:
                return [*path, used]
            if used.casefold() not in seen:
                seen.add(used.casefold())
                paths.append([*path, used])
    return []


def starts_as_dice(word: str) -> bool:
    """Whether ``word`` starts as a die does (``d6x5``, ``D20r1``, ``d%``): never a
    game's keyword (docs/games.md), so no game is asked about a line it starts, by the
    grammar or by the quick readers."""
    return word[:1] in ("d", "D") and (word[1:2].isdigit() or word[1:2] == "%")


def may_start_a_game_line(word: str) -> bool:
    """Whether a line whose first word is ``word`` may be a game's, as the grammar
    decides it: never when the word starts as a die (:func:`starts_as_dice`), else when
    the games say it may be a keyword. The quick readers leave such a line to the
    grammar."""
    if starts_as_dice(word):
        return False
    from dicecli.notation.games import games  # docs/startup.md

    return games().may_be_keyword(word)
