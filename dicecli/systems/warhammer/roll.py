"""Rolling the Warhammer forms: dice from the :class:`~dicecli.rolling.sources.Roller`, rules from
:mod:`~dicecli.systems.warhammer.rules`, and a :class:`~dicecli.results.RollResult` that
shows every die (re-rolled and ignored ones with ``kept=False``).

Each ``resolve_*`` function handles one node type; :func:`resolve` picks it.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache, lru_cache, partial
from typing import TypeVar

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import RuleError
from dicecli.frozen import frozen, replace
from dicecli.identity_cache import IdentityCache
from dicecli.notation.dice import D6
from dicecli.notation.nodes import Expr, Number, assert_never
from dicecli.results import (
    IGNORED,
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
from dicecli.systems.warhammer.dice import (
    SCATTER,
    is_misfire_face,
    scatter_bearing,
    scatter_is_hit,
)
from dicecli.systems.warhammer.expressions import (
    FixedValue,
    WarhammerEvaluation,
    fixed_value,
    needs_parentheses,
)
from dicecli.systems.warhammer.nodes import (
    Allocate,
    BreakTest,
    CharacteristicTest,
    Contenders,
    LeadershipTest,
    RollOff,
    ScatterRoll,
    WarhammerForm,
    WarhammerRoll,
)
from dicecli.systems.warhammer.rules import (
    AllocationPlan,
    Verdict,
    characteristic_verdict,
    leaders,
    leadership_verdict,
)
from dicecli.systems.warhammer.settings import misfire_on_hit

_SEPARATOR = Text("; ", "op")
T = TypeVar("T")


def _result(
    text: str,
    canonical: str,
    total: int | None,
    dice: list[DieRoll],
    breakdown: list[Segment],
    outcome: Outcome | None,
) -> RollResult:
    return RollResult(text, canonical, total, tuple(dice), tuple(breakdown), outcome)


# ----------------------------------------------------------------- expressions (W1, N3)


_MISFIRE = Outcome("MISFIRE", None, (("misfire", True),))
_NO_MISFIRE = Outcome("no misfire", None, (("misfire", False),), quiet=True)


def resolve_expression(
    check: WarhammerRoll, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
    evaluation = WarhammerEvaluation(roller, env)
    total: int | None = evaluation.value(check.expr)
    outcome = None
    if evaluation.misfired:
        total = None  # the die itself shows MISFIRE (marked), and so does the verdict
        outcome = _MISFIRE
    elif evaluation.artillery_rolled:
        outcome = _NO_MISFIRE
    return RollResult(text, canonical, total, evaluation.dice, evaluation.segments, outcome)


# ----------------------------------------------------------------------- scatter (W2, W3)


def _ignored(roll: DieRoll) -> DieRoll:
    """A distance die on a HIT: rolled, but it does not count (rule W3)."""
    return roll.marked(IGNORED, kept=False)


def _ignored_but_a_misfire(roll: DieRoll) -> DieRoll:
    """A distance die on a HIT when a MISFIRE still counts (the default assumption):
    the MISFIRE stays as rolled, every other die is ignored."""
    return roll if is_misfire_face(roll.die, roll.face) else _ignored(roll)


_IGNORED_ON_HIT = (IdentityCache(_ignored), IdentityCache(_ignored_but_a_misfire))
"""The distance dice on a HIT, by whether a MISFIRE counts (the setting
``warhammer.misfire_on_hit``), made once per die as rolled: dice are shared values (one
per face and marks, :meth:`~dicecli.notation.dice.Die.roll_of`), so their twins on a
HIT can be too, and their text is then found by identity when rendered."""


@frozen
class _Distance:
    """The distance dice of a scatter as rolled, ignored on a HIT (rule W3)."""

    value: int
    misfired: bool
    artillery: bool
    dice: tuple[DieRoll, ...]
    segments: tuple[Segment, ...]


def _roll_distance(distance: Expr, hit: bool, roller: Roller, env: Environment) -> _Distance:
    evaluation = WarhammerEvaluation(roller, env)
    value = evaluation.value(distance)
    misfired, artillery = evaluation.misfired, evaluation.artillery_rolled
    if not hit:
        return _Distance(value, misfired, artillery, evaluation.dice, evaluation.segments)
    counts_misfire = misfire_on_hit(env)
    on_hit = _IGNORED_ON_HIT[counts_misfire].many
    segments = [
        DiceShown(tuple(on_hit(segment.dice))) if isinstance(segment, DiceShown) else segment
        for segment in evaluation.segments
    ]
    dice = on_hit(evaluation.dice)
    return _Distance(value, misfired and counts_misfire, artillery, tuple(dice), tuple(segments))


@frozen
class _ScatterFace:
    """What a face of the scatter die shows and says (rule W2), worked out once per
    face: its roll, HIT or not, its bearing described, the JSON fields it gives, the
    outcome of a scatter without distance, and the note of a HIT."""

    roll: DieRoll
    shown: DiceShown
    hit: bool
    bearing: str
    fields: tuple[tuple[str, JSONValue], ...]
    alone: Outcome
    hit_notes: tuple[str, ...]


@cache  # one entry per face of the scatter die
def _scatter_face(index: int) -> _ScatterFace:
    bearing = scatter_bearing(index)
    hit = scatter_is_hit(index)
    roll = SCATTER.roll_of(index, True, ("hit",) if hit else ())
    described = bearing.describe()
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("hit", hit),
        ("bearing", bearing.degrees),
        ("clock", bearing.clock),
    )
    verdict = f"HIT (small arrow {described})" if hit else described
    notes = (f"the HIT's small arrow points {described}",)
    return _ScatterFace(
        roll, DiceShown((roll,)), hit, described, fields, Outcome(verdict, None, fields), notes
    )


@lru_cache(maxsize=1024)
def _landing(
    index: int, distance: int, misfired: bool, artillery: bool
) -> tuple[int | None, Outcome]:
    """Where the scattered object ends (rule W3), in inches (None on a misfire), and
    the outcome saying so, from scatter face ``index`` and the ``distance`` rolled
    (``artillery``: an artillery die was among the distance dice): a value made from
    these alone, so made once for each."""
    face = _scatter_face(index)
    notes: tuple[str, ...] = ()
    total: int | None
    if misfired:
        total, verdict = None, "MISFIRE"
    elif face.hit:
        total, verdict, notes = 0, "HIT: does not move", face.hit_notes
    else:
        total = max(distance, 0)
        verdict = f'moves {total}" towards {face.bearing}'
        if distance < 0:
            notes = (f"the distance rolled ({distance}) is below 0: it does not move",)
    fields = face.fields
    if artillery:
        fields = (*fields, ("misfire", misfired))
    return total, Outcome(verdict, None, (*fields, ("distance", total)), notes)


_SPACE = Text(" ", "op")


def resolve_scatter(
    check: ScatterRoll, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
    index = roller.draw(SCATTER)
    face = _scatter_face(index)
    if check.distance is None:
        return RollResult(text, canonical, None, (face.roll,), (face.shown,), face.alone)
    distance = _roll_distance(check.distance, face.hit, roller, env)
    total, outcome = _landing(index, distance.value, distance.misfired, distance.artillery)
    dice = (face.roll, *distance.dice)
    segments = (face.shown, _SPACE, *distance.segments)
    return RollResult(text, canonical, total, dice, segments, outcome)


# ----------------------------------------------------------------- tests (W8, W9, W10)


def _target_segments(label: str, value: FixedValue) -> tuple[Segment, ...]:
    if value.plain:
        return (Text(label, "label"), Text(str(value.value), "target"), Text(": ", "op"))
    return (
        Text(label, "label"),
        *value.segments,
        Text(" = ", "op"),
        Text(str(value.value), "target"),
        Text(": ", "op"),
    )


Target = tuple[int, tuple[Segment, ...]]
"""A test's target and the breakdown ahead of its dice (``Ld 8: ``)."""


