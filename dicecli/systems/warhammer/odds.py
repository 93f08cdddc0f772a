"""Exact odds of the Warhammer forms, by enumeration and convolution (no sampling).

Expressions: :class:`ExactValues` computes the distribution of a generic expression that
may hold the artillery die, with MISFIRE as its own outcome (``None``). Parts without
the artillery die are the core's
(:func:`dicecli.probability.engine.distribution_and_notes`); around the artillery die it
combines outcome pairs for ``+ - * /`` (``/`` rounding up, rule N3), ``N% of``, labels
and saved rolls.

Where a misfire is possible, the ``distribution`` of an
:class:`~dicecli.probability.distribution.Odds` holds the numeric outcomes with their
unconditional chances, so it sums to ``1 - P(misfire)``; the misfire chance is in
``chances``. (Its mean is then the mean of the rolls that did not misfire.)

Roll-offs (rule W6) are solved exactly for a round of ``k`` players: P(win) = P(unique
highest) + sum over ties of P(tie) x P(win the tie's roll-off), where the all-tied case
repeats the same roll-off, giving a geometric series.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb

from dicecli.environment import Environment
from dicecli.errors import DiceError, RuleError
from dicecli.notation.dice import D6, Die
from dicecli.notation.nodes import (
    BinaryOp,
    Call,
    ComputedDice,
    Dice,
    Expr,
    Group,
    Labelled,
    Name,
    Negate,
    Number,
    PercentOf,
    assert_never,
    children,
)
from dicecli.notation.semantics import (
    MAX_NAME_DEPTH,
    ceil_div,
    modulo,
    name_meaning,
    percent_of,
)
from dicecli.probability import engine as probability
from dicecli.probability.distribution import Distribution, Odds
from dicecli.probability.weights import Weights
from dicecli.systems.warhammer.dice import ARTILLERY, SCATTER, scatter_bearing, scatter_is_hit
from dicecli.systems.warhammer.expressions import fixed_value
from dicecli.systems.warhammer.nodes import (
    Allocate,
    BreakTest,
    CharacteristicTest,
    LeadershipTest,
    RollOff,
    ScatterRoll,
    WarhammerCheck,
    WarhammerForm,
    WarhammerRoll,
    is_artillery,
)
from dicecli.systems.warhammer.rules import (
    D6_SIDES,
    AllocationPlan,
    characteristic_verdict,
    leadership_verdict,
)
from dicecli.systems.warhammer.settings import misfire_on_hit

ZERO, ONE = Fraction(0), Fraction(1)
Outcomes = dict[int | None, Fraction]
"""Value -> probability; the value ``None`` is a MISFIRE."""


def _die_outcomes(die: Die) -> Outcomes:
    share = Fraction(1, len(die.faces))
    outcomes: Outcomes = {}
    for face in die.faces:
        outcomes[face.value] = outcomes.get(face.value, ZERO) + share
    return outcomes


def _combine(left: Outcomes, right: Outcomes, function: Callable[[int, int], int]) -> Outcomes:
    """``function`` of two independent outcomes; a misfire on either side is a misfire."""
    result: Outcomes = {}
    for a, p in left.items():
        for b, q in right.items():
            key = None if a is None or b is None else function(a, b)
            result[key] = result.get(key, ZERO) + p * q
    return result


def _mapped(outcomes: Outcomes, function: Callable[[int], int]) -> Outcomes:
    result: Outcomes = {}
    for a, p in outcomes.items():
        key = None if a is None else function(a)
        result[key] = result.get(key, ZERO) + p
    return result


def _divide(a: int, b: int) -> int:
    if b == 0:
        raise DiceError("division by zero is possible: no exact odds")
    return ceil_div(a, b)


def _remainder(a: int, b: int) -> int:
    if b == 0:
        raise DiceError("division by zero is possible: no exact odds")
    return modulo(a, b)


_OPERATIONS: dict[str, Callable[[int, int], int]] = {
    "+": int.__add__,
    "-": int.__sub__,
    "*": int.__mul__,
    "/": _divide,
    "%": _remainder,
}


class ExactValues:
    """The exact outcomes of one expression, with the artillery die.

    Parts without the artillery die go to the core (:mod:`dicecli.probability.engine`), so
    modified dice and groups get the same odds as anywhere else; this class only walks
    the arithmetic around the artillery die. ``notes`` collects the core's notes (a
    cut-off of exploding dice), ``residue`` the probability such a cut-off left out.
    """

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.artillery = False
        self.notes: list[str] = []
        self._depth = 0
        # whether each node met rolls the artillery die, by identity (with the node, so
        # its id stays its own)
        self._mentions: dict[int, tuple[Expr, bool]] = {}

    def of(self, expr: Expr) -> Outcomes:
        if not self._mentions_artillery(expr):
            return self._core(expr)
        if is_artillery(expr):
            self.artillery = True
            return _die_outcomes(ARTILLERY)
        match expr:
            case BinaryOp():
                return _combine(self.of(expr.left), self.of(expr.right), _OPERATIONS[expr.op])
            case Negate():
                return _mapped(self.of(expr.operand), int.__neg__)
            case PercentOf():
                percent = expr.percent
                return _mapped(self.of(expr.operand), lambda a: percent_of(percent, a))
            case Labelled():
                return self.of(expr.expr)
            case Name():
                return self._saved(expr)
            case Group() | Number() | Dice() | Call() | ComputedDice():  # some hold one
                raise RuleError(f"no exact odds for the artillery die inside {expr}")
            case _:
                return assert_never(expr)

    def _core(self, expr: Expr) -> Outcomes:
        return dict(self.core_distribution(expr).outcomes)

    def core_distribution(self, expr: Expr) -> Distribution:
        """The core's distribution of ``expr``, which has no artillery die: kept whole
        (its integer weights with it), so that a long one is not taken apart into
        thousands of fractions with huge denominators."""
        found, notes = probability.distribution_and_notes(expr, self.env)
        self.notes.extend(note for note in notes if note not in self.notes)
        return found

    def mentions_artillery(self, expr: Expr) -> bool:
        """True when ``expr`` rolls the artillery die, directly or in a saved roll."""
        return self._mentions_artillery(expr)

    def _saved(self, node: Name) -> Outcomes:
        saved = name_meaning(node, self.env, self._depth)
        assert not isinstance(saved, int)  # the artillery die is only in a saved roll
        self._depth += 1
        outcomes = self.of(saved)
        self._depth -= 1
        return outcomes

    def _mentions_artillery(self, expr: Expr) -> bool:
        """True when ``expr`` rolls the artillery die, directly or in a saved roll:
        worked out once for ``expr`` and each part below it, parts first (:meth:`of`
        asks of every part), with a list of pending parts rather than recursion (a sum
        of a thousand terms is a thousand deep)."""
        known = self._mentions.get(id(expr))
        if known is not None:
            return known[1]
        pending: list[tuple[Expr, bool]] = [(expr, False)]
        while pending:
            node, parts_known = pending.pop()
            if id(node) in self._mentions:
                continue
            if not parts_known:
                pending.append((node, True))
                pending.extend((part, False) for part in children(node))
                continue
            if isinstance(node, Name):
                found = self._rolls_artillery(node)
            else:
                found = is_artillery(node) or any(
                    self._mentions[id(part)][1] for part in children(node)
                )
            self._mentions[id(node)] = (node, found)
        return self._mentions[id(expr)][1]

    def _rolls_artillery(self, name: Name) -> bool:
        """True when the saved roll ``name`` stands for rolls the artillery die, in it
        or in the saved rolls it names, to :data:`MAX_NAME_DEPTH` names deep."""
        pending: list[tuple[Expr, int]] = [(name, 0)]
        while pending:
            node, depth = pending.pop()
            if is_artillery(node):
                return True
            if depth > MAX_NAME_DEPTH:
                continue  # the core reports the loop
            if isinstance(node, Name):
                saved = self.env.roll(node.name) if self.env.value(node.name) is None else None
                if saved is not None:
                    pending.append((saved, depth + 1))
                continue
            pending.extend((part, depth) for part in children(node))
        return False


def residue_of(outcomes: Outcomes) -> Fraction:
    """The probability a cut-off left out (outcomes sum to ``1 - residue``)."""
    return ONE - sum(outcomes.values(), ZERO)


def numbers_only(outcomes: Outcomes) -> Distribution:
    """The numeric outcomes with their unconditional chances (misfires left out, and
    any cut-off of the core as the residue)."""
    numbers = {k: p for k, p in outcomes.items() if k is not None}
    return Distribution.from_probabilities(numbers, residue_of(outcomes))


_MISFIRE_NOTE = "the distribution leaves out misfires; it sums to 1 - P(misfire)"


def expression_odds(check: WarhammerRoll, env: Environment, text: str) -> Odds:
    values = ExactValues(env)
    if not values.mentions_artillery(check.expr):
        found = values.core_distribution(check.expr)
        return Odds(text, str(check), found, notes=tuple(values.notes))
    outcomes = values.of(check.expr)
    notes = tuple(values.notes)
    if not values.artillery:
        return Odds(text, str(check), numbers_only(outcomes), notes=notes)
    misfire = outcomes.get(None, ZERO)
    return Odds(
        text,
        str(check),
        numbers_only(outcomes),
        (("misfire", misfire),),
        notes=(_MISFIRE_NOTE, *notes),
    )


# --------------------------------------------------------------------------- scatter


def scatter_hit_chance() -> Fraction:
    """P(HIT), counted on the die's faces (rule W2: 1/3)."""
    hits = sum(1 for index in range(len(SCATTER.faces)) if scatter_is_hit(index))
    return Fraction(hits, len(SCATTER.faces))


