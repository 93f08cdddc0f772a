"""Dice Maiden's game aliases added for issue 26 (github.com/Humblemonk/dicemaiden-rs,
roll_syntax.md, "Game System Aliases" and "Other Popular Systems"; the meanings from
its roller.rs): Cyberpunk Red's ``cpr``, Mothership's ``+ms45``/``-ms45``, Earthdawn's
``ed15``/``ed4e15``, plot dice ``3dp`` and Wild Worlds' ``ww4c2``. Each is checked with
given dice and its exact odds against the meaning worked out by hand over every face.
Tabled in docs/grammar.md, "Dialects"."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation.dicemaiden import alias_line

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
    return found.as_dict()


def success(line: str) -> Fraction:
    return dict(dicecli.odds(line, environment=MAIDEN).chances)["success"]


D10 = range(1, 11)


@pytest.mark.parametrize(
    ("line", "given", "total"),
    [
        # roller.rs apply_cyberpunk_red_mechanics: a 10 adds one d10, a 1 subtracts one
        ("cpr", "10,7", 17),
        ("cpr", "10,10", 20),  # the added die does not explode again
        ("cpr + 5", "1,7", -1),
        ("cpr - 2", "6", 4),
    ],
)
def test_cyberpunk_red_given_dice(line: str, given: str, total: int) -> None:
    assert dicecli.roll(line, given=given, environment=MAIDEN).total == total


def test_cyberpunk_red_odds_by_hand() -> None:
    def check(faces: tuple[int, ...]) -> int:
        first, second = faces
        return first + second if first == 10 else first - second if first == 1 else first

    assert maiden_odds("cpr") == by_hand([D10, D10], check)


def test_mothership_advantage_passes_when_either_die_passes() -> None:
    """roller.rs handle_mothership_roll: with advantage the better result (any pass is
    better than any failure), with disadvantage the worse."""
    assert success("ms45") == Fraction(45, 100)
    assert success("+ms45") == 1 - Fraction(55, 100) ** 2
    assert success("-ms45") == Fraction(45, 100) ** 2
    assert success("+ms") == 1 - Fraction(50, 100) ** 2  # the default stat, 50
    with pytest.raises(DiceError, match="stat is 1 to 99"):
        dicecli.roll("+ms100", environment=MAIDEN)


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("ed1", "1d4!-2"),
        ("ed7", "1d12!"),
        ("ed15", "1d12!+2d6!"),  # roll_syntax.md's example step
        ("ed4e15", "1d12!+2d6!"),
        ("ed18", "1d12!+1d10!+1d8!"),
        ("ed4e19", "1d20!+2d6!"),  # one d20 more each eleven steps
        ("ed4e30", "2d20!+2d6!"),
        ("ed4e100", "8d20!+2d10!"),
    ],
)
def test_earthdawn_steps(line: str, read: str) -> None:
    assert alias_line(line) == read


def test_earthdawn_dice_explode_on_their_highest_face() -> None:
    result = dicecli.roll("ed15", given="12,3,6,2,4", environment=MAIDEN)
    assert result.total == 12 + 3 + 6 + 2 + 4
    with pytest.raises(DiceError, match="steps are 1 to 18 here, not 19"):
        dicecli.roll("ed19", environment=MAIDEN)  # the first edition's own table
    with pytest.raises(DiceError, match="steps are 1 to 100 here, not 101"):
        dicecli.roll("ed4e101", environment=MAIDEN)


def test_plot_dice() -> None:
    """roll_syntax.md: 1 = COMPLICATION +2, 2 = COMPLICATION +4, 3-4 blank, 5-6
    OPPORTUNITY; roller.rs apply_plot_die_conversion totals the complications."""
    assert dicecli.roll("3dp", given="2,4,0", environment=MAIDEN).total == 6  # faces 1, 2, 5
    worth = {1: 2, 2: 4, 3: 0, 4: 0, 5: 0, 6: 0}
    assert maiden_odds("2dp") == by_hand([range(1, 7)] * 2, lambda f: sum(worth[x] for x in f))
    assert maiden_odds("dp") == by_hand([range(1, 7)], lambda f: worth[f[0]])


def test_wild_worlds() -> None:
    """roller.rs apply_wild_worlds_mechanics: cut the highest dice, then the highest of
    the rest is the result."""
    assert dicecli.roll("ww4c2", given="6,5,3,2", environment=MAIDEN).total == 3
    assert dicecli.roll("ww3", given="2,5,4", environment=MAIDEN).total == 5
    assert maiden_odds("ww4c2") == by_hand([range(1, 7)] * 4, lambda f: sorted(f)[1])
    with pytest.raises(DiceError, match="cannot cut 3 of 3 dice"):
        dicecli.roll("ww3c3", environment=MAIDEN)


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("2hsn", "2d6"),  # normal damage: the dice
        ("2.5hsn", "2d6+1d3"),  # half a die is a 1d3
        ("3hsh", "3d6"),  # to hit: always 3d6
        ("2hsh", "3d6"),
        ("3hsk", "(3d6)*1d3"),  # killing: STUN = BODY times 1d3
        ("2.5hsk", "(2d6+1d3)*1d3"),  # roll_syntax.md: 2d6 + 1d3 hsk
        ("2hsk1", "(2d6+1d3)*1d3"),  # "alternative fractional notation"
        ("hsk", "(1d6)*1d3"),
    ],
)
def test_hero_system(line: str, read: str) -> None:
    assert alias_line(line) == read


def test_hero_system_killing_odds_by_hand() -> None:
    """roller.rs: killing damage's total is STUN, BODY (the dice total) times 1d3."""
    assert dicecli.roll("2hsk1", given="4,6,5,2", environment=MAIDEN).total == (4 + 6 + 3) * 1
    d3 = (1, 1, 2, 2, 3, 3)  # dicecli's D3 is a d6 halved, rounded up (rule N4)
    assert maiden_odds("hsk") == by_hand([range(1, 7), range(1, 7)], lambda f: f[0] * d3[f[1] - 1])
    with pytest.raises(DiceError, match="write hsk1"):
        alias_line("2hsk2")
