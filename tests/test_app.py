"""The line loop of :mod:`dicecli.app`: how piped input is cut into lines, and that
rolling them leaves the garbage collector as it was (the entry point alone sets it:
tests/test_entry.py)."""

from __future__ import annotations

import gc
import io
import json
import os

import pytest

from dicecli import app
from dicecli.app import (
    LINES_PER_WRITE,
    PendingOutput,
    RunOptions,
    Streams,
    batches,
    run_lines,
    run_once,
)
from dicecli.status import ExitStatus


def _piped(data: bytes) -> list[str]:
    """The lines ``batches`` reads from a real pipe holding ``data``."""
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    with os.fdopen(read) as stream:
        return [line for batch in batches(stream) for line in batch]


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"d20\n2d6+5\n", ["d20", "2d6+5"]),
        (b"d20\r\n2d6+5\r\n", ["d20", "2d6+5"]),
        (b"d20\r\n2d6\n3d6\r\r\n", ["d20", "2d6", "3d6\r"]),  # one \r comes off a line
        (b"d20 # a\rb\n", ["d20 # a\rb"]),  # a \r inside a line stays
        (b"d20\n\nd6", ["d20", "", "d6"]),  # the last line needs no line end
    ],
)
def test_piped_lines_end_at_newlines_with_a_return_before_taken_off(
    data: bytes, lines: list[str]
) -> None:
    assert _piped(data) == lines


def test_run_lines_leaves_the_collector_as_it_found_it() -> None:
    before = gc.get_threshold()
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_lines(["d20", "2d6 +"], RunOptions(seed=1), Streams(stdout=stdout, stderr=stderr))
    assert status == ExitStatus.BAD_INPUT
    assert stdout.getvalue().count("\n") == 1
    assert stderr.getvalue().startswith("line 2: ")
    assert gc.get_threshold() == before


def test_pending_output_gives_the_text_written_since_it_was_last_taken() -> None:
    pending = PendingOutput()
    pending.write("3\td6\t[3]\n")
    pending.write("é\n")
    assert pending.take() == "3\td6\t[3]\né\n"
    assert pending.take() == ""
    pending.write("lost\n")
    pending.drop()
    pending.write("kept\n")
    assert pending.take() == "kept\n"


@pytest.mark.slow
def test_piped_lines_are_written_whole_and_in_order() -> None:
    stdout = io.StringIO()
    lines = [f"{count}d6+{count}" for count in range(1, 2001)]
    status = run_lines(lines, RunOptions(seed=5, json=True), Streams(stdout=stdout))
    assert status == ExitStatus.OK
    written = stdout.getvalue().splitlines()
    assert [json.loads(line)["input"] for line in written] == lines