def bearing_chances() -> dict[int, Fraction]:
    """P(each bearing in degrees), counted on the scatter die's faces."""
    chances: dict[int, Fraction] = {}
    for index in range(len(SCATTER.faces)):
        degrees = scatter_bearing(index).degrees
        chances[degrees] = chances.get(degrees, ZERO) + Fraction(1, len(SCATTER.faces))
    return chances


def _bearing_note() -> str:
    chances = set(bearing_chances().values())
    each = chances.pop() if len(chances) == 1 else None
    assert each is not None, "the scatter die's directions are equally likely"
    return f"bearing: {len(bearing_chances())} clock directions, each {each} (also on a HIT)"


_DISTANCE_NOTES = (
    "the distribution is the distance moved, a HIT counted as 0",
    '"distance dice" is what the distance dice show, used when an arrow shows',
)


def _moved_weights(dice: Distribution, hit: Fraction) -> Weights:
    """The distance moved as integer weights: a HIT moves 0, an arrow the distance
    dice's total (0 when it is below 0). Worked in the integers of the dice's own
    ``weights``, since those may be thousands of counts over a denominator of hundreds
    of digits; what the cut-off of the dice left out stays out (the residue)."""
    assert dice.weights is not None
    counts, denominator = dice.weights
    arrow = hit.denominator - hit.numerator
    moved: dict[int, int] = {0: hit.numerator * denominator}
    for (value, _), count in zip(dice.outcomes, counts, strict=True):
        distance = max(value, 0)
        moved[distance] = moved.get(distance, 0) + arrow * count
    return Weights(moved, hit.denominator * denominator)


