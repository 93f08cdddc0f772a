"""The exact-odds engine against brute force: the real evaluator driven through every
sequence of faces, each sequence weighted by its probability.

The oracle (:func:`brute_force`) replays a prefix of face indexes into the evaluator;
when the evaluator asks for one die more, the prefix branches into one prefix per face.
Variable-length rolls (re-rolls, explosions) are followed up to ``max_dice`` dice; the
probability of longer sequences is the oracle's own ``cut``. Where neither side cuts,
the distributions must be equal, fraction for fraction.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Literal

import pytest
from brute import NeedFaceError, Replay
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import call_nodes

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError, DiceSyntaxError
from dicecli.notation.dice import die_for_sides
from dicecli.notation.grammar import parse
from dicecli.notation.nodes import (
    BinaryOp,
    BinaryOpSymbol,
    CheckOp,
    CompareOp,
    Comparison,
    ComputedDice,
    Condition,
    Dice,
    Explode,
    ExplodeKind,
    Expr,
    Group,
    Keep,
    KeepKind,
    Labelled,
    Modifiers,
    Negate,
    Number,
    PercentOf,
    Reroll,
    Roll,
    Sides,
    Unique,
    children,
)
from dicecli.notation.sides import FaceList
from dicecli.probability.comparison import comparison_odds
from dicecli.probability.criticals import critical_chances
from dicecli.probability.distribution import Distribution
from dicecli.probability.engine import distribution
from dicecli.probability.weights import OddsTooBigError
from dicecli.rolling.evaluate import Evaluation, roll
from dicecli.rolling.sources import Roller

# --- the oracle ---------------------------------------------------------------------


class Truth:
    """What brute force found: the outcomes' probabilities, the probability cut off
    (sequences longer than allowed) and whether some sequence raised a DiceError."""

    def __init__(self) -> None:
        self.outcomes: dict[int, Fraction] = {}
        self.cut = Fraction(0)
        self.error = False


def brute_force(expr: Expr, env: Environment = EMPTY_ENVIRONMENT, max_dice: int = 8) -> Truth:
    truth = Truth()
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        try:
            total = Evaluation(Roller(Replay(faces), budget=10**6), env).value(expr)
        except NeedFaceError as need:
            if len(faces) >= max_dice:
                truth.cut += chance
                continue
            sides = len(need.die.faces)
            pending.extend(((*faces, index), chance / sides) for index in range(sides))
            continue
        except DiceError:
            truth.error = True
            continue
        truth.outcomes[total] = truth.outcomes.get(total, Fraction(0)) + chance
    return truth


def assert_agrees(expr: Expr, env: Environment = EMPTY_ENVIRONMENT, max_dice: int = 8) -> None:
    """Our distribution of ``expr`` equals brute force, up to what either side cut."""
    truth = brute_force(expr, env, max_dice)
    if truth.error:
        with pytest.raises(DiceError):
            distribution(expr, env)
        return
    if not truth.outcomes:  # every sequence ran past max_dice: a roll that never ends
        with pytest.raises(DiceError, match="never end"):
            distribution(expr, env)
        return
    ours = distribution(expr, env)
    assert ours.total + ours.residue == 1
    got = ours.as_dict()
    values = set(got) | set(truth.outcomes)
    if ours.exact and truth.cut == 0:
        assert got == truth.outcomes, str(expr)
    elif ours.exact:
        # Brute force misses exactly ``cut``, spread over the outcomes it undercounts.
        assert all(truth.outcomes.get(v, 0) <= got.get(v, 0) for v in values), str(expr)
        assert sum(got.values()) - sum(truth.outcomes.values()) == truth.cut
    else:
        # Both undercount each outcome, by at most what each left out.
        slack = max(truth.cut, ours.residue)
        for value in values:
            gap = got.get(value, Fraction(0)) - truth.outcomes.get(value, Fraction(0))
            assert -slack <= gap <= slack, (expr, value)


def expr_of(text: str) -> Expr:
    body = parse(text).body
    assert isinstance(body, Expr)
    return body


def test_oracle_counts_two_dice() -> None:
    truth = brute_force(expr_of("2d6"))
    assert truth.outcomes[7] == Fraction(1, 6)
    assert sum(truth.outcomes.values()) == 1
    assert truth.cut == 0


def test_oracle_cuts_long_sequences() -> None:
    truth = brute_force(expr_of("d2!"), max_dice=3)
    assert truth.cut == Fraction(1, 8)  # three twos in a row, then a fourth die is needed
    assert truth.outcomes == {1: Fraction(1, 2), 3: Fraction(1, 4), 5: Fraction(1, 8)}


# --- pinned classics -----------------------------------------------------------------


def test_two_d6_seven_is_one_sixth() -> None:
    assert distribution(expr_of("2d6")).as_dict()[7] == Fraction(1, 6)


def test_three_d6_ten() -> None:
    assert distribution(expr_of("3d6")).as_dict()[10] == Fraction(27, 216)


def test_four_d6_keep_three_mean() -> None:
    assert distribution(expr_of("4d6kh3")).mean() == Fraction(15869, 1296)


def test_exploding_d6_mean_tends_to_four_point_two() -> None:
    found = distribution(expr_of("d6!"))
    assert not found.exact
    assert 0 < found.residue < Fraction(1, 10**12)
    assert abs(found.mean() - Fraction(21, 5)) < Fraction(1, 10**9)


def test_ranges_of_rule_n1() -> None:
    # rule N1
    ranges = {"D6+2": (3, 8), "2D6": (2, 12), "3D6": (3, 18), "D6x5": (5, 30)}
    ranges |= {"2D6+5": (7, 17), "3D6-3": (0, 15)}
    for text, (low, high) in ranges.items():
        found = distribution(expr_of(text))
        assert (found.min, found.max) == (low, high), text


def test_division_rounds_up() -> None:
    # rule N3: 2D6 rolled 7 (or 8), halved, is 4
    assert distribution(expr_of("2d6/2")).as_dict()[4] == Fraction(6 + 5, 36)


def test_floor_and_round_get_the_exact_quotient() -> None:
    # rule N3 holds for "/" everywhere else; floor() rounds 7/2 down, round() half up
    assert distribution(expr_of("floor(2d6/2)")).as_dict()[3] == Fraction(5 + 6, 36)  # 6, 7
    assert distribution(expr_of("round(2d6/2)")).as_dict()[4] == Fraction(6 + 5, 36)  # 7, 8
    assert distribution(expr_of("round(-7/2)")).as_dict() == {-3: 1}


def test_percent_rounds_up() -> None:
    # rule N3: 10% of 51 models is 6
    assert distribution(expr_of("10% of 51")).as_dict() == {6: 1}


def test_d3_is_a_halved_d6() -> None:
    # rule N4
    assert distribution(expr_of("D3")).as_dict() == {v: Fraction(1, 3) for v in (1, 2, 3)}


def test_fudge_dice() -> None:
    assert distribution(expr_of("4dF")).as_dict()[0] == Fraction(19, 81)


def test_reroll_once_on_one() -> None:
    found = distribution(expr_of("d20ro1")).as_dict()
    assert found[1] == Fraction(1, 400)
    assert found[20] == Fraction(1, 20) + Fraction(1, 400)


def test_reroll_repeat_is_uniform_over_the_rest() -> None:
    found = distribution(expr_of("d20r<3")).as_dict()
    assert found == {v: Fraction(1, 18) for v in range(3, 21)}


def test_hundred_d6_against_plain_convolution() -> None:
    naive: dict[int, int] = {0: 1}
    for _ in range(100):
        step: dict[int, int] = {}
        for total, count in naive.items():
            for face in range(1, 7):
                step[total + face] = step.get(total + face, 0) + count
        naive = step
    expected = {v: Fraction(c, 6**100) for v, c in naive.items()}
    found = distribution(expr_of("100d6"))
    assert found.as_dict() == expected
    assert found.mean() == 350
    assert found.variance() == Fraction(100 * 35, 12)


# --- brute force, pinned forms ---------------------------------------------------------

EXACT_FORMS = [
    "3d6",
    "4d6kh3",
    "4d6kl2",
    "4d6dl1",
    "4d6dh1",
    "5d4kh2",
    "5d4kl3",
    "3d6k",
    "3d6kh5",
    "3d6dh5",
    "4d4dl0",
    "3d8>=6",
    "4d6>=5f1",
    "4d6kh2>=4f1",
    "3d6dl1<=2",
    "2d6ro1",
    "3d4ro<3kh2",
    "2d6ro>=5>=5f1",
    "d%",
    "4dF",
    "3dFkh1",
    "2D3",
    "2D3kh1",
    "{d6, d8, 2}kh2",
    "{d6, d8, d4}kl1",
    "{d6, d8, d4}dh1",
    "{d6, d8, d4}dl2",
    "{2d4, d6}>=5",
    "{d6, d6, d6}kh2>=4f1",
    "{d6, -d4, 3}kh1",
    "d6 * d4 - d3",
    "(d6 + 1) / d2",
    "d6 / 4",
    "-2d4 / 3",
    "50% of d6",
    "150% of (d4 - 2)",
    "d6[fire] + d4[cold]",
    "10 - 3",
    "floor(2d6 / 2)",
    "round(d6 / 4)",
    "ceil(-d6 / 4)",
    "round(50% of d6)",
    "floor(d6 / 2 + 1)",
    "max(d6, d4)",
    "min(d6, d6, d4)",
    "abs(d6 - d6)",
    "(d2)d4",
    "d(d4 + 1)",
    "(d2)d3kh1",
    "(1 + d2)dF",
    "(d2)d4>=3",
    "2d(d2*2)",
    "(d3)d6 / 2",
    "4d4r",
    "3dFr",
    "3d6>=5ds6",
    "4d6>=4ds6f1kh3",
    "4dF.1",
    "3dF.1kh2",
    "3d4sd",
    "{2d4 + d6}kh2",
    "{3d4}dl1",
    "{2d4r1 + d3}kh1>=3",
    "{d4 + d6}kl1",
    "4d4kh0",
    "{3d4}dl3",
    # custom faces (docs/grammar.md, "Custom faces"): a face written twice counts twice
    "3d{-1,0,1}",
    "2d{1,1,2,3,5,8}",
    "4d{1..3,10}kh2",
    "3d{0,0,1,1,2,2}>=1f0",
    "2d{-2..2}r",
    "3d{1,1,2}ro1",
    "3d{-1,0,1}>=0f=-1",
    "2d{-1,0,1}cs1cf=-1",
    "3d{0,1,1}>=1ds1",
    "3d{-1..1}sd",
    "{2d{0,1} + d{-1,1}}kh2",
    "(d2)d{0,1}",
    "(d{1,1,2})d{-1,1}kh1",
    "3d4min2",
    "3d4max3kh2",
    "2d4min2>=3",
    "3dFmin0",
    "3d4<>2",
    "3d4>=2f<>4",
    "2d4cs<>2",
]


@pytest.mark.parametrize("text", EXACT_FORMS)
def test_exact_forms_equal_brute_force(text: str) -> None:
    expr = expr_of(text)
    ours = distribution(expr)
    assert ours.exact
    assert ours.total == 1
    assert_agrees(expr)


SLOW = pytest.mark.slow
"""A form whose brute force walks many more rolls than the others': the quick run checks
the other forms of the same modifiers, ``--runslow`` (CI) these too."""

REPEATING_FORMS = [
    pytest.param("3d4u", 9, marks=SLOW),
    ("2d6u", 6),
    ("3d4uo", 6),
    ("3d4u=2", 9),
    ("3d4u>2kh2", 9),
    pytest.param("3d4ukh1", 9, marks=SLOW),
    pytest.param("3d4udl1>=3", 9, marks=SLOW),
    ("2dFu", 6),
    pytest.param("2dF.1u", 6, marks=SLOW),
    pytest.param("3d4rou", 9, marks=SLOW),
    ("2d4r1u", 8),
    pytest.param("3d4umin2max3", 9, marks=SLOW),
    ("3d4uo<3min2kh2", 6),
    ("2d6uomax4>=4ds4", 6),
    ("d4!min2", 8),
    pytest.param("2d3!!max4", 8, marks=SLOW),
    ("2d4!min3kh1", 8),
    ("2d4!pmax2", 8),
    ("3d4r<>2", 6),
    ("2d4!<>4", 6),
    ("d6r1", 8),
    ("d4r<3", 10),
    ("2d4r4kh1", 8),
    ("d4r>=3>=2", 9),
    ("d2!", 16),
    pytest.param("d3!!", 10, marks=SLOW),
    ("d2!p", 16),
    pytest.param("2d3!", 7, marks=SLOW),
    pytest.param("2d3!p", 7, marks=SLOW),
    pytest.param("2d3!!kh1", 7, marks=SLOW),
    pytest.param("3d3!kh2", 6, marks=SLOW),
    pytest.param("3d3!kl1", 6, marks=SLOW),
    pytest.param("2d3!pdl1", 7, marks=SLOW),
    pytest.param("2d3!dh1", 7, marks=SLOW),
    pytest.param("2d4!>=3kl2", 8, marks=SLOW),
    pytest.param("2d3!3>=2f1", 7, marks=SLOW),
    pytest.param("2d3!p>=3", 7, marks=SLOW),
    pytest.param("2d3!!3>=4f1", 7, marks=SLOW),
    ("d4ro1!", 10),
    ("d4r1!", 10),
    ("2d4r1!kh1", 7),
    pytest.param("2d3!!kh1>=4", 7, marks=SLOW),
    ("dF!", 12),
    pytest.param("D3!", 10, marks=SLOW),
    ("2dF!p", 8),
    pytest.param("{d3!, d4}kh1", 9, marks=SLOW),
    ("{d2!!, 2, d2!}>=3", 10),
    ("{d2!p, d4!}dl1", 9),
    pytest.param("d3!!p", 10, marks=SLOW),
    pytest.param("2d3!!pkh1", 7, marks=SLOW),
    pytest.param("2d3!!p3>=3ds4", 7, marks=SLOW),
    ("dF.1!!p", 8),
    ("d{1,2,2}!", 10),
    ("2d{-1,0,1}!", 8),
    ("2d{0,1,3}!!kh1", 7),
    ("d{1,1,4}!p", 10),
    ("2d{-1..1}r=-1!>=1", 8),
    ("3d{1,1,2,3}!kh2", 6),
]


@pytest.mark.parametrize(("text", "max_dice"), REPEATING_FORMS)
def test_repeating_forms_agree_with_brute_force(text: str, max_dice: int) -> None:
    assert_agrees(expr_of(text), max_dice=max_dice)


def test_division_by_a_possible_zero_is_refused() -> None:
    with pytest.raises(DiceError, match="divides by zero with chance 1/2"):
        distribution(expr_of("d6 / (d2 - 1)"))
    assert brute_force(expr_of("d6 / (d2 - 1)")).error


def test_names_and_saved_rolls() -> None:
    env = Environment(values={"STR": 3}, rolls={"attack": expr_of("d4 + STR")})
    assert_agrees(expr_of("attack + attack - STR"), env)
    found = distribution(expr_of("attack + attack"), env)
    assert found.as_dict()[8] == Fraction(1, 16)  # both d4 roll 1: the dice are independent


def test_a_saved_roll_that_names_itself_is_refused() -> None:
    env = Environment(rolls={"loop": expr_of("loop + 1")})
    with pytest.raises(DiceError, match="refers to itself"):
        distribution(expr_of("loop"), env)


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(DiceError, match="unknown name 'DEX'"):
        distribution(expr_of("d20 + DEX"))


def test_a_die_that_always_explodes_after_rerolls_is_refused() -> None:
    with pytest.raises(DiceError, match="never end"):
        distribution(expr_of("d6r<6!"))


# --- Hypothesis: small expressions against brute force -----------------------------------

COMPARES: list[CompareOp] = ["=", "<", "<=", ">", ">=", "<>"]
FACE_LISTS = [FaceList(faces) for faces in ("{-1,0,1}", "{1,1,2}", "{0,0,1,3}", "{-2..-1,5}")]
"""Custom faces, repeated ones and negative ones (``"3"`` in the sides is the D3)."""
KEEPS: list[KeepKind] = ["kh", "kl", "dh", "dl"]
EXPLODES: list[ExplodeKind] = ["!", "!!", "!p", "!!p"]


def conditions(sides: Sides) -> st.SearchStrategy[Condition]:
    values = die_for_sides(sides).values
    numbers = st.integers(values[0] - 1, values[-1] + 1)
    return st.builds(Condition, st.sampled_from(COMPARES), numbers)


@st.composite
def dice_terms(draw: st.DrawFn) -> Expr:
    sides: Sides = draw(st.sampled_from([2, 4, 5, 6, "F", "F.1", "3", *FACE_LISTS]))
    reroll = draw(st.none() | st.builds(Reroll, conditions(sides), st.booleans()))
    explode = draw(st.none() | st.builds(Explode, st.sampled_from(EXPLODES), st.none()))
    if explode is not None and draw(st.booleans()):
        explode = Explode(explode.kind, draw(conditions(sides)))
    keep = draw(st.none() | st.builds(Keep, st.sampled_from(KEEPS), st.integers(0, 3)))
    success = draw(st.none() | conditions(sides))
    failure = draw(st.none() | conditions(sides)) if success else None
    critical = fumble = None
    if explode is None or explode.kind not in ("!!", "!!p"):  # cs/cf refused beside them
        critical = draw(st.none() | conditions(sides))
        fumble = draw(st.none() | conditions(sides))
    double = draw(st.none() | conditions(sides)) if success else None
    sorts: list[Literal["a", "d"] | None] = [None, "a", "d"]
    sort = draw(st.sampled_from(sorts))
    unique = None
    if explode is None and draw(st.booleans()):  # unique dice cannot explode
        unique = Unique(draw(st.none() | conditions(sides)), draw(st.booleans()))
    values = die_for_sides(sides).values
    bounds = st.none() | st.integers(values[0] - 1, values[-1] + 1)
    low, high = (draw(bounds), draw(bounds)) if draw(st.booleans()) else (None, None)
    slow = reroll is not None or explode is not None or unique is not None
    count = draw(st.integers(1, 2 if slow else 3))
    mods = Modifiers(
        reroll,
        explode,
        keep,
        success,
        failure,
        critical,
        fumble,
        double,
        sort,
        unique=unique,
        clamp_low=low,
        clamp_high=high,
    )
    node = Dice(count, sides, mods)
    try:
        parsed = parse(str(node)).body  # the grammar refuses endless forms: so do we
    except DiceSyntaxError:
        assume(False)
    # A success condition right after a bare "!" reads back as the explosion's condition
    # ("d6!" + ">=5" prints "d6!>=5"): a known ambiguity of the canonical text.
    assume(parsed == node)
    return node


def groups(items: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    keep = st.none() | st.builds(Keep, st.sampled_from(KEEPS), st.integers(0, 3))
    counting = st.none() | st.builds(Condition, st.sampled_from(COMPARES), st.integers(0, 6))
    return st.builds(
        lambda parts, kept, success: Group(tuple(parts), Modifiers(keep=kept, success=success)),
        st.lists(items, min_size=1, max_size=3),
        keep,
        counting,
    )


SMALL_COMPUTED_DICE = (
    ComputedDice(Dice(1, 2), Number(4)),  # (d2)d4
    ComputedDice(Number(1), BinaryOp("+", Dice(1, 2), Number(2))),  # d(d2 + 2)
    ComputedDice(Dice(1, 2), Number(3), Modifiers(keep=Keep("kh", 1))),  # (d2)d3kh1
    ComputedDice(Dice(1, 2), "F"),  # (d2)dF
    ComputedDice(Dice(1, 2), Number(4), Modifiers(success=Condition(">=", 3))),
    ComputedDice(Number(2), BinaryOp("*", Dice(1, 2), Number(2))),  # 2d(d2*2)
    ComputedDice(Dice(1, 2), Number(20), Modifiers(critical_success=Condition(">=", 19))),
    ComputedDice(Dice(1, 2), FaceList("{-1,1,1}"), Modifiers(keep=Keep("kh", 1))),
)
"""Computed dice small enough for brute force."""


def _binary(op: BinaryOpSymbol) -> Callable[[Expr, Expr], Expr]:
    return lambda left, right: BinaryOp(op, left, right)


def expressions() -> st.SearchStrategy[Expr]:
    leaves = st.builds(Number, st.integers(0, 5)) | dice_terms() | st.just(Dice(1, 20))
    leaves |= st.sampled_from(SMALL_COMPUTED_DICE)

    def extend(inner: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        ops: list[BinaryOpSymbol] = ["+", "-", "*", "/", "%"]
        return st.one_of(
            *(st.builds(_binary(op), inner, inner) for op in ops),
            st.builds(Negate, inner),
            st.builds(PercentOf, st.integers(0, 150), inner),
            st.builds(Labelled, inner, st.just("x")),
            groups(inner),
            call_nodes(inner),
        )

    return st.recursive(leaves, extend, max_leaves=3)


def dice_terms_in(expr: Expr) -> list[Dice]:
    """The dice terms of ``expr``; computed dice as the most dice they may come to
    (the small ones of :data:`SMALL_COMPUTED_DICE`: up to 2 dice of up to 4 sides, or
    of the number of sides written, as in ``(d2)d20``)."""
    if isinstance(expr, Dice):
        return [expr]
    inner = []
    if isinstance(expr, ComputedDice):
        sides = expr.sides.value if isinstance(expr.sides, Number) else 4
        inner = [Dice(2, max(sides, 4), expr.modifiers)]
    return inner + [term for child in children(expr) for term in dice_terms_in(child)]


def brute_plan(expr: Expr) -> tuple[int, int]:
    """How many dice brute force follows (more when dice re-roll or explode), and
    about how many face sequences that visits."""
    cost, dice = 1, 0
    for term in dice_terms_in(expr):
        faces = len(die_for_sides(term.sides).faces)
        mods = term.modifiers
        cost *= faces**term.count
        follow = term.count * (2 if mods.reroll else 1) + (2 if mods.explode else 0)
        follow += term.count if mods.unique else 0  # a repeat or two re-rolled
        cost *= faces ** (follow - term.count)
        dice += follow
    return dice, cost


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_small_expressions_agree_with_brute_force(expr: Expr) -> None:
    max_dice, cost = brute_plan(expr)
    assume(cost <= 1500)
    try:
        assert_agrees(expr, max_dice=max_dice)
    except OddsTooBigError:
        # refused with a clear message (e.g. keep/drop over dice exploding on most
        # faces, 2d6!<6dh2): that refusal is tested in test_probability_keep
        reject()


@settings(max_examples=examples(60), deadline=None)
@given(expressions())
def test_distributions_sum_to_one_less_the_residue(expr: Expr) -> None:
    try:
        found = distribution(expr)
    except DiceError:
        return  # division by a possible zero, refused with a message
    assert isinstance(found, Distribution)
    assert found.total + found.residue == 1
    assert all(p > 0 for _, p in found.outcomes)
    assert [v for v, _ in found.outcomes] == sorted(v for v, _ in found.outcomes)


# --- checks on an expression: the chance of success against brute force ---------------

CHECK_OPS: list[CheckOp] = [">=", "<=", ">", "<", "=", "!="]


def brute_force_success(check: Comparison, max_dice: int) -> tuple[Fraction, Fraction, bool]:
    """(chance that the real roll of ``check`` passes, chance cut off, some roll raised)."""
    passed, cut, error = Fraction(0), Fraction(0), False
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        roller = Roller(Replay(faces), budget=10**6)
        try:
            result = roll(Roll(check), roller, EMPTY_ENVIRONMENT, str(check))
        except NeedFaceError as need:
            if len(faces) >= max_dice:
                cut += chance
                continue
            sides = len(need.die.faces)
            pending.extend(((*faces, index), chance / sides) for index in range(sides))
            continue
        except DiceError:
            error = True
            continue
        assert result.outcome is not None
        if result.outcome.passed:
            passed += chance
    return passed, cut, error


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.sampled_from(CHECK_OPS), expressions())
def test_chance_of_passing_a_check_agrees_with_brute_force(
    left: Expr, op: CheckOp, right: Expr
) -> None:
    check = Comparison(left, op, right)
    left_dice, left_cost = brute_plan(left)
    right_dice, right_cost = brute_plan(right)
    assume(left_cost * right_cost <= 1500)
    truth, cut, error = brute_force_success(check, left_dice + right_dice)
    try:
        found = comparison_odds(check, EMPTY_ENVIRONMENT, str(check))
    except OddsTooBigError:
        reject()
    except DiceError:
        # division by a possible zero: some roll divides by zero, among those the brute
        # force rolled, or among those it cut (0/dF!!: a zero after a long explosion)
        assert error or cut > 0
        return
    assert not error
    (name, ours), *_ = found.chances
    assert name == "success"
    if found.exact and cut == 0:
        assert ours == truth, str(check)
    else:
        slack = max(cut, found.left_out)
        assert truth - slack <= ours <= truth + slack, str(check)


@pytest.mark.parametrize(
    ("text", "chance"),
    [
        ("d20 + 5 >= 15", Fraction(11, 20)),  # 10..20 on the d20
        ("d20 vs 15", Fraction(6, 20)),  # meets or beats
        ("d20 > 15", Fraction(5, 20)),
        ("3d6 <= 11", Fraction(135, 216)),  # roll-under: 3..10 is 108 of 216, 11 is 27
        ("3d6 < 11", Fraction(108, 216)),
        ("2d6 = 7", Fraction(1, 6)),
        ("2d6 != 7", Fraction(5, 6)),
        ("d20 vs d20", Fraction(21, 40)),  # ties go to the roller: (1 + 1/20) / 2
    ],
)
def test_chance_of_passing_pinned_checks(text: str, chance: Fraction) -> None:
    check = parse(text).body
    assert isinstance(check, Comparison)
    assert comparison_odds(check, EMPTY_ENVIRONMENT, text).chances == (("success", chance),)


# --- critical markers: the chance of a critical against brute force --------------------


def brute_force_criticals(expr: Expr, max_dice: int) -> tuple[dict[str, Fraction], Fraction]:
    """The chance that the real roll marks some die critical-success / critical-failure,
    and the chance cut off."""
    found = {"critical_success": Fraction(0), "critical_failure": Fraction(0)}
    cut = Fraction(0)
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        evaluation = Evaluation(Roller(Replay(faces), budget=10**6), EMPTY_ENVIRONMENT)
        try:
            evaluation.value(expr)
        except NeedFaceError as need:
            if len(faces) >= max_dice:
                cut += chance
                continue
            sides = len(need.die.faces)
            pending.extend(((*faces, index), chance / sides) for index in range(sides))
            continue
        except DiceError:  # a division by zero: the line has no odds (the test skips it)
            found["error"] = Fraction(1)
            continue
        marks = {mark for die in evaluation.dice for mark in die.marks}
        for name in found:
            if name.replace("_", "-") in marks:
                found[name] += chance
    return found, cut


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_chance_of_a_critical_agrees_with_brute_force(expr: Expr) -> None:
    max_dice, cost = brute_plan(expr)
    assume(cost <= 1500)
    try:
        ours = dict(critical_chances(expr, EMPTY_ENVIRONMENT))
    except OddsTooBigError:
        reject()
    truth, cut = brute_force_criticals(expr, max_dice)
    if truth.pop("error", None):
        return  # the odds refuse a line that may divide by zero, before any critical
    for name, chance in truth.items():
        if name not in ours:  # no term can mark it: brute force never saw it
            assert chance == 0, (str(expr), name)
            continue
        assert ours[name] - cut <= chance <= ours[name] + cut, (str(expr), name)
        if cut == 0 and all(not t.modifiers.explode for t in dice_terms_in(expr)):
            assert ours[name] == chance, (str(expr), name)


@pytest.mark.parametrize(
    ("text", "success", "failure"),
    [
        ("d20", Fraction(1, 20), Fraction(1, 20)),  # a lone d20: natural 20 and 1
        ("2d20kh1", Fraction(39, 400), Fraction(1, 400)),  # advantage
        ("2d20kl1", Fraction(1, 400), Fraction(39, 400)),  # disadvantage
        ("d20cs>=19", Fraction(2, 20), None),  # written: replaces both defaults
        ("3d6cs>5cf<2", 1 - Fraction(5, 6) ** 3, 1 - Fraction(5, 6) ** 3),
        ("d20 + d20", Fraction(39, 400), Fraction(39, 400)),  # two terms: either
    ],
)
def test_chance_of_a_critical_pinned(
    text: str, success: Fraction, failure: Fraction | None
) -> None:
    chances = dict(critical_chances(expr_of(text), EMPTY_ENVIRONMENT))
    assert chances.get("critical_success") == success
    assert chances.get("critical_failure") == failure


def test_two_d20_summed_mark_no_criticals() -> None:
    assert critical_chances(expr_of("2d20"), EMPTY_ENVIRONMENT) == ()


def test_a_chance_of_dividing_by_zero_past_4300_digits_is_said_by_its_power_of_ten() -> None:
    # 9999d6kl1 < 5 is 0 when the lowest die shows 5 or 6: (1/3) ** 9999, about
    # 10 ** -4771, whose fraction has more digits than Python turns into text.
    with pytest.raises(DiceError, match=r"divides by zero with chance ≈1\.8e-4771, so"):
        distribution(expr_of("1/9999d6kl<5"))


def test_a_long_chance_of_dividing_by_zero_is_said_by_its_value() -> None:
    # 1/6 ** 30 = 1/221073919720733357899776: too long to read
    with pytest.raises(DiceError, match=r"with chance ≈4\.523373907e-24, so"):
        distribution(expr_of("1/(30d6 - 30)"))