def _typed_as_numbers(exprs: Sequence[Expr]) -> bool:
    """True when every value is a number as typed (``ld 8``): the same on every roll."""
    return all(type(expr) is Number for expr in exprs)


def _constant(value: T) -> Callable[[Environment], T]:
    """A look-up that needs no environment: the value worked out once."""

    def constant(env: Environment) -> T:
        return value

    return constant


def _target_of(label: str, exprs: tuple[Expr, ...], what: str) -> Callable[[Environment], Target]:
    """How a test finds its target on a roll: worked out once when its values are typed
    as numbers, else in the roll's environment (named values)."""

    def target(env: Environment) -> Target:
        value = fixed_value(exprs, env, what)
        return value.value, _target_segments(label, value)

    return _constant(target(EMPTY_ENVIRONMENT)) if _typed_as_numbers(exprs) else target


def _test_outcome(verdict: Verdict, target: int, natural: int) -> Outcome:
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("success", verdict.passed),
        ("target", target),
        ("natural", natural),
    )
    word = "pass" if verdict.passed else "fail"
    return Outcome(f"{word} ({verdict.reason})", verdict.passed, fields)


@lru_cache(maxsize=1024)
def _characteristic_outcome(natural: int, target: int) -> Outcome:
    """A characteristic test's outcome (rule W8): the same value for the same numbers,
    so made once."""
    return _test_outcome(characteristic_verdict(natural, target), target, natural)


