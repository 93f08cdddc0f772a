"""The command-line conventions of a well-kept tool: ``--color`` and the colour
variables (``NO_COLOR``, ``FORCE_COLOR``, ``CLICOLOR``, ``CLICOLOR_FORCE``) in their
documented order (docs/output.md, "Colour"), ``-V``, a missing option value,
``--summary`` and ``odds --svg``."""

from __future__ import annotations

import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from processes import run_in_process

from dicecli.command_line import VERSION
from dicecli.render import colour_choice

SGR = re.compile(r"\x1b\[([0-9;]*)m")
COLOUR_VARIABLES = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE")


def colours_in(text: str) -> set[str]:
    """The colour codes of the SGR sequences in ``text`` (30-37, 40-47, 90-97, 38;…)."""
    found = set()
    for codes in SGR.findall(text):
        for code in codes.split(";"):
            if code and (30 <= int(code) <= 49 or 90 <= int(code) <= 107):
                found.add(code)
    return found


@pytest.mark.parametrize(
    ("flag", "environment", "chosen"),
    [
        ("auto", {}, "auto"),
        ("auto", {"NO_COLOR": "1"}, "never"),
        ("auto", {"NO_COLOR": ""}, "auto"),  # empty: says nothing (no-color.org)
        ("auto", {"FORCE_COLOR": "1"}, "always"),
        ("auto", {"FORCE_COLOR": ""}, "auto"),
        ("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, "never"),
        ("auto", {"CLICOLOR_FORCE": "1"}, "always"),
        ("auto", {"CLICOLOR_FORCE": "0"}, "auto"),
        ("auto", {"CLICOLOR": "0"}, "never"),
        ("auto", {"CLICOLOR": "1"}, "auto"),
        ("auto", {"CLICOLOR": "0", "CLICOLOR_FORCE": "1"}, "always"),
        ("auto", {"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, "never"),
        ("always", {"NO_COLOR": "1"}, "always"),
        ("never", {"FORCE_COLOR": "1"}, "never"),
    ],
)
def test_the_colour_precedence(flag: str, environment: dict[str, str], chosen: str) -> None:
    assert colour_choice(flag, environment) == chosen


@given(
    st.sampled_from(["always", "never"]),
    st.dictionaries(st.sampled_from(COLOUR_VARIABLES), st.text(max_size=3)),
)
def test_the_command_line_beats_every_variable(flag: str, environment: dict[str, str]) -> None:
    assert colour_choice(flag, environment) == flag


@given(st.dictionaries(st.sampled_from(COLOUR_VARIABLES), st.text(min_size=1, max_size=3)))
def test_no_color_set_to_anything_beats_the_other_variables(environment: dict[str, str]) -> None:
    environment = {**environment, "NO_COLOR": environment.get("NO_COLOR", "x")}
    assert colour_choice("auto", environment) == "never"


def test_forced_colour_reaches_a_pipe() -> None:
    done = run_in_process("--given", "5", "d20", env={"NO_COLOR": "", "FORCE_COLOR": "1"})
    assert done.returncode == 0
    assert SGR.search(done.stdout)
    plain = SGR.sub("", done.stdout)
    assert plain == "d20: [5] = 5\n"


@pytest.mark.parametrize(
    ("args", "environment"),
    [
        (["--color", "always"], {"NO_COLOR": "1"}),
        ([], {"NO_COLOR": "", "CLICOLOR_FORCE": "1"}),
    ],
)
def test_colour_asked_for_in_a_pipe(args: list[str], environment: dict[str, str]) -> None:
    done = run_in_process(*args, "--given", "20", "d20", env=environment)
    assert colours_in(done.stdout), done.stdout  # the natural 20 in its colour


def test_a_pipe_stays_plain_unless_colour_is_forced() -> None:
    done = run_in_process("--given", "20", "d20", env={"NO_COLOR": "", "CLICOLOR": "1"})
    assert done.stdout == "20\td20\t[20*]\n"  # plain text keeps the critical sign


def _at_a_terminal(*args: str, **environment: str) -> str:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", *args],
        env={**os.environ, "TERM": "xterm", **environment},
        encoding="utf-8",
        dimensions=(24, 100),
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before)


def test_color_never_at_a_terminal_keeps_the_layout_without_colour() -> None:
    shown = _at_a_terminal("--color", "never", "--given", "20", "d20 >= 15", NO_COLOR="")
    assert colours_in(shown) == set()
    assert "✔" in shown  # the verdict's symbol survives without colour
    coloured = _at_a_terminal("--given", "20", "d20 >= 15", NO_COLOR="")
    assert colours_in(coloured)


@pytest.mark.parametrize("spelling", ["-V", "--version"])
def test_the_version(spelling: str) -> None:
    done = run_in_process(spelling)
    assert (done.returncode, done.stdout) == (0, f"dicecli {VERSION}\n")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["2d6", "--seed"], "--seed"),
        (["--seed", "--plain", "2d6"], "--seed"),
        (["2d6", "-n"], "-n"),
        (["odds", "2d6", "--at-least"], "--at-least"),
        (["--dice-file"], "--dice-file"),
        (["odds", "2d6", "--svg"], "--svg"),
        (["2d6", "--color"], "--color"),
    ],
)
def test_a_missing_option_value_is_one_error_with_a_caret(args: list[str], option: str) -> None:
    done = run_in_process(*args)
    assert done.returncode == 2
    message, line, caret = done.stderr.splitlines()
    assert message.startswith(f"error: {option} needs a value, e.g. {option} ")
    assert line.endswith(option)
    assert caret.index("^") == len(line)  # just after the option, where the value goes


