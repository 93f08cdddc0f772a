"""The steps of dice terms: ``3d6``, ``4d6kh3``, ``10d10>=7f1``, ``d6!``, ``3dBoost``.

Each dice term becomes the cheapest step its modifiers allow: a lone die looked up by
face; dice summed; keep/drop and counting worked out per face when each die is decided
by its face alone; else each die rolled in turn with its re-rolls and explosions
(:mod:`dicecli.rolling.rerolls_and_explosions`), then kept and counted
(:mod:`dicecli.rolling.keep_and_count`). Critical marks and sorting wrap the step that
rolls the dice. Dice of a dice file (``docs/dice.md``) are looked up when rolled.

Every step returns a :class:`~dicecli.result_tree.RolledDice`.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import TYPE_CHECKING, cast

from dicecli.errors import DiceError
from dicecli.frozen import replace
from dicecli.notation.dice import Die, NumberedFaces, die_for_sides
from dicecli.notation.nodes import NO_MODIFIERS, Condition, Dice, Modifiers, Name
from dicecli.notation.semantics import count_one, critical_conditions, kept_slice
from dicecli.notation.sides import DieName
from dicecli.result_tree import Order, Rolled, RolledDice
from dicecli.results import DROPPED, DiceShown, DieRoll, NumberedDice
from dicecli.rolling.keep_and_count import (
    SCORE_MARKS,
    apply_keep_and_count,
    critical_marks,
    successes_among,
)
from dicecli.rolling.shared_outcomes import (
    Outcomes,
    described,
    few_outcomes,
    known,
    mapped,
    tabled_step,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from dicecli.rolling.step import DiceStep, InProgress, Step

TABLED_FACES = 100
"""Dice with at most this many faces get per-face tables (shared results, keep/count
outcomes); a d10000 term rolls without them rather than build 10,000 of each."""


def compile_dice(node: Dice) -> Step:
    """The step that rolls the dice term ``node``."""
    if isinstance(node.sides, DieName):  # a die of a dice file: docs/dice.md
        return _compile_named_dice(node)
    if node.modifiers.implode is not None:  # Dice Maiden's i1: after the rest of the term
        from dicecli.rolling.implosions import imploding_step  # docs/startup.md

        inner = replace(node, modifiers=replace(node.modifiers, implode=None))
        return imploding_step(node, _numbered_dice_step(inner))
    return _numbered_dice_step(node)


def _numbered_dice_step(node: Dice) -> DiceStep:
    """The step of ``node``, dice that are not of a dice file, without an implosion."""
    if node.modifiers.sort is not None:
        return _sorted_as_shown(node, _shown_dice_step(node))
    return _shown_dice_step(node)


@lru_cache(maxsize=256)
def step_of_dice(dice: Dice) -> Step:
    """The step of dice a computed term came to (kept by value: they are made anew)."""
    return compile_dice(dice)


def _shown_dice_step(node: Dice) -> DiceStep:
    die = die_for_sides(node.sides)
    critical, fumble = critical_conditions(node)
    if critical is None and fumble is None:
        return _uncritical_dice_step(node, die)
    if node.modifiers is NO_MODIFIERS and node.count == 1:  # a lone d20: marked per face
        return _lone_die_step(die, critical, fumble)
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


def _sorted_as_shown(node: Dice, step: DiceStep) -> DiceStep:
    """``step``, its dice to be shown sorted by value (``s``/``sa`` lowest first, ``sd``
    highest first); the result's dice stay in roll order, so ``--given`` replays them."""
    order: Order = "descending" if node.modifiers.sort == "d" else "ascending"

    def sorted_dice(ev: InProgress) -> RolledDice:
        return as_sorted(step(ev))

    def as_sorted(rolled: RolledDice) -> RolledDice:
        return RolledDice(rolled.value, rolled.shown, rolled.tally, order)

    return described(sorted_dice, lambda: mapped(step, as_sorted))


def with_criticals(node: Dice, step: DiceStep) -> DiceStep:
    """``step`` (which rolls ``node``), then its kept dice marked critical (``cs``/``cf``
    or a lone d20's defaults, on each die's value, as success conditions judge it)."""
    critical, fumble = critical_conditions(node)
    if critical is None and fumble is None:
        return step

    def criticals(ev: InProgress) -> RolledDice:
        return marked(step(ev))

    def marked(rolled: RolledDice) -> RolledDice:
        dice = []
        for die in rolled.shown.dice:
            marks = critical_marks(die.value, critical, fumble) if die.kept else ()
            dice.append(die.marked(*marks) if marks else die)
        return RolledDice(rolled.value, DiceShown(tuple(dice)), rolled.tally, rolled.order)

    return described(criticals, lambda: mapped(step, marked))


