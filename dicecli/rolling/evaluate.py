"""Syntax tree + dice -> :class:`~dicecli.results.RollResult`, for the generic notation.

The walker: each node of an expression becomes a step once (:func:`compile_step`), and
rolling a line runs its steps, which build the result tree (:mod:`dicecli.result_tree`);
a dice term with numbers put to it (``17d743 + 12``) is rolled directly the first time
(:func:`_ready`), and made a step only when rolled again.
The result's dice are the tree's, in roll order, discarded ones included
(``kept=False``); its breakdown is a rendering of the tree
(:func:`dicecli.breakdown.breakdown`). Dice terms are
:mod:`dicecli.rolling.dice_steps`'; their modifiers apply in one fixed order
(documented in ``docs/grammar.md``):

1. **re-roll** each die as it lands: ``r`` while the condition holds, ``ro`` once;
2. **explode** the die that stands: ``!`` adds a die, ``!!`` adds it into the same die,
   ``!p`` adds a die worth one less; every added die is re-rolled and explodes in turn;
3. **keep/drop** over the dice standing (a compounded die counts as one);
4. **count** successes and failures among the kept dice: the total is successes minus
   failures.

Arithmetic is on integers; ``/`` and ``N% of`` round up (rule N3).

Checks of a game are handed to that game's rules (:mod:`dicecli.rolling.games`).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from dicecli.breakdown import breakdown
from dicecli.environment import Environment
from dicecli.errors import DiceError, NotAFaceError, PluginError, RollLimitError
from dicecli.frozen import replace
from dicecli.identity_cache import IdentityCache
from dicecli.notation.dialects import NO_DICE_AS_ZERO, line_notes
from dicecli.notation.dice import MAX_SHARED_ROLLS, USUAL_SIDES, computed_die
from dicecli.notation.nodes import (
    NO_MODIFIERS,
    ROUNDING_FUNCTIONS,
    BinaryOp,
    BinaryOpSymbol,
    Call,
    Check,
    CheckOp,
    Comparison,
    ComputedDice,
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
    Sides,
    binding,
    children,
)
from dicecli.notation.semantics import (
    applied,
    ceil_div,
    check_margin,
    check_passes,
    computed_dice,
    count_one,
    floor_div,
    kept_positions,
    modulo,
    multiply,
    name_meaning,
    percent_of,
    pooled_dice,
    rounded,
    to_power,
)
from dicecli.result_tree import (
    Arithmetic,
    Called,
    Compared,
    Constant,
    NamedNumber,
    Negated,
    Order,
    Parenthesised,
    Percentage,
    Pooled,
    Rolled,
    SavedRoll,
    dice_in,
    numbers_alone,
    replaced_in_order,
    with_dice,
)
from dicecli.result_tree import ComputedDice as ComputedRoll
from dicecli.result_tree import Group as GroupRoll
from dicecli.result_tree import Labelled as LabelledRoll
from dicecli.results import (
    DROPPED,
    DieRoll,
    NumberedDice,
    NumberedResult,
    Outcome,
    RollResult,
    Segment,
    SharedBreakdown,
)
from dicecli.rolling.dice_steps import compile_dice, roll_computed_dice, step_of_dice, unnumbered
from dicecli.rolling.keep_and_count import SCORE_MARKS, KeepUnit, dropped, kept_units
from dicecli.rolling.shared_outcomes import (
    Outcomes,
    combined,
    described,
    mapped,
    read_of_kept,
    with_table,
)
from dicecli.rolling.sources import Roller

if TYPE_CHECKING:
    from dicecli.dicefiles.model import DiceBook
    from dicecli.rolling.games import CheckStep
    from dicecli.rolling.step import InProgress, Step


def roll(roll: Roll, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a parsed line: the generic notation here, a game check by its module."""
    # A roll begins: its budget whole again, and where the --given faces are up to
    # marked, for a roll that fails to give them back (Roller.give_back)
    roller.remaining = roller.budget
    given = roller.given
    if given is not None:
        roller.roll_mark = given.mark()
    body = roll.body
    try:
        if isinstance(body, Check):
            result = check_step(body)(roller, env, text)
            if roll.comment is not None and result.comment is None:
                result = replace(result, comment=roll.comment)
            return result
        if isinstance(body, Comparison):
            compared = roll_comparison(body, roller, env, text, roll.comment)
            notes = line_notes(text, env.dialect if env.settings else None)
            return replace(compared, notes=notes) if notes else compared
        step, canonical, shared = prepared.found(body) or _ready(body)
        evaluation = Evaluation(roller, env)
        tree = step(evaluation)
    except DiceError as error:
        if not isinstance(error, NotAFaceError):
            roller.give_back()
        raise _as_typed(error, text, env).at(text) from None
    except RecursionError:
        roller.give_back()
        raise DiceError("too deeply nested", text, 0) from None
    except PluginError:  # a game plug-in's fault: it too rolled nothing a player saw
        roller.give_back()
        raise
    total: int | None = tree.value
    lazy = None
    if shared:  # a tree that may have come before: what is read of it may be kept
        dice, segments = _read(tree)
    else:
        segments = breakdown(tree)
        if (  # 17d743 + 12: its dice made only if they are read (no symbols to count)
            segments and type(segments[0]) is NumberedDice and evaluation.dice_book is None
        ):
            lazy = numbers_alone(tree)
        dice = dice_in(tree) if lazy is None else ()
    outcome = None
    if evaluation.dice_book is not None:  # dice with symbols: count them (docs/dice.md)
        from dicecli.dicefiles.symbols import symbol_outcome  # docs/startup.md

        try:
            _only_added(body, dice)
        except DiceError as error:
            roller.give_back()
            raise error.at(text) from None
        book = evaluation.dice_book
        outcome = symbol_outcome(dice, book)
        if not any(book.numbered(rolled.die) for rolled in dice):
            total = None  # dice of symbols alone: no total, the counts say it all
    notes = line_notes(text, env.dialect if env.settings else None)  # cached by line
    # every field by place: a keyword costs each roll a dict of it
    if lazy is not None:
        return NumberedResult(lazy, text, canonical, total, segments, outcome, roll.comment, notes)
    return RollResult(text, canonical, total, dice, segments, outcome, roll.comment, False, notes)


