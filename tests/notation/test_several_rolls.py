"""Several rolls on one line, ``1d20+5; 2d6+3``: in one-shot mode, on stdin and in the
REPL each roll is its own result, and the exit status covers them all."""

from __future__ import annotations

import json

import pytest
from processes import run_in_process

from dicecli.environment import Environment
from dicecli.errors import DiceSyntaxError
from dicecli.notation.lines import parse_rolls, split_rolls
from dicecli.repl.commands import handle_line
from dicecli.repl.state import Problem, Rolled, Summary, start_state
from dicecli.rolling.sources import GivenSource, Roller


@pytest.mark.parametrize(
    ("line", "pieces"),
    [
        ("2d6", [(0, "2d6")]),
        ("1d20+5; 2d6+3", [(0, "1d20+5"), (7, " 2d6+3")]),
        ("d20;d4;", [(0, "d20"), (4, "d4")]),  # an empty piece is left out
        ("d6[a;b]; d4", [(0, "d6[a;b]"), (8, " d4")]),  # not inside a label
        ("d6 # hit; miss", [(0, "d6 # hit; miss")]),  # nor in a comment
        ("d6; d8 # a; b", [(0, "d6"), (3, " d8 # a; b")]),
        (";", []),
    ],
)
def test_split_rolls(line: str, pieces: list[tuple[int, str]]) -> None:
    assert split_rolls(line) == pieces


def test_an_error_in_any_roll_points_into_the_whole_line() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse_rolls("d20+5; 2d6+")
    assert caught.value.text == "d20+5; 2d6+"
    assert caught.value.position == 11
    with pytest.raises(DiceSyntaxError, match="nothing to roll"):
        parse_rolls(" ; ")


_run = run_in_process


def test_one_shot_rolls_each_and_the_exit_status_covers_all() -> None:
    done = _run("1d20+5 >= 15; 2d6+3", "--given", "3,4,5")
    assert done.stdout.splitlines() == [
        "8\t1d20+5 >= 15\t[3] + 5 => fail (>= 15), margin -7",
        "12\t2d6+3\t[4, 5] + 3",
    ]
    assert done.returncode == 1  # the check failed, the damage rolled all the same
    assert _run("d20 >= 1; d6", "--given", "3,4").returncode == 0


def test_piped_lines_give_one_object_per_roll() -> None:
    done = _run("--json", stdin="1d20+5; 2d6+3 # damage\nd4\n")
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["input"] for o in objects] == ["1d20+5", "2d6+3 # damage", "d4"]
    assert objects[1]["comment"] == "damage"
    assert done.returncode == 0


def test_a_bad_roll_on_a_piped_line_rolls_nothing_of_that_line() -> None:
    done = _run(stdin="d6; 2d6+\nd4\n")
    assert [line.split("\t")[1] for line in done.stdout.splitlines()] == ["d4"]
    assert done.stderr.startswith("line 1: error: expected")
    assert done.returncode == 2


def test_the_repl_shows_each_roll() -> None:
    state = start_state(Roller(GivenSource.from_text("3,4,5,6,1")), Environment(), 1)
    state, output = handle_line(state, "d20 + 5; 2d6 + 3")
    assert [type(item) for item in output] == [Rolled, Rolled]
    assert [item.result.total for item in output if isinstance(item, Rolled)] == [8, 12]
    assert state.last is not None
    assert state.last.input == "2d6 + 3"
    state, output = handle_line(state, "d6; d6+")
    assert [type(item) for item in output] == [Problem]
    assert state.last is not None
    assert state.last.input == "2d6 + 3"  # a line with a bad roll rolls none of them


def test_the_repl_summarises_each_roll_rolled_several_times() -> None:
    state = start_state(Roller(GivenSource.from_text("1,2,3,4")), Environment(), 2)
    _, output = handle_line(state, "d6; d6")
    assert [type(item) for item in output] == [Rolled, Rolled, Summary, Rolled, Rolled, Summary]
