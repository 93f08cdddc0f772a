"""Rolling the Warhammer forms: dice from the :class:`~dicecli.rolling.sources.Roller`, rules from
:mod:`~dicecli.systems.warhammer.rules`, and a :class:`~dicecli.results.RollResult` that
shows every die (re-rolled and ignored ones with ``kept=False``).

Each ``resolve_*`` function handles one node type; :func:`resolve` picks it.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from dicecli.environment import Environment
from dicecli.errors import RuleError
from dicecli.frozen import frozen
from dicecli.notation.dice import D6
from dicecli.notation.nodes import Expr, assert_never
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
from dicecli.rolling.sources import Roller
from dicecli.systems.warhammer import misfire_on_hit
from dicecli.systems.warhammer.dice import (
    SCATTER,
    Bearing,
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
    WarhammerCheck,
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

_SEPARATOR = Text("; ", "op")


def _result(
    text: str,
    check: WarhammerCheck,
    total: int | None,
    dice: list[DieRoll],
    breakdown: list[Segment],
    outcome: Outcome | None,
) -> RollResult:
    return RollResult(text, str(check), total, tuple(dice), tuple(breakdown), outcome)


# ----------------------------------------------------------------- expressions (W1, N3)


def resolve_expression(
    check: WarhammerRoll, roller: Roller, env: Environment, text: str
) -> RollResult:
    evaluation = WarhammerEvaluation(roller, env)
    total: int | None = evaluation.value(check.expr)
    segments = list(evaluation.segments)
    outcome = None
    if evaluation.misfired:
        total = None  # the die itself shows MISFIRE (marked), and so does the verdict
        outcome = Outcome("MISFIRE", None, (("misfire", True),))
    elif evaluation.artillery_rolled:
        outcome = Outcome("no misfire", None, (("misfire", False),), quiet=True)
    return _result(text, check, total, evaluation.dice, segments, outcome)


# ----------------------------------------------------------------------- scatter (W2, W3)


def _ignored_on_hit(roll: DieRoll, misfire_counts: bool) -> DieRoll:
    if misfire_counts and is_misfire_face(roll.die, roll.face):
        return roll
    return roll.marked(IGNORED, kept=False)


def _ignore_segments(segments: list[Segment], misfire_counts: bool) -> list[Segment]:
    return [
        DiceShown(tuple(_ignored_on_hit(r, misfire_counts) for r in s.dice))
        if isinstance(s, DiceShown)
        else s
        for s in segments
    ]


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
    dice, segments = list(evaluation.dice), list(evaluation.segments)
    misfired = evaluation.misfired
    if hit:
        counts_misfire = misfire_on_hit(env)
        dice = [_ignored_on_hit(r, counts_misfire) for r in dice]
        segments = _ignore_segments(segments, counts_misfire)
        misfired = misfired and counts_misfire
    return _Distance(value, misfired, evaluation.artillery_rolled, tuple(dice), tuple(segments))


@frozen
class _Landing:
    """Where the scattered object ends: the total (inches, None on a misfire), the
    verdict, a breakdown word and notes."""

    total: int | None
    verdict: str
    shown: tuple[Segment, ...] = ()
    notes: tuple[str, ...] = ()


def _landing(distance: _Distance, hit: bool, bearing: Bearing) -> _Landing:
    if distance.misfired:
        return _Landing(None, "MISFIRE")
    if hit:
        note = f"the HIT's small arrow points {bearing.describe()}"
        return _Landing(0, "HIT: does not move", (), (note,))
    moved = max(distance.value, 0)
    notes: tuple[str, ...] = ()
    if distance.value < 0:
        notes = (f"the distance rolled ({distance.value}) is below 0: it does not move",)
    return _Landing(moved, f'moves {moved}" towards {bearing.describe()}', (), notes)


def resolve_scatter(check: ScatterRoll, roller: Roller, env: Environment, text: str) -> RollResult:
    index = roller.draw(SCATTER)
    bearing = scatter_bearing(index)
    hit = scatter_is_hit(index)
    scatter = SCATTER.roll_of(index, True, ("hit",) if hit else ())
    dice: list[DieRoll] = [scatter]
    segments: list[Segment] = [DiceShown((scatter,))]
    fields: list[tuple[str, JSONValue]] = [
        ("hit", hit),
        ("bearing", bearing.degrees),
        ("clock", bearing.clock),
    ]
    if check.distance is None:
        verdict = f"HIT (small arrow {bearing.describe()})" if hit else bearing.describe()
        return _result(text, check, None, dice, segments, Outcome(verdict, None, tuple(fields)))
    distance = _roll_distance(check.distance, hit, roller, env)
    landing = _landing(distance, hit, bearing)
    dice += distance.dice
    segments += [Text(" ", "op"), *distance.segments, *landing.shown]
    if distance.artillery:
        fields.append(("misfire", distance.misfired))
    fields.append(("distance", landing.total))
    outcome = Outcome(landing.verdict, None, tuple(fields), landing.notes)
    return _result(text, check, landing.total, dice, segments, outcome)


# ----------------------------------------------------------------- tests (W8, W9, W10)


def _target_segments(label: str, value: FixedValue) -> list[Segment]:
    if value.plain:
        return [Text(label, "label"), Text(str(value.value), "target"), Text(": ", "op")]
    return [
        Text(label, "label"),
        *value.segments,
        Text(" = ", "op"),
        Text(str(value.value), "target"),
        Text(": ", "op"),
    ]


def _test_outcome(verdict: Verdict, target: int, natural: int, *extra: Any) -> Outcome:
    fields: tuple[tuple[str, JSONValue], ...] = (
        ("success", verdict.passed),
        ("target", target),
        ("natural", natural),
        *extra,
    )
    word = "pass" if verdict.passed else "fail"
    return Outcome(f"{word} ({verdict.reason})", verdict.passed, fields)


def resolve_test(
    check: CharacteristicTest, roller: Roller, env: Environment, text: str
) -> RollResult:
    value = fixed_value(check.values, env, "a characteristic")
    die = roller.roll(D6)
    assert die.value is not None
    verdict = characteristic_verdict(die.value, value.value)
    segments = [*_target_segments("test ", value), DiceShown((die,))]
    outcome = _test_outcome(verdict, value.value, die.value)
    return _result(text, check, die.value, [die], segments, outcome)


def _two_d6(roller: Roller) -> tuple[DieRoll, DieRoll, int, int]:
    first, second = roller.roll(D6), roller.roll(D6)
    assert first.value is not None
    assert second.value is not None
    return first, second, first.value, second.value


def resolve_leadership(
    check: LeadershipTest, roller: Roller, env: Environment, text: str
) -> RollResult:
    value = fixed_value(check.values, env, "a Leadership value")
    first, second, a, b = _two_d6(roller)
    verdict = leadership_verdict(a, b, value.value)
    segments = [*_target_segments("Ld ", value), DiceShown((first, second))]
    outcome = _test_outcome(verdict, value.value, a + b)
    return _result(text, check, a + b, [first, second], segments, outcome)


def _wrapped(value: FixedValue, wrap: bool) -> list[Segment]:
    if value.plain:
        return [Text(str(value.value), "value")]
    if wrap:
        return [Text("(", "op"), *value.segments, Text(")", "op")]
    return list(value.segments)


def resolve_break(check: BreakTest, roller: Roller, env: Environment, text: str) -> RollResult:
    leadership = fixed_value(check.values, env, "a Leadership value")
    lost_by = fixed_value((check.lost_by,), env, "a combat result")
    if lost_by.value < 0:
        raise RuleError(f"a combat result lost by {lost_by.value}? give 0 or more")
    target = leadership.value - lost_by.value
    first, second, a, b = _two_d6(roller)
    verdict = leadership_verdict(a, b, target)
    segments: list[Segment] = [
        Text("break test: Ld ", "label"),
        *_wrapped(leadership, needs_parentheses(check.values)),
        Text(" - ", "op"),
        *_wrapped(lost_by, needs_parentheses((check.lost_by,))),
        Text(" = ", "op"),
        Text(str(target), "target"),
        Text(": ", "op"),
        DiceShown((first, second)),
    ]
    outcome = _test_outcome(
        verdict,
        target,
        a + b,
        ("leadership", leadership.value),
        ("lost_by", lost_by.value),
    )
    return _result(text, check, a + b, [first, second], segments, outcome)


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


def resolve_rolloff(check: RollOff, roller: Roller, env: Environment, text: str) -> RollResult:
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
    return _result(text, check, winner + 1, dice, segments, outcome)


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


def resolve_allocate(check: Allocate, roller: Roller, env: Environment, text: str) -> RollResult:
    if check.items > 1:
        return _resolve_items(check, roller, text)
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
    return _result(text, check, chosen, dice, segments, outcome)


def _resolve_items(check: Allocate, roller: Roller, text: str) -> RollResult:
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
    return _result(text, check, None, dice, segments, outcome)


def resolve(form: WarhammerForm, roller: Roller, env: Environment, text: str) -> RollResult:
    """Roll a Warhammer line."""
    match form:
        case WarhammerRoll():
            return resolve_expression(form, roller, env, text)
        case ScatterRoll():
            return resolve_scatter(form, roller, env, text)
        case CharacteristicTest():
            return resolve_test(form, roller, env, text)
        case LeadershipTest():
            return resolve_leadership(form, roller, env, text)
        case BreakTest():
            return resolve_break(form, roller, env, text)
        case RollOff():
            return resolve_rolloff(form, roller, env, text)
        case Allocate():
            return resolve_allocate(form, roller, env, text)
        case _:
            return assert_never(form)
