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

from collections.abc import Callable, Sequence
from functools import lru_cache, partial

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
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
from dicecli.rolling.games import CheckStep
from dicecli.rolling.sources import Roller
from dicecli.systems.age.dice import DRAGON, DRAGON_MARK
from dicecli.systems.age.nodes import AgeAdvanced, AgeForm, AgeOpposed, AgeRoll, AgeTest
from dicecli.systems.age.rules import ABILITIES, FOCUS_BONUS
from dicecli.systems.age.settings import ADVANCED_ROLLS, TIE_REROLLS, setting

TIEBREAKS = ("total", "dragon", "ability")
"""Rule G4, in order: the higher total, then the higher Dragon die, then the higher
ability (each the name of a :class:`TestRoll` field). ``reroll`` is reported when only
re-rolling decided."""

_PLUS, _MINUS, _SEPARATOR = Text(" + ", "op"), Text(" - ", "op"), Text("; ", "op")
_SIDE = Text("; ", "side")
"""Between two sides of an opposed test (a terminal puts each side on its own line)."""
_WINS = Text(" wins", "success")


@frozen
class TestRoll:
    """One roll of one test: its three dice (the Dragon die last), what it adds up to,
    the Dragon die's number and whether any two dice show the same number (rule G6,
    triples count)."""

    dice: tuple[DieRoll, DieRoll, DieRoll]
    ability: int
    total: int
    dragon: int
    doubles: bool


def ability_value(test: AgeTest, env: Environment) -> tuple[int, str | None]:
    """The value the test's ability adds, and a note when it was not set (then 0); an
    error when a character file is loaded, whose sheet was meant to hold it.

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
    if env.character is not None:  # the sheet was meant to hold it
        raise RuleError(
            f"{test.ability} is not set for {env.character} (add it to the sheet's "
            f"[stats], or --set {test.ability}=N)"
        )
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


@lru_cache(maxsize=4)
def _rolls_marked(marks: tuple[str, ...]) -> tuple[tuple[DieRoll, ...], tuple[DieRoll, ...]]:
    """Each face's roll of an ordinary d6 and of the Dragon die, with ``marks``: made
    once for each (a test rolls with none, a re-roll with ``reroll``)."""
    faces = range(len(D6.faces))
    return (
        tuple(D6.roll_of(index, True, marks) for index in faces),
        tuple(DRAGON.roll_of(index, True, (DRAGON_MARK, *marks)) for index in faces),
    )


def roll_test(roller: Roller, modifier: int, ability: int, marks: tuple[str, ...] = ()) -> TestRoll:
    """Roll 3D6, the Dragon die last, and add the ability and the test's ``modifier``
    (its :attr:`~dicecli.systems.age.nodes.AgeTest.bonus`), rule G1."""
    draw = roller.draw
    first, second, dragon = draw(D6), draw(D6), draw(DRAGON)
    values = D6.face_values
    a, b, c = values[first], values[second], DRAGON.face_values[dragon]
    plain, dragons = _rolls_marked(marks)
    dice = (plain[first], plain[second], dragons[dragon])
    return TestRoll(dice, ability, a + b + c + ability + modifier, c, a == b or c in (a, b))


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


Ability = tuple[int, str | None, tuple[Segment, ...]]
"""A test's ability value, the note when it was not set, and what the test adds to its
dice as shown (:func:`modifier_segments`)."""


def _ability_of(test: AgeTest) -> Callable[[Environment], Ability]:
    """How a test finds its ability on a roll: once, when a number was typed in its
    place (``age 3 vs 13``), else in the roll's environment."""

    def ability_of(env: Environment) -> Ability:
        ability, note = ability_value(test, env)
        return ability, note, tuple(modifier_segments(test, ability))

    if test.ability is not None:
        return ability_of
    fixed = ability_of(EMPTY_ENVIRONMENT)

    def typed(env: Environment) -> Ability:
        return fixed

    return typed


