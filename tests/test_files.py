"""The user's files (dicecli/files.py): only regular files are read, never waited on,
with a size cap; TOML too deep to read, wrong types and binary are one-line errors
naming the file; the messages are pinned here (docs/limits.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from dicecli.character import CharacterFileError, read_character
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.files import MAX_FILE_BYTES, FileError, loads_toml, read_limited
from dicecli.systems.alkemy import dice as alkemy_dice

Maker = Callable[[Path], Path]


def fifo(folder: Path) -> Path:
    path = folder / "pipe.toml"
    os.mkfifo(path)
    return path


def huge(folder: Path) -> Path:
    path = folder / "huge.toml"
    path.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    return path


def binary(folder: Path) -> Path:
    path = folder / "binary.toml"
    path.write_bytes(bytes(range(256)) * 4)
    return path


def deep(folder: Path) -> Path:
    path = folder / "deep.toml"
    path.write_text("x = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    return path


def loop(folder: Path) -> Path:
    path = folder / "loop.toml"
    path.symlink_to(folder / "loop.toml")
    return path


def missing(folder: Path) -> Path:
    return folder / "missing.toml"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda folder: Path("/dev/zero"), "not a regular file (a device, a pipe or a socket)"),
        (fifo, "not a regular file (a device, a pipe or a socket)"),
        (lambda folder: folder, "is a folder, not a file"),
        (huge, "larger than the limit of 1,048,576 bytes"),
        (binary, "not UTF-8 text"),
        (deep, "not usable TOML: arrays or tables nested too deeply"),
        (loop, "Too many levels of symbolic links"),
        (missing, "no such file"),
    ],
)
def test_a_character_file_that_cannot_be_used_is_one_error_naming_it(
    tmp_path: Path, make: Maker, reason: str
) -> None:
    path = make(tmp_path)
    with pytest.raises(CharacterFileError) as caught:
        read_character(path)
    assert caught.value.show() == f"error: character file {path}: {reason}"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda folder: Path("/dev/zero"), "not a regular file (a device, a pipe or a socket)"),
        (fifo, "not a regular file (a device, a pipe or a socket)"),
        (huge, "larger than the limit of 1,048,576 bytes"),
        (binary, "not UTF-8 text"),
    ],
)
def test_a_dice_file_that_cannot_be_used_is_one_error_naming_it(
    tmp_path: Path, make: Maker, reason: str
) -> None:
    path = make(tmp_path)
    env = Environment(settings={"alkemy.dice_file": str(path)})
    with pytest.raises(DiceError) as caught:
        alkemy_dice.dice_for(env)
    assert reason in caught.value.message
    assert str(path) in caught.value.message


def test_a_dice_file_nested_too_deeply_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DiceError, match="nested too deeply"):
        alkemy_dice.parse_dice_file("x = " + "[" * 50_000 + "]" * 50_000, "deep.toml", None)


@pytest.mark.parametrize(
    "text",
    ["[" + ".".join(["a"] * 100_000) + "]", "a" + ".b" * 64 + " = 1", "[a . b" + " . c" * 70 + "]"],
)
def test_a_name_of_too_many_dotted_parts_is_an_error(text: str) -> None:
    # the TOML reader took 109 s over a header of 160,000 parts: refused before it
    with pytest.raises(FileError, match="line 1 names a table or key of more than 64"):
        loads_toml(text)


def test_a_name_of_many_parts_within_the_bound_and_dots_in_text_are_read() -> None:
    deep = "[" + ".".join(["a"] * 63) + "]\nx = 1\n"
    ellipsis = 'words = """\n' + "." * 5_000 + "\n" + "A sentence. " * 70 + '\n"""\n'
    assert loads_toml(ellipsis + deep)["words"] == "." * 5_000 + "\n" + "A sentence. " * 70 + "\n"


def test_a_file_within_the_cap_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "exact.toml"
    path.write_bytes(b"#" * MAX_FILE_BYTES)
    assert len(read_limited(path)) == MAX_FILE_BYTES


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "secret.toml"
    path.write_text("", encoding="utf-8")
    path.chmod(0)
    with pytest.raises(FileError, match="Permission denied"):
        read_limited(path)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[stats]\nSTR = " + "9" * 101, "[stats] STR has more than 100 digits, the limit"),
        ("[stats]\nSTR = " + "9" * 5000, "not usable TOML: a number too long to read"),
        ("[stats]\nSTR = [1, 2]", "[stats] STR must be a whole number, e.g. STR = 3"),
        ("[rolls]\nhit = 3", '[rolls] hit must be dice notation in quotes, e.g. "1d20+5"'),
        ("stats = 3", "'stats' must be a table: [stats] on a line of its own"),
    ],
)
def test_wrong_values_are_errors(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "sheet.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CharacterFileError) as caught:
        read_character(path)
    assert caught.value.message == f"character file {path}: {reason}"


@pytest.mark.slow
def test_a_sheet_of_many_stats_loads_them_all(tmp_path: Path) -> None:
    """Loading copies the name tables once, not once per stat (16,000 stats took 30 s
    when each stat copied them)."""
    path = tmp_path / "many.toml"
    stats = "\n".join(f"s{n} = {n}" for n in range(20_000))
    path.write_text(f"[stats]\n{stats}\n[rolls]\nhit = 'd20 + s7'\n", encoding="utf-8")
    env = read_character(path).apply(Environment(values={"S1": -1, "other": 5}))
    assert len(env.values) == 20_001
    assert env.value("s1") == 1  # the file's value replaces the one that was there
    assert env.value("s19999") == 19_999
    assert env.value("other") == 5
    assert env.roll("HIT") is not None