@lru_cache(maxsize=1024)
def _leadership_outcome(first: int, second: int, target: int) -> Outcome:
    """A Leadership test's outcome (rules W9, W10): made once for the same numbers."""
    return _test_outcome(leadership_verdict(first, second, target), target, first + second)


def prepare_test(check: CharacteristicTest, canonical: str) -> CheckStep:
    target_of = _target_of("test ", check.values, "a characteristic")

    def test(roller: Roller, env: Environment, text: str) -> RollResult:
        target, shown = target_of(env)
        die = roller.roll(D6)
        natural = die.value
        assert natural is not None
        outcome = _characteristic_outcome(natural, target)
        return RollResult(text, canonical, natural, (die,), (*shown, DiceShown((die,))), outcome)

    return test


def _two_d6(roller: Roller) -> tuple[DieRoll, DieRoll, int, int]:
    """Two D6 rolled (rules W9, W10), and their numbers."""
    first, second = roller.draw_many(D6, 2)
    rolls, values = D6.kept_rolls, D6.face_values
    return rolls[first], rolls[second], values[first], values[second]


def prepare_leadership(check: LeadershipTest, canonical: str) -> CheckStep:
    target_of = _target_of("Ld ", check.values, "a Leadership value")

    def leadership(roller: Roller, env: Environment, text: str) -> RollResult:
        target, shown = target_of(env)
        first, second, a, b = _two_d6(roller)
        outcome = _leadership_outcome(a, b, target)
        dice = (first, second)
        return RollResult(text, canonical, a + b, dice, (*shown, DiceShown(dice)), outcome)

    return leadership


def _wrapped(value: FixedValue, wrap: bool) -> list[Segment]:
    if value.plain:
        return [Text(str(value.value), "value")]
    if wrap:
        return [Text("(", "op"), *value.segments, Text(")", "op")]
    return list(value.segments)


BreakTarget = tuple[int, int, int, tuple[Segment, ...]]
"""A break test's Leadership, combat result, target, and the breakdown ahead of the
dice."""


@lru_cache(maxsize=1024)
def _break_outcome(first: int, second: int, target: int, leadership: int, lost_by: int) -> Outcome:
    """A Break test's outcome (rule W10): a Leadership test's, with the Leadership and
    the combat result it was taken with; made once for the same numbers."""
    outcome = _leadership_outcome(first, second, target)
    fields = (*outcome.fields, ("leadership", leadership), ("lost_by", lost_by))
    return replace(outcome, fields=fields)


