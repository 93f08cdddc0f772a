"""Rolling a trait test: the trait die, then (for a Wild Card) the Wild Die.

Each die *aces*: on its highest face it is rolled again and the new roll added, without
limit (the core's roll budget still stops a run of aces no table will ever see). Every
die is in the result, in roll order: the trait die and its aces, then the Wild Die and
its aces, so ``--given 8,3,2`` is a d8 that aced into a 3, then a Wild Die of 2. A die
that aced carries the core mark ``exploded`` (shown ``8!``), the die it added the mark
``explosion``; the Wild Die's dice carry ``wild``. The chain that does not count is
kept out (``kept=False``, mark ``dropped``); on a tie the trait die counts.
"""

from __future__ import annotations

from typing import NamedTuple

from dicecli.game import (
    DROPPED,
    EXPLODED,
    EXPLOSION,
    DiceShown,
    Die,
    DieRoll,
    Environment,
    Outcome,
    Roller,
    RollResult,
    Segment,
    Text,
    assert_never,
)

from savage_worlds.dice import WILD, WILD_MARK, trait_die
from savage_worlds.nodes import SavageForm, TraitTest
from savage_worlds.rules import Judgement, aces, critical_failure, judge

_PLUS, _MINUS = Text(" + ", "op"), Text(" - ", "op")


class Chain(NamedTuple):
    """One die and its aces: the dice as rolled and what they add up to."""

    dice: tuple[DieRoll, ...]
    total: int
    first: int

    def dropped(self) -> Chain:
        """The same chain, not counted."""
        return self._replace(dice=tuple(die.marked(DROPPED, kept=False) for die in self.dice))


def roll_chain(roller: Roller, die: Die, marks: tuple[str, ...] = ()) -> Chain:
    """Roll ``die`` and keep rolling while it aces, adding every roll."""
    values = die.face_values
    top = max(values)
    first = 0
    dice: list[DieRoll] = []
    total = 0
    while True:
        index = roller.draw(die)
        value = values[index]
        if not dice:
            first = value
        aced = aces(value, top)
        found = (*marks, *((EXPLOSION,) if dice else ()), *((EXPLODED,) if aced else ()))
        dice.append(die.roll_of(index, True, found))
        total += value
        if not aced:
            return Chain(tuple(dice), total, first)


def _modifier_segments(modifiers: tuple[int, ...]) -> list[Segment]:
    """`` + 1 - 2``: the modifiers as typed."""
    segments: list[Segment] = []
    for modifier in modifiers:
        segments += [_MINUS if modifier < 0 else _PLUS, Text(str(abs(modifier)), "number")]
    return segments


def resolve_test(check: TraitTest, roller: Roller, text: str) -> RollResult:
    """Roll a trait test and judge it."""
    trait = roll_chain(roller, trait_die(check.sides))
    target = check.target_number
    segments: list[Segment] = []
    if check.wild_card:
        wild = roll_chain(roller, WILD, (WILD_MARK,))
        if wild.total > trait.total:
            best, trait = wild, trait.dropped()
        else:
            best, wild = trait, wild.dropped()
        dice = trait.dice + wild.dice
        critical = critical_failure(trait.first, wild.first)
        segments += [
            Text(f"d{check.sides} ", "label"),
            DiceShown(trait.dice),
            Text(" wild ", "label"),
            DiceShown(wild.dice),
        ]
    else:
        best, dice, critical = trait, trait.dice, False
        segments.append(DiceShown(trait.dice))
    total = best.total + check.modifier
    segments += _modifier_segments(check.modifiers)
    segments.append(Text(f" vs {target}", "target"))
    outcome = _outcome(judge(total, target, critical), target, check)
    return RollResult(text, str(check), total, dice, tuple(segments), outcome)


def _outcome(judgement: Judgement, target: int, check: TraitTest) -> Outcome:
    fields = (
        ("success", judgement.success),
        ("raises", judgement.raises),
        ("target", target),
        ("margin", judgement.margin),
        ("critical_failure", judgement.critical_failure),
        ("wild_card", check.wild_card),
    )
    return Outcome(judgement.verdict, judgement.success, fields)


def resolve(form: SavageForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a Savage Worlds line. The environment is not used: a trait test names no
    values."""
    match form:
        case TraitTest():
            return resolve_test(form, roller, text)
        case _:
            return assert_never(form)
