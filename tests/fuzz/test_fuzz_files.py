"""The file loaders under hostile files (short profile): random bytes, TOML soups of
wrong types and deep nesting, for character files, dice files and Alkemy dice files. Only the
documented file errors may escape. Devices, FIFOs, folders, symlink loops, unreadable
and huge files are pinned one by one in tests/test_files.py."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli.character import CharacterFileError, read_character
from dicecli.errors import DiceError
from dicecli.systems.alkemy.dice import parse_dice_file

FILES = settings(max_examples=examples(60), deadline=None)

TOML_PIECES = (
    "[stats]\n", "[rolls]\n", "[white]\n", "[yellow]\n", "[red]\n", "name = ", "STR = ",
    "hit = ", "values = ", "symbols = ", "assumption = ", '"2d6"', '"d20+STR"', "3", "-1",
    "9" * 120, "true", "1.5", "[1, 2, 3, 4, 5, 6]", '["a", "b"]', "{x = 1}", "[[x]]\n",
    "[" * 40, "]" * 40, '"\\u0000"', "\n", " ", "=", '"', "#", "\udcff", "\x00",
    "1979-05-27", "inf", "nan",
)  # fmt: skip


def toml_soup(rng: random.Random) -> bytes:
    text = "".join(rng.choice(TOML_PIECES) for _ in range(rng.randint(1, 40)))
    return text.encode("utf-8", "surrogateescape")


@st.composite
def file_bytes(draw: st.DrawFn) -> bytes:
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.booleans()):
        return toml_soup(rng)
    return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200)))


def character_error(data: bytes) -> tuple[Path, CharacterFileError | None]:
    """Read ``data`` as a character file: its path and the error, if refused (any
    other exception escapes and fails the case)."""
    with tempfile.NamedTemporaryFile(suffix=".toml", delete=False) as file:
        file.write(data)
    path = Path(file.name)
    try:
        read_character(path)
    except CharacterFileError as error:
        return path, error
    finally:
        path.unlink()
    return path, None


@FILES
@given(file_bytes())
def test_a_character_file_is_read_or_refused_clearly(data: bytes) -> None:
    path, error = character_error(data)
    if error is not None:
        assert str(path) in error.message
        assert len(error.show().splitlines()) == 1


def dice_file_error(text: str) -> DiceError | None:
    try:
        parse_dice_file(text, "soup.toml", None)
    except DiceError as error:
        return error
    return None


@FILES
@given(file_bytes())
def test_a_dice_file_is_read_or_refused_clearly(data: bytes) -> None:
    error = dice_file_error(data.decode("utf-8", "replace"))
    if error is not None:
        assert "soup.toml" in error.message


GENERAL_PIECES = (
    "[Boost]\n", "[F]\n", "[fr]\n", "faces = ", "symbols = ", "cancel = ", "description = ",
    '["", "success", "success+advantage"]', '[[1, 2]]', '[{value = 2, symbol = "x"}]',
    "[{}]", '["a++b"]', '[["a", "b"]]', '["3"]', "[1, 2, 3]", "[]", "{value = 1}",
)  # fmt: skip


@FILES
@given(st.randoms(use_true_random=False))
def test_a_general_dice_file_is_read_or_refused_clearly(rng: random.Random) -> None:
    # the format of docs/dice.md: every mistake is one DiceFileError naming the file
    from dicecli.dicefiles.load import DiceFileError, parse_book

    pieces = GENERAL_PIECES + TOML_PIECES
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
    refused: DiceFileError | None = None
    try:
        parse_book(text, "soup.toml")
    except DiceFileError as error:
        refused = error
    if refused is not None:
        assert refused.message.startswith("dice file soup.toml")
        assert len(refused.show().splitlines()) == 1
