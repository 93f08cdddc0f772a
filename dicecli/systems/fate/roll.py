"""Rolling a ``fate`` line (rules F1-F3): the four Fate dice first, then the skill's own
dice and the difficulty's, as ``--given`` takes them (``--given +,0,-,+``).

Rule numbers (F1, F2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import DiceShown, Die, Face, Outcome, RollResult, Text, roll_expression
from dicecli.systems.fate.checks import Rung
from dicecli.systems.fate.rules import FATE_DICE, outcome, rung

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, Expr, JSONValue, Roller, Segment
    from dicecli.systems.fate.checks import FateCheck

FATE_DIE = Die(
    "dF",
    (Face("-", -1), Face("0", 0), Face("+", 1)),
    aliases=((0, "-1"), (1, "blank"), (2, "1"), (2, "+1")),
)
"""A Fate die: minus, blank and plus, one face each (rule F1)."""


def part_value(
    part: Expr | Rung, roller: Roller, env: Environment
) -> tuple[int, list[DieRoll], list[Segment]]:
    """A skill or a difficulty: a rung of the ladder, or an expression rolled."""
    if isinstance(part, Rung):
        return part.value, [], [Text(rung(part.value), "label")]
    rolled = roll_expression(part, roller, env)
    return rolled.value, list(rolled.dice), list(rolled.shown)


def roll_check(check: FateCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a ``fate`` line."""
    dice = [roller.roll(FATE_DIE) for _ in range(FATE_DICE)]
    shown: list[Segment] = [DiceShown(tuple(dice))]
    total = sum(die.value or 0 for die in dice)
    rolled = list(dice)
    if check.skill is not None:
        skill, skill_dice, skill_shown = part_value(check.skill, roller, env)
        total += skill
        rolled += skill_dice
        if skill_shown[:1] == [Text("-", "op")]:
            shown += [Text(" - ", "op"), *skill_shown[1:]]
        else:
            shown += [Text(" + ", "op"), *skill_shown]
    fields: list[tuple[str, JSONValue]] = [("ladder", rung(total))]
    if check.difficulty is None:
        said = rung(total)
        result = Outcome(said, None, tuple(fields))
    else:
        difficulty, difficulty_dice, difficulty_shown = part_value(check.difficulty, roller, env)
        rolled += difficulty_dice
        shown += [Text(" vs ", "op"), *difficulty_shown]
        shifts = total - difficulty
        found = outcome(shifts)
        passed = None if found == "tie" else found != "fail"
        size = f"{abs(shifts)} shift{'s' if abs(shifts) != 1 else ''}"
        said = f"{found} ({rung(total)}, {size}{' short' if shifts < 0 else ''})"
        fields += [("outcome", found), ("shifts", shifts)]
        result = Outcome(said, passed, tuple(fields))
    return RollResult(text, str(check), total, tuple(rolled), tuple(shown), result)