def prepare_roll(check: AgeRoll, canonical: str) -> CheckStep:
    """A basic test made ready to roll: its target's text, and its modifiers when its
    ability is a number, worked out once."""
    test, target = check.test, check.target
    ability_of = _ability_of(test)
    modifier = test.bonus
    against = () if target is None else (Text(f" vs {target.describe()}", "target"),)

    def basic(roller: Roller, env: Environment, text: str) -> RollResult:
        ability, note, modifiers = ability_of(env)
        roll = roll_test(roller, modifier, ability)
        notes = (note,) if note else ()
        if target is None:
            outcome = _unjudged(roll, notes)
        else:
            outcome = _judged(
                roll.total, roll.dragon, roll.doubles, target.value, target.name, notes
            )
        segments = (DiceShown(roll.dice), *modifiers, *against)
        return RollResult(text, canonical, roll.total, roll.dice, segments, outcome)

    return basic


def _unjudged(roll: TestRoll, notes: tuple[str, ...]) -> Outcome:
    verdict = f"Dragon die {roll.dragon}" + (", doubles" if roll.doubles else "")
    fields = (("dragon", roll.dragon), ("doubles", roll.doubles))
    return Outcome(verdict, None, fields, notes)


@lru_cache(maxsize=1024)
def _judged(
    total: int,
    dragon: int,
    doubles: bool,
    target: int,
    difficulty: str | None,
    notes: tuple[str, ...],
) -> Outcome:
    """Rules G2, G5, G6: success at or above the target; degree and stunt points. A
    value made from these alone, so made once for the same ones."""
    success = total >= target
    points = dragon if success and doubles else 0  # rule G6, as stunt_points
    if success:
        verdict = f"success, degree {dragon}" + (f", {points} SP" if points else "")
    else:
        verdict = f"failure, short by {target - total}"
    fields = (
        ("success", success),
        ("target", target),
        ("difficulty", difficulty),
        ("margin", total - target),
        ("dragon", dragon),
        ("doubles", doubles),
        ("degree", dragon if success else None),
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


def decide(entries: list[_Entry]) -> tuple[list[int], str]:
    """Rule G4: the sides still in front after each tie-break, and the tie-break that
    left one (``tie`` when none did)."""
    remaining = entries
    for name in TIEBREAKS:
        values = [getattr(entry.roll, name) for entry in remaining]
        best = max(values)
        if values.count(best) == 1:
            return [remaining[values.index(best)].side], name
        remaining = [entry for entry, value in zip(remaining, values, strict=True) if value == best]
    return [entry.side for entry in remaining], "tie"


@frozen
class _Sides:
    """The sides of an opposed test, made ready once: how each finds its ability, what
    each adds to its dice, how each is named in the breakdown and in the verdict, and
    who each is in the JSON ``winner`` field."""

    ability_of: tuple[Callable[[Environment], Ability], ...]
    modifiers: tuple[int, ...]
    labels: tuple[Text, ...]
    names: tuple[str, ...]
    identities: tuple[str | int, ...]


def prepare_opposed(check: AgeOpposed, canonical: str) -> CheckStep:
    tests = check.sides
    names = tuple(test.side(index) for index, test in enumerate(tests))
    sides = _Sides(
        tuple(_ability_of(test) for test in tests),
        tuple(test.bonus for test in tests),
        tuple(Text(f"{name} ", "label") for name in names),
        names,
        tuple(test.name or index + 1 for index, test in enumerate(tests)),
    )
    return partial(resolve_opposed, canonical, sides)


_REROLLED_NOTE = (
    "a complete tie (total, Dragon die and ability) was re-rolled by the tied sides "
    "(an assumption: the rules do not say)"
)


def resolve_opposed(
    canonical: str, sides: _Sides, roller: Roller, env: Environment, text: str
) -> RollResult:
    found = [ability_of(env) for ability_of in sides.ability_of]
    notes: list[str] = []
    for _, note, _ in found:
        if note is not None and note not in notes:
            notes.append(note)
    cap = setting(env, TIE_REROLLS)
    modifiers = sides.modifiers
    dice: list[DieRoll] = []
    rounds: list[list[_Entry]] = []
    active: Sequence[int] = range(len(found))
    marks: tuple[str, ...] = ()
    while True:
        entries = []
        for side in active:
            roll = roll_test(roller, modifiers[side], found[side][0], marks)
            entries.append(_Entry(side, roll, len(dice)))
            dice += roll.dice
        rounds.append(entries)
        leaders, tiebreak = decide(entries)
        if len(leaders) == 1:
            break
        if len(rounds) > cap:
            raise RuleError(f"the opposed test was still tied after {cap} re-rolls")
        _discard(dice, entries, leaders)
        active = leaders
        marks = (REROLL,)
    winner = leaders[0]
    if len(rounds) > 1:
        tiebreak = "reroll"
        notes.append(_REROLLED_NOTE)
    final = {entry.side: entry.roll for entries in rounds for entry in entries}
    shown = [modifiers for _, _, modifiers in found]
    segments = _opposed_segments(sides.labels, shown, rounds, dice, winner)
    outcome = _opposed_outcome(sides, final, winner, tiebreak, len(rounds) - 1, notes)
    return RollResult(text, canonical, final[winner].total, tuple(dice), segments, outcome)


def _discard(dice: list[DieRoll], entries: list[_Entry], tied: list[int]) -> None:
    """The dice of sides that re-roll stay in the result, not kept, marked."""
    for entry in entries:
        if entry.side in tied:
            for position in range(entry.first_die, entry.first_die + 3):
                dice[position] = dice[position].marked(REROLLED, kept=False)


def _opposed_segments(
    labels: tuple[Text, ...],
    modifiers: list[tuple[Segment, ...]],
    rounds: list[list[_Entry]],
    dice: list[DieRoll],
    winner: int,
) -> tuple[Segment, ...]:
    segments: list[Segment] = []
    last = len(rounds) - 1
    for number, entries in enumerate(rounds):
        if number:
            segments += [_SIDE, Text("tie, re-roll: ", "note")]
        for index, entry in enumerate(entries):
            if index:
                segments.append(_SIDE)
            side, first = entry.side, entry.first_die
            shown = DiceShown(tuple(dice[first : first + 3]))
            segments += (labels[side], shown, *modifiers[side], _equals(entry.roll.total))
            if number == last and side == winner:
                segments.append(_WINS)
    return tuple(segments)


@lru_cache(maxsize=256)
def _equals(total: int) -> Text:
    """`` = 13`` after a side's dice: one shared value per total."""
    return Text(f" = {total}", "value")


_HOW = {"total": "on total", "dragon": "on the Dragon die", "ability": "on ability"}
"""How the verdict of an opposed test says which tie-break decided it."""


def _opposed_outcome(
    sides: _Sides,
    final: dict[int, TestRoll],
    winner: int,
    tiebreak: str,
    rerolls: int,
    notes: list[str],
) -> Outcome:
    roll = final[winner]
    points = stunt_points(roll, True)
    verdict = f"{sides.names[winner]} wins {_HOW.get(tiebreak, 'after a re-roll')}"
    if points:
        verdict += f", {points} SP"
    each: list[JSONValue] = [
        {"total": r.total, "dragon": r.dragon, "doubles": r.doubles, "ability": r.ability}
        for _, r in sorted(final.items())
    ]
    fields = (
        ("winner", sides.identities[winner]),
        ("tiebreak", tiebreak),
        ("rerolls", rerolls),
        ("dragon", roll.dragon),
        ("doubles", roll.doubles),
        ("degree", roll.dragon),
        ("stunt_points", points),
        ("sides", each),
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


def resolve_advanced(
    check: AgeAdvanced, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
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
        roll = roll_test(roller, check.test.bonus, ability)
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
    return RollResult(text, canonical, progress, tuple(dice), tuple(segments), outcome)


def prepare_step(form: AgeForm) -> CheckStep:
    """``form`` made ready to roll (:data:`~dicecli.rolling.games.CheckStep`): its
    canonical text worked out once, and a basic test's fixed breakdown."""
    canonical = str(form)
    match form:
        case AgeRoll():
            return prepare_roll(form, canonical)
        case AgeOpposed():
            return prepare_opposed(form, canonical)
        case AgeAdvanced():
            return partial(resolve_advanced, form, canonical)
        case _:
            return assert_never(form)


def resolve(form: AgeForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll an AGE line."""
    return prepare_step(form)(roller, env, text)
