"""Rolling AGE tests: basic (rules G1-G3, G5-G6), opposed (G4) and advanced (G7).

Every test rolls two ordinary d6 and then the Dragon die, in that order, so with
``--given 2,5,5`` the Dragon die is the last face, 5. The Dragon die is in
:mod:`dicecli.systems.age.dice`.

Assumptions (documented in ``docs/age.md``):

- an opposed test still tied after total, Dragon die and ability is decided by the
  tied sides rolling again (same tie-breaks), at most 20 times (the setting
  ``age.max_rerolls``), then an error; the earlier dice of re-rolled sides stay in the
  result, not kept, marked ``rerolled``;
- in an opposed test the winner's test is the successful one: the winner earns stunt
  points with doubles (rule G6), the other sides none;
- an advanced test stops after 100 rolls (the setting ``age.max_rolls``) and says so:
  the threshold was not reached.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.environment import Environment
from dicecli.errors import RuleError
from dicecli.frozen import frozen
from dicecli.notation.dice import D6
from dicecli.notation.nodes import assert_never
from dicecli.results import (
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
from dicecli.systems.age import ADVANCED_ROLLS, TIE_REROLLS, setting
from dicecli.systems.age.dice import DRAGON, DRAGON_MARK
from dicecli.systems.age.nodes import AgeAdvanced, AgeForm, AgeOpposed, AgeRoll, AgeTest, Target
from dicecli.systems.age.rules import ABILITIES, FOCUS_BONUS

TIEBREAKS = ("total", "dragon", "ability")
"""Rule G4, in order: the higher total, then the higher Dragon die, then the higher
ability. ``reroll`` is reported when only re-rolling decided."""

_PLUS, _MINUS, _SEPARATOR = Text(" + ", "op"), Text(" - ", "op"), Text("; ", "op")
_SIDE = Text("; ", "side")
"""Between two sides of an opposed test (a terminal puts each side on its own line)."""


@frozen
class TestRoll:
    """One roll of one test: its three dice (the Dragon die last) and what it adds up
    to."""

    dice: tuple[DieRoll, DieRoll, DieRoll]
    ability: int
    total: int

    @property
    def dragon(self) -> int:
        return _value(self.dice[2])

    @property
    def doubles(self) -> bool:
        """Rule G6: any two of the three dice show the same number (triples count)."""
        return len({_value(die) for die in self.dice}) < 3


def _value(die: DieRoll) -> int:
    assert die.value is not None
    return die.value


def ability_value(test: AgeTest, env: Environment) -> tuple[int, str | None]:
    """The value the test's ability adds, and a note when it was not set (then 0).

    A value set under the abbreviation (``STR``) or the full name (``Strength``)
    serves; the abbreviation is looked at first.
    """
    if test.ability is None:
        return test.base, None
    names = (test.ability, *ABILITIES[test.ability])
    for name in names:
        value = env.value(name)
        if value is not None:
            return value, None
        if env.roll(name) is not None:
            raise RuleError(f"{name} is a saved roll; an ability needs a number: let {name} = 2")
    return 0, (
        f"{test.ability} is not set: counted as 0 "
        f"(set it with --set {test.ability}=N or let {test.ability} = N)"
    )


def abilities(tests: tuple[AgeTest, ...], env: Environment) -> tuple[list[int], list[str]]:
    """Each test's ability value, and the notes about unset ones (each said once)."""
    values: list[int] = []
    notes: list[str] = []
    for test in tests:
        value, note = ability_value(test, env)
        values.append(value)
        if note is not None and note not in notes:
            notes.append(note)
    return values, notes


def roll_test(roller: Roller, test: AgeTest, ability: int, marks: tuple[str, ...] = ()) -> TestRoll:
    """Roll 3D6, the Dragon die last, and add the ability and the bonus (rule G1)."""
    first = D6.roll_of(roller.draw(D6), True, marks)
    second = D6.roll_of(roller.draw(D6), True, marks)
    dragon = DRAGON.roll_of(roller.draw(DRAGON), True, (DRAGON_MARK, *marks))
    dice = (first, second, dragon)
    return TestRoll(dice, ability, sum(map(_value, dice)) + ability + test.bonus)


def _signed(value: int) -> list[Segment]:
    """`` + 2`` or `` - 1``."""
    return [_MINUS if value < 0 else _PLUS, Text(str(abs(value)), "number")]


def modifier_segments(test: AgeTest, ability: int) -> list[Segment]:
    """`` + STR(2) + 2 + focus(2)``: what the test adds to its dice."""
    segments: list[Segment] = []
    if test.ability is None:
        segments += _signed(test.base)
    else:
        segments += [_PLUS, Text(f"{test.ability}({ability})", "label")]
    for modifier in test.modifiers:
        segments += _signed(modifier)
    if test.focus:
        segments += [_PLUS, Text(f"focus({FOCUS_BONUS})", "label")]
    return segments


