"""Rolling a ``coc`` line (rules C1-C5).

Dice are drawn in the order ``--given`` takes them: a roll with no bonus or penalty
die is one d100 (``--given 45``); with them, the units die first, then the tens dice
(``--given 5,40,10``: units 5, tens 40 and 10). A skill's own dice (``coc 40+d10``)
come before its d100; an opposed roll rolls its first side, then its second.

Rule numbers (C1, C3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    DROPPED,
    DiceShown,
    Die,
    Face,
    Outcome,
    RollResult,
    Text,
    assert_never,
    die_for_sides,
    roll_expression,
)
from dicecli.systems.coc.checks import OpposedRoll, SkillRoll
from dicecli.systems.coc.rules import (
    best_of,
    extra_dice,
    level,
    opposed_winner,
    passes,
    percentile,
)

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, JSONValue, Roller, Segment
    from dicecli.systems.coc.checks import CocCheck

D100 = die_for_sides(100)
UNITS = Die("units d10", tuple(Face(str(n), n) for n in range(10)))
TENS = Die("tens d10", tuple(Face(str(10 * n), 10 * n) for n in range(10)), aliases=((0, "00"),))
"""The tens die: 0, 10 ... 90 (``--given`` takes 00 for 0 too)."""


def roll_check(check: CocCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll any ``coc`` line."""
    match check:
        case SkillRoll():
            return _roll_skill(check, roller, env, text)
        case OpposedRoll():
            return _roll_opposed(check, roller, env, text)
        case _:
            return assert_never(check)


def _side(
    check: SkillRoll, roller: Roller, env: Environment
) -> tuple[int, int, str, list[DieRoll], list[Segment]]:
    """One skill roll: its d100 result, the skill, the level, the dice, the breakdown."""
    skill = roll_expression(check.skill, roller, env)
    count, which = extra_dice(check.bonus, check.penalty)
    if which is None:
        index = roller.draw(D100)
        result = D100.face_values[index]
        dice = [D100.roll_of(index)]
    else:
        units_index = roller.draw(UNITS)
        units = UNITS.face_values[units_index]
        tens_indexes = [roller.draw(TENS) for _ in range(count + 1)]
        tens = tuple(TENS.face_values[i] for i in tens_indexes)
        result = best_of(tens, units, which)
        kept = next(n for n, t in enumerate(tens) if percentile(t, units) == result)
        dice = [
            UNITS.roll_of(units_index),
            *(
                TENS.roll_of(i, kept=n == kept, marks=() if n == kept else (DROPPED,))
                for n, i in enumerate(tens_indexes)
            ),
        ]
    found = level(result, skill.value)
    shown: list[Segment] = [DiceShown(tuple(dice))]
    if which is not None:
        shown.append(Text(f" {result}", "value"))
    shown += [Text(" vs ", "op"), *skill.shown]
    return result, skill.value, found, [*skill.dice, *dice], shown


def _roll_skill(check: SkillRoll, roller: Roller, env: Environment, text: str) -> RollResult:
    result, skill, found, dice, shown = _side(check, roller, env)
    difficulty = check.difficulty or "regular"
    if check.difficulty is not None:
        shown.append(Text(f" ({difficulty})", "label"))
    fields = (("level", found), ("skill", skill), ("difficulty", difficulty))
    passed = passes(found, difficulty)
    said = (
        found
        if passed or found in ("failure", "fumble")
        else f"{found}: the {difficulty} roll fails"
    )
    outcome = Outcome(said, passed, fields)
    return RollResult(text, str(check), result, tuple(dice), tuple(shown), outcome)


def _roll_opposed(check: OpposedRoll, roller: Roller, env: Environment, text: str) -> RollResult:
    first = _side(check.sides[0], roller, env)
    second = _side(check.sides[1], roller, env)
    winner = opposed_winner((first[2], second[2]), (first[1], second[1]))
    said = f"{first[2]} vs {second[2]}: "
    said += "no winner" if winner is None else f"#{winner + 1} wins"
    shown = [*first[4], Text("  |  ", "side"), *second[4]]
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("winner", None if winner is None else winner + 1),
        ("levels", [first[2], second[2]]),
    )
    outcome = Outcome(said, None, fields)
    return RollResult(text, str(check), None, (*first[3], *second[3]), tuple(shown), outcome)
