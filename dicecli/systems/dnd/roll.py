"""Rolling a ``dnd`` line: checks and dice in, a result out (rules D1-D7).

Dice are drawn in the order ``--given`` takes them: the d20 (two with advantage or
disadvantage), then the modifier's dice, then the target's; damage dice term by term
(doubled on a critical hit); ability scores four dice at a time.

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicecli.game import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    DROPPED,
    DiceShown,
    Outcome,
    RollResult,
    RuleError,
    Text,
    assert_never,
    die_for_sides,
    roll_expression,
)
from dicecli.systems.dnd.checks import D20Roll, DamageRoll, StatsRoll
from dicecli.systems.dnd.rules import (
    D20_SIDES,
    STAT_COUNT,
    STAT_DICE,
    attack_verdict,
    check_verdict,
    death_verdict,
    edge,
    stat_score,
)

if TYPE_CHECKING:
    from dicecli.game import DieRoll, Environment, Expr, JSONValue, Roller, Segment
    from dicecli.systems.dnd.checks import DndCheck

D20 = die_for_sides(D20_SIDES)
D6 = die_for_sides(6)


def modifier_shown(shown: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """A modifier after dice: ``[17] + 5``, and ``[17] - 1`` rather than ``+ -1``."""
    match shown:
        case (Text(text="-", role="op"), *rest):
            return (Text(" - ", "op"), *rest)
        case _:
            return (Text(" + ", "op"), *shown)


def roll_check(check: DndCheck, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll any ``dnd`` line."""
    match check:
        case D20Roll():
            return _roll_d20(check, roller, env, text)
        case DamageRoll():
            return _roll_damage(check, roller, env, text)
        case StatsRoll():
            return _roll_stats(check, roller, text)
        case _:
            return assert_never(check)


def _natural_marks(natural: int) -> tuple[str, ...]:
    """The kept d20's mark: a natural 20 or 1, as any lone d20's (docs/output.md)."""
    if natural == D20_SIDES:
        return (CRITICAL_SUCCESS,)
    return (CRITICAL_FAILURE,) if natural == 1 else ()


def _roll_d20(check: D20Roll, roller: Roller, env: Environment, text: str) -> RollResult:
    which = edge(check.advantage, check.disadvantage)
    first = roller.draw(D20)
    second = roller.draw(D20) if which is not None else None
    a = D20.face_values[first]
    b = D20.face_values[second] if second is not None else None
    natural = a if b is None else (max(a, b) if which == "advantage" else min(a, b))
    marks = _natural_marks(natural)
    if second is None or b is None:
        d20s: tuple[DieRoll, ...] = (D20.roll_of(first, marks=marks),)
    else:
        keep_first = a == natural  # the first of two equal faces is the one kept
        d20s = (
            D20.roll_of(first, kept=keep_first, marks=marks if keep_first else (DROPPED,)),
            D20.roll_of(second, kept=not keep_first, marks=(DROPPED,) if keep_first else marks),
        )
    dice = list(d20s)
    shown: list[Segment] = [DiceShown(d20s)]
    total = natural
    if check.modifier is not None:
        modifier = roll_expression(check.modifier, roller, env)
        total += modifier.value
        dice += modifier.dice
        shown += modifier_shown(modifier.shown)
    target: int | None = None
    if check.target is not None:
        rolled = roll_expression(check.target, roller, env)
        target = rolled.value
        dice += rolled.dice
        shown += [Text(" vs ", "op"), Text(f"{check.target_name} ", "label"), *rolled.shown]
    fields: list[tuple[str, JSONValue]] = [("natural", natural), ("edge", which)]
    if check.kind == "attack":
        verdict, passed = attack_verdict(natural, total, target)
        fields.append(("critical", verdict == "critical hit"))
    elif check.kind == "death":
        verdict, passed = death_verdict(natural, total)
    elif target is not None:
        verdict, passed = check_verdict(total, target)
    else:
        verdict, passed = "", None
    if target is not None:
        fields.append(("margin", total - target))
    outcome = None if not verdict else Outcome(verdict, passed, tuple(fields))
    return RollResult(text, str(check), total, tuple(dice), tuple(shown), outcome)


def _constant_modifier(expr: Expr, roller: Roller, env: Environment) -> tuple[int, list[Segment]]:
    rolled = roll_expression(expr, roller, env)
    if rolled.dice:
        raise RuleError(no_dice_in_damage_modifier())
    return rolled.value, list(modifier_shown(rolled.shown))


def no_dice_in_damage_modifier() -> str:
    """Why dice in a damage modifier are refused (rule D5)."""
    return (
        "write every damage die before the modifier (dnd damage 2d6 + 1d8 +3): "
        "a critical hit doubles the dice and not the modifier (rule D5)"
    )


def _roll_damage(check: DamageRoll, roller: Roller, env: Environment, text: str) -> RollResult:
    times = 2 if check.critical else 1
    dice: list[DieRoll] = []
    shown: list[Segment] = []
    total = 0
    for count, sides in check.dice:
        die = die_for_sides(sides)
        rolled = tuple(roller.roll(die) for _ in range(count * times))
        total += sum(d.value or 0 for d in rolled)
        if shown:
            shown.append(Text(" + ", "op"))
        shown.append(DiceShown(rolled))
        dice += rolled
    if check.modifier is not None:
        value, segments = _constant_modifier(check.modifier, roller, env)
        total += value
        shown += segments
    outcome = None
    if check.critical:
        outcome = Outcome("critical hit: damage dice doubled", None, (("critical", True),))
    return RollResult(text, str(check), total, tuple(dice), tuple(shown), outcome)


def _roll_stats(check: StatsRoll, roller: Roller, text: str) -> RollResult:
    dice: list[DieRoll] = []
    shown: list[Segment] = []
    scores: list[int] = []
    for _ in range(STAT_COUNT):
        indexes = [roller.draw(D6) for _ in range(STAT_DICE)]
        score, dropped = stat_score(tuple(D6.face_values[i] for i in indexes))
        rolled = tuple(
            D6.roll_of(i, kept=n != dropped, marks=(DROPPED,) if n == dropped else ())
            for n, i in enumerate(indexes)
        )
        if shown:
            shown.append(Text(", ", "plain"))
        shown += [DiceShown(rolled), Text(f" {score}", "value")]
        dice += rolled
        scores.append(score)
    verdict = "ability scores " + ", ".join(map(str, sorted(scores, reverse=True)))
    outcome = Outcome(verdict, None, (("scores", list(scores)),))
    return RollResult(text, str(check), sum(scores), tuple(dice), tuple(shown), outcome)
