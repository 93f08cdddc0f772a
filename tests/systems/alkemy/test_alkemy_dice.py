"""Alkemy dice files: the shipped faces, a player's own faces and symbols, bad files.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import dicecli
from dicecli import DiceError, Environment
from dicecli.systems.alkemy.dice import (
    DiceFileError,
    dice_file_for,
    shipped_dice,
    user_dice_file,
)

SYMBOLS_WHITE = """
description = "my dice"

[white]
faces = [1, 2, 3, 4, 5, 6]
symbols = ["sword", "axe", "mace", "sword", "axe", "mace"]
"""


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty per-user config directory: no real user file changes these tests."""
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def with_file(path: Path) -> Environment:
    return Environment(settings={"alkemy.dice_file": str(path)})


def write(tmp_path: Path, text: str, name: str = "dice.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_shipped_faces_a8_a9() -> None:
    # rule A8: white 1-6, yellow 1-5, red 1-4; rule A9: yellow 1,2,3,4,4,5 and
    # red 1,2,3,3,3,4 are assumed layouts, flagged, without symbols
    dice = shipped_dice()
    assert dice.white.values == (1, 2, 3, 4, 5, 6)
    assert dice.yellow.values == (1, 2, 3, 4, 4, 5)
    assert dice.red.values == (1, 2, 3, 3, 3, 4)
    assert not dice.white.assumed
    assert dice.yellow.assumed
    assert dice.red.assumed
    assert all(dice[colour].symbols is None for colour in ("white", "yellow", "red"))
    assert dice.white.die.name == "alkemy-white"


def test_shipped_dice_mark_the_assumption_where_they_are_written() -> None:
    # rule A9: flagged beside the shipped tables themselves, not only in the docs
    text = (Path(dicecli.__file__).parent / "systems" / "alkemy" / "dice.py").read_text()
    tables = text[text.index("SHIPPED_DICE:") :]
    assert tables.index("ASSUMPTION (rule A9)") < tables.index('"yellow"')


def test_symbols_of_the_kept_pair_are_shown(tmp_path: Path) -> None:
    # rule A8: the pair of symbols on the two kept dice is read after a hit
    env = with_file(write(tmp_path, SYMBOLS_WHITE))
    result = dicecli.roll("alkemy 8 vs 15 +1bonus", given="4,5,1", environment=env)
    assert result.outcome is not None
    facts = dict(result.outcome.fields)
    assert facts["symbols"] == ["sword", "axe"]
    assert "symbols sword + axe" in result.outcome.verdict
    assert [die.face for die in result.dice] == ["4-sword", "5-axe", "1-sword"]


def test_symbols_follow_a_keep_choice(tmp_path: Path) -> None:
    # rule A4: a player may keep lower dice for their symbols
    env = with_file(write(tmp_path, SYMBOLS_WHITE))
    result = dicecli.roll("alkemy 8 vs 10 +1bonus keep 2,3", given="4,2,3", environment=env)
    assert result.outcome is not None
    assert dict(result.outcome.fields)["symbols"] == ["axe", "mace"]


def test_opposed_shows_both_sides_symbols(tmp_path: Path) -> None:
    env = with_file(write(tmp_path, SYMBOLS_WHITE))
    result = dicecli.roll("alkemy 2 vs alkemy 5 red", given="4,4,1,4", environment=env)
    assert result.outcome is not None
    # red keeps the shipped faces and has no symbols
    assert dict(result.outcome.fields)["symbols"] == [["sword", "sword"], None]


@pytest.mark.parametrize("typed", ["4", "4-sword", "4sword", "4s", "4-SWORD"])
def test_given_faces_by_number_or_symbol(tmp_path: Path, typed: str) -> None:
    env = with_file(write(tmp_path, SYMBOLS_WHITE))
    result = dicecli.roll("alkemy 0", given=f"{typed},3", environment=env)
    assert result.dice[0].face == "4-sword"


def test_given_symbol_picks_between_equal_numbers(tmp_path: Path) -> None:
    dice = (
        "[yellow]\nfaces = [1, 2, 3, 4, 4, 5]\n"
        'symbols = ["axe", "axe", "axe", "sword", "mace", "axe"]\n'
    )
    env = with_file(write(tmp_path, dice))
    result = dicecli.roll("alkemy 0 yellow", given="4m,4", environment=env)
    assert [die.face for die in result.dice] == ["4-mace", "4-sword"]


def test_custom_file_replaces_faces_and_drops_the_assumption(tmp_path: Path) -> None:
    # rule A9: the user replaces a colour's faces
    env = with_file(write(tmp_path, "[red]\nfaces = [1, 1, 2, 2, 4, 4]\n"))
    result = dicecli.roll("alkemy 0 red", given="4,4", environment=env)
    assert result.total == 8
    assert result.outcome is not None
    assert not result.outcome.notes
    with pytest.raises(DiceError):
        dicecli.roll("alkemy 0 red", given="3,4", environment=env)


def test_colours_left_out_keep_the_shipped_faces(tmp_path: Path) -> None:
    env = with_file(write(tmp_path, SYMBOLS_WHITE))
    result = dicecli.roll("alkemy 0 yellow", given="5,4", environment=env)
    assert result.total == 9
    assert result.outcome is not None
    assert "A9" in " ".join(result.outcome.notes)


def test_symbols_alone_keep_the_shipped_faces_and_their_assumption(tmp_path: Path) -> None:
    text = '[red]\nsymbols = ["axe", "axe", "axe", "sword", "mace", "axe"]\n'
    env = with_file(write(tmp_path, text))
    result = dicecli.roll("alkemy 0 red", given="3,4", environment=env)
    assert [die.face for die in result.dice] == ["3-axe", "4-axe"]
    assert result.outcome is not None
    assert "A9" in " ".join(result.outcome.notes)


def test_user_config_file_is_used_without_a_setting(config_home: Path) -> None:
    path = config_home / "dicecli" / "alkemy-dice.toml"
    path.parent.mkdir(parents=True)
    path.write_text(SYMBOLS_WHITE)
    assert dice_file_for(Environment()) == path
    result = dicecli.roll("alkemy 0", given="1,2")
    assert result.dice[0].face == "1-sword"


def test_setting_wins_over_the_user_file(config_home: Path, tmp_path: Path) -> None:
    user = config_home / "dicecli" / "alkemy-dice.toml"
    user.parent.mkdir(parents=True)
    user.write_text(SYMBOLS_WHITE)
    mine = write(tmp_path, "[white]\nfaces = [6, 6, 6, 6, 6, 6]\n", "mine.toml")
    assert dicecli.roll("alkemy 0", given="6,6", environment=with_file(mine)).total == 12


def test_user_file_default_location(monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path.home()
    assert user_dice_file({}) == home / ".config" / "dicecli" / "alkemy-dice.toml"
    # a relative XDG_CONFIG_HOME is ignored, as the XDG spec says
    assert user_dice_file({"XDG_CONFIG_HOME": "rel"}) == user_dice_file({})
    assert user_dice_file({"XDG_CONFIG_HOME": "/x"}) == Path("/x/dicecli/alkemy-dice.toml")


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, "[white]\nfaces = [6, 6, 6, 6, 6, 6]\n")
    env = with_file(path)
    assert dicecli.roll("alkemy 0", given="6,6", environment=env).total == 12
    path.write_text("[white]\nfaces = [1, 1, 1, 1, 1, 5]\n")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert dicecli.roll("alkemy 0", given="5,5", environment=env).total == 10


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[white\nfaces = 1", "not valid TOML"),
        ("[green]\nfaces = [1, 2, 3, 4, 5, 6]\n", "unknown colour 'green'"),
        ("white = 3\n", r"\[white\] must be a table"),
        ("[white]\nfaces = [1, 2, 3, 4, 5]\n", r"give 6 whole numbers"),
        ("[white]\nfaces = [1, 2, 3, 4, 5, 'x']\n", "'x' is not a whole number"),
        ("[white]\nfaces = [1, 2, 3, 4, 5, -1]\n", "-1 is not a whole number >= 0"),
        ("[white]\nfaces = [1, 2, 3, 4, 5, true]\n", "True is not a whole number"),
        ("[white]\nface = [1, 2, 3, 4, 5, 6]\n", "unknown key 'face'"),
        ('[white]\nsymbols = ["sword"]\n', "give 6 symbols"),
        ('[white]\nsymbols = ["sword", "axe", "mace", "sword", "axe", "club"]\n', "'club'"),
        ("[white]\nassumption = 'yes'\n", "assumption: write true or false"),
    ],
)
def test_bad_files_name_the_file_and_the_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DiceFileError, match=problem) as caught:
        dicecli.roll("alkemy 8 vs 15", seed=1, environment=with_file(path))
    assert str(path) in caught.value.message
    assert isinstance(caught.value, DiceError)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(DiceFileError, match="cannot read it") as caught:
        dicecli.roll("alkemy 8 vs 15", seed=1, environment=with_file(path))
    assert str(path) in caught.value.message
