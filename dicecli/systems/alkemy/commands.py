"""Alkemy's REPL command ``keep``: choose which dice to keep after seeing them (rule A4).

``keep 1 3`` rolls the last Alkemy line again with the same faces (its dice are
replayed in order, :class:`ReplaySource`) and the keep choice written into it, so the
rules decide as if the choice had been typed with the roll. Registered by the game's
declaration (:data:`dicecli.systems.alkemy.GAME`), imported when first used.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re

from dicecli.errors import DiceError, RuleError
from dicecli.frozen import replace
from dicecli.notation.dice import Die
from dicecli.notation.reader import parse
from dicecli.repl.state import Invocation, Output, ReplState, Rolled, last_roll, needs_argument
from dicecli.results import DieRoll, RollResult
from dicecli.rolling.evaluate import roll
from dicecli.rolling.sources import DiceSource, Roller
from dicecli.systems.alkemy.nodes import AlkemyCheck, AlkemyOpposed, AlkemySide, KeepChoice

_KEEP = re.compile(r"(?P<first>\d+)\s*[,\s]\s*(?P<second>\d+)(?:\s+on\s+(?P<side>\d+))?", re.I)


def keep(state: ReplState, invocation: Invocation) -> tuple[ReplState, Output]:
    """``keep I J [on SIDE]``: the last Alkemy roll again, its faces replayed, keeping the
    I-th and J-th dice of the side with bonus dice (rule A4)."""
    argument = needs_argument(invocation, "two dice positions, e.g. keep 1 3")
    match = _KEEP.fullmatch(argument)
    if match is None:
        raise invocation.syntax("expected two dice positions, e.g. keep 1 3 (or keep 1 3 on 2)", 0)
    previous = last_roll(state)
    side = int(match["side"]) if match["side"] else None
    text = with_keep_choice(previous, int(match["first"]), int(match["second"]), side)
    replay = Roller(ReplaySource(previous.dice, state.roller.source))
    try:
        result = replace(roll(parse(text), replay, state.env, text), reroll=previous.reroll)
    except DiceError as error:  # a choice the rules refuse: point at the typed choice
        raise type(error)(error.message, invocation.line, invocation.offset) from None
    rolls = (*state.rolls[:-1], result) if state.rolls else (result,)
    return replace(state, last=result, rolls=rolls), (Rolled(result),)


NO_BONUS_DICE = (
    "the last roll has no bonus dice to choose from: keep works after an Alkemy roll "
    "with bonus dice, e.g. alkemy 8 +1 bonus vs 15"
)


def with_keep_choice(previous: RollResult, first: int, second: int, side: int | None) -> str:
    """The canonical text of ``previous`` (an Alkemy line) with the keep choice on the
    side that has bonus dice (``side``: 1 or 2, else the first side with bonus dice)."""
    body = parse(previous.input).body
    choice = KeepChoice(first, second)

    def chosen(candidate: AlkemySide) -> AlkemySide:
        if candidate.bonus <= candidate.penalty:
            raise RuleError(NO_BONUS_DICE.replace("the last roll", "that side"))
        return replace(candidate, keep=choice)

    match body:
        case AlkemyCheck() if side in (None, 1):
            return str(AlkemyCheck(chosen(body.side), body.difficulty))
        case AlkemyOpposed():
            has_bonus = [s.bonus > s.penalty for s in (body.first, body.second)]
            side = side or (2 if has_bonus == [False, True] else 1)
            if side == 1:
                return str(AlkemyOpposed(chosen(body.first), body.second))
            if side == 2:
                return str(AlkemyOpposed(body.first, chosen(body.second)))
        case AlkemyCheck():
            pass  # a test has one side only
        case _:  # not an Alkemy line
            raise RuleError(NO_BONUS_DICE)
    raise RuleError(f"there is no side {side} in the last roll")


class ReplaySource:
    """The faces of an earlier roll, in order, then (if the new roll needs more, e.g. a
    tie that now needs a re-roll) faces from ``fallback``. Faces left over are dropped:
    they belonged to re-roll rounds that no longer happen."""

    def __init__(self, dice: tuple[DieRoll, ...], fallback: DiceSource) -> None:
        self.faces = [die.face for die in dice]
        self.fallback = fallback
        self.used = 0

    def draw(self, die: Die) -> int:
        if self.used < len(self.faces):
            index = die.face_index(self.faces[self.used])
            self.used += 1
            if index is not None:
                return index
        return self.fallback.draw(die)
