"""Chronicles of Darkness rules K1-K5 with given dice, and exact odds against
brute-force enumeration (Hypothesis over the pool and its qualities).

Rule numbers (K1, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError, RuleError
from dicecli.game import PRECISION, plain_line
from dicecli.hints import advise
from dicecli.results import JSONValue, RollResult


def roll(text: str, given: str, **values: int) -> RollResult:
    return dicecli.roll(text, given=given, values=values)


def verdict(result: RollResult) -> str:
    assert result.outcome is not None
    return result.outcome.verdict


def fields(result: RollResult) -> dict[str, JSONValue]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


def test_each_8_or_more_is_a_success() -> None:
    # rule K1: 8, 9 succeed; 7, 1 do not
    result = roll("cod 4", "8,7,9,1")
    assert result.total == 2
    assert verdict(result) == "success (2 successes)"


def test_no_success_is_a_failure() -> None:
    # rule K1
    result = roll("cod 3", "7,1,2")
    assert verdict(result) == "failure"
    assert result.outcome is not None
    assert result.outcome.passed is False


def test_10_again_rolls_another_die() -> None:
    # rule K2: 10 -> 10 -> 3: two successes from one die, then 8
    result = roll("cod 2", "10,10,3,8")
    assert result.total == 3
    assert len(result.dice) == 4


@pytest.mark.parametrize(
    ("quality", "faces", "successes"),
    [
        ("9-again", "9,4,2", 1),  # rule K2: the 9 rolls again (4), then 2
        ("8-again", "8,8,1,2", 2),  # rule K2: 8 rolls again, 8 again, 1; then 2
        ("no-again", "10,2", 1),  # rule K2: the 10 does not roll again
        ("9again", "9,4,2", 1),  # the hyphen left out
    ],
)
def test_other_qualities(quality: str, faces: str, successes: int) -> None:
    assert roll(f"cod 2 {quality}", faces).total == successes


def test_one_quality_per_line() -> None:
    # rule K2
    with pytest.raises(DiceSyntaxError, match="one re-roll quality"):
        dicecli.parse("cod 5 9-again 8-again")


def test_rote_rolls_failed_dice_once() -> None:
    # rule K3: 3 fails, re-rolled: 5, fails again (no more); 2 fails, re-rolled: 9
    result = roll("cod 2 rote", "3,5,2,9")
    assert result.total == 1
    assert [die.kept for die in result.dice] == [False, True, False, True]


def test_rote_does_not_reroll_dice_added_by_10_again() -> None:
    # rule K3 (dicecli's reading): 10 rolls again: 4, which is not rolled again
    assert roll("cod 1 rote", "10,4").total == 1


def test_five_successes_are_exceptional() -> None:
    # rule K4
    result = roll("cod 5", "8,8,8,8,9")
    assert verdict(result) == "exceptional success (5 successes)"
    assert fields(result)["exceptional"] is True
    assert fields(roll("cod 5", "8,8,8,9,1"))["exceptional"] is False


@pytest.mark.parametrize(
    ("face", "said", "passed"),
    [
        ("10", "success (1 success)", True),  # rule K5
        ("9", "failure", False),
        ("1", "dramatic failure", False),  # rule K5
    ],
)
def test_the_chance_die(face: str, said: str, passed: bool) -> None:
    for line in ("cod 0", "cod 2-3"):
        result = roll(line, face)
        assert verdict(result) == said
        assert result.outcome is not None
        assert result.outcome.passed is passed


def test_a_chance_die_10_is_not_rolled_again() -> None:
    # rule K5 (an assumption): one die, one face given
    assert len(roll("cod 0", "10").dice) == 1


def test_a_pool_too_large_is_refused() -> None:
    # rule K1
    with pytest.raises(RuleError, match="at most 30"):
        roll("cod 31", "")


def test_the_plain_line() -> None:
    # rules K1, K2
    assert plain_line(roll("cod 2", "10,3,8")) == "2\tcod 2\t[10!, 3, 8] => success (2 successes)"


def brute_force(pool: int, again: int | None, rote: bool, depth: int) -> dict[int, Fraction]:
    """Successes over every sequence of faces, following each chain of dice that roll
    again up to ``depth`` dice (rules K1-K3); what lies deeper is left out."""

    @functools.cache  # the same chain below each face: counted once, not 10**depth times
    def die(first: bool, left: int) -> dict[int, Fraction]:
        found: dict[int, Fraction] = {}
        for face in range(1, 11):
            p = Fraction(1, 10)
            if first and rote and face < 8:
                for k, q in die(False, left).items():
                    found[k] = found.get(k, Fraction(0)) + p * q
                continue
            here = 1 if face >= 8 else 0
            if again is not None and face >= again and left > 0:
                for k, q in die(False, left - 1).items():
                    found[here + k] = found.get(here + k, Fraction(0)) + p * q
            elif again is None or face < again:
                found[here] = found.get(here, Fraction(0)) + p
        return found

    one = die(True, depth)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(pool):
        step: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + p * q
        total = step
    return total


@settings(max_examples=examples(40))
@given(
    st.integers(1, 4),
    st.sampled_from([("10-again", 10), ("9-again", 9), ("8-again", 8), ("no-again", None)]),
    st.booleans(),
)
def test_odds_equal_the_count(pool: int, quality: tuple[str, int | None], rote: bool) -> None:
    # rules K1-K4: success and exceptional success depend on counts below 5, which a
    # chain 6 dice deep settles exactly (a chain of k dice gives at least k - 1 successes)
    word, again = quality
    counted = brute_force(pool, again, rote, depth=6)
    odds = dicecli.odds(f"cod {pool} {word}" + (" rote" if rote else ""))
    chances = dict(odds.chances)
    below_five = sum((counted.get(k, Fraction(0)) for k in range(5)), Fraction(0))
    assert chances["failure"] == counted[0]
    assert chances["success"] == 1 - counted[0]
    assert chances["exceptional_success"] == 1 - below_five
    assert odds.distribution is not None
    for k in range(5):
        assert odds.distribution.as_dict().get(k, Fraction(0)) == counted.get(k, Fraction(0))


@settings(max_examples=examples(20))
@given(
    st.integers(1, 2),
    st.sampled_from([("10-again", 10), ("9-again", 9), ("8-again", 8)]),
    st.booleans(),
)
def test_every_row_is_exact_and_the_rest_is_small(
    pool: int, quality: tuple[str, int | None], rote: bool
) -> None:
    # rules K1-K3: each count up to 8 against every face sequence 9 dice deep (a chain
    # of k dice gives at least k - 1 successes); the table leaves out exactly its
    # complement, below the precision, and its mean is exact in closed form
    word, again = quality
    counted = brute_force(pool, again, rote, depth=9)
    found = dicecli.odds(f"cod {pool} {word}" + (" rote" if rote else ""))
    assert found.distribution is not None
    rows = found.distribution.as_dict()
    assert {k: p for k, p in rows.items() if k <= 8} == {k: p for k, p in counted.items() if k <= 8}
    assert 0 < found.distribution.residue < PRECISION
    assert sum(rows.values()) + found.distribution.residue == 1
    assert f"more than {found.distribution.max} successes" in found.notes[-1]
    mean = dict(found.expectations)["mean_successes"]
    assert 0 <= mean - found.distribution.mean() < Fraction(1, 10**9)


@pytest.mark.parametrize(
    ("line", "mean"),
    [
        ("cod 3", Fraction(3 * 3, 9)),  # rule K2: 3/10 a success, 1/10 again: 3/9 a die
        ("cod 1 8-again", Fraction(3, 7)),  # 3/10 a success, all roll again: 3/7
        ("cod 2 no-again rote", 2 * Fraction(3, 10) * Fraction(17, 10)),  # rule K3
        ("cod 0", Fraction(1, 10)),  # rule K5
    ],
)
def test_the_mean_is_exact(line: str, mean: Fraction) -> None:
    assert dict(dicecli.odds(line).expectations)["mean_successes"] == mean


def test_chance_die_odds() -> None:
    # rule K5
    chances = dict(dicecli.odds("cod 0").chances)
    assert chances == {
        "success": Fraction(1, 10),
        "exceptional_success": Fraction(0),
        "failure": Fraction(8, 10),
        "dramatic_failure": Fraction(1, 10),
    }


def test_every_face_sequence_of_two_no_again_dice() -> None:
    # rule K1: a plain count over all 100 rolls
    count = sum(1 for faces in itertools.product(range(1, 11), repeat=2) if max(faces) >= 8)
    assert dict(dicecli.odds("cod 2 no-again").chances)["success"] == Fraction(count, 100)


@settings(max_examples=examples(50))
@given(st.integers(0, 30), st.sampled_from(["", "9-again", "8 again", "noagain"]), st.booleans())
def test_a_line_parses_back(pool: int, quality: str, rote: bool) -> None:
    line = f"cod {pool} {quality.replace(' ', '-')}" + (" rote" if rote else "")
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


@pytest.mark.parametrize(
    ("line", "suggestion"), [("cod 5d10", "cod 5"), ("cod 5 9 again", "cod 5 9-again")]
)
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint


@pytest.mark.parametrize(
    ("line", "same_as"),
    [
        ("4cod", "cod 4"),  # rules K1, K2: Dice Maiden's spelling, 10-again
        ("4cod8", "cod 4 8-again"),
        ("4COD9", "cod 4 9-again"),
        ("4codr", "cod 4 rote"),  # rule K3
        ("4cod10r", "cod 4 rote"),
        ("12cod8r", "cod 12 8-again rote"),
        ("4cod rote", "cod 4 rote"),
    ],
)
def test_dice_maidens_counted_spelling(line: str, same_as: str) -> None:
    assert dicecli.parse(line).body == dicecli.parse(same_as).body


def test_a_counted_line_rolls_as_its_pool() -> None:
    # rules K1, K2: 10 rolls again (into 3), 8 succeeds: 2 successes of 3 dice
    result = roll("3cod", "10,3,8,2")
    assert (result.total, verdict(result)) == (2, "success (2 successes)")


@pytest.mark.parametrize("line", ["4codx", "4cod7"])
def test_a_counted_line_of_no_form_is_refused(line: str) -> None:
    with pytest.raises(DiceSyntaxError, match="4cod"):
        dicecli.parse(line)
