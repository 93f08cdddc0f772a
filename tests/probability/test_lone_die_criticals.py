"""The chances of criticals read off a lone kept die's own weights (issue 25: the first
``odds 2d20kh1`` loads no module of criticals) are exactly those the module of
criticals computes by counting, and lines it does not cover go to that module."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.notation.nodes import Check, Comparison, Expr
from dicecli.notation.reader import parse
from dicecli.probability.criticals import critical_chances
from dicecli.probability.report import _lone_die_criticals, odds
from dicecli.probability.weights import question

LONE = [
    "d20",
    "2d20kh1",
    "2d20kl1",
    "2d20dh1",
    "3d20km1",
    "5d20kh3kl1",
    "2d20kh1kl1",
    "d20 + 5",
    "d20ro1",
    "d20r1",
    "d20r<3min5",
    "d20min5",
    "d20max15",
    "3d20kh1 + d20",
    "d20 >= 15",
    "2d20kh1 - d20 > 3",
    "d20 + d20",
    "1d20 + 1d4",
    "d20 * 2",
    "{d20, d20}kh1",
    "d6cs6",
    "d6cs>=5cf1",
    "d%cs100",
    "d20cs>=19",
    "dFcs1",
    "d20cs20cf<3ro1",
    "3d6min3kh1cs3",
    "d20!",  # no critical: explosions mark none by default
]


def body_of(text: str) -> Expr | Comparison:
    body = parse(text).body
    assert not isinstance(body, Check)
    return body


@pytest.mark.parametrize("text", LONE)
def test_lone_kept_dice_match_the_module_of_criticals(text: str) -> None:
    body = body_of(text)
    with question():
        quick = _lone_die_criticals(body)
        counted = critical_chances(body, EMPTY_ENVIRONMENT)
    assert quick == counted


def test_a_lone_d20_with_advantage() -> None:
    """A natural 20 unless both dice miss it: 1 - (19/20)**2; a natural 1 only when
    both show it."""
    chances = dict(odds("2d20kh1").chances)
    assert chances == {"critical_success": Fraction(39, 400), "critical_failure": Fraction(1, 400)}


@pytest.mark.parametrize("text", ["4d6cs6", "d20u", "2d20ukh1", "4d20!cs20", "(d4)d20", "6d6>4cs6"])
def test_other_dice_go_to_the_module_of_criticals(text: str) -> None:
    with question():
        assert _lone_die_criticals(body_of(text)) is None


@pytest.mark.parametrize(
    ("text", "kind", "chance"),
    [
        # the imploding die's face marks it; the subtracted die is never marked
        # (docs/grammar.md, "Implode"), and the term's total is not the die's value
        ("d20i1", "critical_failure", Fraction(1, 20)),
        ("d20i1 + 5 >= 10", "critical_failure", Fraction(1, 20)),
        ("d6i1cf1", "critical_failure", Fraction(1, 6)),
        ("d6i3cf<=2", "critical_failure", Fraction(1, 3)),
        # at least one 1 among three dice: 1 - (5/6)**3
        ("3d6i1cf1", "critical_failure", 1 - Fraction(5, 6) ** 3),
        # the highest die is kept whatever implodes: a 6 among four dice
        ("4d6i1kh3cs6", "critical_success", 1 - Fraction(5, 6) ** 4),
        # once a KeyError: a die of 2 or less among two, then three
        ("2d6i2cf<=2", "critical_failure", 1 - Fraction(2, 3) ** 2),
        ("3d6i2cf<=2", "critical_failure", 1 - Fraction(2, 3) ** 3),
    ],
)
def test_criticals_of_imploding_dice_are_those_of_their_faces(
    text: str, kind: str, chance: Fraction
) -> None:
    assert dict(odds(text).chances)[kind] == chance