def _as_typed(error: DiceError, text: str, env: Environment) -> DiceError:
    """``error`` pointing into ``text`` as typed, not as its dialect rewrote it."""
    dialect = env.dialect if env.settings else None
    if dialect is None:
        return error
    from dicecli.notation.translations import typed_error  # docs/startup.md

    return typed_error(error, text, dialect)


def roll_comparison(
    check: Comparison, roller: Roller, env: Environment, text: str, comment: str | None
) -> RollResult:
    """Roll a check on an expression (``d20 + 5 >= 15``): the left side's total is the
    roll's total, the right side's the target; the outcome says pass or fail, against
    what, and by how much (:func:`~dicecli.notation.semantics.check_margin`). A target
    with dice shows them after the total's (``[9] vs [6] (=6)``)."""
    evaluation = Evaluation(roller, env)
    step, _, shared = prepared.found(check.left) or _ready(check.left)
    left = step(evaluation)
    if isinstance(check.right, Number):
        rolled_target = None
        target = check.right.value
    else:
        rolled_target = step_of(check.right)(evaluation)
        target = rolled_target.value
    # a number as target: the tree is the left side's, which shows the same
    tree = left if rolled_target is None else Compared(left, rolled_target, left.value)
    if shared and rolled_target is None:  # a tree that may have come before
        dice, segments = _read(tree)
    else:
        dice, segments = dice_in(tree), breakdown(tree)
    if evaluation.dice_book is not None:  # dice with symbols have no total to compare
        for die in dice:
            if die.value is None:
                raise unnumbered(die)
    total = left.value
    canonical, outcomes = _check_parts(check)
    if rolled_target is None:  # the same total against the same number: the same outcome
        outcome = outcomes.get(total)
        if outcome is None:
            outcome = _check_outcome(check.op, total, target)
            if len(outcomes) < MAX_SHARED_OUTCOMES:
                outcomes[total] = outcome
    else:
        outcome = _check_outcome(check.op, total, target)
    return RollResult(text, canonical, total, dice, segments, outcome, comment)


def _check_outcome(op: CheckOp, total: int, target: int) -> Outcome:
    """The outcome of a check: pass or fail, against what, and by how much."""
    passed = check_passes(op, total, target)
    margin = check_margin(op, total, target)
    verdict = f"{'pass' if passed else 'fail'} ({op} {target}), margin {margin:+d}"
    fields = (("success", passed), ("target", target), ("margin", margin), ("compare", op))
    return Outcome(verdict, passed, fields)


