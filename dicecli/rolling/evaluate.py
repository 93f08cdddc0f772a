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

Checks of a game are handed to that game's ``SYSTEM`` (:mod:`dicecli.systems.registry`).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from dicecli.environment import Environment
from dicecli.errors import DiceError, RollLimitError
from dicecli.frozen import replace
from dicecli.identity_cache import IdentityCache
from dicecli.notation.dice import Die, die_for_sides
from dicecli.notation.nodes import (
    NO_MODIFIERS,
    ROUNDING_FUNCTIONS,
    BinaryOp,
    Call,
    Check,
    Comparison,
    ComputedDice,
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
    Roll,
    assert_never,
    binding,
)
from dicecli.notation.semantics import (
    applied,
    ceil_div,
    check_margin,
    check_passes,
    computed_dice,
    count_one,
    critical_conditions,
    kept_positions,
    kept_slice,
    multiply,
    name_meaning,
    percent_of,
    pooled_dice,
    rounded,
)
from dicecli.notation.sides import DieName
from dicecli.results import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    DOUBLE_SUCCESS,
    DROPPED,
    FAILURE,
    SUCCESS,
    DiceShown,
    DieRoll,
    Outcome,
    RollResult,
    Segment,
    Text,
)
from dicecli.rolling.sources import Roller

if TYPE_CHECKING:
    from dicecli.dicefiles.model import DiceBook
    from dicecli.systems.declaration import CheckStep


