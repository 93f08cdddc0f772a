"""Implode, Dice Maiden's ``i`` (issue 26; github.com/Humblemonk/dicemaiden-rs,
roll_syntax.md, "Core Modifiers" and "How Modifiers Combine"): each die first rolled
that stands at N or less (a bare ``i``: 1) rolls one more die, subtracted from the
total; imploded dice never join the pool, so keep/drop and counting never see them.
docs/grammar.md, "Implode". Given dice, then exact odds against brute force (the
evaluator) and against the meaning worked out by hand over every face."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from brute import brute_distribution

import dicecli
from dicecli import parse
from dicecli.errors import DiceError
from dicecli.notation.nodes import Dice
from dicecli.notation.reader import parse_as
from dicecli.render.text import face_text
from dicecli.results import IMPLOSION


def by_hand(
    dice: Sequence[Sequence[int]], value: Callable[[tuple[int, ...]], int]
) -> dict[int, Fraction]:
    """The distribution of ``value`` over every way dice with these faces fall."""
    tally: Counter[int] = Counter(value(faces) for faces in itertools.product(*dice))
    ways = sum(tally.values())
    return {total: Fraction(n, ways) for total, n in sorted(tally.items())}


def odds(text: str) -> dict[int, Fraction]:
    found = dicecli.odds(text).distribution
    assert found is not None
    return found.as_dict()


@pytest.mark.parametrize(
    ("text", "implode", "canonical"),
    [
        ("4d6i", 1, "4d6i1"),  # a bare i: 1 or less
        ("4d6 i1", 1, "4d6i1"),
        ("6d10 i3", 3, "6d10i3"),
        ("4d6 i1 k3", 1, "4d6i1kh3"),
        ("4d6i1k3", 1, "4d6i1kh3"),
        ("4d6I2", 2, "4d6i2"),
        ("4d6ir1i1", 1, "4d6r<=1i1"),  # ir stays the re-roll
        ("4d6i1ie6", 1, "4d6!>=6i1"),  # ie stays the explosion
    ],
)
def test_spellings(text: str, implode: int, canonical: str) -> None:
    node = parse(text).body
    assert isinstance(node, Dice)
    assert node.modifiers.implode == implode
    assert str(node) == canonical
    assert parse(canonical).body == node


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4d6i0", "N is 1 or more"),  # Dice Maiden: "Cannot implode on 0"
        ("6d10i1>=7", "a term that counts successes has none"),
        ("6d10 i1 t7", "a term that counts successes has none"),
        ("4d6i1u", "unique dice"),
        ("4d6i1min2", "clamps"),
        ("{4d6}i1", "a group cannot implode"),
        ("4d6i1i2", "a second implode modifier"),
        ("1d20 if", "unexpected 'if'"),  # i before a letter is no implosion
    ],
)
def test_refused(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse(text)


@pytest.mark.parametrize(
    ("text", "given", "total", "values"),
    [
        # roll_syntax.md: "subtracts an extra die instead of adding one"
        ("4d6i1", "1,5,3,6,4", 11, [1, 5, 3, 6, -4]),
        ("4d6i1", "2,5,3,6", 16, [2, 5, 3, 6]),  # nothing at 1: no die added
        ("4d6i2", "1,2,3,6,4,5", 3, [1, 2, 3, 6, -4, -5]),  # one die for each
        # "Imploded dice never join the pool — they can't be kept, dropped, or counted":
        # the 1 is dropped and still implodes; the 6 subtracted is not kept over
        ("4d6i1kh3", "1,5,3,6,6", 8, [1, 5, 3, 6, -6]),
        # the dice an explosion adds never implode: the 1 the 6 adds stands
        ("2d6!o>=6i1", "6,1,3", 10, [6, 1, 3]),
        ("1d10!o>=10i1", "1,7", -6, [1, -7]),
        # re-rolls come first: the die stands on 4 after its re-roll, no implosion
        ("1d6r1i1", "1,4", 4, [1, 4]),
        ("1d6ro<=2i2", "1,2,5", -3, [1, 2, -5]),  # re-rolled once onto 2: implodes
    ],
)
def test_given_dice(text: str, given: str, total: int, values: list[int]) -> None:
    result = dicecli.roll(text, given=given)
    assert result.total == total
    assert [die.value for die in result.dice] == values


def test_the_subtracted_die_is_marked_and_shown_with_its_minus() -> None:
    result = dicecli.roll("2d6i1", given="1,4,3")
    added = result.dice[-1]
    assert (added.face, added.value, added.marks, added.kept) == ("3", -3, (IMPLOSION,), True)
    assert face_text(added) == "-3"


def test_odds_by_hand() -> None:
    """1d6 i1: a 1 subtracts a second d6; 3d4 i2 k2: the two highest, less a d4 for each
    die of 2 or less, kept or not."""
    assert odds("1d6i1") == by_hand([range(1, 7)] * 2, lambda f: f[0] - f[1] if f[0] == 1 else f[0])

    def kept_two(faces: tuple[int, ...]) -> int:
        dice, added = faces[:3], faces[3:]
        imploded = [added[i] for i, value in enumerate(dice) if value <= 2]
        return sum(sorted(dice)[1:]) - sum(imploded)

    # every way with three extra d4 drawn; only those an implosion uses count
    assert odds("3d4i2kh2") == by_hand([range(1, 5)] * 6, kept_two)


@pytest.mark.parametrize(
    "text",
    [
        "3d4i1",
        "3d4i2",
        "2d6i6",
        "3d4i1kh2",
        "3d4i2kl1",
        "4d3i1dl1",
        "4d4i2km2",
        "4d4i1dl1kh2",
        "2d4ro1i2",
        "2d4ro<=2i2",
        "2d4!o>=4i1",
        "2d4!!o>=4i2",
        "2d4!po i1",
        "1d6i1 + 2d4i2",
        "(1d2)d4i1",
    ],
)
def test_exact_odds_equal_brute_force(text: str) -> None:
    assert odds(text) == brute_distribution(text, max_dice=10)


def test_endless_explosions_beside_an_implosion() -> None:
    """``1d10 i1 ie10``: the chain followed to the precision, as for any explosion."""
    found = dicecli.odds("1d10 i1 ie10").distribution
    assert found is not None
    by_die = dicecli.odds("1d10 ie10").distribution
    assert by_die is not None
    # a 1 (chance 1/10) subtracts a d10 (mean 5.5) and adds nothing else
    assert abs(float(found.mean()) - (float(by_die.mean()) - 0.55)) < 1e-9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d6i6!", "both implodes and explodes"),
        ("3d6i1!kh2", "keep/drop over dice that explode and implode"),
    ],
)
def test_odds_not_worked_out_are_refused(text: str, message: str) -> None:
    dicecli.roll(text, seed=1)  # rolled all the same
    with pytest.raises(DiceError, match=message):
        dicecli.odds(text)


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("4d6 i1", "4d6i1"),
        ("4d6 i", "4d6i1"),
        ("(Damage) 4d6 i1", "4d6i1"),
        ("4d6e6i1", "4d6!o>=6i1"),
        ("1d10 e10 i1", "d10!o>=10i1"),
        ("4d6ir1i1", "4d6r<=1i1"),
        ("4d6 i1 + 2d8", "4d6i1 + 2d8"),
        # roll_syntax.md: "i# therefore does nothing on a success-counting roll"
        ("6d10 i1 t7", "6d10>=7"),
    ],
)
def test_dice_maiden_reading(line: str, read: str) -> None:
    assert str(parse_as(line, "dicemaiden").body) == read


def test_dice_maiden_implosion_before_a_reroll_is_refused() -> None:
    """Dice Maiden applies ``i`` and ``r`` in the order written: ``i1 r1`` judges the
    first face; dicecli re-rolls first, so that line is refused, not read otherwise."""
    with pytest.raises(DiceError, match="write the re-roll first"):
        parse_as("4d6 i1 r1", "dicemaiden")
