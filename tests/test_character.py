"""Character files (TOML) -> Environment: stats as numbers, saved rolls as notation.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import dicecli
from dicecli.character import CharacterFileError, load_character, read_character
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.notation.grammar import parse
from dicecli.notation.nodes import Dice

EXAMPLE = Path(__file__).parent.parent / "examples" / "character.toml"


def invoke_roll(*args: str) -> tuple[int, str]:
    """The typer command line on ``args``: its exit status and output."""
    from typer.testing import CliRunner

    from dicecli.cli import route, typer_app

    result = CliRunner().invoke(typer_app(), route(list(args)))
    return result.exit_code, result.output


def sheet(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "character.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_character_loads() -> None:
    env = load_character(EXAMPLE, Environment())
    assert env.value("STR") == 3
    assert env.value("Ld") == 8
    assert env.value("MAG") == -1
    assert env.roll("attack") == parse("1d20+5").body
    assert read_character(EXAMPLE).name == "Brannoc of the Grey Wardens"


def test_age_reads_the_loaded_ability() -> None:
    # rules G1, G2: 3D6 = 5 + 2 + 1 = 8, + STR 3 + 2 = 13 >= 13: success
    env = load_character(EXAMPLE, Environment())
    result = dicecli.roll("age STR+2 vs 13", given="5,2,1", environment=env)
    assert result.total == 13
    assert result.outcome is not None
    assert result.outcome.passed is True


def test_a_saved_roll_uses_the_stats_and_is_rolled_each_time() -> None:
    env = load_character(EXAMPLE, Environment())
    assert dicecli.roll("damage", given="4,5", environment=env).total == 12  # 4 + 5 + STR 3
    assert dicecli.roll("damage", given="1,1", environment=env).total == 5


def test_loading_keeps_other_names_and_replaces_the_same_names() -> None:
    before = Environment(values={"STR": 9, "Luck": 2}, settings={"alkemy.dice_file": "x"})
    env = load_character(EXAMPLE, before)
    assert env.value("STR") == 3
    assert env.value("Luck") == 2
    assert env.setting("alkemy.dice_file") == "x"


def test_a_stat_replaces_a_saved_roll_of_the_same_name() -> None:
    env = load_character(EXAMPLE, Environment(rolls={"Ld": Dice(2, 6)}))
    assert env.value("Ld") == 8
    assert env.roll("Ld") is None


def test_both_tables_are_optional(tmp_path: Path) -> None:
    character = read_character(sheet(tmp_path, 'name = "Nobody"\n'))
    assert character.names() == ()
    empty = load_character(sheet(tmp_path, ""), Environment())
    assert empty == Environment(character="character.toml")  # a sheet, holding nothing


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[stats\nSTR = 3", "not valid TOML"),
        ("hp = 3", "unknown key 'hp' in the file"),
        ("stats = 3", "'stats' must be a table"),
        ("name = 3", "'name' must be text"),
        ('[stats]\nSTR = "3"', "STR must be a whole number"),
        ("[stats]\nSTR = 3.5", "STR must be a whole number"),
        ("[stats]\nSTR = true", "STR must be a whole number"),
        ('[stats]\n"my stat" = 3', "'my stat' is not a name"),
        ("[stats]\nd6 = 3", "'d6' reads as dice notation"),
        ("[stats]\nex6 = 3", "'ex6' reads as dice notation"),  # an Exalted line, alone
        ("[stats]\ndBoost = 3", "'dBoost' reads as dice notation"),  # a dice file's die
        ("[rolls]\nattack = 5", "must be dice notation in quotes"),
        ('[rolls]\nattack = "1d20+"', "attack = '1d20+': expected"),
        ('[rolls]\nattack = "1d20+"', "at column 6"),
        ("[stats]\nSTR = 3\nstr = 4", "'STR' and 'str' are the same name"),
        ('[stats]\nattack = 3\n[rolls]\nattack = "d20"', "'attack' and 'attack'"),
    ],
)
def test_a_bad_file_says_what_is_wrong(tmp_path: Path, text: str, says: str) -> None:
    path = sheet(tmp_path, text)
    with pytest.raises(CharacterFileError) as caught:
        load_character(path, Environment())
    assert says in caught.value.message
    assert str(path) in caught.value.message
    assert isinstance(caught.value, DiceError)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CharacterFileError, match="no such file"):
        load_character(tmp_path / "nobody.toml", Environment())


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(CharacterFileError, match="a folder"):
        load_character(tmp_path, Environment())


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "character.toml"
    path.write_bytes(b'name = "\xff"\n')
    with pytest.raises(CharacterFileError):
        load_character(path, Environment())


def test_a_game_line_in_rolls_is_a_saved_check(tmp_path: Path) -> None:
    # rule W1: a Leadership test passes when 2d6 is at most the Leadership
    path = sheet(tmp_path, '[stats]\nLd = 8\n[rolls]\npanic = "wfb ld Ld"')
    env = load_character(path, Environment())
    assert env.check("PANIC") == "wfb ld Ld"
    code, output = invoke_roll("--plain", "--given", "5,4", "--character", str(path), "panic")
    assert code == 1  # 9 > 8: failed
    assert output == "9\tpanic\tLd Ld(8) = 8: [5, 4] => fail (9 > 8)\n"