def roll(roll: Roll, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a parsed line: the generic notation here, a game check by its module."""
    roller.remaining = roller.budget  # the budget is per roll
    body = roll.body
    try:
        if isinstance(body, Check):
            result = check_step(body)(roller, env, text)
            if roll.comment is not None and result.comment is None:
                result = replace(result, comment=roll.comment)
            return result
        if isinstance(body, Comparison):
            return roll_comparison(body, roller, env, text, roll.comment)
        step, canonical = prepared(body)
        evaluation = Evaluation(roller, env)
        total: int | None = step(evaluation)
    except DiceError as error:
        raise error.at(text) from None
    except RecursionError:
        raise DiceError("too deeply nested", text, 0) from None
    outcome = None
    if evaluation.dice_book is not None:  # dice with symbols: count them (docs/dice.md)
        from dicecli.dicefiles.symbols import symbol_outcome

        try:
            _only_added(body, evaluation.dice)
        except DiceError as error:
            raise error.at(text) from None
        book = evaluation.dice_book
        outcome = symbol_outcome(evaluation.dice, book)
        if not any(book.numbered(rolled.die) for rolled in evaluation.dice):
            total = None  # dice of symbols alone: no total, the counts say it all
    return RollResult(
        text,
        canonical,
        total,
        tuple(evaluation.dice),
        tuple(evaluation.segments),
        outcome,
        roll.comment,
    )


def roll_comparison(
    check: Comparison, roller: Roller, env: Environment, text: str, comment: str | None
) -> RollResult:
    """Roll a check on an expression (``d20 + 5 >= 15``): the left side's total is the
    roll's total, the right side's the target; the outcome says pass or fail, against
    what, and by how much (:func:`~dicecli.notation.semantics.check_margin`). A target
    with dice shows them after the total's (``[9] vs [6] (=6)``)."""
    evaluation = Evaluation(roller, env)
    total = step_of(check.left)(evaluation)
    if isinstance(check.right, Number):
        target = check.right.value
    else:
        evaluation.segments.append(_VS)
        target = step_of(check.right)(evaluation)
        evaluation.segments.append(Text(f" (={target})", "target"))
    if evaluation.dice_book is not None:  # dice with symbols have no total to compare
        for die in evaluation.dice:
            if die.value is None:
                raise _unnumbered(die)
    passed = check_passes(check.op, total, target)
    margin = check_margin(check.op, total, target)
    verdict = f"{'pass' if passed else 'fail'} ({check.op} {target}), margin {margin:+d}"
    fields = (("success", passed), ("target", target), ("margin", margin), ("compare", check.op))
    return RollResult(
        text,
        _canonical_check(check),
        total,
        tuple(evaluation.dice),
        tuple(evaluation.segments),
        Outcome(verdict, passed, fields),
        comment,
    )


_VS = Text(" vs ", "op")


def _prepare_check(check: Check) -> CheckStep:
    from dicecli.systems import registry

    system = registry.system(check.system)
    prepare: Callable[[Check], CheckStep] | None = getattr(system, "prepare", None)
    return prepare(check) if prepare is not None else partial(system.resolve, check)


check_step: IdentityCache[Check, CheckStep] = IdentityCache(_prepare_check)
"""The step that rolls a game's check, made once per check object by its game
(:class:`~dicecli.systems.declaration.GameSystem`), as :data:`prepared` does for
expressions: the game is looked up, and what depends only on the line worked out, once
per parsed line rather than on every roll."""


@lru_cache(maxsize=256)
def _canonical_check(check: Comparison) -> str:
    return str(check)


_OP_TEXT = {op: Text(f" {op} " if op in "+-" else op, "op") for op in "+-*/"}
_OPEN, _CLOSE = Text("(", "op"), Text(")", "op")
_MINUS = Text("-", "op")


Step = Callable[["Evaluation"], int]
"""A node made ready to roll: adds its dice and breakdown to an evaluation and returns
its value. Built once per node (:func:`compile_step`), so rolling a line again skips
all dispatch on node types."""


def _prepare(node: Expr) -> tuple[Step, str]:
    return compile_step(node), str(node)


prepared: IdentityCache[Expr, tuple[Step, str]] = IdentityCache(_prepare)
"""The step that rolls an expression and its canonical text, made once per node object
(lines, saved rolls, parts of game forms). Parsed lines are cached by text
(:func:`dicecli.notation.reader.parse`) and saved rolls live in the environment, so an
expression rolled again is the same object. Kept here, off the frozen nodes, so that a
tree stays a plain value: it compares, hashes and pickles as typed."""


def step_of(node: Expr) -> Step:
    """The step that rolls ``node`` (:func:`prepared`)."""
    return prepared(node)[0]


def compile_step(node: Expr) -> Step:
    """Make ``node`` ready to roll: one function per node type."""
    match node:
        case Number():
            return _compile_number(node)
        case BinaryOp():
            return _compile_binary(node)
        case Negate():
            return _compile_negate(node)
        case PercentOf():
            return _compile_percent(node)
        case Labelled():
            return _compile_labelled(node)
        case Name():
            return _compile_name(node)
        case Dice():
            if isinstance(node.sides, DieName):  # a die of a dice file: docs/dice.md
                return _compile_named_dice(node)
            return _compile_dice(node)
        case Group():
            return _compile_group(node)
        case Call():
            return _compile_call(node)
        case ComputedDice():
            return _compile_computed_dice(node)
        case _:
            return assert_never(node)


class Evaluation:
    """One roll of one expression: collects the dice and the breakdown as it goes.

    Game modules use it to roll the generic parts of their forms (distance dice,
    modifiers) so those show the same way everywhere. A game gives words of its own a
    meaning by overriding :meth:`name` (a special die named in an expression).
    """

    dice_book: DiceBook | None = None
    """Set when dice of a dice file with symbols were rolled: their symbols are counted
    (:func:`dicecli.dicefiles.symbols.symbol_outcome`)."""

    def __init__(self, roller: Roller, env: Environment) -> None:
        self.roller = roller
        self.env = env
        self.dice: list[DieRoll] = []
        self.segments: list[Segment] = []
        self._depth = 0

    def value(self, node: Expr) -> int:
        """Roll ``node``: its value, with its dice and breakdown added here."""
        return step_of(node)(self)

    def name(self, node: Name) -> int:
        """The value of a name: a named number, or a saved roll rolled now."""
        meaning = name_meaning(node, self.env, self._depth)
        if isinstance(meaning, int):
            self.segments.append(Text(f"{node.name}({meaning})", "label"))
            return meaning
        self._depth += 1
        self.segments.append(Text(f"{node.name}:", "label"))
        self.segments.append(_OPEN)
        result = self.value(meaning)
        self.segments.append(_CLOSE)
        self._depth -= 1
        return result


def _wrapped_step(node: Expr, at_least: int) -> Step:
    """``node``'s step, in parentheses in the breakdown when it binds less tightly than
    ``at_least`` (as in the canonical notation)."""
    inner = compile_step(node)
    if binding(node) >= at_least:
        return inner

    def wrapped(ev: Evaluation) -> int:
        ev.segments.append(_OPEN)
        result = inner(ev)
        ev.segments.append(_CLOSE)
        return result

    return wrapped


def _compile_number(node: Number) -> Step:
    value, text = node.value, _number_text(node.value)

    def number(ev: Evaluation) -> int:
        ev.segments.append(text)
        return value

    return number


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": multiply,
}