MAX_SHARED_OUTCOMES = 256
"""Most outcomes one check against a number keeps, one per total rolled."""


def _prepare_check(check: Check) -> CheckStep:
    from dicecli.rolling.games import games  # docs/startup.md

    return games().prepare(check)


check_step: IdentityCache[Check, CheckStep] = IdentityCache(_prepare_check)
"""The step that rolls a game's check, made once per check object by its game
(:class:`~dicecli.rolling.games.CheckRollers`), as :data:`prepared` does for
expressions: the game is looked up, and what depends only on the line worked out, once
per parsed line rather than on every roll."""


_check_parts: IdentityCache[Comparison, tuple[str, dict[int, Outcome]]] = IdentityCache(
    lambda check: (str(check), {})
)
"""A check's canonical text and the outcomes met so far against its number (frozen
values, shared), made once per check object (by identity, as :data:`prepared`:
hashing a tree costs more than writing it)."""


def _prepare(node: Expr) -> tuple[Step, str, bool]:
    step, shared = with_table(compile_step(node))
    return step, str(node), shared


def _read(tree: Rolled) -> tuple[tuple[DieRoll, ...], tuple[Segment, ...]]:
    """The dice and the breakdown of ``tree``, rolled by a step that shares its trees
    between rolls: read once and kept with the tree when its table keeps it
    (:func:`~dicecli.rolling.shared_outcomes.read_of_kept`), as it comes again."""
    return read_of_kept(tree, _read_to_keep) or (dice_in(tree), breakdown(tree))


def _read_to_keep(tree: Rolled) -> tuple[tuple[DieRoll, ...], tuple[Segment, ...]]:
    return dice_in(tree), SharedBreakdown(breakdown(tree))


PREPARED_FACES = 50_000
"""Most faces of numbered dice the kept steps may hold between them: a step holds its
dice, and a die's shared rolls weigh about half a kilobyte a face, so lines whose dice
vary in size start the cache again empty long before its 4,096 entries."""


def _faces_named(node: Expr) -> int:
    """The faces of the numbered dice ``node`` names that its step may hold (a die with
    computed faces shares at most :data:`~dicecli.notation.dice.MAX_SHARED_ROLLS`)."""
    faces, pending = 1, [node]
    while pending:
        current = pending.pop()
        if type(current) is BinaryOp:  # the most common inner node: no call for it
            pending.append(current.left)
            pending.append(current.right)
        elif isinstance(current, Dice):
            if isinstance(current.sides, int):
                faces += min(current.sides, MAX_SHARED_ROLLS)
        elif type(current) is not Number:
            pending.extend(children(current))
    return faces


prepared: IdentityCache[Expr, tuple[Step, str, bool]] = IdentityCache(
    _prepare, weigh=_faces_named, capacity=PREPARED_FACES
)
"""The step that rolls an expression, its canonical text, and whether the step shares
its trees between rolls (:mod:`dicecli.rolling.shared_outcomes`), made once per node object
(lines, saved rolls, parts of game forms). Parsed lines are cached by text
(:func:`dicecli.notation.reader.parse`) and saved rolls live in the environment, so an
expression rolled again is the same object. Kept here, off the frozen nodes, so that a
tree stays a plain value: it compares, hashes and pickles as typed."""


dice_steps: IdentityCache[Dice, Step] = IdentityCache(
    compile_dice, weigh=_faces_named, capacity=PREPARED_FACES
)
"""The step of a dice term, made once per node object, as :data:`prepared` does for a
whole expression: the reader of dice sums (:mod:`dicecli.notation.dice_sums`) shares
the dice terms it reads, so a term written on many new lines (``4d6kh3 + 1``,
``4d6kh3 + 2`` ...) is made ready once, not once per line."""


SEEN_ONCE = 4096
"""Most expressions :func:`_ready` remembers having rolled once without a step."""

_seen_once: dict[int, Expr] = {}