def _uncritical_dice_step(node: Dice, die: Die) -> DiceStep:
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


def _plain_dice_step(die: Die, count: int) -> DiceStep:
    if isinstance(die.faces, NumberedFaces):  # a d743: nothing built per face
        return _computed_dice_step(die, count)
    if count == 1 and len(die.faces) <= TABLED_FACES:  # d20, 1d8: no lists to build
        return _lone_die_step(die, None, None)
    return _summed_dice_step(die, count, die.face_values)


_LONE_DIE_STEPS: dict[tuple[int, Condition | None, Condition | None], tuple[Die, DiceStep]] = {}
"""The step of a lone die with no modifiers, by the die's identity and its critical
conditions: its rolls, one per face, are made once, not for every line that names it
(the usual dice are shared objects, :func:`~dicecli.notation.dice.die_for_sides`)."""

MAX_LONE_DIE_STEPS = 256


def _lone_die_step(die: Die, critical: Condition | None, fumble: Condition | None) -> DiceStep:
    """One die with no modifiers, each face's roll marked critical as ``critical`` and
    ``fumble`` say (:func:`_one_die_step`), made once per die and conditions (for dice
    of at most :data:`TABLED_FACES` faces)."""
    key = (id(die), critical, fumble)
    entry = _LONE_DIE_STEPS.get(key)
    if entry is not None and entry[0] is die:
        return entry[1]
    if critical is None and fumble is None:
        alone = die.shown_alone
    else:
        marked = tuple(
            die.roll_of(index, True, critical_marks(value, critical, fumble))
            for index, value in enumerate(die.face_values)
        )
        alone = tuple(DiceShown((roll,)) for roll in marked)
    step = _one_die_step(die, alone)
    if len(die.faces) <= TABLED_FACES:  # a few rolls each: a bigger die is not kept
        if len(_LONE_DIE_STEPS) >= MAX_LONE_DIE_STEPS:
            _LONE_DIE_STEPS.clear()
        _LONE_DIE_STEPS[key] = (die, step)
    return step


def _computed_dice_step(die: Die, count: int) -> DiceStep:
    """``count`` of a numbered die whose faces are computed (:class:`NumberedFaces`),
    every die kept (:func:`roll_computed_dice`)."""
    return partial(roll_computed_dice, die, count)


def roll_computed_dice(die: Die, count: int, ev: InProgress) -> RolledDice:
    """Roll ``count`` of ``die``, a numbered die whose faces are computed, every die
    kept: face index i is worth i + 1, and the dice are held as their numbers until
    they are read (:class:`~dicecli.results.NumberedDice`). Also what rolls such
    a term the first time a line is rolled, without making its step
    (:func:`dicecli.rolling.evaluate._run_sum`)."""
    numbers = tuple(map(_ONE.__add__, ev.roller.draw_many(die, count)))
    return RolledDice(sum(numbers), NumberedDice(die.name, die.rerollable, numbers))


_ONE = 1
"""What turns a face's index into its number (``_ONE.__add__``, a call made in C)."""


def _summed_dice_step(die: Die, count: int, values: Sequence[int]) -> DiceStep:
    """``count`` of ``die``, every die kept, worth ``values`` by face (a die's own
    values, or 0 for the faces of a dice file that bear only symbols)."""
    kept = die.kept_rolls

    def plain_dice(ev: InProgress) -> RolledDice:
        return summed(ev.roller.draw_many(die, count))

    def summed(indexes: Sequence[int]) -> RolledDice:
        rolled = []
        total = 0
        for index in indexes:  # a loop: cheaper than a comprehension
            rolled.append(kept[index])
            total += values[index]
        return RolledDice(total, DiceShown(tuple(rolled)))

    return _with_table(die, count, plain_dice, summed)


def _with_table(
    die: Die, count: int, step: DiceStep, build: Callable[[Sequence[int]], RolledDice]
) -> DiceStep:
    """``step``, which rolls ``count`` of ``die`` and builds its tree from the faces
    drawn with ``build``: with a table of the trees built when the dice have few
    outcomes (:mod:`dicecli.rolling.shared_outcomes`)."""
    outcomes = few_outcomes(len(die.faces), count)
    if outcomes is None:
        return step

    def draw(ev: InProgress) -> tuple[int, ...]:
        return tuple(ev.roller.draw_many(die, count))

    return cast("DiceStep", tabled_step(Outcomes(draw, build, outcomes, 2 + count)))


