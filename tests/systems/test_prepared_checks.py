"""A game's check is made ready to roll once per parsed line (its prepared step), and
what the step reads from the environment is still read on every roll: the REPL and
``--set`` change named values between rolls of the same line."""

from __future__ import annotations

from pathlib import Path

import pytest

import dicecli
from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import RuleError
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
    rolls: it rolls as the game's ``roll`` (a step made afresh) does."""
    for seed in range(5):
        dicecli.roll(line, seed=seed, values={"Ld": 9, "STR": 2})
    body = parse(line).body
    assert isinstance(body, Check)
    system = registry.system(body.system)
    fresh = system.roll(body, Roller(RandomSource(7)), EMPTY_ENVIRONMENT, line)
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


def test_an_alkemy_difficulty_named_is_looked_up_on_every_roll() -> None:
    """Rule A1: 2 dice of 3 and 4 plus 8 make 15: enough against 15, not against 16."""
    passed = dicecli.roll("alkemy 8 vs Diff", given="3,4", values={"Diff": 15})
    failed = dicecli.roll("alkemy 8 vs Diff", given="3,4", values={"Diff": 16})
    assert (fields(passed)["success"], fields(passed)["target"]) == (True, 15)
    assert (fields(failed)["success"], fields(failed)["target"]) == (False, 16)


def _flat_dice(folder: Path, name: str, face: int) -> Environment:
    """An environment whose Alkemy white die shows ``face`` on every side."""
    path = folder / f"{name}.toml"
    path.write_text(f"[white]\nfaces = [{', '.join([str(face)] * 6)}]\n")
    return Environment(settings={"alkemy.dice_file": str(path)})


def test_the_alkemy_dice_in_force_are_looked_up_on_every_roll(tmp_path: Path) -> None:
    """Rule A8: the same line rolls the dice of the file set for each roll, one after
    another and back again: 6 + 6 + 8, then 1 + 1 + 8."""
    sixes, ones = _flat_dice(tmp_path, "sixes", 6), _flat_dice(tmp_path, "ones", 1)
    totals = [
        dicecli.roll(line, seed=1, environment=env).total
        for env in (sixes, ones, sixes)
        for line in ("alkemy 8 vs 15", "alkemy 8 vs alkemy 3")
    ]
    assert totals == [20, 20, 10, 10, 20, 20]


def test_an_age_setting_is_read_on_every_roll() -> None:
    """A complete tie is re-rolled at most ``age.max_rerolls`` times: two tied rounds
    stop the same line with the setting at 1, and without it the third round decides."""
    line, tied = "age 0 vs age 0", "1,2,3,1,2,3,1,2,3,1,2,3"
    capped = Environment(settings={"age.max_rerolls": "1"})
    with pytest.raises(RuleError, match="after 1 re-rolls"):
        dicecli.roll(line, given=tied, environment=capped)
    result = dicecli.roll(line, given=tied + ",6,6,6,1,1,1")
    assert (fields(result)["rerolls"], fields(result)["winner"]) == (2, 1)
    with pytest.raises(RuleError, match="after 1 re-rolls"):
        dicecli.roll(line, given=tied, environment=capped)


def test_a_warhammer_setting_is_read_on_every_roll() -> None:
    """Rule W3: a MISFIRE on a HIT counts by default, and is ignored with
    ``warhammer.misfire_on_hit=ignore``, roll after roll of the same line."""
    ignore = Environment(settings={"warhammer.misfire_on_hit": "ignore"})
    misfires = [
        fields(dicecli.roll("wfb scatter artillery", given="HIT,MISFIRE", environment=env))[
            "misfire"
        ]
        for env in (EMPTY_ENVIRONMENT, ignore, EMPTY_ENVIRONMENT)
    ]
    assert misfires == [True, False, True]