def _compile_binary(node: BinaryOp) -> Step:
    left = _wrapped_step(node.left, node.level)
    text = _OP_TEXT[node.op]
    if node.op != "/" and type(node.right) is Number:  # the common ``2d6+5``
        return _with_constant_step(left, text, _ARITHMETIC[node.op], node.right.value)
    right = _wrapped_step(node.right, node.level + 1)
    if node.op == "/":

        def divide(ev: Evaluation) -> int:
            numerator = left(ev)
            ev.segments.append(text)
            denominator = right(ev)
            if denominator == 0:
                raise DiceError(f"division by zero in {node}")
            return ceil_div(numerator, denominator)

        return divide
    combine = _ARITHMETIC[node.op]

    def arithmetic(ev: Evaluation) -> int:
        first = left(ev)
        ev.segments.append(text)
        return combine(first, right(ev))

    return arithmetic


def _with_constant_step(
    left: Step, text: Text, combine: Callable[[int, int], int], constant: int
) -> Step:
    """``left`` and a constant (``2d6+5``): the constant needs no step of its own."""
    shown = (text, _number_text(constant))

    def with_constant(ev: Evaluation) -> int:
        first = left(ev)
        ev.segments.extend(shown)
        return combine(first, constant)

    return with_constant


def _compile_negate(node: Negate) -> Step:
    operand = _wrapped_step(node.operand, 8)

    def negate(ev: Evaluation) -> int:
        ev.segments.append(_MINUS)
        return -operand(ev)

    return negate


def _compile_percent(node: PercentOf) -> Step:
    operand = _wrapped_step(node.operand, 7)
    percent, text = node.percent, Text(f"{node.percent}% of ", "op")

    def percentage(ev: Evaluation) -> int:
        ev.segments.append(text)
        result = percent_of(percent, operand(ev))
        ev.segments.append(Text(f" (={result})", "value"))
        return result

    return percentage


def _compile_computed_dice(node: ComputedDice) -> Step:
    """Roll the count and the sides (in that order), then that many dice, shown as
    ``(STR(3))d6 → 3d6 [4, 1, 6]``; a count or size out of range is an error naming it."""
    count = node.count
    count_step = None if isinstance(count, Number) else _parts_step(count)
    count_text = Text(
        "" if not isinstance(count, Number) or count.value == 1 else str(count.value), "op"
    )
    sides = node.sides
    sides_step = None if isinstance(sides, (str, Number)) else _parts_step(sides)
    sides_text = Text(f"d{sides.value if isinstance(sides, Number) else sides}", "op")
    letter = Text("d", "op")

    fixed_count = count.value if isinstance(count, Number) else 1
    fixed_sides: int | str = 0
    if isinstance(sides, Number):
        fixed_sides = sides.value
    elif isinstance(sides, str):
        fixed_sides = sides

    def computed(ev: Evaluation) -> int:
        segments = ev.segments
        if count_step is None:
            dice_count = fixed_count
            segments.append(count_text)
        else:
            dice_count = count_step(ev)
        if sides_step is None:
            dice_sides = fixed_sides
            segments.append(sides_text)
        else:
            segments.append(letter)
            dice_sides = sides_step(ev)
        dice = computed_dice(node, dice_count, dice_sides)
        segments.append(Text(f" \N{RIGHTWARDS ARROW} {dice.count}d{dice.sides} ", "value"))
        return step_of_dice(dice)(ev)

    return computed


def _parts_step(node: Expr) -> Step:
    """``node``'s step, always in parentheses (a computed count or size)."""
    inner = compile_step(node)

    def in_parentheses(ev: Evaluation) -> int:
        ev.segments.append(_OPEN)
        value = inner(ev)
        ev.segments.append(_CLOSE)
        return value

    return in_parentheses


@lru_cache(maxsize=256)
def step_of_dice(dice: Dice) -> Step:
    """The step of dice a computed term came to (kept by value: they are made anew)."""
    return compile_step(dice)


