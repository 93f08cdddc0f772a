"""Rolling an Alkemy line: a characteristic test (rule A1) or an opposed test (A2) into a
:class:`~dicecli.results.RollResult`.

Dice are drawn in roll order: side 1's dice (2 plus its extra dice), then side 2's,
then each re-roll round the same way, which is the order ``--given`` faces are used.
An opposed roll's total is the winner's total in the deciding round; its ``passed`` is
None (no side is "the player"): the JSON ``winner`` field says who won.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from functools import lru_cache

from dicecli.environment import Environment
from dicecli.errors import RollLimitError
from dicecli.frozen import frozen
from dicecli.notation.nodes import assert_never
from dicecli.results import (
    DROPPED,
    REROLL,
    REROLLED,
    DiceShown,
    DieRoll,
    JSONValue,
    Outcome,
    RollResult,
    Segment,
    Text,
)
from dicecli.rolling.games import CheckStep
from dicecli.rolling.sources import Roller
from dicecli.systems.alkemy.dice import DiceSet, dice_for
from dicecli.systems.alkemy.nodes import AlkemyCheck, AlkemyForm, AlkemyOpposed, AlkemySide
from dicecli.systems.alkemy.rules import PreparedSide, look_up, prepare_side

MAX_ROUNDS = 100
"""Most rounds an opposed roll may take before it stops with an error: ties that never
end come only from dice that always tie (a custom file with one number on every face)."""


class SideStep:
    """One side made ready to roll with one dice set and one characteristic: its dice,
    which dice it keeps when that does not depend on the faces, its breakdown around the
    dice, its JSON fields and its notes, worked out once (:class:`SidePlan` keeps it
    while the dice set and the characteristic stay the same)."""

    __slots__ = (
        "characteristic",
        "count",
        "die",
        "faces",
        "fields",
        "fixed_kept",
        "labelled",
        "notes",
        "side",
        "tail",
        "unlabelled",
    )

    def __init__(self, side: PreparedSide) -> None:
        self.side = side
        dice = side.dice
        self.die, self.faces, self.count = dice.die, dice.values, side.count
        self.characteristic = side.characteristic
        self.fixed_kept = side.fixed_kept
        colour = () if dice.colour == "white" else (Text(f"{dice.colour} ", "note"),)
        label = () if not side.label else (Text(f"{side.label} ", "label"),)
        self.labelled: tuple[Segment, ...] = (*label, *colour)
        self.unlabelled: tuple[Segment, ...] = colour
        self.tail = (Text(" + ", "op"), Text(str(side.characteristic), "number"))
        fields: list[tuple[str, JSONValue]] = [
            ("characteristic", side.characteristic),
            ("colour", dice.colour),
        ]
        if side.net:
            fields.append(("bonus_dice" if side.net > 0 else "penalty_dice", abs(side.net)))
        self.fields = tuple(fields)
        self.notes = tuple(side.notes())

    def roll(self, roller: Roller) -> SideRoll:
        return _side_roll(self, tuple(roller.draw_many(self.die, self.count)))


class SidePlan:
    """How a typed side finds its :class:`SideStep` on a roll: its characteristic looked
    up in the roll's environment (a named value may change between rolls), the step
    made again only when the dice set or the characteristic changed."""

    __slots__ = ("last", "node", "number")

    def __init__(self, node: AlkemySide, number: int) -> None:
        self.node, self.number = node, number
        self.last: tuple[DiceSet, int, SideStep] | None = None

    def __call__(self, env: Environment, dice_set: DiceSet) -> SideStep:
        characteristic = look_up(self.node.characteristic, env)
        last = self.last
        if last is not None and last[0] is dice_set and last[1] == characteristic:
            return last[2]
        step = SideStep(prepare_side(self.node, self.number, characteristic, dice_set))
        self.last = (dice_set, characteristic, step)
        return step


@frozen
class SideRoll:
    """One side's dice in one round: the face indices
    and values in roll order, the kept pair's positions, the total, and the dice as a
    test shows them (the dice not kept marked dropped)."""

    step: SideStep
    indices: tuple[int, ...]
    values: tuple[int, ...]
    kept: tuple[int, int]
    total: int
    shown: tuple[DieRoll, ...]
    symbols: tuple[str, str] | None
    """The kept pair's symbols (rule A8), None when the dice file gives none."""

    def symbols_shown(self) -> list[JSONValue] | None:
        """The kept pair's symbols as the JSON shows them (a list of its own)."""
        return None if self.symbols is None else list(self.symbols)

    def dice(self, marks: tuple[str, ...] = (), counts: bool = True) -> tuple[DieRoll, ...]:
        """The dice in roll order, with ``marks``; not kept ones marked dropped;
        ``counts`` False when the whole round was re-rolled."""
        if counts and not marks:  # a test's dice, an opposed test's deciding first round
            return self.shown
        return _dice(self.step, self.indices, self.kept, marks, counts)


