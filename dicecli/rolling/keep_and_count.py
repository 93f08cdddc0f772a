"""Keep/drop and success counting (steps 3 and 4 of the modifier order in
``docs/grammar.md``), and the critical marks of kept dice, over dice already rolled.

Shared by every dice term and group; the dice are rolled before
(:mod:`dicecli.rolling.dice_steps`, :mod:`dicecli.rolling.rerolls_and_explosions`).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.notation.nodes import Condition, Modifiers
from dicecli.notation.semantics import count_one, kept_positions
from dicecli.results import (
    COMPOUNDED,
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    DOUBLE_SUCCESS,
    DROPPED,
    FAILURE,
    SUCCESS,
    DieRoll,
)

KeepUnit = tuple[int, list[int]]
"""One value that keep/drop sees (a die, or a compounded die), and the positions of
the dice it is made of."""

SCORE_MARKS: dict[int, tuple[str, ...]] = {
    2: (SUCCESS, DOUBLE_SUCCESS),
    1: (SUCCESS,),
    -1: (FAILURE,),
    0: (),
}
"""The marks of a kept die by what it scores when counting (``ds``: 2)."""


def kept_units(units: list[KeepUnit], modifiers: Modifiers) -> set[int]:
    """Indexes (into ``units``) of the units that keep/drop keeps (step 3)."""
    if modifiers.keep is None:
        return set(range(len(units)))
    return kept_positions([value for value, _ in units], modifiers.keep)


def dropped(roll: DieRoll) -> DieRoll:
    """``roll`` dropped by keep/drop (a die already not counting stays as it is)."""
    return roll.marked(DROPPED, kept=False) if roll.kept else roll


def apply_keep_and_count(
    rolled: list[DieRoll], units: list[KeepUnit], modifiers: Modifiers
) -> tuple[int, list[DieRoll]]:
    """Keep/drop and count (steps 3 and 4): the total, and the dice marked."""
    kept = kept_units(units, modifiers)
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
                    rolled[position] = rolled[position].marked(*SCORE_MARKS[score])
        else:
            total += value
    return total, rolled


def successes_among(rolled: list[DieRoll]) -> int:
    """The successes the marked dice score (a ``ds`` double success counts 2); a die
    compounded into the one before it (``!!``) is part of that die's one score."""
    return sum(
        1 + (DOUBLE_SUCCESS in roll.marks)
        for roll in rolled
        if SUCCESS in roll.marks and COMPOUNDED not in roll.marks
    )


def critical_marks(
    value: int | None, critical: Condition | None, fumble: Condition | None
) -> tuple[str, ...]:
    """The critical marks of a kept die worth ``value`` (``cs``/``cf``, or a lone d20's
    20 and 1)."""
    if value is None:
        return ()
    marks: tuple[str, ...] = ()
    if critical is not None and critical.matches(value):
        marks = (CRITICAL_SUCCESS,)
    if fumble is not None and fumble.matches(value):
        marks += (CRITICAL_FAILURE,)
    return marks