def _one_die_step(die: Die, alone: tuple[DiceShown, ...]) -> DiceStep:
    """One die with no modifiers: its roll, looked up by face (``alone``: each face's
    roll, shown)."""
    faces = tuple(
        RolledDice(value, shown) for value, shown in zip(die.face_values, alone, strict=True)
    )

    def draw(ev: InProgress) -> int:
        return ev.roller.draw(die)

    outcomes = Outcomes(draw, faces.__getitem__, len(faces), 3)
    if few_outcomes(len(faces), 1) is not None:
        return cast("DiceStep", tabled_step(outcomes))

    def one_die(ev: InProgress) -> RolledDice:  # its trees are shared all the same
        return faces[ev.roller.draw(die)]

    return known(one_die, outcomes)


def _face_decided_step(
    die: Die,
    count: int,
    modifiers: Modifiers,
    criticals: tuple[Condition | None, Condition | None] = (None, None),
) -> DiceStep:
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
                    *(SCORE_MARKS[worth[index]] if counting else ()),
                    *critical_marks(values[index], *criticals),
                ),
            )
            for index in faces
        )
    dropped = tuple(die.roll_of(index, False, (DROPPED,)) for index in faces)
    kept = kept_slice(modifiers.keep, count) if modifiers.keep is not None else None

    def face_decided_dice(ev: InProgress) -> RolledDice:
        return decided(ev.roller.draw_many(die, count))

    def decided(indexes: Sequence[int]) -> RolledDice:
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
        shown = DiceShown(tuple(marked))
        if counting:
            return RolledDice(total, shown, (successes, successes - total))
        return RolledDice(total, shown)

    return _with_table(die, count, face_decided_dice, decided)


def rolled_one_by_one_step(die: Die, count: int, modifiers: Modifiers) -> DiceStep:
    """Re-rolls or explosions: each die is rolled in turn, as the rules go."""
    from dicecli.rolling.rerolls_and_explosions import (  # docs/startup.md
        RerollExplodeRules,
        roll_modified_dice,
    )

    rules = RerollExplodeRules.of(die, modifiers)

    def rolled_one_by_one(ev: InProgress) -> RolledDice:
        roller = ev.roller
        roller.reserve(count)
        rolled, units = roll_modified_dice(roller, rules, count)
        total, rolled = apply_keep_and_count(rolled, units, modifiers)
        shown = DiceShown(tuple(rolled))
        if modifiers.counts_successes:
            successes = successes_among(rolled)
            return RolledDice(total, shown, (successes, successes - total))
        return RolledDice(total, shown)

    return rolled_one_by_one


# -- dice of a dice file (docs/dice.md) -------------------------------------------------


def _compile_named_dice(node: Dice) -> Step:
    """The step of ``node``, a dice term naming a die of a dice file (``3dBoost``,
    ``docs/dice.md``): the die is looked up when rolled, in the environment's dice (else
    the per-user file, read once per run): a dict lookup per roll, no file or
    environment variable. The die found rolls as any die (one with a number on every
    face takes every modifier); its step is made once per die and kept."""
    from dicecli.dicefiles.load import default_book, unknown_die  # docs/startup.md

    assert isinstance(node.sides, DieName)
    name = node.sides
    key = name.name.casefold()
    steps: dict[int, tuple[Die, Step, bool]] = {}

    def named_dice(ev: InProgress) -> Rolled:
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


def unnumbered(die: DieRoll) -> DiceError:
    """The error of a die without a number where a number is needed."""
    return DiceError(
        f"d{die.die} has faces without a number: add it to other dice (2d{die.die} + ...) "
        "to count its symbols; it has no total to keep, compare or work out"
    )


def _file_die_step(node: Dice, die: Die) -> Step:
    """The step that rolls ``node``'s count of ``die``, a die of a dice file."""
    # Imported when first needed (docs/startup.md).
    from dicecli.dicefiles.load import file_dice
    from dicecli.dicefiles.model import has_numbers

    resolved = file_dice(node, die)
    position = node.sides.position if isinstance(node.sides, DieName) else -1
    if has_numbers(die):
        return compile_dice(resolved)
    if node.modifiers != NO_MODIFIERS:
        raise DiceError(
            f"d{die.name} has faces without a number: modifiers (keep, re-roll, explode, "
            "count) need a number on every face",
            position=position if position >= 0 else None,
        )
    return _symbol_dice_step(die, node.count)


def _symbol_dice_step(die: Die, count: int) -> DiceStep:
    """Dice with faces that bear symbols and no number: worth 0 each to a total."""
    return _summed_dice_step(die, count, tuple(face.value or 0 for face in die.faces))