def _dice(
    step: SideStep,
    indices: tuple[int, ...],
    kept: tuple[int, int],
    marks: tuple[str, ...],
    counts: bool,
) -> tuple[DieRoll, ...]:
    """``step``'s dice of the faces ``indices`` in roll order, the ones not ``kept``
    marked dropped, with ``marks``; ``counts`` False when the whole round was re-rolled."""
    roll_of = step.die.roll_of
    dropped = (DROPPED, *marks)
    rolls = []
    for position, index in enumerate(indices):
        if position in kept:
            rolls.append(roll_of(index, counts, marks))
        else:
            rolls.append(roll_of(index, False, dropped))
    return tuple(rolls)


@lru_cache(maxsize=4096)
def _side_roll(step: SideStep, indices: tuple[int, ...]) -> SideRoll:
    """``step``'s roll of the faces ``indices``: a value made from these alone, so made
    once for each (a side rolls at most 6**4 ways)."""
    faces = step.faces
    values = tuple([faces[index] for index in indices])
    kept = step.fixed_kept or step.side.kept(values)
    total = values[kept[0]] + values[kept[1]] + step.characteristic
    shown = _dice(step, indices, kept, (), True)
    faces_symbols = step.side.dice.symbols
    symbols = None
    if faces_symbols is not None:
        symbols = (faces_symbols[indices[kept[0]]], faces_symbols[indices[kept[1]]])
    return SideRoll(step, indices, values, kept, total, shown, symbols)


def side_segments(rolled: SideRoll, dice: tuple[DieRoll, ...], label: bool) -> tuple[Segment, ...]:
    """``Mind yellow [3, 4, ~1~] + 8``."""
    step = rolled.step
    return (*(step.labelled if label else step.unlabelled), DiceShown(dice), *step.tail)


def _symbols_text(symbols: list[JSONValue] | None) -> str:
    return "" if symbols is None else f"; symbols {symbols[0]} + {symbols[1]}"


# -- a characteristic test (rule A1) --------------------------------------------------------


def prepare_check(check: AlkemyCheck, canonical: str) -> CheckStep:
    """A characteristic test made ready to roll: its side's plan. The difficulty, a
    number or a named value, is looked up on every roll."""
    plan = SidePlan(check.side, 1)
    difficulty = check.difficulty

    def resolve_check(roller: Roller, env: Environment, text: str) -> RollResult:
        step = plan(env, dice_for(env))
        rolled = step.roll(roller)
        dice, total = rolled.shown, rolled.total
        segments = side_segments(rolled, dice, label=True)
        target = None if difficulty is None else look_up(difficulty, env)
        if rolled.symbols is None:
            outcome = _plain_check_outcome(total, target, None, step.fields, step.notes)
        else:
            symbols = rolled.symbols_shown()
            outcome = _check_outcome(total, target, symbols, step.fields, step.notes)
        return RollResult(text, canonical, total, dice, segments, outcome)

    return resolve_check


def _check_outcome(
    total: int,
    target: int | None,
    symbols: list[JSONValue] | None,
    fields: tuple[tuple[str, JSONValue], ...],
    notes: tuple[str, ...],
) -> Outcome:
    """A characteristic test's outcome (rule A1): success iff the total reaches the
    difficulty ``target`` (None: no difficulty given); ``fields`` and ``notes`` are the
    side's."""
    if symbols is not None:
        fields = (*fields, ("symbols", symbols))
    if target is None:
        return Outcome("no difficulty given" + _symbols_text(symbols), None, fields, notes)
    passed = total >= target
    margin = total - target
    verdict = f"{'success' if passed else 'failure'} vs {target}, margin {margin:+d}"
    fields = (("success", passed), ("target", target), ("margin", margin), *fields)
    return Outcome(verdict + _symbols_text(symbols), passed, fields, notes)


_plain_check_outcome = lru_cache(maxsize=1024)(_check_outcome)
"""The outcome of a test without symbols, made once for the same numbers (a value made
from its arguments alone). With symbols, the outcome holds a list: it is made anew."""


# -- an opposed test (rule A2) --------------------------------------------------------------


@frozen
class Decision:
    winner: int  # 1 or 2
    tiebreak: str  # "total", "characteristic" or "reroll"


def decide(first: SideRoll, second: SideRoll, round_number: int) -> Decision | None:
    """Higher total, else higher characteristic, else None: re-roll (rule A2)."""
    if first.total != second.total:
        by = "total" if round_number == 1 else "reroll"
        return Decision(1 if first.total > second.total else 2, by)
    a, b = first.step.side.characteristic, second.step.side.characteristic
    if a != b:
        return Decision(1 if a > b else 2, "characteristic")
    return None