def scatter_odds(check: ScatterRoll, env: Environment, text: str) -> Odds:
    hit = scatter_hit_chance()
    bearing = _bearing_note()
    chances: list[tuple[str, Fraction]] = [("hit", hit), ("arrow", ONE - hit)]
    if check.distance is None:
        return Odds(text, str(check), chances=tuple(chances), notes=(bearing,))
    values = ExactValues(env)
    if not values.mentions_artillery(check.distance):
        found = values.core_distribution(check.distance)
        if found.weights is not None:
            return Odds(
                text,
                str(check),
                _moved_weights(found, hit).to_distribution(str(check)),
                tuple(chances),
                tables=(("distance dice", found),),
                notes=(*_DISTANCE_NOTES, bearing, *values.notes),
            )
    dice = values.of(check.distance)
    dice_misfire = dice.get(None, ZERO)
    counts_on_hit = misfire_on_hit(env)
    misfire = dice_misfire if counts_on_hit else (ONE - hit) * dice_misfire
    moved: dict[int, Fraction] = {0: hit * (ONE - dice_misfire) if counts_on_hit else hit}
    for value, p in dice.items():
        if value is not None:
            distance = max(value, 0)
            moved[distance] = moved.get(distance, ZERO) + (ONE - hit) * p
    residue = ONE - misfire - sum(moved.values(), ZERO)
    if values.artillery:
        chances.append(("misfire", misfire))
    notes = list(_DISTANCE_NOTES)
    if values.artillery:
        notes.append(_MISFIRE_NOTE)
    return Odds(
        text,
        str(check),
        Distribution.from_probabilities(moved, residue),
        tuple(chances),
        tables=(("distance dice", numbers_only(dice)),),
        notes=(*notes, bearing, *values.notes),
    )


