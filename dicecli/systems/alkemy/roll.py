"""Rolling an Alkemy line: a characteristic test (rule A1) or an opposed test (A2) into a
:class:`~dicecli.results.RollResult`.

Dice are drawn in roll order: side 1's dice (2 plus its extra dice), then side 2's,
then each re-roll round the same way, which is the order ``--given`` faces are used.
An opposed roll's total is the winner's total in the deciding round; its ``passed`` is
None (no side is "the player"): the JSON ``winner`` field says who won.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from dicecli.environment import Environment
from dicecli.errors import RollLimitError
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
from dicecli.rolling.sources import Roller
from dicecli.systems.alkemy.dice import dice_for
from dicecli.systems.alkemy.nodes import AlkemyCheck, AlkemyForm, AlkemyOpposed
from dicecli.systems.alkemy.rules import PreparedSide, look_up, prepare
from dicecli.systems.declaration import CheckStep

MAX_ROUNDS = 100
"""Most rounds an opposed roll may take before it stops with an error: ties that never
end come only from dice that always tie (a custom file with one number on every face)."""


class SideRoll(NamedTuple):
    """One side's dice in one round (a named tuple: a frozen value, made on every
    roll)."""

    side: PreparedSide
    indices: tuple[int, ...]
    values: tuple[int, ...]
    kept: tuple[int, int]

    @property
    def total(self) -> int:
        values = self.values
        return values[self.kept[0]] + values[self.kept[1]] + self.side.characteristic

    @property
    def symbols(self) -> list[JSONValue] | None:
        """The kept pair's symbols (rule A8), None when the dice file gives none."""
        symbols = [self.side.dice.symbol(self.indices[position]) for position in self.kept]
        return None if None in symbols else list(symbols)

    def dice(self, marks: tuple[str, ...] = (), counts: bool = True) -> tuple[DieRoll, ...]:
        """The dice in roll order; not kept ones marked dropped; ``counts`` False when
        the whole round was re-rolled."""
        die = self.side.dice.die
        rolls = []
        for position, index in enumerate(self.indices):
            kept = position in self.kept
            own = marks if kept else (DROPPED, *marks)
            rolls.append(die.roll_of(index, kept and counts, own))
        return tuple(rolls)


def roll_side(side: PreparedSide, roller: Roller) -> SideRoll:
    die = side.dice.die
    indices = tuple(roller.draw(die) for _ in range(side.count))
    faces = side.dice.values
    values = tuple(faces[index] for index in indices)
    return SideRoll(side, indices, values, side.kept(values))


def side_segments(rolled: SideRoll, dice: tuple[DieRoll, ...], label: bool) -> list[Segment]:
    """``Mind yellow [3, 4, ~1~] + 8``."""
    side = rolled.side
    segments: list[Segment] = []
    if label and side.label:
        segments.append(Text(f"{side.label} ", "label"))
    if side.dice.colour != "white":
        segments.append(Text(f"{side.dice.colour} ", "note"))
    segments += [DiceShown(dice), Text(" + ", "op"), Text(str(side.characteristic), "number")]
    return segments


def _common_fields(
    rolled: SideRoll, symbols: list[JSONValue] | None
) -> list[tuple[str, JSONValue]]:
    side = rolled.side
    fields: list[tuple[str, JSONValue]] = [
        ("characteristic", side.characteristic),
        ("colour", side.dice.colour),
    ]
    if side.net:
        fields.append(("bonus_dice" if side.net > 0 else "penalty_dice", abs(side.net)))
    if symbols is not None:
        fields.append(("symbols", symbols))
    return fields


def _symbols_text(symbols: list[JSONValue] | None) -> str:
    return "" if symbols is None else f"; symbols {symbols[0]} + {symbols[1]}"


# -- a characteristic test (rule A1) --------------------------------------------------------