def _ready(body: Expr) -> tuple[Step, str, bool]:
    """What rolls ``body``, whose step :data:`prepared` does not hold, its canonical
    text, and whether the step shares its trees between rolls. A line read once, as
    piped lines mostly are, is not made ready for rolls that never come: the first roll
    of a dice term with numbers put to it one by one (``17d743 + 12``, ``(4d6kh3 - 1) *
    2``) is rolled directly (:func:`_run_sum`), and any other expression by a step made
    for that roll alone, without a table of its trees (:func:`~dicecli.rolling.
    shared_outcomes.with_table`), which would keep the tree of a roll made once. Its
    second roll makes the step that is kept. Each entry of ``_seen_once`` holds its
    expression, so an identity is not reused while it is remembered."""
    if _seen_once.get(id(body)) is body:
        del _seen_once[id(body)]
        return prepared(body)
    if len(_seen_once) >= SEEN_ONCE:
        _seen_once.clear()
    _seen_once[id(body)] = body
    numbers: list[tuple[BinaryOpSymbol, int, int]] = []  # op, its level, the number
    node = body
    while type(node) is BinaryOp:
        right = node.right
        if type(right) is not Number or node.op not in _ARITHMETIC:
            return compile_step(body), str(body), False
        numbers.append((node.op, node.level, right.value))
        node = node.left
    if type(node) is not Dice:
        return compile_step(body), str(body), False
    numbers.reverse()  # innermost first
    return partial(_run_sum, node, numbers), _sum_text(body, node, numbers), False


def _run_sum(dice: Dice, numbers: list[tuple[BinaryOpSymbol, int, int]], ev: InProgress) -> Rolled:
    """Roll ``dice`` and put ``numbers`` to it in turn without making a step: the tree
    the steps build (:func:`_compile_binary`'s ``with_constant`` over the dice term's
    step, the left side in brackets when it binds less tightly). Plain dice of computed
    faces (``17d743``) are rolled without making their step either: such a term is
    seldom written twice."""
    sides = dice.sides
    if dice.modifiers is NO_MODIFIERS and type(sides) is int and sides not in USUAL_SIDES:
        rolled: Rolled = roll_computed_dice(computed_die(sides), dice.count, ev)
    else:
        rolled = dice_steps(dice)(ev)
    binds = Dice.precedence  # a dice term binds tightest: never in brackets
    for op, level, number in numbers:
        if binds < level:
            rolled = Parenthesised(rolled, rolled.value)
        rolled = Arithmetic(rolled, op, Constant(number), _ARITHMETIC[op](rolled.value, number))
        binds = level
    return rolled


def _sum_text(body: Expr, dice: Dice, numbers: list[tuple[BinaryOpSymbol, int, int]]) -> str:
    """``str(body)``, spelt out directly when its numbers are only added and subtracted
    (``4d6kh3 + 1 - 2``: nothing in brackets)."""
    text = _dice_texts(dice)
    for op, _, number in numbers:
        if op != "+" and op != "-":
            return str(body)
        text = f"{text} {op} {number}"
    return text


_dice_texts: IdentityCache[Dice, str] = IdentityCache(str)
"""A dice term's canonical text, made once per node (the dice-sum reader shares them)."""


def step_of(node: Expr) -> Step:
    """The step that rolls ``node`` (:func:`prepared`)."""
    return prepared(node)[0]


def compile_step(node: Expr) -> Step:
    """Make ``node`` ready to roll: one function per node type (:data:`_COMPILERS`)."""
    return _COMPILERS[type(node)](node)