# ------------------------------------------------------------------------------ tests


def _d6_values() -> list[int]:
    return [face.value for face in D6.faces if face.value is not None]


def _test_odds(
    check: WarhammerCheck, text: str, target: int, natural: Distribution, passes: Fraction
) -> Odds:
    return Odds(
        text,
        str(check),
        natural,
        (("success", passes),),
        notes=(f"target {target}; the distribution is the natural roll",),
        passing=(None, target),
    )


def characteristic_chance(target: int) -> Fraction:
    """P(pass) of rule W8, by enumerating the D6."""
    faces = _d6_values()
    passes = sum(1 for face in faces if characteristic_verdict(face, target).passed)
    return Fraction(passes, len(faces))


def leadership_chance(target: int) -> Fraction:
    """P(pass) of rules W9/W10, by enumerating the 36 pairs of 2D6."""
    faces = _d6_values()
    pairs = [(a, b) for a in faces for b in faces]
    passes = sum(1 for a, b in pairs if leadership_verdict(a, b, target).passed)
    return Fraction(passes, len(pairs))


def characteristic_odds(check: CharacteristicTest, env: Environment, text: str) -> Odds:
    target = fixed_value(check.values, env, "a characteristic").value
    natural = Distribution.uniform(_d6_values())
    return _test_odds(check, text, target, natural, characteristic_chance(target))


_TWO_D6 = Distribution.uniform(a + b for a in range(1, 7) for b in range(1, 7))


def leadership_odds(check: LeadershipTest, env: Environment, text: str) -> Odds:
    target = fixed_value(check.values, env, "a Leadership value").value
    return _test_odds(check, text, target, _TWO_D6, leadership_chance(target))


def break_odds(check: BreakTest, env: Environment, text: str) -> Odds:
    leadership = fixed_value(check.values, env, "a Leadership value").value
    lost_by = fixed_value((check.lost_by,), env, "a combat result").value
    if lost_by < 0:
        raise RuleError(f"a combat result lost by {lost_by}? give 0 or more")
    target = leadership - lost_by
    return _test_odds(check, text, target, _TWO_D6, leadership_chance(target))


# -------------------------------------------------------------------------- roll-off


def _round_chances(players: int) -> tuple[Fraction, dict[int, Fraction]]:
    """For one player in a round of ``players`` D6s: P(they alone are highest), and for
    each tie size m >= 2, P(they are highest together with exactly m - 1 others).

    Counted on integers out of 6**players: the player shows ``value``, the m - 1 others
    tied with them show it too, the rest show less (``value - 1`` faces each)."""
    outcomes = D6_SIDES**players
    alone = sum((value - 1) ** (players - 1) for value in range(1, D6_SIDES + 1))
    tied = {
        size: Fraction(
            comb(players - 1, size - 1)
            * sum((value - 1) ** (players - size) for value in range(1, D6_SIDES + 1)),
            outcomes,
        )
        for size in range(2, players + 1)
    }
    return Fraction(alone, outcomes), tied