def resolve_check(
    check: AlkemyCheck, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
    side = prepare(check.side, 1, env, dice_for(env))
    rolled = roll_side(side, roller)
    dice = rolled.dice()
    total = rolled.total
    segments = side_segments(rolled, dice, label=True)
    symbols = rolled.symbols
    fields = _common_fields(rolled, symbols)
    if check.difficulty is None:
        verdict, passed = "no difficulty given" + _symbols_text(symbols), None
    else:
        difficulty = look_up(check.difficulty, env)
        passed = total >= difficulty
        margin = total - difficulty
        verdict = f"{'success' if passed else 'failure'} vs {difficulty}, margin {margin:+d}"
        verdict += _symbols_text(symbols)
        fields = [("success", passed), ("target", difficulty), ("margin", margin), *fields]
    outcome = Outcome(verdict, passed, tuple(fields), tuple(side.notes()))
    return RollResult(text, canonical, total, dice, tuple(segments), outcome)


# -- an opposed test (rule A2) --------------------------------------------------------------


class Decision(NamedTuple):
    winner: int  # 1 or 2
    tiebreak: str  # "total", "characteristic" or "reroll"


def decide(first: SideRoll, second: SideRoll, round_number: int) -> Decision | None:
    """Higher total, else higher characteristic, else None: re-roll (rule A2)."""
    if first.total != second.total:
        by = "total" if round_number == 1 else "reroll"
        return Decision(1 if first.total > second.total else 2, by)
    a, b = first.side.characteristic, second.side.characteristic
    if a != b:
        return Decision(1 if a > b else 2, "characteristic")
    return None


def roll_rounds(
    sides: tuple[PreparedSide, PreparedSide], roller: Roller
) -> tuple[list[tuple[SideRoll, SideRoll]], Decision]:
    """Both sides roll, again and again while they tie, at most :data:`MAX_ROUNDS`."""
    rounds: list[tuple[SideRoll, SideRoll]] = []
    for round_number in range(1, MAX_ROUNDS + 1):
        pair = (roll_side(sides[0], roller), roll_side(sides[1], roller))
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
            segments.append(Text(" vs ", "side"))
        segments += side_segments(rolled, dice, label=number == 1)
        segments += [Text(" → ", "op"), Text(str(rolled.total), "value")]
    return segments, all_dice


def _opposed_verdict(final: tuple[SideRoll, SideRoll], decision: Decision, rounds: int) -> str:
    winner, loser = final[decision.winner - 1], final[2 - decision.winner]
    head = f"{winner.side.title} wins"
    if decision.tiebreak == "characteristic":
        return (
            f"{head} on characteristic: totals tied at {winner.total}, "
            f"{winner.side.characteristic} beats {loser.side.characteristic}"
        )
    if decision.tiebreak == "reroll":
        return f"{head} on re-roll {rounds - 1}: {winner.total} vs {loser.total}"
    return f"{head} on total: {winner.total} vs {loser.total}"


def resolve_opposed(
    check: AlkemyOpposed, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
    dice_set = dice_for(env)
    sides = (prepare(check.first, 1, env, dice_set), prepare(check.second, 2, env, dice_set))
    rounds, decision = roll_rounds(sides, roller)
    segments: list[Segment] = []
    dice: list[DieRoll] = []
    for number, pair in enumerate(rounds, start=1):
        round_segments, round_dice = _round_segments(number, pair, number == len(rounds))
        segments += round_segments
        dice += round_dice
    final = rounds[-1]
    winner = final[decision.winner - 1]
    symbols = [rolled.symbols for rolled in final]
    fields: list[tuple[str, JSONValue]] = [
        ("winner", decision.winner),
        ("tiebreak", decision.tiebreak),
        ("margin", abs(final[0].total - final[1].total)),
        ("totals", [rolled.total for rolled in final]),
        ("characteristics", [side.characteristic for side in sides]),
        ("rounds", len(rounds)),
        ("colour", [side.dice.colour for side in sides]),
    ]
    if any(pair is not None for pair in symbols):
        fields.append(("symbols", list(symbols)))
    notes = [f"side {side.number}: {note}" for side in sides for note in side.notes()]
    verdict = _opposed_verdict(final, decision, len(rounds))
    outcome = Outcome(verdict, None, tuple(fields), tuple(notes))
    return RollResult(text, canonical, winner.total, tuple(dice), tuple(segments), outcome)


def prepare_step(form: AlkemyForm) -> CheckStep:
    """``form`` made ready to roll (:data:`~dicecli.systems.declaration.CheckStep`): its
    canonical text worked out once. The dice and named values are looked up on every
    roll: they come from the environment and the dice file in force."""
    canonical = str(form)
    match form:
        case AlkemyCheck():
            return partial(resolve_check, form, canonical)
        case AlkemyOpposed():
            return partial(resolve_opposed, form, canonical)
        case _:
            return assert_never(form)


def resolve(form: AlkemyForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an Alkemy line."""
    return prepare_step(form)(roller, env, text)