def prepare_break(check: BreakTest, canonical: str) -> CheckStep:
    values, lost = check.values, (check.lost_by,)

    def target_of(env: Environment) -> BreakTarget:
        leadership = fixed_value(values, env, "a Leadership value")
        lost_by = fixed_value(lost, env, "a combat result")
        if lost_by.value < 0:
            raise RuleError(f"a combat result lost by {lost_by.value}? give 0 or more")
        target = leadership.value - lost_by.value
        shown = (
            # a named Leadership shows its name (``Ld(9)``): "Ld" is said once
            Text("break test: Ld " if leadership.plain else "break test: ", "label"),
            *_wrapped(leadership, needs_parentheses(values)),
            Text(" - ", "op"),
            *_wrapped(lost_by, needs_parentheses(lost)),
            Text(" = ", "op"),
            Text(str(target), "target"),
            Text(": ", "op"),
        )
        return leadership.value, lost_by.value, target, shown

    find: Callable[[Environment], BreakTarget] = target_of
    if _typed_as_numbers((*values, *lost)) and fixed_value(lost, EMPTY_ENVIRONMENT, "").value >= 0:
        find = _constant(target_of(EMPTY_ENVIRONMENT))

    def break_test(roller: Roller, env: Environment, text: str) -> RollResult:
        leadership, lost_by, target, shown = find(env)
        first, second, a, b = _two_d6(roller)
        outcome = _break_outcome(a, b, target, leadership, lost_by)
        dice = (first, second)
        return RollResult(text, canonical, a + b, dice, (*shown, DiceShown(dice)), outcome)

    return break_test


# ------------------------------------------------------------------------ roll-off (W6)


def _player_label(players: Contenders, index: int) -> str:
    return players.names[index] if players.names else f"player {index + 1}"


def _rolloff_round(
    roller: Roller, players: Contenders, active: list[int], again: bool
) -> tuple[list[int], list[DieRoll], list[Segment]]:
    """One round of rule W6 among ``active`` players: the players still highest, and the
    round's dice and breakdown (tied dice marked re-rolled when there is a tie)."""
    marks = (REROLL,) if again else ()
    rolls = [D6.roll_of(roller.draw(D6), True, marks) for _ in active]
    highest = [active[i] for i in leaders([roll.value or 0 for roll in rolls])]
    tied = len(highest) > 1
    dice: list[DieRoll] = []
    segments: list[Segment] = []
    for position, (player, roll) in enumerate(zip(active, rolls, strict=True)):
        if tied and player in highest:
            roll = roll.marked(REROLLED, kept=False)
        dice.append(roll)
        if position:
            segments.append(Text(", ", "side"))
        segments += [Text(f"{_player_label(players, player)} ", "label"), DiceShown((roll,))]
    return highest, dice, segments


def resolve_rolloff(
    check: RollOff, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
    players = check.players
    active = list(range(players.count))
    dice: list[DieRoll] = []
    segments: list[Segment] = []
    rounds = 0
    while len(active) > 1:
        if rounds:
            segments += [Text("; ", "side"), Text("tie, re-roll: ", "note")]
        active, round_dice, round_segments = _rolloff_round(roller, players, active, rounds > 0)
        dice += round_dice
        segments += round_segments
        rounds += 1
    winner = active[0]
    label = _player_label(players, winner)
    after = f" after {rounds} rounds" if rounds > 1 else ""
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("winner", players.identity(winner)),
        ("rounds", rounds),
    )
    outcome = Outcome(f"{label} wins{after}", None, fields)
    return _result(text, canonical, winner + 1, dice, segments, outcome)


# ---------------------------------------------------------------------- allocation (W7)


def _candidate_label(candidates: Contenders, number: int) -> str:
    return candidates.names[number - 1] if candidates.names else f"candidate {number}"