def _compile_call(node: Call) -> Step:
    """``floor(...)``, ``max(..., ...)``: the arguments as typed, then the value. A
    division or percentage that is the whole argument of a rounding function is
    exact, rounded by the function (not up, as ``/`` elsewhere)."""
    function, (first, *_) = node.function, node.args
    opening, closing, comma = Text(f"{function}(", "op"), Text(")", "op"), Text(", ", "op")
    if function in ROUNDING_FUNCTIONS and isinstance(first, BinaryOp) and first.op == "/":
        return _exact_quotient_step(node, first, opening, closing)
    if function in ROUNDING_FUNCTIONS and isinstance(first, PercentOf):
        return _exact_percent_step(node, first, opening, closing)
    args = [compile_step(arg) for arg in node.args]

    def call(ev: Evaluation) -> int:
        ev.segments.append(opening)
        values = []
        for index, arg in enumerate(args):
            if index:
                ev.segments.append(comma)
            values.append(arg(ev))
        ev.segments.append(closing)
        result = applied(function, values)
        if function not in ROUNDING_FUNCTIONS:
            ev.segments.append(Text(f" (={result})", "value"))
        return result

    return call


def _exact_quotient_step(node: Call, quotient: BinaryOp, opening: Text, closing: Text) -> Step:
    left = _wrapped_step(quotient.left, quotient.level)
    right = _wrapped_step(quotient.right, quotient.level + 1)
    divide = _OP_TEXT["/"]

    def exact_quotient(ev: Evaluation) -> int:
        ev.segments.append(opening)
        numerator = left(ev)
        ev.segments.append(divide)
        denominator = right(ev)
        ev.segments.append(closing)
        if denominator == 0:
            raise DiceError(f"division by zero in {quotient}")
        result = rounded(node.function, numerator, denominator)
        ev.segments.append(Text(f" (={result})", "value"))
        return result

    return exact_quotient


def _exact_percent_step(node: Call, percent: PercentOf, opening: Text, closing: Text) -> Step:
    operand = _wrapped_step(percent.operand, 7)
    text = Text(f"{percent.percent}% of ", "op")

    def exact_percent(ev: Evaluation) -> int:
        ev.segments.extend((opening, text))
        whole = operand(ev)
        ev.segments.append(closing)
        result = rounded(node.function, percent.percent * whole, 100)
        ev.segments.append(Text(f" (={result})", "value"))
        return result

    return exact_percent


def _compile_labelled(node: Labelled) -> Step:
    inner, label = compile_step(node.expr), Text(f"[{node.label}]", "label")

    def labelled(ev: Evaluation) -> int:
        result = inner(ev)
        ev.segments.append(label)
        return result

    return labelled


def _compile_name(node: Name) -> Step:
    def name(ev: Evaluation) -> int:
        return ev.name(node)  # looked up at each roll: values change, games add words

    return name


TABLED_FACES = 100
"""Dice with at most this many faces get per-face tables (shared segments, keep/count
outcomes); a d10000 term rolls without them rather than build 10,000 of each."""


# -- dice of a dice file (docs/dice.md) -------------------------------------------------


def _compile_named_dice(node: Dice) -> Step:
    """The step of ``node``, a dice term naming a die of a dice file (``3dBoost``,
    ``docs/dice.md``): the die is looked up when rolled, in the environment's dice (else
    the per-user file, read once per run): a dict lookup per roll, no file or
    environment variable. The die found rolls as any die (one with a number on every
    face takes every modifier); its step is made once per die and kept."""
    from dicecli.dicefiles.load import default_book, unknown_die

    assert isinstance(node.sides, DieName)
    name = node.sides
    key = name.name.casefold()
    steps: dict[int, tuple[Die, Step, bool]] = {}

    def named_dice(ev: Evaluation) -> int:
        book = ev.env.dice
        if book is None:
            book = default_book()
        die = book.dice.get(key)
        if die is None:
            word = Name(f"d{name.name}", name.position)
            if ev.env.value(word.name) is not None or ev.env.roll(word.name) is not None:
                return ev.name(word)  # a name set before (dEX for dex): still the name
            raise unknown_die(book, name.name, name.position)
        entry = steps.get(id(die))
        if entry is None or entry[0] is not die:
            if len(steps) >= 8:  # dice files loaded again and again in one session
                steps.clear()
            step = _file_die_step(node, die)
            entry = steps[id(die)] = (die, step, any(face.symbols for face in die.faces))
        if entry[2]:
            ev.dice_book = book
        return entry[1](ev)

    return named_dice


