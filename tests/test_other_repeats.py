"""Repeats as other rollers spell them (issue 26, part 1): Dice Maiden's ``6 4d6`` and
``repeat(4d6kh3, 6)`` roll the line that many times, as ``4d6 -n 6`` does, in the
command line, a pipe and the REPL."""

from __future__ import annotations

import pytest
from processes import run_in_process
from typer.testing import CliRunner

from dicecli.cli import route, typer_app
from dicecli.environment import Environment
from dicecli.notation.repeats import repeat_spelt_otherwise
from dicecli.repl.commands import handle_line
from dicecli.repl.state import Rolled, start_state
from dicecli.rolling.sources import GivenSource, Roller


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(typer_app(), route(list(args)), input=stdin)
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("6 4d6", ("4d6", 6, 0)),
        ("3 4d6 kh3", ("4d6 kh3", 3, 0)),
        ("repeat(4d6kh3, 6)", ("4d6kh3", 6, 15)),
        ("REPEAT( d20 + 5 ,2) # to hit", ("d20 + 5 # to hit", 2, 17)),
        ("2d6", None),
        ("6 + 4d6", None),  # an operator: no repeat
        ("repeat(4d6)", None),
    ],
)
def test_the_spellings_of_a_repeat(line: str, found: tuple[str, int, int] | None) -> None:
    assert repeat_spelt_otherwise(line) == found


@pytest.mark.parametrize("line", ["3 2d6", "repeat(2d6, 3)"])
def test_a_repeat_rolls_like_times(line: str) -> None:
    assert invoke("--plain", "--given", "1,2,3,4,5,6", line) == invoke(
        "--plain", "--given", "1,2,3,4,5,6", "-n", "3", "2d6"
    )


def test_a_piped_repeat_keeps_its_comment() -> None:
    done = run_in_process("--given", "1,2,3,4", stdin="2 d6 # fire\nrepeat(d6, 2)\n")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "1\td6 # fire\t[1] # fire",
        "2\td6 # fire\t[2] # fire",
        "3\td6\t[3]",
        "4\td6\t[4]",
    ]


def test_a_repeat_in_the_repl() -> None:
    state = start_state(Roller(GivenSource.from_text("1,2,3")), Environment(), 1)
    state, output = handle_line(state, "3 d6")
    totals = [item.result.total for item in output if isinstance(item, Rolled)]
    assert totals == [1, 2, 3]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("0 d6", "error: --times takes 1 to 100,000"),  # Dice Maiden's 0 d6: no roll
        ("6 4d6 STR", "error: unexpected '4d6'"),  # the roll's own error: the line's
    ],
)
def test_a_refused_repeat_says_why(line: str, message: str) -> None:
    status, output = invoke("--plain", line)
    assert status == 2
    assert output.splitlines()[0] == message


def test_a_number_and_a_hash_stay_a_comment() -> None:
    # 6#4d6 (Rollem) is the number 6 with the comment 4d6 here, as before, and says so
    status, output = invoke("--plain", "6#4d6")
    assert status == 0
    assert output.startswith("6\t6#4d6\t6 (# starts a comment here: 6#4d6 rolls 6; Rollem")
    assert output.endswith(" # 4d6\n")