def roll_rounds(
    sides: tuple[SideStep, SideStep], roller: Roller
) -> tuple[list[tuple[SideRoll, SideRoll]], Decision]:
    """Both sides roll, again and again while they tie, at most :data:`MAX_ROUNDS`."""
    rounds: list[tuple[SideRoll, SideRoll]] = []
    for round_number in range(1, MAX_ROUNDS + 1):
        pair = (sides[0].roll(roller), sides[1].roll(roller))
        rounds.append(pair)
        decision = decide(*pair, round_number)
        if decision is not None:
            return rounds, decision
    raise RollLimitError(
        f"the opposed roll was still tied after {MAX_ROUNDS} rounds: do the dice ever differ?"
    )


def _round_segments(
    number: int, pair: tuple[SideRoll, SideRoll], last: bool
) -> tuple[list[Segment], list[DieRoll]]:
    """One round's breakdown and dice; a tied round's dice are marked re-rolled."""
    marks = (REROLL,) if number > 1 else ()
    if not last:
        marks = (*marks, REROLLED)
    segments: list[Segment] = []
    all_dice: list[DieRoll] = []
    if number > 1:
        segments += [Text("; ", "side"), Text(f"re-roll {number - 1}: ", "note")]
    for position, rolled in enumerate(pair):
        dice = rolled.dice(marks, counts=last)
        all_dice += dice
        if position:
            segments.append(_VS)
        segments += side_segments(rolled, dice, label=number == 1)
        segments += [_ARROW, Text(str(rolled.total), "value")]
    return segments, all_dice


_VS, _ARROW = Text(" vs ", "side"), Text(" → ", "op")


def _opposed_verdict(final: tuple[SideRoll, SideRoll], decision: Decision, rounds: int) -> str:
    winner, loser = final[decision.winner - 1], final[2 - decision.winner]
    head = f"{winner.step.side.title} wins"
    if decision.tiebreak == "characteristic":
        return (
            f"{head} on characteristic: totals tied at {winner.total}, "
            f"{winner.step.side.characteristic} beats {loser.step.side.characteristic}"
        )
    if decision.tiebreak == "reroll":
        return f"{head} on re-roll {rounds - 1}: {winner.total} vs {loser.total}"
    return f"{head} on total: {winner.total} vs {loser.total}"


def prepare_opposed(check: AlkemyOpposed, canonical: str) -> CheckStep:
    """An opposed test made ready to roll: each side's plan."""
    plans = (SidePlan(check.first, 1), SidePlan(check.second, 2))

    def resolve_opposed(roller: Roller, env: Environment, text: str) -> RollResult:
        dice_set = dice_for(env)
        sides = (plans[0](env, dice_set), plans[1](env, dice_set))
        rounds, decision = roll_rounds(sides, roller)
        segments: list[Segment] = []
        dice: list[DieRoll] = []
        for number, pair in enumerate(rounds, start=1):
            round_segments, round_dice = _round_segments(number, pair, number == len(rounds))
            segments += round_segments
            dice += round_dice
        final = rounds[-1]
        winner = final[decision.winner - 1]
        symbols = [rolled.symbols_shown() for rolled in final]
        fields: list[tuple[str, JSONValue]] = [
            ("winner", decision.winner),
            ("tiebreak", decision.tiebreak),
            ("margin", abs(final[0].total - final[1].total)),
            ("totals", [rolled.total for rolled in final]),
            ("characteristics", [side.side.characteristic for side in sides]),
            ("rounds", len(rounds)),
            ("colour", [side.side.dice.colour for side in sides]),
        ]
        if any(pair is not None for pair in symbols):
            fields.append(("symbols", list(symbols)))
        notes = [f"side {side.side.number}: {note}" for side in sides for note in side.notes]
        verdict = _opposed_verdict(final, decision, len(rounds))
        outcome = Outcome(verdict, None, tuple(fields), tuple(notes))
        return RollResult(text, canonical, winner.total, tuple(dice), tuple(segments), outcome)

    return resolve_opposed


def prepare_step(form: AlkemyForm) -> CheckStep:
    """``form`` made ready to roll (:data:`~dicecli.rolling.games.CheckStep`): its
    canonical text, each side's breakdown, fields and notes, worked out once. The dice
    and named values are looked up on every roll: they come from the environment and the
    dice file in force, and a side is made ready again when they change."""
    canonical = str(form)
    match form:
        case AlkemyCheck():
            return prepare_check(form, canonical)
        case AlkemyOpposed():
            return prepare_opposed(form, canonical)
        case _:
            return assert_never(form)


def resolve(form: AlkemyForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an Alkemy line."""
    return prepare_step(form)(roller, env, text)
