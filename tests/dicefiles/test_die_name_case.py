"""Issue 28: dice names match regardless of case (``2dability`` as ``2dAbility``, the
way a player types at the table), and a prefix of one die's name gets it as a hint
(``2dProf``: ``dProficiency``). The Fudge die keeps its lower-case spellings."""

from __future__ import annotations

from pathlib import Path

import pytest

import dicecli
from dicecli import DiceError, Environment
from dicecli.dicefiles.load import read_book
from dicecli.notation.nodes import Dice
from dicecli.notation.sides import DieName

GENESYS = Path(__file__).resolve().parents[2] / "examples" / "genesys-dice.toml"


@pytest.fixture(scope="module")
def genesys() -> Environment:
    return Environment(dice=read_book(GENESYS))


def test_a_lower_case_name_after_a_count_names_a_die() -> None:
    assert dicecli.parse("2dability").body == Dice(2, DieName("ability"))


def test_it_rolls_the_die_of_that_name(genesys: Environment) -> None:
    # examples/genesys-dice.toml: Ability's 2nd face is "success", its 8th two advantages
    typed = dicecli.roll("2dability", given="success,advantage+advantage", environment=genesys)
    capital = dicecli.roll("2dAbility", given="success,advantage+advantage", environment=genesys)
    assert [die.face for die in typed.dice] == ["success", "advantage+advantage"]
    assert [die.die for die in typed.dice] == [die.die for die in capital.dice]
    assert typed.outcome == capital.outcome


@pytest.mark.parametrize("text", ["4df", "2dfkh1", "2dfx2", "dF", "4dF"])
def test_the_fudge_die_keeps_its_spellings(text: str) -> None:
    assert "dF" in str(dicecli.parse(text).body)


@pytest.mark.parametrize("text", ["2dProf", "2dprof", "1dCHALL"])
def test_a_prefix_of_one_name_is_offered(text: str, genesys: Environment) -> None:
    with pytest.raises(DiceError) as caught:
        dicecli.roll(text, seed=1, environment=genesys)
    wanted = "dProficiency" if "rof" in text else "dChallenge"
    assert str(caught.value).endswith(f"; did you mean {wanted}?")


@pytest.mark.parametrize("line", ["1db", "1dability", "1dability kh1", "2dability"])
def test_a_lower_case_die_name_keeps_its_count_when_written_back(line: str) -> None:
    tree = dicecli.parse(line)
    assert isinstance(tree.body, Dice)
    assert dicecli.parse(str(tree)) == tree  # "db" alone would be a name