def test_summary_prints_the_summary_only() -> None:
    done = run_in_process("--given", "1,2,3,4,5,6", "-n", "6", "--summary", "d6")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "6 rolls: total 21, min 1, max 6, mean 3.50\n"


def test_summary_of_checks_keeps_the_exit_status_of_a_failed_one() -> None:
    done = run_in_process("--given", "1,6", "--times", "2", "--summary", "d6 >= 4")
    assert done.returncode == 1
    assert done.stdout == "2 rolls: 1 of 2 passed\n"


def test_summary_of_table_draws() -> None:
    done = run_in_process("table", "tables", "encounters", "-n", "3", "--summary", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1
    assert done.stdout.startswith("3 rolls")


def test_summary_and_json_do_not_go_together() -> None:
    done = run_in_process("--json", "--summary", "-n", "3", "d6")
    assert done.returncode == 2
    error = json.loads(done.stderr)  # with --json, an error is a JSON object too
    assert error["error"] == "--summary is a line of text: with --json, each roll is written"
    assert done.stdout == ""


def test_a_long_summary_run_shows_a_passing_progress_bar_at_a_terminal() -> None:
    shown = _at_a_terminal("-n", "100000", "--summary", "--seed", "1", "4d6kh3")
    assert "━" in shown  # rich's bar, drawn on stderr while the run lasted
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", shown).strip().splitlines()[-1]
    assert last.startswith("100000 rolls: total ")


def test_odds_svg_writes_the_histogram_as_a_picture(tmp_path: Path) -> None:
    picture = tmp_path / "odds.svg"
    done = run_in_process("odds", "2d6+3", "--at-least", "10", "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("odds\t2d6+3\texact\n")  # the output is as without --svg
    root = ElementTree.parse(picture).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = "".join(root.itertext()).replace("\xa0", " ")
    for shown in ("2d6+3", "at least", "16.67%", "█"):
        assert shown in text
    assert "#" in picture.read_text(encoding="utf-8")  # fills in colour: the passing rows


def test_odds_svg_title_holds_the_typed_line_escaped(tmp_path: Path) -> None:
    # docs/limits.md: text from the command line cannot drive a terminal; a control
    # character in the title would also make the file no SVG at all
    picture = tmp_path / "odds.svg"
    done = run_in_process("odds", "2d6 # \x1b]0;pwn\x07 [a\x01b]", "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    written = picture.read_text(encoding="utf-8")
    assert "\x1b" not in written
    assert "\x07" not in written
    root = ElementTree.parse(picture).getroot()  # well-formed XML
    text = "".join(root.itertext()).replace("\xa0", " ")
    assert "2d6 # \\x1b]0;pwn\\x07 [a\\x01b]" in text


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_odds_svg_to_a_full_disk_is_output_that_could_not_be_written() -> None:
    # docs/output.md: 74, the output could not be written (a full disk)
    done = run_in_process("odds", "2d6", "--svg", "/dev/full")
    assert done.returncode == 74
    assert "cannot write it: No space left on device" in done.stderr


def test_odds_svg_to_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    where = tmp_path / "no\x1b[31mdir" / "odds.svg"
    done = run_in_process("odds", "2d6", "--svg", str(where))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "\x1b" not in done.stderr
    assert "cannot write it: No such file or directory" in done.stderr
