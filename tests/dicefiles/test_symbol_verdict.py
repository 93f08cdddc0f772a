"""Issue 28: a pool of symbol dice reads as a check when its dice file names the symbol
a success needs (``succeeds = "success"``, Genesys): the verdict is the net result in
words first (``success with 3 advantage``, ``failure with 2 threat``), it passes or
fails (its colour, the exit status, ``-n``'s count of passes); a file without it keeps
the counts and the net as before."""

from __future__ import annotations

from pathlib import Path

import pytest

import dicecli
from dicecli import DiceError, Environment
from dicecli.dicefiles.load import parse_book, read_book
from dicecli.tally import Tally

GENESYS = Path(__file__).resolve().parents[2] / "examples" / "genesys-dice.toml"
NO_RULE = """
cancel = [["success", "failure"], ["advantage", "threat"]]
[Good]
faces = ["success", "advantage", "success+advantage"]
[Bad]
faces = ["failure", "threat", ""]
"""


@pytest.fixture(scope="module")
def genesys() -> Environment:
    return Environment(dice=read_book(GENESYS))


def test_net_successes_pass_with_what_else_is_left(genesys: Environment) -> None:
    # 2 success + 1 advantage against 1 failure: 1 success, 1 advantage left
    result = dicecli.roll(
        "2dAbility + dDifficulty", given="success+advantage,success,failure", environment=genesys
    )
    assert result.outcome is not None
    assert result.outcome.verdict == ("success with 1 advantage; 2 success, 1 advantage, 1 failure")
    assert result.outcome.passed is True
    assert dict(result.outcome.fields)["success"] is True
    assert dict(result.outcome.fields)["net"] == {"success": 1, "advantage": 1}


def test_cancelled_successes_fail_with_the_threat_left(genesys: Environment) -> None:
    result = dicecli.roll(
        "dAbility + 2dDifficulty", given="success,failure+threat,threat", environment=genesys
    )
    assert result.outcome is not None
    assert result.outcome.verdict == "failure with 2 threat; 1 success, 1 failure, 2 threat"
    assert result.failed


def test_a_run_counts_how_many_succeeded(genesys: Environment) -> None:
    tally = Tally()
    for faces in ("success,blank", "blank,failure", "success+success,failure"):
        tally.add(dicecli.roll("dAbility + dDifficulty", given=faces, environment=genesys))
    assert tally.line() == "3 rolls: 2 of 3 passed; symbols: 3 success, 2 failure"


def test_a_file_without_the_rule_counts_and_nets_as_before() -> None:
    env = Environment(dice=parse_book(NO_RULE, "mine.toml"))
    result = dicecli.roll("dGood + dBad", given="success+advantage,threat", environment=env)
    assert result.outcome is not None
    assert result.outcome.verdict == (
        "1 success, 1 advantage, 1 threat; net: 1 success, 0 advantage"
    )
    assert result.outcome.passed is None


def test_the_rule_names_a_symbol_of_the_file() -> None:
    with pytest.raises(DiceError) as caught:
        parse_book('succeeds = "win"\n' + NO_RULE, "mine.toml")
    assert str(caught.value) == (
        "dice file mine.toml, line 1: succeeds: no face shows 'win' (symbols: success, "
        "advantage, failure, threat)"
    )