class Evaluation:
    """One roll of expressions: what a step reads of the roll in progress
    (:class:`~dicecli.rolling.step.InProgress`), and the parts rolled so far.

    Game modules use it to roll the generic parts of their forms (distance dice,
    modifiers) so those show the same way everywhere: :meth:`value` rolls one, and
    :attr:`dice` and :attr:`segments` are what those rolled and how they show. A game
    gives words of its own a meaning by overriding :meth:`name` (a special die named
    in an expression), which returns the word's node of the result tree: what it
    rolled and how it shows come from that node alone.
    """

    dice_book: DiceBook | None = None
    """Set when dice of a dice file with symbols were rolled: their symbols are counted
    (:func:`dicecli.dicefiles.symbols.symbol_outcome`)."""

    def __init__(self, roller: Roller, env: Environment) -> None:
        self.roller = roller
        self.env = env
        self.parts: list[Rolled] = []
        """The result tree of each expression rolled by :meth:`value`, in turn."""
        self._depth = 0

    def value(self, node: Expr) -> int:
        """Roll ``node``: its value, its result tree kept in :attr:`parts`."""
        rolled = step_of(node)(self)
        self.parts.append(rolled)
        return rolled.value

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """The dice of the parts rolled, in roll order (read from :attr:`parts`)."""
        return tuple([die for part in self.parts for die in dice_in(part)])

    @property
    def segments(self) -> tuple[Segment, ...]:
        """The breakdown of the parts rolled, one after the other (rendered from
        :attr:`parts`)."""
        return tuple([segment for part in self.parts for segment in breakdown(part)])

    def name(self, node: Name) -> Rolled:
        """The roll of a name: a named number, or a saved roll rolled now. A game's
        override returns a node of its own word (``RolledDice(value,
        DiceShown((die,)))`` for a special die) and defers to this for other names."""
        meaning = name_meaning(node, self.env, self._depth)
        if isinstance(meaning, int):
            return NamedNumber(node.name, meaning)
        self._depth += 1
        rolled = step_of(meaning)(self)
        self._depth -= 1
        return SavedRoll(node.name, rolled, rolled.value)


def _wrapped_step(node: Expr, at_least: int) -> Step:
    """``node``'s step, in parentheses in the breakdown when it binds less tightly than
    ``at_least`` (as in the canonical notation)."""
    inner = compile_step(node)
    if binding(node) >= at_least:
        return inner
    return _in_parentheses(inner)


def _in_parentheses(inner: Step) -> Step:
    def wrapped(ev: InProgress) -> Rolled:
        return _bracketed(inner(ev))

    return described(wrapped, lambda: mapped(inner, _bracketed))


def _bracketed(rolled: Rolled) -> Rolled:
    """The node of ``rolled`` written in parentheses."""
    return Parenthesised(rolled, rolled.value)


def _compile_number(node: Number) -> Step:
    constant = Constant(node.value)

    def number(ev: InProgress) -> Rolled:
        return constant

    return described(number, lambda: Outcomes(None, number, 1, 1))


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": multiply,
    "^": to_power,
}
_DIVISIONS: dict[str, Callable[[int, int], int]] = {"/": ceil_div, "%": modulo, "//": floor_div}
_CHECKED = ("*", "^")
"""The operators that may refuse a value (too many digits, a negative power)."""


def _compile_binary(node: BinaryOp) -> Step:
    left = _wrapped_step(node.left, node.level)
    op = node.op
    quotient = _DIVISIONS.get(op)
    if quotient is None and type(node.right) is Number:  # the common ``2d6+5``
        return _with_constant_step(node, left, node.right.value)
    right = _wrapped_step(node.right, 7 if op == "^" else node.level + 1)
    if quotient is not None:

        def divided(numerator: Rolled, denominator: Rolled) -> Rolled:
            if denominator.value == 0:
                raise DiceError(f"division by zero in {node}")
            return Arithmetic(
                numerator, op, denominator, quotient(numerator.value, denominator.value)
            )

        def divide(ev: InProgress) -> Rolled:
            numerator = left(ev)
            return divided(numerator, right(ev))

        return described(divide, lambda: combined(left, right, divided, raises=True))
    combine = _ARITHMETIC[op]

    def combined_by_op(first: Rolled, second: Rolled) -> Rolled:
        return Arithmetic(first, op, second, combine(first.value, second.value))

    def arithmetic(ev: InProgress) -> Rolled:
        first = left(ev)
        second = right(ev)
        return Arithmetic(first, op, second, combine(first.value, second.value))

    return described(
        arithmetic, lambda: combined(left, right, combined_by_op, raises=op in _CHECKED)
    )


def _with_constant_step(node: BinaryOp, left: Step, constant: int) -> Step:
    """``left`` and a constant (``2d6+5``): the constant needs no step of its own."""
    op, combine, shown = node.op, _ARITHMETIC[node.op], Constant(constant)

    def with_constant(ev: InProgress) -> Rolled:
        first = left(ev)
        return Arithmetic(first, op, shown, combine(first.value, constant))

    def put_to(first: Rolled) -> Rolled:
        return Arithmetic(first, op, shown, combine(first.value, constant))

    return described(with_constant, lambda: mapped(left, put_to, raises=op in _CHECKED))


