"""A file name no file can have (a NUL, or a lone surrogate that stands for no byte) is a
file error naming it, never an internal error: the fuzz profile (tests/fuzz/every_way_in.py)
found ``load a<NUL>b`` and ``table a<NUL>b x`` piped into the REPL ending as "internal
error (ValueError: embedded null byte)"."""

from __future__ import annotations

from pathlib import Path

import pytest

import dicecli
from dicecli.errors import DiceError
from dicecli.files import UNUSABLE_NAME, FileError, read_limited, write_new
from dicecli.repl.commands import handle_line
from dicecli.repl.state import Problem, start_state
from dicecli.rolling.sources import RandomSource, Roller

NAMES = ["a\x00b", "a\ud800b"]


@pytest.mark.parametrize("name", NAMES)
def test_reading_or_writing_an_unusable_name_is_a_file_error(name: str) -> None:
    with pytest.raises(FileError, match="not a file name this system can use"):
        read_limited(Path(name))
    with pytest.raises(FileError, match="not a file name this system can use"):
        write_new(Path(name), "text")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("line", "kind"),
    [("load {}", "character file"), ("table {} loot", "table file"), ("save {}", "cannot write")],
)
def test_a_repl_command_with_an_unusable_file_name_is_refused(
    name: str, line: str, kind: str
) -> None:
    state = start_state(Roller(RandomSource(1)))
    if line.startswith("save"):
        state, _ = handle_line(state, "2d6")  # something to save
    _, output = handle_line(state, line.format(name))
    assert len(output) == 1
    problem = output[0]
    assert isinstance(problem, Problem)
    message = problem.error.message
    assert kind in message
    assert UNUSABLE_NAME in message


def test_an_alkemy_dice_file_setting_with_a_nul_is_refused() -> None:
    env = dicecli.Environment(settings={"alkemy.dice_file": "/tmp/a\x00b"})
    with pytest.raises(DiceError, match=r"alkemy dice file .*cannot read it: not a file name"):
        dicecli.roll("alkemy 8 vs 15", seed=1, environment=env)