def _leading(segments: list[Segment]) -> list[Segment]:
    """Modifier segments standing first on a line: no `` + `` in front, ``-`` kept."""
    head, rest = segments[0], segments[1:]
    return [Text("-", "op"), *rest] if head == _MINUS else rest


def stunt_points(roll: TestRoll, success: bool) -> int:
    """Rule G6: the Dragon die, with doubles on a success; else none."""
    return roll.dragon if success and roll.doubles else 0


# -- basic test -------------------------------------------------------------------


def resolve_roll(check: AgeRoll, roller: Roller, env: Environment, text: str) -> RollResult:
    ability, note = ability_value(check.test, env)
    roll = roll_test(roller, check.test, ability)
    segments: list[Segment] = [DiceShown(roll.dice), *modifier_segments(check.test, ability)]
    notes = (note,) if note else ()
    target = check.target
    if target is None:
        outcome = _unjudged(roll, notes)
    else:
        segments.append(Text(f" vs {target.describe()}", "target"))
        outcome = _judged(roll, target, notes)
    return RollResult(text, str(check), roll.total, roll.dice, tuple(segments), outcome)


def _unjudged(roll: TestRoll, notes: tuple[str, ...]) -> Outcome:
    verdict = f"Dragon die {roll.dragon}" + (", doubles" if roll.doubles else "")
    fields = (("dragon", roll.dragon), ("doubles", roll.doubles))
    return Outcome(verdict, None, fields, notes)


def _judged(roll: TestRoll, target: Target, notes: tuple[str, ...]) -> Outcome:
    """Rules G2, G5, G6: success at or above the target; degree and stunt points."""
    success = roll.total >= target.value
    points = stunt_points(roll, success)
    if success:
        verdict = f"success, degree {roll.dragon}" + (f", {points} SP" if points else "")
    else:
        verdict = f"failure, short by {target.value - roll.total}"
    fields = (
        ("success", success),
        ("target", target.value),
        ("difficulty", target.name),
        ("margin", roll.total - target.value),
        ("dragon", roll.dragon),
        ("doubles", roll.doubles),
        ("degree", roll.dragon if success else None),
        ("stunt_points", points),
    )
    return Outcome(verdict, success, fields, notes)


# -- opposed test -----------------------------------------------------------------


@frozen
class _Entry:
    """One side's roll in one round, and where its dice sit in the result."""

    side: int
    roll: TestRoll
    first_die: int


def _tiebreak_value(roll: TestRoll, tiebreak: str) -> int:
    if tiebreak == "total":
        return roll.total
    return roll.dragon if tiebreak == "dragon" else roll.ability


def decide(entries: list[tuple[int, TestRoll]]) -> tuple[list[int], str]:
    """Rule G4: the sides still in front after each tie-break, and the tie-break that
    left one (``tie`` when none did)."""
    remaining = entries
    for name in TIEBREAKS:
        best = max(_tiebreak_value(roll, name) for _, roll in remaining)
        remaining = [
            (side, roll) for side, roll in remaining if _tiebreak_value(roll, name) == best
        ]
        if len(remaining) == 1:
            return [remaining[0][0]], name
    return [side for side, _ in remaining], "tie"


def resolve_opposed(check: AgeOpposed, roller: Roller, env: Environment, text: str) -> RollResult:
    values, notes = abilities(check.sides, env)
    cap = setting(env, TIE_REROLLS)
    dice: list[DieRoll] = []
    rounds: list[list[_Entry]] = []
    active = list(range(len(check.sides)))
    while True:
        marks = (REROLL,) if rounds else ()
        entries = []
        for side in active:
            roll = roll_test(roller, check.sides[side], values[side], marks)
            entries.append(_Entry(side, roll, len(dice)))
            dice.extend(roll.dice)
        rounds.append(entries)
        leaders, tiebreak = decide([(entry.side, entry.roll) for entry in entries])
        if len(leaders) == 1:
            break
        if len(rounds) > cap:
            raise RuleError(f"the opposed test was still tied after {cap} re-rolls")
        _discard(dice, entries, leaders)
        active = leaders
    winner = leaders[0]
    if len(rounds) > 1:
        tiebreak = "reroll"
        notes.append(
            "a complete tie (total, Dragon die and ability) was re-rolled by the tied sides "
            "(an assumption: the rules do not say)"
        )
    final = {entry.side: entry.roll for entries in rounds for entry in entries}
    segments = _opposed_segments(check, rounds, dice, winner)
    outcome = _opposed_outcome(check, final, winner, tiebreak, len(rounds) - 1, notes)
    return RollResult(text, str(check), final[winner].total, tuple(dice), segments, outcome)