def _unnumbered(die: DieRoll) -> DiceError:
    return DiceError(
        f"d{die.die} has faces without a number: add it to other dice (2d{die.die} + ...) "
        "to count its symbols; it has no total to keep, compare or work out"
    )


def _only_added(body: Expr, dice: list[DieRoll]) -> None:
    """Refuse a roll with dice without numbers that does more than add dice."""
    unnumbered = next((die for die in dice if die.value is None), None)
    if unnumbered is None:
        return
    pending: list[Expr] = [body]
    while pending:
        node = pending.pop()
        if isinstance(node, BinaryOp) and node.op == "+":
            pending += (node.left, node.right)
        elif isinstance(node, Labelled):
            pending.append(node.expr)
        elif not isinstance(node, Dice):
            raise _unnumbered(unnumbered)


def _file_die_step(node: Dice, die: Die) -> Step:
    """The step that rolls ``node``'s count of ``die``, a die of a dice file."""
    from dicecli.dicefiles.load import file_dice
    from dicecli.dicefiles.model import has_numbers

    resolved = file_dice(node, die)
    position = node.sides.position if isinstance(node.sides, DieName) else -1
    if has_numbers(die):
        return compile_step(resolved)
    if node.modifiers != NO_MODIFIERS:
        raise DiceError(
            f"d{die.name} has faces without a number: modifiers (keep, re-roll, explode, "
            "count) need a number on every face",
            position=position if position >= 0 else None,
        )
    return _symbol_dice_step(die, node.count)


def _symbol_dice_step(die: Die, count: int) -> Step:
    """Dice with faces that bear symbols and no number: worth 0 each to a total."""
    return _summed_dice_step(die, count, tuple(face.value or 0 for face in die.faces))


def _compile_dice(node: Dice) -> Step:
    if node.modifiers.sort is not None:
        return _sorted_as_shown(node, _shown_dice_step(node))
    return _shown_dice_step(node)


def _shown_dice_step(node: Dice) -> Step:
    die = die_for_sides(node.sides)
    critical, fumble = critical_conditions(node)
    if critical is None and fumble is None:
        return _uncritical_dice_step(node, die)
    if node.modifiers is NO_MODIFIERS and node.count == 1:  # a lone d20: marked per face
        marked = tuple(
            die.roll_of(index, True, _critical_marks(value, critical, fumble))
            for index, value in enumerate(die.face_values)
        )
        return _one_die_step(die, marked, tuple(DiceShown((roll,)) for roll in marked))
    if _face_decided(node.modifiers, die):  # criticals go in its per-face tables
        modifiers = replace(node.modifiers, sort=None)
        return _face_decided_step(die, node.count, modifiers, (critical, fumble))
    return with_criticals(node, _uncritical_dice_step(node, die))


def _face_decided(modifiers: Modifiers, die: Die) -> bool:
    """Whether a term's dice are each decided by their face alone (no re-roll or
    explosion) and few-faced enough for per-face tables."""
    no_chains = modifiers.reroll is None and modifiers.explode is None
    alone = modifiers.unique is None and not modifiers.clamps  # rolled one by one
    return no_chains and alone and len(die.faces) <= TABLED_FACES


def _sorted_as_shown(node: Dice, step: Step) -> Step:
    """``step``, then its dice shown sorted by value (``s``/``sa`` lowest first, ``sd``
    highest first); the result's dice stay in roll order, so ``--given`` replays them."""
    descending = node.modifiers.sort == "d"

    def worth(die: DieRoll) -> int:
        return die.value if die.value is not None else 0

    def sorted_dice(ev: Evaluation) -> int:
        first_segment = len(ev.segments)
        total = step(ev)
        segments = ev.segments
        for place in range(first_segment, len(segments)):
            segment = segments[place]
            if isinstance(segment, DiceShown):
                ordered = sorted(segment.dice, key=worth, reverse=descending)
                segments[place] = DiceShown(tuple(ordered))
                break
        return total

    return sorted_dice


