"""Issue 28: with ``--json`` an error is a JSON object on stderr too, so a script that
reads JSON reads its errors; the exit status stays 2 (docs/json.md, "Errors")."""

from __future__ import annotations

import json

import pytest
from processes import run_in_process

from dicecli.errors import DiceError


def test_an_error_is_one_json_object() -> None:
    error = DiceError("unexpected '+'", "2d6++", 4).with_hint("did you mean: 2d6+")
    assert json.loads(error.reported(json=True)) == {
        "error": "unexpected '+'",
        "input": "2d6++",
        "position": 4,
        "hint": "did you mean: 2d6+",
        "line": None,
    }
    assert error.reported(line=3) == "line 3: " + error.show() + "\n"  # without --json


@pytest.mark.parametrize(
    ("args", "error", "position"),
    [
        (["2d6+"], "expected a number, dice such as 2d6, '(' or a name at the end", 4),
        (["--times", "0", "2d6"], "--times takes 1 to 100,000", None),
        (["odds", "2d6+"], "expected a number, dice such as 2d6, '(' or a name at the end", 4),
    ],
)
def test_json_errors_on_the_command_line(args: list[str], error: str, position: int | None) -> None:
    done = run_in_process("--json", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    found = json.loads(line)
    assert (found["error"], found["position"]) == (error, position)


def test_a_piped_script_names_the_line() -> None:
    done = run_in_process("--json", "--seed", "1", stdin="2d6\n3d6+\n")
    assert done.returncode == 2
    assert json.loads(done.stdout)["total"] == 7  # rule N1: the seed's 1 and 6
    assert json.loads(done.stderr) == {
        "error": "expected a number, dice such as 2d6, '(' or a name at the end",
        "input": "3d6+",
        "position": 4,
        "hint": None,
        "line": 2,
    }


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--seed", "x", "2d6"], "Invalid value for '--seed': 'x' is not a valid int."),
        (["--bogus", "2d6"], "No such option: --bogus"),
        (["odds", "--at-least", "x", "2d6"], "Invalid value for '--at-least'"),
    ],
)
def test_a_usage_error_of_the_typer_app_is_a_json_object_too(args: list[str], said: str) -> None:
    """Issue 28, point 6: the typer app's own errors (a bad option or value) wrote a
    line of text even with ``--json``."""
    done = run_in_process("--json", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    found = json.loads(line)
    assert found["error"].startswith(said)
    assert found["hint"].startswith("see dicecli")
    assert found["hint"].endswith(" --help")
    assert (found["input"], found["position"], found["line"]) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "position", "columns"),
    [
        ("2d6[日本語] + x", 11, 14),  # three wide characters: two columns each
        ("１００d6 + x", 8, 11),  # full-width digits
        ("🎲 2d6 + x", 8, 9),  # an emoji
        ("e\u0301 + x", 5, 4),  # a combining accent takes no column
        ("2d6 + x", 6, 6),
    ],
)
def test_the_caret_stands_under_the_position_in_terminal_columns(
    text: str, position: int, columns: int
) -> None:
    # output.md: the caret goes under the position; wide characters once put it before
    shown = DiceError("unknown name 'x'", text, position).show().splitlines()
    assert shown[2] == "  " + " " * columns + "^"
    assert text[position] == "x"