def _discard(dice: list[DieRoll], entries: list[_Entry], tied: list[int]) -> None:
    """The dice of sides that re-roll stay in the result, not kept, marked."""
    for entry in entries:
        if entry.side in tied:
            for position in range(entry.first_die, entry.first_die + 3):
                dice[position] = dice[position].marked(REROLLED, kept=False)


def _opposed_segments(
    check: AgeOpposed, rounds: list[list[_Entry]], dice: list[DieRoll], winner: int
) -> tuple[Segment, ...]:
    segments: list[Segment] = []
    for number, entries in enumerate(rounds):
        if number:
            segments += [_SIDE, Text("tie, re-roll: ", "note")]
        for index, entry in enumerate(entries):
            if index:
                segments.append(_SIDE)
            shown = tuple(dice[entry.first_die : entry.first_die + 3])
            name = check.sides[entry.side].side(entry.side)
            segments += [Text(f"{name} ", "label"), DiceShown(shown)]
            segments += modifier_segments(check.sides[entry.side], entry.roll.ability)
            segments.append(Text(f" = {entry.roll.total}", "value"))
            if number == len(rounds) - 1 and entry.side == winner:
                segments.append(Text(" wins", "success"))
    return tuple(segments)


def _opposed_outcome(
    check: AgeOpposed,
    final: dict[int, TestRoll],
    winner: int,
    tiebreak: str,
    rerolls: int,
    notes: list[str],
) -> Outcome:
    roll = final[winner]
    points = stunt_points(roll, True)
    how = {"total": "on total", "dragon": "on the Dragon die", "ability": "on ability"}
    verdict = f"{check.sides[winner].side(winner)} wins {how.get(tiebreak, 'after a re-roll')}"
    if points:
        verdict += f", {points} SP"
    sides: list[JSONValue] = [
        {"total": r.total, "dragon": r.dragon, "doubles": r.doubles, "ability": r.ability}
        for _, r in sorted(final.items())
    ]
    fields = (
        ("winner", check.sides[winner].name or winner + 1),
        ("tiebreak", tiebreak),
        ("rerolls", rerolls),
        ("dragon", roll.dragon),
        ("doubles", roll.doubles),
        ("degree", roll.dragon),
        ("stunt_points", points),
        ("sides", sides),
    )
    return Outcome(verdict, None, fields, tuple(notes))


# -- advanced test ----------------------------------------------------------------


def refuse_endless(test: AgeTest, ability: int, target: int) -> None:
    """An advanced test whose rolls can never succeed would never end: refuse it."""
    best = 18 + ability + test.bonus
    if best < target:
        raise RuleError(
            f"age {test} can total at most {best}, never {target}: "
            "the advanced test could never end"
        )


def resolve_advanced(check: AgeAdvanced, roller: Roller, env: Environment, text: str) -> RollResult:
    """Rule G7: roll until the Dragon dice of successful rolls reach the threshold."""
    ability, note = ability_value(check.test, env)
    notes = [note] if note else []
    target, threshold = check.target.value, check.threshold.value
    refuse_endless(check.test, ability, target)
    cap = setting(env, ADVANCED_ROLLS)
    segments: list[Segment] = [
        *_leading(modifier_segments(check.test, ability)),
        Text(f" vs {check.target.describe()} until {check.threshold.describe()}: ", "target"),
    ]
    dice: list[DieRoll] = []
    progress = rolls = 0
    while progress < threshold and rolls < cap:
        roll = roll_test(roller, check.test, ability)
        rolls += 1
        dice.extend(roll.dice)
        if rolls > 1:
            segments.append(_SEPARATOR)
        segments += [DiceShown(roll.dice), Text(f" {roll.total}", "value")]
        if roll.total >= target:
            progress += roll.dragon
            segments.append(Text(f" +{roll.dragon} ({progress}/{threshold})", "success"))
        else:
            segments.append(Text(" miss", "failure"))
    reached = progress >= threshold
    if reached:
        verdict = f"reached in {rolls} roll{'s' if rolls > 1 else ''}"
    else:
        verdict = f"not reached in {cap} rolls ({progress} of {threshold})"
        notes.append(f"an advanced test stops after {cap} rolls (setting age.max_rolls)")
    fields = (
        ("success", reached),
        ("target", target),
        ("threshold", threshold),
        ("rolls", rolls),
        ("progress", progress),
    )
    outcome = Outcome(verdict, reached, fields, tuple(notes))
    return RollResult(text, str(check), progress, tuple(dice), tuple(segments), outcome)


def resolve(form: AgeForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an AGE line."""
    match form:
        case AgeRoll():
            return resolve_roll(form, roller, env, text)
        case AgeOpposed():
            return resolve_opposed(form, roller, env, text)
        case AgeAdvanced():
            return resolve_advanced(form, roller, env, text)
        case _:
            return assert_never(form)