def _critical_marks(
    value: int | None, critical: Condition | None, fumble: Condition | None
) -> tuple[str, ...]:
    if value is None:
        return ()
    marks: tuple[str, ...] = ()
    if critical is not None and critical.matches(value):
        marks = (CRITICAL_SUCCESS,)
    if fumble is not None and fumble.matches(value):
        marks += (CRITICAL_FAILURE,)
    return marks


def with_criticals(node: Dice, step: Step) -> Step:
    """``step`` (which rolls ``node``), then its kept dice marked critical (``cs``/``cf``
    or a lone d20's defaults, on each die's value, as success conditions judge it). A
    term shows its dice in one segment: it is shown again with the marks."""
    critical, fumble = critical_conditions(node)
    if critical is None and fumble is None:
        return step

    def criticals(ev: Evaluation) -> int:
        first_die, first_segment = len(ev.dice), len(ev.segments)
        total = step(ev)
        dice = ev.dice
        for position in range(first_die, len(dice)):
            die = dice[position]
            if die.kept:
                marks = _critical_marks(die.value, critical, fumble)
                if marks:
                    dice[position] = die.marked(*marks)
        segments = ev.segments
        for place in range(first_segment, len(segments)):
            if isinstance(segments[place], DiceShown):
                segments[place] = DiceShown(tuple(dice[first_die:]))
                break
        return total

    return criticals


def _uncritical_dice_step(node: Dice, die: Die) -> Step:
    modifiers = node.modifiers
    if modifiers is NO_MODIFIERS:
        return _plain_dice_step(die, node.count)
    if modifiers.sort is not None:  # sorting is shown apart: the dice roll the same
        modifiers = replace(modifiers, sort=None)
        if modifiers == NO_MODIFIERS:
            return _plain_dice_step(die, node.count)
    if _face_decided(modifiers, die):
        return _face_decided_step(die, node.count, modifiers)
    return rolled_one_by_one_step(die, node.count, modifiers)


def _plain_dice_step(die: Die, count: int) -> Step:
    kept, values = die.kept_rolls, die.face_values

    if count == 1 and len(die.faces) <= TABLED_FACES:  # d20, 1d8: no lists to build
        return _one_die_step(die, kept, die.shown_alone)
    return _summed_dice_step(die, count, values)


def _summed_dice_step(die: Die, count: int, values: tuple[int, ...]) -> Step:
    """``count`` of ``die``, every die kept, worth ``values`` by face (a die's own
    values, or 0 for the faces of a dice file that bear only symbols)."""
    kept = die.kept_rolls

    def plain_dice(ev: Evaluation) -> int:
        rolled = []
        total = 0
        for index in ev.roller.draw_many(die, count):  # a loop: cheaper than comprehensions
            rolled.append(kept[index])
            total += values[index]
        shown = tuple(rolled)
        ev.dice.extend(shown)
        ev.segments.append(DiceShown(shown))
        return total

    return plain_dice


def _one_die_step(die: Die, rolls: tuple[DieRoll, ...], alone: tuple[DiceShown, ...]) -> Step:
    """One die with no modifiers: its roll and how it shows, looked up by face."""
    values = die.face_values

    def one_die(ev: Evaluation) -> int:
        index = ev.roller.draw(die)
        ev.dice.append(rolls[index])
        ev.segments.append(alone[index])
        return values[index]

    return one_die


_SCORE_MARKS: dict[int, tuple[str, ...]] = {
    2: (SUCCESS, DOUBLE_SUCCESS),
    1: (SUCCESS,),
    -1: (FAILURE,),
    0: (),
}