def rolloff_win_chance(players: int) -> Fraction:
    """P(a given player wins a roll-off of ``players``), solved exactly (rule W6)."""
    wins: dict[int, Fraction] = {1: ONE}
    for count in range(2, players + 1):
        alone, tied = _round_chances(count)
        decided = alone + sum((tied[m] * wins[m] for m in range(2, count)), ZERO)
        wins[count] = decided / (ONE - tied[count])
    return wins[players]


def rolloff_expected_rounds(players: int) -> Fraction:
    """The expected number of rounds (ties re-rolled until one player is highest)."""
    rounds: dict[int, Fraction] = {1: ZERO}
    for count in range(2, players + 1):
        outcomes = D6_SIDES**count
        top_tie = {
            size: Fraction(
                comb(count, size)
                * sum((value - 1) ** (count - size) for value in range(1, D6_SIDES + 1)),
                outcomes,
            )
            for size in range(2, count + 1)
        }
        known = ONE + sum((top_tie[m] * rounds[m] for m in range(2, count)), ZERO)
        rounds[count] = known / (ONE - top_tie[count])
    return rounds[players]


MAX_ROUNDS_PLAYERS = 100
"""Most players whose expected number of roll-off rounds is worked out: its exact
fraction grows with the players (15,000 bits for 200, two seconds), so past this the
odds give each player's chance and say the rounds were left out."""


def rolloff_odds(check: RollOff, env: Environment, text: str) -> Odds:
    players = check.players
    # The players are alike, so each wins with the same chance, 1 / players
    # (rolloff_win_chance solves it round by round, and comes to the same).
    chance = Fraction(1, players.count)
    wins = tuple(
        (players.names[i] if players.names else f"player {i + 1}", chance)
        for i in range(players.count)
    )
    if players.count > MAX_ROUNDS_PLAYERS:
        note = (
            f"the expected number of rounds is left out for more than "
            f"{MAX_ROUNDS_PLAYERS} players (its exact fraction grows too long)"
        )
        return Odds(text, str(check), wins=wins, notes=(note,))
    expected = (("rounds", rolloff_expected_rounds(players.count)),)
    return Odds(text, str(check), wins=wins, expectations=expected)


# ------------------------------------------------------------------------ allocation


def allocate_odds(check: Allocate, env: Environment, text: str) -> Odds:
    plan = AllocationPlan.for_candidates(check.candidates.count)
    shares = {c: plan.share(c) for c in range(1, plan.candidates + 1)}
    distribution = Distribution.from_counts(shares)
    dice = Fraction(plan.dice * plan.outcomes, plan.accepted)
    names = check.candidates.names
    wins = tuple((name, distribution.as_dict()[i + 1]) for i, name in enumerate(names))
    if check.items > 1:
        notes = (f"for each of the {check.items} items, handed out one by one (rule W7)",)
        return Odds(
            text,
            str(check),
            distribution,
            wins=wins,
            expectations=(("dice rolled", dice * check.items),),
            notes=notes,
        )
    return Odds(text, str(check), distribution, wins=wins, expectations=(("dice rolled", dice),))


def odds(form: WarhammerForm, env: Environment, text: str) -> Odds:
    """The exact odds of a Warhammer line."""
    match form:
        case WarhammerRoll():
            return expression_odds(form, env, text)
        case ScatterRoll():
            return scatter_odds(form, env, text)
        case CharacteristicTest():
            return characteristic_odds(form, env, text)
        case LeadershipTest():
            return leadership_odds(form, env, text)
        case BreakTest():
            return break_odds(form, env, text)
        case RollOff():
            return rolloff_odds(form, env, text)
        case Allocate():
            return allocate_odds(form, env, text)
        case _:
            return assert_never(form)
