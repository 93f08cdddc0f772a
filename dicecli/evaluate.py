"""Syntax tree + dice -> :class:`~dicecli.results.RollResult`, for the generic notation.

Every die drawn is kept in the result, in roll order, with its marks; dice that do not
count stay with ``kept=False``. The modifiers of a dice term apply in one fixed order
(documented in ``docs/grammar.md``):

1. **re-roll** each die as it lands: ``r`` while the condition holds, ``ro`` once;
2. **explode** the die that stands: ``!`` adds a die, ``!!`` adds it into the same die,
   ``!p`` adds a die worth one less; every added die is re-rolled and explodes in turn;
3. **keep/drop** over the dice standing (a compounded die counts as one);
4. **count** successes and failures among the kept dice: the total is successes minus
   failures.

Arithmetic is on integers; ``/`` and ``N% of`` round up (rule N3).

Checks of a game system (``alkemy 8 vs 15``) are handed to that game's module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from dicecli import systems
from dicecli.dice import Die, Roller, die_for_sides
from dicecli.environment import Environment
from dicecli.errors import DiceError, RollLimitError, UnknownNameError
from dicecli.nodes import (
    NO_MODIFIERS,
    BinaryOp,
    Check,
    Condition,
    Dice,
    Expr,
    Group,
    Labelled,
    Modifiers,
    Name,
    Negate,
    Number,
    PercentOf,
    Reroll,
    Roll,
    binding,
)
from dicecli.results import (
    COMPOUNDED,
    DROPPED,
    EXPLODED,
    EXPLOSION,
    FAILURE,
    PENETRATED,
    REROLL,
    REROLLED,
    SUCCESS,
    DiceShown,
    DieRoll,
    RollResult,
    Segment,
    Text,
)

MAX_NAME_DEPTH = 16
"""How deep saved rolls may refer to other saved rolls (``a = b + 1``)."""


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer division rounding up (rule N3): 7/2 -> 4, -7/2 -> -3."""
    return -(-numerator // denominator)


def roll(roll: Roll, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a parsed line: the generic notation here, a game check by its module."""
    roller.start()
    body = roll.body
    try:
        if isinstance(body, Check):
            result = systems.by_name(body.system).resolve(body, roller, env, text)
            if roll.comment is not None and result.comment is None:
                result = replace(result, comment=roll.comment)
            return result
        evaluation = Evaluation(roller, env)
        total = evaluation.value(body)
    except DiceError as error:
        raise error.at(text) from None
    except RecursionError:
        raise DiceError("too deeply nested", text, 0) from None
    return RollResult(
        text,
        roll.canonical,
        total,
        tuple(evaluation.dice),
        tuple(evaluation.segments),
        None,
        roll.comment,
    )


_OP_TEXT = {op: Text(f" {op} " if op in "+-" else op, "op") for op in "+-*/"}
_OPEN, _CLOSE = Text("(", "op"), Text(")", "op")
_MINUS = Text("-", "op")


class Evaluation:
    """One roll of one expression: collects the dice and the breakdown as it goes.

    Game modules use it to roll the generic parts of their forms (distance dice,
    modifiers) so those show the same way everywhere.
    """

    def __init__(self, roller: Roller, env: Environment) -> None:
        self.roller = roller
        self.env = env
        self.dice: list[DieRoll] = []
        self.segments: list[Segment] = []
        self._depth = 0

    def value(self, node: Expr) -> int:
        return _EVALUATORS[type(node)](self, node)

    def _number(self, node: Number) -> int:
        self.segments.append(_number_text(node.value))
        return node.value

    def _binary(self, node: BinaryOp) -> int:
        level = node.level
        left = self._wrapped(node.left, level)
        self.segments.append(_OP_TEXT[node.op])
        right = self._wrapped(node.right, level + 1)
        op = node.op
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if right == 0:
            raise DiceError(f"division by zero in {node}")
        return ceil_div(left, right)

    def _wrapped(self, node: Expr, at_least: int) -> int:
        if binding(node) >= at_least:
            return self.value(node)
        self.segments.append(_OPEN)
        result = self.value(node)
        self.segments.append(_CLOSE)
        return result

    def _negate(self, node: Negate) -> int:
        self.segments.append(_MINUS)
        return -self._wrapped(node.operand, 8)

    def _percent(self, node: PercentOf) -> int:
        self.segments.append(Text(f"{node.percent}% of ", "op"))
        whole = self._wrapped(node.operand, 7)
        result = ceil_div(node.percent * whole, 100)
        self.segments.append(Text(f" (={result})", "value"))
        return result

    def _labelled(self, node: Labelled) -> int:
        result = self.value(node.expr)
        self.segments.append(Text(f"[{node.label}]", "label"))
        return result

    def _name(self, node: Name) -> int:
        number = self.env.value(node.name)
        if number is not None:
            self.segments.append(Text(f"{node.name}({number})", "label"))
            return number
        saved = self.env.roll(node.name)
        if saved is None:
            raise UnknownNameError(
                f"unknown name '{node.name}': set it with --set {node.name}=N or let",
                position=node.position if node.position >= 0 else None,
            )
        if self._depth >= MAX_NAME_DEPTH:
            raise DiceError(f"'{node.name}' refers to itself, or nests more than {MAX_NAME_DEPTH}")
        self._depth += 1
        self.segments.append(Text(f"{node.name}:", "label"))
        self.segments.append(_OPEN)
        result = self.value(saved)
        self.segments.append(_CLOSE)
        self._depth -= 1
        return result

    def _dice(self, node: Dice) -> int:
        die = die_for_sides(node.sides)
        roller = self.roller
        roller.reserve(node.count)
        modifiers = node.modifiers
        if modifiers.reroll is None and modifiers.explode is None:
            kept = die.kept_rolls
            rolled = [kept[index] for index in roller.draw_many(die, node.count)]
            if modifiers is NO_MODIFIERS:
                shown = tuple(rolled)
                self.dice.extend(shown)
                self.segments.append(DiceShown(shown))
                return sum([r.value for r in rolled if r.value is not None])
            units = [(_value(r), [i]) for i, r in enumerate(rolled)]
        else:
            rolled, units = roll_modified_dice(roller, die, node.count, modifiers)
        total, rolled = apply_keep_and_count(rolled, units, node.modifiers)
        self.dice.extend(rolled)
        self.segments.append(DiceShown(tuple(rolled)))
        if modifiers.counts_successes:
            successes = sum(1 for die in rolled if SUCCESS in die.marks)
            self.segments.append(Text(_tally(successes, successes - total), "value"))
        return total

    def _group(self, node: Group) -> int:
        items: list[tuple[int, list[int]]] = []
        item_texts: list[int] = []  # where each item's value text sits in the segments
        self.segments.append(Text("{", "op"))
        for index, item in enumerate(node.items):
            if index:
                self.segments.append(Text(", ", "op"))
            value = self.value(item)
            if isinstance(item, Number):  # the value is already shown: no "(=5)"
                item_texts.append(len(self.segments) - 1)
            else:
                item_texts.append(len(self.segments))
                self.segments.append(Text(f" (={value})", "value"))
            items.append((value, [index]))
        self.segments.append(Text("}", "op"))
        kept_items = _kept_units(items, node.modifiers)
        total = successes = 0
        for value, (index,) in items:
            where = item_texts[index]
            if index not in kept_items:
                shown = self.segments[where]
                assert isinstance(shown, Text)
                self.segments[where] = Text(shown.text, "dropped")
            elif node.modifiers.counts_successes:
                score = _count_one(value, node.modifiers)
                total += score
                successes += score > 0
            else:
                total += value
        if node.modifiers.counts_successes:
            self.segments.append(Text(_tally(successes, successes - total), "value"))
        return total


_EVALUATORS: dict[type, Callable[[Evaluation, Expr], int]] = {
    Number: Evaluation._number,  # type: ignore[dict-item]
    BinaryOp: Evaluation._binary,  # type: ignore[dict-item]
    Negate: Evaluation._negate,  # type: ignore[dict-item]
    PercentOf: Evaluation._percent,  # type: ignore[dict-item]
    Labelled: Evaluation._labelled,  # type: ignore[dict-item]
    Name: Evaluation._name,  # type: ignore[dict-item]
    Dice: Evaluation._dice,  # type: ignore[dict-item]
    Group: Evaluation._group,  # type: ignore[dict-item]
}

_NUMBER_TEXTS: dict[int, Text] = {}


def _number_text(value: int) -> Text:
    text = _NUMBER_TEXTS.get(value)
    if text is None:
        text = Text(str(value), "number")
        if len(_NUMBER_TEXTS) < 1024:
            _NUMBER_TEXTS[value] = text
    return text


def _tally(successes: int, failures: int) -> str:
    """`` (3 successes, 1 failure)``: what the counted total is made of."""
    text = f" ({successes} success{'' if successes == 1 else 'es'}"
    if failures:
        text += f", {failures} failure{'' if failures == 1 else 's'}"
    return text + ")"


def _value(roll: DieRoll) -> int:
    assert roll.value is not None, f"{roll.die} has faces without numbers"
    return roll.value


Unit = tuple[int, list[int]]
"""One value that keep/drop sees (a die, or a compounded die), and the positions of
the dice it is made of."""


def roll_modified_dice(
    roller: Roller, die: Die, count: int, modifiers: Modifiers
) -> tuple[list[DieRoll], list[Unit]]:
    """Roll ``count`` dice with re-rolls and explosions (steps 1 and 2)."""
    rolled: list[DieRoll] = []
    units: list[Unit] = []
    reroll = modifiers.reroll
    explode = modifiers.explode
    explode_if = None
    if explode is not None:
        explode_if = explode.condition or Condition("=", die.values[-1])
    for _ in range(count):
        position, natural = _roll_one(roller, die, reroll, rolled, (), 0)
        unit = [position]
        total = natural
        while explode_if is not None and explode is not None and explode_if.matches(natural):
            rolled[position] = _marked(rolled[position], EXPLODED)
            kind = explode.kind
            marks: tuple[str, ...] = (COMPOUNDED,) if kind == "!!" else (EXPLOSION,)
            penalty = 0
            if kind == "!p":
                marks, penalty = (EXPLOSION, PENETRATED), 1
            position, natural = _roll_one(roller, die, reroll, rolled, marks, penalty)
            if kind == "!!":
                unit.append(position)
                total += natural
            else:
                units.append((total, unit))
                unit = [position]
                total = natural - penalty
        units.append((total, unit))
    return rolled, units


def _roll_one(
    roller: Roller,
    die: Die,
    reroll: Reroll | None,
    rolled: list[DieRoll],
    marks: tuple[str, ...],
    penalty: int,
) -> tuple[int, int]:
    """Roll one die into ``rolled`` with its re-rolls: the position of the die standing
    and its natural value. Conditions read natural values; a penetrating die's
    ``penalty`` only lowers what each of its faces is worth, re-rolled ones included."""

    def landed(index: int, kept: bool, these: tuple[str, ...]) -> tuple[DieRoll, int]:
        roll = die.roll_of(index, kept, these)
        natural = _value(roll)
        if penalty:
            roll = DieRoll(roll.die, roll.face, natural - penalty, kept, these)
        return roll, natural

    roll, natural = landed(roller.draw(die), True, marks)
    if reroll is not None:
        condition = reroll.condition
        while condition.matches(natural):
            rolled.append(DieRoll(roll.die, roll.face, roll.value, False, (*roll.marks, REROLLED)))
            roll, natural = landed(roller.draw(die), True, (*marks, REROLL))
            if reroll.once:
                break
    rolled.append(roll)
    return len(rolled) - 1, natural


def _marked(roll: DieRoll, mark: str, kept: bool | None = None) -> DieRoll:
    return DieRoll(
        roll.die, roll.face, roll.value, roll.kept if kept is None else kept, (*roll.marks, mark)
    )


def _kept_units(units: list[Unit], modifiers: Modifiers) -> set[int]:
    """Indexes (into ``units``) of the units that keep/drop keeps (step 3)."""
    keep = modifiers.keep
    every = set(range(len(units)))
    if keep is None:
        return every
    order = sorted(every, key=lambda i: (units[i][0], i))
    count = min(keep.count, len(order))
    if keep.kind == "kh":
        return set(order[len(order) - count :])
    if keep.kind == "kl":
        return set(order[:count])
    if keep.kind == "dh":
        return set(order[: len(order) - count])
    return set(order[count:])


def _count_one(value: int, modifiers: Modifiers) -> int:
    """+1 for a success, -1 for a failure, 0 otherwise (step 4)."""
    if modifiers.success is not None and modifiers.success.matches(value):
        return 1
    if modifiers.failure is not None and modifiers.failure.matches(value):
        return -1
    return 0


def apply_keep_and_count(
    rolled: list[DieRoll], units: list[Unit], modifiers: Modifiers
) -> tuple[int, list[DieRoll]]:
    """Keep/drop and count (steps 3 and 4): the total, and the dice marked."""
    kept = _kept_units(units, modifiers)
    counting = modifiers.counts_successes
    total = 0
    for index, (value, positions) in enumerate(units):
        if index not in kept:
            for position in positions:
                rolled[position] = _marked(rolled[position], DROPPED, kept=False)
            continue
        if counting:
            score = _count_one(value, modifiers)
            total += score
            if score:
                mark = SUCCESS if score > 0 else FAILURE
                for position in positions:
                    rolled[position] = _marked(rolled[position], mark)
        else:
            total += value
    return total, rolled


__all__ = ["Evaluation", "RollLimitError", "ceil_div", "roll"]