def _face_decided_step(
    die: Die,
    count: int,
    modifiers: Modifiers,
    criticals: tuple[Condition | None, Condition | None] = (None, None),
) -> Step:
    """Keep/drop, counting and critical marks without re-rolls or explosions: each die
    is one unit and what it shows, scores, is worth and is marked follows from its face
    alone, so all of that is worked out here, once per face, and a roll only looks it
    up."""
    faces, values = range(len(die.faces)), die.face_values
    counting = modifiers.counts_successes
    # what a kept die adds to the total: its score (+2, +1, -1, 0) when counting, else
    # its value; and to the successes of the tally
    worth = tuple(count_one(value, modifiers) for value in values) if counting else values
    points = tuple(max(score, 0) for score in worth) if counting else (0,) * len(values)
    standing = die.kept_rolls
    if counting or criticals != (None, None):
        standing = tuple(
            die.roll_of(
                index,
                True,
                (
                    *(_SCORE_MARKS[worth[index]] if counting else ()),
                    *_critical_marks(values[index], *criticals),
                ),
            )
            for index in faces
        )
    dropped = tuple(die.roll_of(index, False, (DROPPED,)) for index in faces)
    kept = kept_slice(modifiers.keep, count) if modifiers.keep is not None else None

    def face_decided_dice(ev: Evaluation) -> int:
        indexes = ev.roller.draw_many(die, count)
        marked: list[DieRoll] = []
        total = successes = 0
        if kept is None:
            for index in indexes:  # loops, not comprehensions: cheaper for a few dice
                marked.append(standing[index])
                total += worth[index]
                successes += points[index]
        else:
            drawn = []
            for index in indexes:
                drawn.append(values[index])
                marked.append(dropped[index])
            for position in sorted(range(count), key=drawn.__getitem__)[kept]:
                index = indexes[position]
                marked[position] = standing[index]
                total += worth[index]
                successes += points[index]
        shown = tuple(marked)
        ev.dice.extend(shown)
        ev.segments.append(DiceShown(shown))
        if counting:
            ev.segments.append(_tally(successes, successes - total))
        return total

    return face_decided_dice


def rolled_one_by_one_step(die: Die, count: int, modifiers: Modifiers) -> Step:
    """Re-rolls or explosions: each die is rolled in turn, as the rules go."""
    from dicecli.rolling.rerolls_and_explosions import (  # imported on first use
        RerollExplodeRules,
        roll_modified_dice,
    )

    rules = RerollExplodeRules.of(die, modifiers)

    def rolled_one_by_one(ev: Evaluation) -> int:
        roller = ev.roller
        roller.reserve(count)
        rolled, units = roll_modified_dice(roller, rules, count)
        total, rolled = apply_keep_and_count(rolled, units, modifiers)
        ev.dice.extend(rolled)
        ev.segments.append(DiceShown(tuple(rolled)))
        if modifiers.counts_successes:
            successes = sum(
                1 + (DOUBLE_SUCCESS in roll.marks) for roll in rolled if SUCCESS in roll.marks
            )
            ev.segments.append(_tally(successes, successes - total))
        return total

    return rolled_one_by_one


def _compile_pooled_group(node: Group) -> Step:
    """A group of one item made of dice added together (``{4d6+3d8}k4``): keep/drop
    picks among its dice, one by one (:func:`~dicecli.notation.semantics.pooled_dice`),
    and success counting counts the kept dice, as on a dice term."""
    item = step_of(node.items[0])
    modifiers = node.modifiers
    counting = modifiers.counts_successes
    keep = modifiers.keep
    assert keep is not None

    def pooled(ev: Evaluation) -> int:
        segments, dice = ev.segments, ev.dice
        segments.append(_GROUP_OPEN)
        first_die, first_segment = len(dice), len(segments)
        item(ev)
        standing = [p for p in range(first_die, len(dice)) if dice[p].kept]
        values = [_worth(dice[p]) for p in standing]
        kept = kept_positions(values, keep)
        total = successes = 0
        for index, position in enumerate(standing):
            if index not in kept:
                dice[position] = dice[position].marked(DROPPED, kept=False)
            elif counting:
                score = count_one(values[index], modifiers)
                total += score
                successes += max(score, 0)
                dice[position] = dice[position].marked(*_SCORE_MARKS[score])
            else:
                total += values[index]
        shown = iter(dice[first_die:])
        for place in range(first_segment, len(segments)):
            segment = segments[place]
            if isinstance(segment, DiceShown):
                segments[place] = DiceShown(tuple(next(shown) for _ in segment.dice))
        segments.append(_GROUP_CLOSE)
        if counting:
            segments.append(_tally(successes, successes - total))
        else:
            segments.insert(-1, Text(f" (={total})", "value"))
        return total

    return pooled


def _worth(die: DieRoll) -> int:
    if die.value is None:  # a die of a dice file with symbols only (docs/dice.md)
        raise _unnumbered(die)
    return die.value


