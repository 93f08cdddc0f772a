"""Errors that lead to the right form (:mod:`dicecli.hints`): each failed line of the
issue gets the hint a player needs, the caret where the fault is, and the suggested
line works."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from processes import run_in_process

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.hints import advise
from dicecli.repl.commands import COMMANDS


def error_of(line: str) -> DiceError:
    with pytest.raises(DiceError) as caught:
        dicecli.roll(line, seed=1)
    return caught.value


@pytest.mark.parametrize(
    ("line", "hint", "works"),
    [
        ("4d6 kh 3", "did you mean: 4d6kh3", "4d6kh3"),
        ("10d6 4+", "did you mean: 10d6>=4", "10d6>=4"),
        (
            "alkemy 8 vs 15 bonus",
            "did you mean: alkemy 8 vs 15 +1 bonus",
            "alkemy 8 vs 15 +1 bonus",
        ),
        ("wfb ld8", "did you mean: wfb ld 8", "wfb ld 8"),
        ("age DEX+1 vs DEX+2", "did you mean: age DEX+1 vs age DEX+2", "age DEX+1 vs age DEX+2"),
    ],
)
def test_other_rollers_forms_get_the_form_that_works(line: str, hint: str, works: str) -> None:
    error = advise(error_of(line))
    assert error.hint is not None
    assert error.hint.startswith(hint)
    assert error.show().endswith("^\n  " + error.hint)
    dicecli.roll(works, seed=1)  # the suggested line rolls


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        ("wfb arty", "did you mean 'artillery'?"),
        ("wfb scatter arty", "did you mean 'artillery'?"),
        ("age STR+2 vs hardd", "did you mean 'hard'?"),
        ("wfb lead 8", "did you mean 'ld'?"),
    ],
)
def test_a_misspelt_word_of_a_form_gets_the_close_word(line: str, hint: str) -> None:
    assert advise(error_of(line)).hint == hint


def test_a_word_far_from_any_lists_what_may_stand_there() -> None:
    hint = advise(error_of("age STR+2 vs zzzz")).hint
    assert hint is not None
    assert hint.startswith("expected one of: routine, easy, average")


def test_a_misspelt_keyword_is_pointed_at_with_the_right_one() -> None:
    error = advise(error_of("alkmey 8 vs 15"))
    assert error.message == "unknown word 'alkmey': did you mean 'alkemy'?"
    assert error.show().endswith("  alkmey 8 vs 15\n  ^")


@pytest.mark.parametrize("line", ["STR+2", "DEX + 10", "ex+1"])
def test_an_unset_name_is_not_taken_for_a_two_letter_keyword(line: str) -> None:
    """The differential run of issue 23: ``STR`` was 'did you mean sr?' (Shadowrun)."""
    error = advise(error_of(line))
    assert "did you mean" not in error.show()
    assert error.message.startswith(f"unknown name '{line.split()[0].split('+')[0]}'")


def test_a_name_the_user_set_is_not_taken_for_a_misspelt_keyword() -> None:
    env = Environment(values={"alkmey": 3})
    with pytest.raises(DiceError) as caught:
        dicecli.roll("alkmey 8", environment=env)
    assert "did you mean" not in advise(caught.value, env).show()


def test_a_misspelt_command_in_the_repl() -> None:
    error = advise(error_of("hsitory"), commands=tuple(COMMANDS))
    assert error.message == "unknown word 'hsitory': did you mean 'history'?"


@pytest.mark.parametrize("line", ["set CON=2", "CON = 2", "CON=2"])
def test_an_assignment_gets_let_in_the_repl_and_set_on_the_command_line(line: str) -> None:
    assert advise(error_of(line), commands=tuple(COMMANDS)).hint == "to name a value: let CON = 2"
    assert advise(error_of(line)).hint == "to name a value: --set CON=2"


def test_odds_and_let_lines_are_advised_after_the_command() -> None:
    error = DiceError("unexpected 'kh'", "odds 4d6 kh 3", 9)
    assert advise(error, commands=tuple(COMMANDS)).hint == (
        "did you mean: odds 4d6kh3  (the count follows kh at once)"
    )


@pytest.mark.parametrize("line", ["2d6+foo", "wfb allocate 0 among 5"])
def test_an_error_with_no_likely_fix_is_left_alone(line: str) -> None:
    error = error_of(line)
    assert advise(error) is error


def test_a_brace_expansion_split_by_the_shell() -> None:
    words = ["2d6kh1", "1d8kh1"]
    hint = advise(error_of(" ".join(words)), words=words).hint
    assert hint == (
        "the shell split {2d6,1d8}kh1 into words: quote the roll: dicecli '{2d6,1d8}kh1'"
    )
    assert advise(error_of("2d6 1d6"), words=["2d6", "1d6"]).hint is None


def _dicecli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_in_process(*args, cwd=cwd)


def test_a_star_the_shell_turned_into_file_names(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "map.png").write_text("")
    done = _dicecli(tmp_path, "3d6", "map.png", "notes.txt", "2")  # the shell's 3d6 * 2
    assert done.returncode == 2
    assert done.stderr.endswith(
        "  the shell turned * into file names: quote the roll: dicecli '3d6 * 2'\n"
    )


def test_the_hint_is_shown_by_the_command_line_and_the_repl(tmp_path: Path) -> None:
    done = _dicecli(tmp_path, "4d6", "kh", "3")
    assert done.stderr.splitlines()[-1] == "  did you mean: 4d6kh3  (the count follows kh at once)"
    script = run_in_process("repl", stdin="CON = 2\n", cwd=tmp_path)
    assert script.stderr.splitlines()[-1] == "  to name a value: let CON = 2"