class _Writes(io.StringIO):
    """A stdout that keeps what each write call was given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def write(self, text: str) -> int:
        self.calls.append(text)
        return super().write(text)


@pytest.mark.slow  # a thousand lines, each of more dice than the one before
def test_piped_results_are_written_every_so_many_lines_whole() -> None:
    # one read of many lines is written in parts of LINES_PER_WRITE results, each ending
    # at a line's end, in order
    stdout = _Writes()
    lines = [f"{count}d6" for count in range(1, 1001)]
    run_lines(lines, RunOptions(seed=5, json=True), Streams(stdout=stdout))
    parts = [call for call in stdout.calls if call]
    expected = [min(LINES_PER_WRITE, 1000 - start) for start in range(0, 1000, LINES_PER_WRITE)]
    assert len(expected) > 1
    assert [part.count("\n") for part in parts] == expected
    assert all(part.endswith("\n") for part in parts)
    written = "".join(parts).splitlines()
    assert [json.loads(line)["input"] for line in written] == lines


def test_a_piped_line_with_a_file_separator_is_an_error_and_the_next_is_rolled() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_lines(
        ["5\x1c% of 10", "2d6"], RunOptions(given="3,4"), Streams(stdout=stdout, stderr=stderr)
    )
    assert status == ExitStatus.BAD_INPUT
    assert stdout.getvalue() == "7\t2d6\t[3, 4]\n"
    assert stderr.getvalue().startswith("line 1: error: ")
    assert "5\\x1c% of 10" in stderr.getvalue()


def test_a_piped_roll_that_fails_gives_its_given_faces_to_the_next_roll() -> None:
    # docs/output.md: 2d6+foo drew 3 and 4, then failed; the next 2d6 rolls them
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_lines(
        ["2d6+foo", "2d6; d6 + 1/0", "d6"],
        RunOptions(given="3,4,5"),
        Streams(stdout=stdout, stderr=stderr),
    )
    assert stdout.getvalue() == "7\t2d6\t[3, 4]\n5\td6\t[5]\n"
    assert "unknown name 'foo'" in stderr.getvalue()
    assert "division by zero" in stderr.getvalue()
    assert "not used" not in stderr.getvalue()  # every face went to a roll shown
    assert status == ExitStatus.BAD_INPUT


def test_piped_rolls_from_faces_with_one_too_many_are_never_printed() -> None:
    # docs/output.md: the extra face could be a typo anywhere in them, so every roll
    # made from them is suspect; nothing reaches stdout, whatever was read before
    stdout, stderr = io.StringIO(), io.StringIO()
    lines = ["2d6"] * (2 * LINES_PER_WRITE) + ["bad+"]
    faces = ",".join(["3"] * (4 * LINES_PER_WRITE) + ["5"])
    status = run_lines(lines, RunOptions(given=faces), Streams(stdout=stdout, stderr=stderr))
    assert status == ExitStatus.BAD_INPUT
    assert stdout.getvalue() == ""
    assert "too many dice given: 1 of the" in stderr.getvalue()


@pytest.mark.parametrize(("given", "written"), [(None, 2), ("1,2,3,4,5", 0)])
def test_a_run_stopped_by_ctrl_c_writes_its_rolls_but_not_unchecked_given_ones(
    given: str | None, written: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/output.md: the rolls made are written, then the run stops; with --given into
    # a pipe none is, as the faces were not all checked
    roll_text = app.Session.roll_text

    def third_interrupted(session: app.Session, text: str) -> None:
        if text == "stop":
            raise KeyboardInterrupt
        roll_text(session, text)

    monkeypatch.setattr(app.Session, "roll_text", third_interrupted)
    stdout = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        run_lines(["d6", "d6", "stop"], RunOptions(given=given, seed=1), Streams(stdout=stdout))
    assert len(stdout.getvalue().splitlines()) == written


def test_pending_output_measures_the_characters_written_since_the_last_take() -> None:
    pending = PendingOutput()
    pending.write("abc")
    pending.write("é\n")
    assert pending.held() == 5
    pending.write("xyz")
    assert pending.held() == 8
    pending.take()
    assert pending.held() == 0
    pending.write("12")
    pending.drop()
    assert pending.held() == 0


def test_a_long_times_run_writes_its_results_once_they_pass_a_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # --times 3000 --json 10000d6 held 3.9 GB until its first 4,096 results: results
    # are written once their text passes FLUSH_CHARACTERS, whole
    monkeypatch.setattr(app, "FLUSH_CHARACTERS", 20_000)
    stdout = _Writes()
    status = run_once("200d6", RunOptions(seed=5, json=True, times=30), Streams(stdout=stdout))
    assert status == ExitStatus.OK
    parts = [call for call in stdout.calls if call]
    one = len(parts[0].splitlines()[0]) + 1
    assert one > 1_000  # a result of 200 dice
    assert len(parts) > 1
    assert all(len(part) <= 20_000 + one for part in parts)
    written = "".join(parts).splitlines()
    assert len(written) == 30
    assert all(json.loads(line)["input"] == "200d6" for line in written)


def test_a_line_of_many_rolls_writes_its_results_once_they_pass_a_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 1,240 rolls of 10000d6 on one line with --json held 1.6 GB: a line of several
    # rolls is written in parts too, each result whole
    monkeypatch.setattr(app, "FLUSH_CHARACTERS", 20_000)
    stdout = _Writes()
    line = ";".join(["200d6"] * 30)
    status = run_once(line, RunOptions(seed=5, json=True), Streams(stdout=stdout))
    assert status == ExitStatus.OK
    parts = [call for call in stdout.calls if call]
    one = len(parts[0].splitlines()[0]) + 1
    assert len(parts) > 1
    assert all(len(part) <= 20_000 + one for part in parts)
    written = "".join(parts).splitlines()
    assert len(written) == 30
    assert all(json.loads(text)["input"] == "200d6" for text in written)