def _compile_group(node: Group) -> Step:
    if pooled_dice(node) is not None:
        return _compile_pooled_group(node)
    items = [(step_of(item), isinstance(item, Number)) for item in node.items]
    modifiers = node.modifiers
    counting = modifiers.counts_successes

    def group(ev: Evaluation) -> int:
        segments = ev.segments
        values: list[KeepUnit] = []
        item_texts: list[int] = []  # where each item's value text sits in the segments
        segments.append(_GROUP_OPEN)
        dice_of: list[range] = []  # the dice and segments of each item, to mark dropped ones
        segments_of: list[range] = []
        for index, (item, is_number) in enumerate(items):
            if index:
                segments.append(_GROUP_COMMA)
            first_die, first_segment = len(ev.dice), len(segments)
            value = item(ev)
            dice_of.append(range(first_die, len(ev.dice)))
            segments_of.append(range(first_segment, len(segments)))
            if is_number:  # the value is already shown: no "(=5)"
                item_texts.append(len(segments) - 1)
            else:
                item_texts.append(len(segments))
                segments.append(Text(f" (={value})", "value"))
            values.append((value, [index]))
        segments.append(_GROUP_CLOSE)
        kept_items = _kept_units(values, modifiers)
        total = successes = 0
        for value, (index,) in values:
            if index not in kept_items:
                shown = segments[item_texts[index]]
                assert isinstance(shown, Text)
                segments[item_texts[index]] = Text(shown.text, "dropped")
                for position in dice_of[index]:
                    ev.dice[position] = _dropped(ev.dice[position])
                for place in segments_of[index]:
                    segment = segments[place]
                    if isinstance(segment, DiceShown):
                        segments[place] = DiceShown(tuple(map(_dropped, segment.dice)))
            elif counting:
                score = count_one(value, modifiers)
                total += score
                successes += max(score, 0)
            else:
                total += value
        if counting:
            segments.append(_tally(successes, successes - total))
        return total

    return group


_GROUP_OPEN, _GROUP_COMMA, _GROUP_CLOSE = Text("{", "op"), Text(", ", "op"), Text("}", "op")

_NUMBER_TEXTS: dict[int, Text] = {}


def _number_text(value: int) -> Text:
    text = _NUMBER_TEXTS.get(value)
    if text is None:
        text = Text(str(value), "number")
        if len(_NUMBER_TEXTS) < 1024:
            _NUMBER_TEXTS[value] = text
    return text


@lru_cache(maxsize=1024)
def _tally(successes: int, failures: int) -> Text:
    """`` (3 successes, 1 failure)``: what the counted total is made of."""
    text = f" ({successes} success{'' if successes == 1 else 'es'}"
    if failures:
        text += f", {failures} failure{'' if failures == 1 else 's'}"
    return Text(text + ")", "value")


KeepUnit = tuple[int, list[int]]
"""One value that keep/drop sees (a die, or a compounded die), and the positions of
the dice it is made of."""


def _kept_units(units: list[KeepUnit], modifiers: Modifiers) -> set[int]:
    """Indexes (into ``units``) of the units that keep/drop keeps (step 3)."""
    if modifiers.keep is None:
        return set(range(len(units)))
    return kept_positions([value for value, _ in units], modifiers.keep)


def _dropped(roll: DieRoll) -> DieRoll:
    """``roll`` dropped by keep/drop (a die already not counting stays as it is)."""
    return roll.marked(DROPPED, kept=False) if roll.kept else roll


def apply_keep_and_count(
    rolled: list[DieRoll], units: list[KeepUnit], modifiers: Modifiers
) -> tuple[int, list[DieRoll]]:
    """Keep/drop and count (steps 3 and 4): the total, and the dice marked."""
    kept = _kept_units(units, modifiers)
    counting = modifiers.counts_successes
    total = 0
    for index, (value, positions) in enumerate(units):
        if index not in kept:
            for position in positions:
                rolled[position] = rolled[position].marked(DROPPED, kept=False)
            continue
        if counting:
            score = count_one(value, modifiers)
            total += score
            if score:
                for position in positions:
                    rolled[position] = rolled[position].marked(*_SCORE_MARKS[score])
        else:
            total += value
    return total, rolled


__all__ = ["Evaluation", "RollLimitError", "roll"]