def _compile_negate(node: Negate) -> Step:
    operand = _wrapped_step(node.operand, 8)

    def negate(ev: InProgress) -> Rolled:
        return _negated(operand(ev))

    return described(negate, lambda: mapped(operand, _negated))


def _negated(rolled: Rolled) -> Rolled:
    """The node of ``-rolled``."""
    return Negated(rolled, -rolled.value)


def _compile_percent(node: PercentOf) -> Step:
    operand = _wrapped_step(node.operand, 7)
    percent = node.percent

    def percentage(ev: InProgress) -> Rolled:
        rolled = operand(ev)
        return Percentage(percent, rolled, percent_of(percent, rolled.value))

    return percentage


def _compile_computed_dice(node: ComputedDice) -> Step:
    """Roll the count and the sides (in that order), then that many dice, shown as
    ``(STR(3))d6 → 3d6 [4, 1, 6]``; a count or size out of range is an error naming it."""
    count, sides = node.count, node.sides
    count_step = None if isinstance(count, Number) else _in_parentheses(compile_step(count))
    fixed_count = Constant(count.value if isinstance(count, Number) else 1)
    sides_step = None
    fixed_sides: Constant | str = Constant(0)
    if isinstance(sides, Number):
        fixed_sides = Constant(sides.value)
    elif isinstance(sides, str):
        fixed_sides = sides
    else:
        sides_step = _in_parentheses(compile_step(sides))

    def computed(ev: InProgress) -> Rolled:
        rolled_count: Rolled = fixed_count if count_step is None else count_step(ev)
        rolled_sides: Rolled | str = fixed_sides if sides_step is None else sides_step(ev)
        if rolled_count.value == 0 and ev.env.dialect in NO_DICE_AS_ZERO:  # d20: worth 0
            size = rolled_sides if isinstance(rolled_sides, str) else rolled_sides.value
            none = Dice(0, cast(Sides, size), node.modifiers)
            return ComputedRoll(rolled_count, rolled_sides, none, Constant(0), 0)
        dice = computed_dice(
            node,
            rolled_count.value,
            rolled_sides if isinstance(rolled_sides, str) else rolled_sides.value,
        )
        rolled = step_of_dice(dice)(ev)
        return ComputedRoll(rolled_count, rolled_sides, dice, rolled, rolled.value)

    return computed


def _compile_call(node: Call) -> Step:
    """``floor(...)``, ``max(..., ...)``: the arguments as typed, then the value. A
    division or percentage that is the whole argument of a rounding function is
    exact, rounded by the function (not up, as ``/`` elsewhere)."""
    function, (first, *_) = node.function, node.args
    if function in ROUNDING_FUNCTIONS and isinstance(first, BinaryOp) and first.op == "/":
        return _exact_quotient_step(node, first)
    if function in ROUNDING_FUNCTIONS and isinstance(first, PercentOf):
        return _exact_percent_step(node, first)
    args = [compile_step(arg) for arg in node.args]
    value_shown = function not in ROUNDING_FUNCTIONS

    def call(ev: InProgress) -> Rolled:
        rolled = tuple([arg(ev) for arg in args])
        result = applied(function, [arg.value for arg in rolled])
        return Called(function, rolled, result, value_shown)

    return call


def _exact_quotient_step(node: Call, quotient: BinaryOp) -> Step:
    left = _wrapped_step(quotient.left, quotient.level)
    right = _wrapped_step(quotient.right, quotient.level + 1)

    def exact_quotient(ev: InProgress) -> Rolled:
        numerator = left(ev)
        denominator = right(ev)
        if denominator.value == 0:
            raise DiceError(f"division by zero in {quotient}")
        result = rounded(node.function, numerator.value, denominator.value)
        divided = Arithmetic(numerator, "/", denominator, result)
        return Called(node.function, (divided,), result, True)

    return exact_quotient


def _exact_percent_step(node: Call, percent: PercentOf) -> Step:
    operand = _wrapped_step(percent.operand, 7)

    def exact_percent(ev: InProgress) -> Rolled:
        whole = operand(ev)
        result = rounded(node.function, percent.percent * whole.value, 100)
        part = Percentage(percent.percent, whole, result, value_shown=False)
        return Called(node.function, (part,), result, True)

    return exact_percent


