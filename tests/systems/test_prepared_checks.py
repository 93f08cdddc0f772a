"""A game's check is made ready to roll once per parsed line (its prepared step), and
what the step reads from the environment is still read on every roll: the REPL and
``--set`` change named values between rolls of the same line."""

from __future__ import annotations

import pytest

import dicecli
from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.notation.nodes import Check
from dicecli.notation.reader import parse
from dicecli.results import RollResult
from dicecli.rolling.evaluate import check_step
from dicecli.rolling.sources import RandomSource, Roller
from dicecli.systems import registry

LINES = [
    "wfb ld 8",
    "wfb break 8 lost by 3",
    "wfb scatter 2D6",
    "age 3 vs 13",
    "age 2 vs age 3",
    "alkemy 8 vs 15 +1bonus",
]


def fields(result: RollResult) -> dict[str, object]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


@pytest.mark.parametrize("line", LINES)
def test_a_parsed_line_keeps_its_step(line: str) -> None:
    body = parse(line).body
    assert isinstance(body, Check)
    again = parse(line).body
    assert isinstance(again, Check)
    assert check_step(body) is check_step(again)


@pytest.mark.parametrize("line", LINES)
def test_a_kept_step_rolls_as_a_fresh_one(line: str) -> None:
    """The step kept for the line, rolled many times already, keeps nothing from those
    rolls: it rolls as the game's ``resolve`` (a step made afresh) does."""
    for seed in range(5):
        dicecli.roll(line, seed=seed, values={"Ld": 9, "STR": 2})
    body = parse(line).body
    assert isinstance(body, Check)
    system = registry.system(body.system)
    fresh = system.resolve(body, Roller(RandomSource(7)), EMPTY_ENVIRONMENT, line)
    assert dicecli.roll(line, seed=7) == fresh


def test_a_leadership_named_is_looked_up_on_every_roll() -> None:
    """Rule W9: 2D6 of 7 passes against Ld 8 and fails against Ld 6."""
    passed = dicecli.roll("wfb ld Ld", given="3,4", values={"Ld": 8})
    failed = dicecli.roll("wfb ld Ld", given="3,4", values={"Ld": 6})
    assert (fields(passed)["success"], fields(passed)["target"]) == (True, 8)
    assert (fields(failed)["success"], fields(failed)["target"]) == (False, 6)


def test_an_age_ability_is_looked_up_on_every_roll() -> None:
    """Rule G1: 3D6 of 12 plus STR against 13 passes with STR 1, fails with STR 0."""
    passed = dicecli.roll("age STR vs 13", given="3,4,5", values={"STR": 1})
    failed = dicecli.roll("age STR vs 13", given="3,4,5", values={"STR": 0})
    assert (passed.total, fields(passed)["success"]) == (13, True)
    assert (failed.total, fields(failed)["success"]) == (12, False)


def test_an_alkemy_characteristic_is_looked_up_on_every_roll() -> None:
    """Rule A1: the characteristic named is added as it is set at the roll."""
    high = dicecli.roll("alkemy Mind vs 15", seed=3, values={"Mind": 8})
    low = dicecli.roll("alkemy Mind vs 15", seed=3, values={"Mind": 5})
    assert (fields(high)["characteristic"], fields(low)["characteristic"]) == (8, 5)
    assert high.total is not None
    assert low.total is not None
    assert high.total - low.total == 3
