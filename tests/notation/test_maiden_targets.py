"""Dice Maiden's numbers beside targets (issue 26; github.com/Humblemonk/dicemaiden-rs,
roller.rs ``apply_special_system_modifiers``): a number added, subtracted, multiplied
or divided **before** the targets (``t``, ``tl``, ``ds``, ``f``, ``b``) changes each
die, in the order written, before the dice are counted (``1d1+5 t6`` "should always
have exactly 1 success (1+5=6 >= 6)", its tests/unit_tests.rs); one written **after**
them changes the count, in the order written. docs/grammar.md, "Dialects". Given dice,
then exact odds by hand over every face and against brute force (the evaluator)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from brute import brute_distribution

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.hints import advise
from dicecli.notation.reader import parse_as
from dicecli.notation.translations import translated

MAIDEN = Environment(settings={"dialect": "dicemaiden"})


def by_hand(
    dice: Sequence[Sequence[int]], value: Callable[[tuple[int, ...]], int]
) -> dict[int, Fraction]:
    tally: Counter[int] = Counter(value(faces) for faces in itertools.product(*dice))
    ways = sum(tally.values())
    return {total: Fraction(n, ways) for total, n in sorted(tally.items())}


def maiden_odds(line: str) -> dict[int, Fraction]:
    found = dicecli.odds(line, environment=MAIDEN).distribution
    assert found is not None
    assert found.as_dict() == brute_distribution(translated(line, "dicemaiden"))
    return found.as_dict()


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # unit_tests.rs, test_issue_94: each die plus 2, then 8 or more
        ("1d12+2 t8", "d12>=6"),
        ("1d1+5 t6", "d1>=1"),  # 1+5 = 6: always one success
        ("1d1+5 f1t6", "d1>=1f<=0"),  # t6f1 and f1t6 alike
        ("5d1+4 t4f1", "5d1>=1f<=0"),  # "All succeed, none fail"
        ("3d1+2 t4f1", "3d1>=2f<=0"),  # "None succeed, none fail": 3 is under 4
        ("3d1+0 f1t4", "3d1>=2f<=1"),  # "None succeed, all fail"
        ("3d1*2+1 f1t4", "3d1>=2f<=0"),  # (1*2)+1 = 3, in the order written
        ("4d1+1*3 f2t5", "4d1>=1f<=0"),  # (1+1)*3 = 6
        ("3d1+2*2 f1b2t6", "3d1>=1f<=0cf<=0"),  # (1+2)*2 = 6; botches marked
        ("2d10*2 t6f2b1", "2d10>=3f<=1cf<=0"),
        ("6d10-1 t7ds", "6d10>=8ds>=8"),  # a bare ds doubles on the target
        ("4d1+1 f1t4+1", "4d1>=2f<=0 + 1"),  # after the targets: the count plus 1
        ("1d20 t10 +1 *2", "(d20>=10 + 1)*2"),  # the count, in the order written
        ("1d20 t10 +5", "d20>=10 + 5"),  # as dicecli reads it already
        ("(Hit) 4d6 k3 +1 t4", "4d6kh3>=3"),  # keep first, then each kept die plus 1
        # f alone: "successes" start at 0, less one for each die of 1 or less
        ("4d6f1", "4d6<=1*-1"),
        ("4d6 f1 b1", "4d6<=1cf<=1*-1"),  # botches marked, as beside a target
        ("(Hit) 4d6 k3 f2", "4d6kh3<=2*-1"),
    ],
)
def test_read_as_dice_maiden_counts(line: str, read: str) -> None:
    assert str(parse_as(line, "dicemaiden").body) == read


@pytest.mark.parametrize(
    ("line", "given", "total"),
    [
        ("1d12+2 t8", "6", 1),  # 6+2 = 8
        ("1d12+2 t8", "5", 0),
        ("4d1+1 f1t4+1", "1,1,1,1", 1),  # no success, no failure, then plus 1
        ("3d10*2 t10f2", "5,1,4", 0),  # 10 succeeds, 2 fails, 8 neither
        ("4d6 f1 b1", "1,2,1,6", -2),
    ],
)
def test_given_dice(line: str, given: str, total: int) -> None:
    results = dicecli.roll(line, given=given, environment=MAIDEN)
    assert results.total == total


def test_odds_by_hand() -> None:
    def pre(faces: tuple[int, ...]) -> int:
        worth = [(face - 1) * 2 for face in faces]  # -1 then *2, in that order
        return sum(1 for w in worth if w >= 6) - sum(1 for w in worth if w <= 2)

    assert maiden_odds("3d6-1*2 t6f2") == by_hand([range(1, 7)] * 3, pre)

    def post(faces: tuple[int, ...]) -> int:
        return (sum(1 for face in faces if face >= 4) + 1) * 2

    assert maiden_odds("2d6 t4 +1 *2") == by_hand([range(1, 7)] * 2, post)


@pytest.mark.parametrize("line", ["2d6+1 tl3", "3d4*2 t5ds8", "2d6+3 t8f4", "2d4 k1 +2 t5"])
def test_exact_odds_equal_brute_force(line: str) -> None:
    maiden_odds(line)


@pytest.mark.parametrize("line", ["4d10 f1 c", "5d10 t8 f1 c", "6d10 f1 t7 c"])
def test_cancel_beside_failures_is_refused(line: str) -> None:
    """unit_tests.rs's valid_cancel_tests: ``c`` makes each 10 cancel a failure on a 1
    (roller.rs ``apply_cancel_modifier``), which dicecli cannot roll: refused, in the
    dialect by name and by default as an unexpected ``c``, never read without it."""
    with pytest.raises(DiceError, match="each 10 cancels a failure on a 1"):
        parse_as(line, "dicemaiden")
    with pytest.raises(DiceError, match=r"unexpected 'c'|f counts failures beside successes"):
        dicecli.parse(line)


@pytest.mark.parametrize("line", ["4d6+1 t4 / 2", "3d6 t4 / 2", "3d6 t4/2", "3d6 t4 +1 /2"])
def test_dividing_a_count_is_refused(line: str) -> None:
    """Dice Maiden divides a count towards zero; dicecli's ``/`` rounds up (rule N3): a
    division of the count is refused in the dialect, alone (``t4 / 2``: one success is
    0 there, 1 here) as after another number."""
    with pytest.raises(DiceError, match="divides a count towards zero"):
        parse_as(line, "dicemaiden")


@pytest.mark.parametrize("line", ["4d6 tl4ds4", "4d6 tl4 ds2"])
def test_bare_double_beside_a_lower_target_is_not_read_as_exactly(line: str) -> None:
    """Beside ``tl``, Dice Maiden reads ``ds4`` as 4 or less (``TargetLowerWithDouble
    Success``); dicecli's bare number is exactly 4. By default the line is refused, as
    ``t4ds4`` is, with the dialect's reading as its hint; the dialect reads it so."""
    with pytest.raises(DiceError) as refused:
        dicecli.parse(line)
    hint = advise(refused.value).hint
    assert hint is not None
    assert "--dialect dicemaiden rolls 4d6 <=4" in hint
    double = int(line[-1])
    rolled = dicecli.roll(line, given="2,3,4,6", environment=MAIDEN)
    # 2, 3 and 4 are 4 or less: three successes, and one more for each die of
    # ``double`` or less
    assert rolled.total == 3 + sum(face <= double for face in (2, 3, 4, 6))


def test_expertise_die_after_a_roll_is_refused() -> None:
    """``ex1`` is Level Up A5E's expertise die (roll_syntax.md, "Level Up A5E"; its
    aliases.rs matches it only after ``a5e``): after another roll it is refused with
    that hint, not read as an explosion once (``e``) and a stray ``x1``."""
    with pytest.raises(DiceError, match=r"ex1 is an expertise die of Level Up A5E"):
        parse_as("1d20+5 ex1", "dicemaiden")
    assert str(parse_as("+a5e +5 ex1", "dicemaiden").body) == "2d20kh1 + 5 + d4"