def _compile_labelled(node: Labelled) -> Step:
    inner, label = compile_step(node.expr), node.label

    def labelled(ev: InProgress) -> Rolled:
        return with_label(inner(ev))

    def with_label(rolled: Rolled) -> Rolled:
        return LabelledRoll(rolled, label, rolled.value)

    return described(labelled, lambda: mapped(inner, with_label))


def _compile_name(node: Name) -> Step:
    def name(ev: InProgress) -> Rolled:
        return ev.name(node)  # looked up at each roll: values change, games add words

    return name


def _compile_pooled_group(node: Group) -> Step:
    """A group of one item made of dice added together (``{4d6+3d8}k4``): keep/drop
    picks among its dice, one by one (:func:`~dicecli.notation.semantics.pooled_dice`),
    and success counting counts the kept dice, as on a dice term."""
    item = step_of(node.items[0])
    modifiers = node.modifiers
    counting = modifiers.counts_successes
    keep = modifiers.keep
    assert keep is not None
    order = _order_of(modifiers)

    def pooled(ev: InProgress) -> Rolled:
        rolled = item(ev)
        dice = list(dice_in(rolled))
        standing = [p for p in range(len(dice)) if dice[p].kept]
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
                dice[position] = dice[position].marked(*SCORE_MARKS[score])
            else:
                total += values[index]
        marked = with_dice(rolled, replaced_in_order(dice), order)
        tally = (successes, successes - total) if counting else None
        return Pooled(marked, total, tally, order)

    return pooled


def _worth(die: DieRoll) -> int:
    if die.value is None:  # a die of a dice file with symbols only (docs/dice.md)
        raise unnumbered(die)
    return die.value


def _compile_group(node: Group) -> Step:
    if pooled_dice(node) is not None:
        return _compile_pooled_group(node)
    items = [step_of(item) for item in node.items]
    modifiers = node.modifiers
    counting = modifiers.counts_successes
    order = _order_of(modifiers)

    def group(ev: InProgress) -> Rolled:
        rolled = [item(ev) for item in items]
        units: list[KeepUnit] = [(part.value, [index]) for index, part in enumerate(rolled)]
        kept_items = kept_units(units, modifiers)
        total = successes = 0
        for value, (index,) in units:
            if index not in kept_items:
                rolled[index] = with_dice(rolled[index], dropped)
            elif counting:
                score = count_one(value, modifiers)
                total += score
                successes += max(score, 0)
            else:
                total += value
        kept = tuple([index in kept_items for index in range(len(rolled))])
        tally = (successes, successes - total) if counting else None
        if order is not None:  # shown sorted: the items by value, the dice in each
            rolled = [with_dice(part, _unchanged, order) for part in rolled]
        return GroupRoll(tuple(rolled), kept, total, tally, order)

    return group


def _unchanged(die: DieRoll) -> DieRoll:
    return die


def _order_of(modifiers: Modifiers) -> Order | None:
    """How a group with ``modifiers`` is shown sorted (``s``/``sa``, ``sd``), if it is."""
    if modifiers.sort is None:
        return None
    return "descending" if modifiers.sort == "d" else "ascending"


_COMPILERS: dict[type, Callable[[Any], Step]] = {
    Number: _compile_number,
    BinaryOp: _compile_binary,
    Negate: _compile_negate,
    PercentOf: _compile_percent,
    Labelled: _compile_labelled,
    Name: _compile_name,
    Dice: dice_steps,
    Group: _compile_group,
    Call: _compile_call,
    ComputedDice: _compile_computed_dice,
}
"""The step compiler of each node type, by the type itself (nodes are final values, never
subclassed); a test holds it to every type of :data:`~dicecli.notation.nodes.Expr`."""


def _only_added(body: Expr, dice: tuple[DieRoll, ...]) -> None:
    """Refuse a roll with dice without numbers that does more than add dice."""
    unnumbered_die = next((die for die in dice if die.value is None), None)
    if unnumbered_die is None:
        return
    pending: list[Expr] = [body]
    while pending:
        node = pending.pop()
        if isinstance(node, BinaryOp) and node.op == "+":
            pending += (node.left, node.right)
        elif isinstance(node, Labelled):
            pending.append(node.expr)
        elif not isinstance(node, Dice):
            raise unnumbered(unnumbered_die)


__all__ = ["Evaluation", "RollLimitError", "roll"]