def _allocate_one(
    plan: AllocationPlan, roller: Roller
) -> tuple[int, list[DieRoll], list[Segment], int]:
    """One item handed out (rule W7): the chosen candidate's number, the dice, the
    breakdown and the rounds rolled."""
    dice: list[DieRoll] = []
    segments: list[Segment] = []
    chosen: int | None = 1 if plan.dice == 0 else None
    rounds = 0
    while chosen is None:
        marks = (REROLL,) if rounds else ()
        rolls = [D6.roll_of(roller.draw(D6), True, marks) for _ in range(plan.dice)]
        number = plan.number([roll.value or 0 for roll in rolls])
        chosen = plan.candidate(number)
        if chosen is None:
            rolls = [roll.marked(REROLLED, kept=False) for roll in rolls]
        dice += rolls
        if rounds:
            segments.append(_SEPARATOR)
        segments.append(DiceShown(tuple(rolls)))
        if plan.dice > 1:
            segments.append(Text(f" (={number})", "value" if chosen else "dropped"))
        rounds += 1
    return chosen, dice, segments, rounds


def resolve_allocate(
    check: Allocate, canonical: str, roller: Roller, env: Environment, text: str
) -> RollResult:
    if check.items > 1:
        return _resolve_items(check, canonical, roller, text)
    candidates = check.candidates
    plan = AllocationPlan.for_candidates(candidates.count)
    chosen, dice, segments, rounds = _allocate_one(plan, roller)
    label = _candidate_label(candidates, chosen)
    if not dice:
        segments.append(Text("only one candidate", "note"))  # nothing rolled
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("chosen", candidates.identity(chosen - 1)),
        ("candidates", candidates.count),
        ("rounds", rounds),
    )
    verdict = f"{label} of {candidates.count}"
    if candidates.names:
        verdict = f"{label} ({chosen} of {candidates.count})"
    outcome = Outcome(verdict, None, fields)
    return _result(text, canonical, chosen, dice, segments, outcome)


def _resolve_items(check: Allocate, canonical: str, roller: Roller, text: str) -> RollResult:
    """``wfb allocate 3 among 5``: each item handed out on its own (rule W7: one D6 per
    item), each on its own line at a terminal; the verdict says who got how many."""
    candidates = check.candidates
    plan = AllocationPlan.for_candidates(candidates.count)
    dice: list[DieRoll] = []
    segments: list[Segment] = []
    chosen: list[int] = []
    rounds = 0
    for item in range(1, check.items + 1):
        number, item_dice, item_segments, item_rounds = _allocate_one(plan, roller)
        if item > 1:
            segments.append(Text("; ", "side"))
        segments.append(Text(f"item {item}: ", "label"))
        segments += item_segments or [Text("only one candidate", "note")]
        segments.append(Text(f" → {_candidate_label(candidates, number)}", "value"))
        dice += item_dice
        chosen.append(number)
        rounds += item_rounds
    counts = Counter(chosen)
    shares = [f"{_candidate_label(candidates, n)} ×{counts[n]}" for n in sorted(counts)]
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("allocated", [candidates.identity(n - 1) for n in chosen]),
        ("items", check.items),
        ("candidates", candidates.count),
        ("rounds", rounds),
    )
    outcome = Outcome(", ".join(shares), None, fields)
    return _result(text, canonical, None, dice, segments, outcome)


def prepare_step(form: WarhammerForm) -> CheckStep:
    """``form`` made ready to roll (:data:`~dicecli.rolling.games.CheckStep`): its
    canonical text, and the values typed as numbers with their breakdown, worked out
    once."""
    canonical = str(form)
    match form:
        case WarhammerRoll():
            return partial(resolve_expression, form, canonical)
        case ScatterRoll():
            return partial(resolve_scatter, form, canonical)
        case CharacteristicTest():
            return prepare_test(form, canonical)
        case LeadershipTest():
            return prepare_leadership(form, canonical)
        case BreakTest():
            return prepare_break(form, canonical)
        case RollOff():
            return partial(resolve_rolloff, form, canonical)
        case Allocate():
            return partial(resolve_allocate, form, canonical)
        case _:
            return assert_never(form)


def resolve(form: WarhammerForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a Warhammer line."""
    return prepare_step(form)(roller, env, text)
