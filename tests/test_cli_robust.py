"""The command line as a hostile user meets it (issue: nothing typed, piped or loaded
crashes, hangs or loses output): bytes that are not UTF-8, control characters, line
ends, huge lines, a full disk, a closed pipe, signals. Each case runs the program's
entry point with streams of its own (tests/processes.py), in a process of its own where
the process is what is tested (a full disk, a stream that cannot be written, a closed
pipe, signals, a file option that must not block); the messages and exit statuses are
pinned (docs/limits.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import pytest
from processes import run_bytes_in_process

from dicecli.status import ExitStatus

DICECLI = [sys.executable, "-m", "dicecli"]


def run(args: Sequence[bytes | str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return run_bytes_in_process(args, stdin)


def run_process(
    args: Sequence[bytes | str], stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*DICECLI, *args], input=stdin, capture_output=True, timeout=60, check=False
    )


def text(output: bytes) -> str:
    return output.decode("utf-8")


# Bytes that are not UTF-8: kept, shown as \xff, in every mode.


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([b"--seed", b"1", b"2d6 # \xff"], "7\t2d6 # \\xff\t[1, 6] # \\xff\n"),
        ([b"--seed", b"1", b"--plain", b"2d6 # caf\xc3\xa9 \xff"], "7\t2d6 # café \\xff\t"),
        ([b"--seed", b"1", b"alkemy 3 vs 5 # \xff"], "10\talkemy 3 vs 5 # \\xff\t"),
    ],
)
def test_an_argument_that_is_not_utf8_rolls_with_the_bytes_escaped(
    args: list[bytes | str], expected: str
) -> None:
    done = run(args)
    assert done.returncode == ExitStatus.OK, done.stderr
    assert text(done.stdout).startswith(expected)


def test_json_of_an_argument_that_is_not_utf8() -> None:
    import json

    done = run(["--json", "--seed", "1", b"2d6 # \xff"])
    assert json.loads(done.stdout)["comment"] == "\\xff"


def test_a_roll_of_bad_bytes_is_a_clear_error() -> None:
    done = run([b"\xff\xfe"])
    assert done.returncode == ExitStatus.BAD_INPUT
    assert text(done.stderr).splitlines()[0] == (
        "error: expected a number, dice such as 2d6, '(' or a name, found '\\xff\\xfe'"
    )


@pytest.mark.parametrize("command", [[], ["repl"]])
def test_piped_lines_and_repl_scripts_roll_the_good_lines_around_bad_bytes(
    command: list[str],
) -> None:
    done = run([*command, "--given", "1,2,3"], stdin=b"d6\n\xff\nd6 # \xff\nd6\n")
    assert done.returncode == ExitStatus.BAD_INPUT
    assert text(done.stdout).splitlines() == [
        "1\td6\t[1]",
        "2\td6 # \\xff\t[2] # \\xff",
        "3\td6\t[3]",
    ]
    assert "found '\\xff'" in text(done.stderr)


# One line-splitting rule: \n, with \r\n accepted; line numbers agree with wc -l.


SEPARATORS = [b"\x0c", b"\x0b", b"\x1c", b"\x1d", b"\x1e", "\x85".encode(), "\u2028".encode()]


@pytest.mark.parametrize("command", [[], ["repl"]])
def test_lines_end_at_newline_only(command: list[str]) -> None:
    stdin = b"".join(b"d6" + separator + b"1\n" for separator in SEPARATORS)
    stdin += b"d6\r\nd6 x\r2\n"
    done = run(command, stdin=stdin)
    errors = text(done.stderr).splitlines()
    assert stdin.count(b"\n") == 9
    # d6\r\n rolls, and so does the next line, one line with a \r inside (whitespace)
    assert [line.split("\t")[1] for line in text(done.stdout).splitlines()] == [
        "d6",
        "d6 x\\r2",
    ]
    if not command:  # piped rolls name the line
        numbers = [line.split(":")[0] for line in errors if line.startswith("line ")]
        assert numbers == [f"line {n}" for n in range(1, 8)]
    assert all(line.isprintable() for line in errors)  # every control character escaped


@pytest.mark.parametrize(
    "roll",
    ["3 # a\ttab", "3[a\tlabel] # x", "3 # a\rreturn", "3 # nul\x00 and \x1b[31mcolour"],
)
def test_plain_output_is_always_three_fields_on_one_line(roll: str) -> None:
    done = run(["--plain"], stdin=roll.encode() + b"\n")
    lines = text(done.stdout).splitlines()
    assert len(lines) == 1
    assert len(lines[0].split("\t")) == 3
    assert lines[0].isprintable() or "\t" in lines[0]


# Huge input.


def test_a_ten_megabyte_line_is_refused_at_once_and_the_next_line_rolls() -> None:
    stdin = b"1+" * 5_000_000 + b"1\n2d6\n"
    done = run(["--given", "3,4"], stdin=stdin)
    assert done.returncode == ExitStatus.BAD_INPUT
    assert text(done.stdout) == "7\t2d6\t[3, 4]\n"
    error = text(done.stderr).splitlines()
    assert error[0] == "line 1: error: line too long: more than 10,000 characters, the limit"
    assert len(done.stderr) < 500


def test_a_huge_given_is_one_short_error() -> None:
    done = run(["--given", ",".join(["3"] * 60_000), "d6"])
    assert done.returncode == ExitStatus.BAD_INPUT
    assert text(done.stderr) == (
        "error: too many dice given: 59999 of the 60000 given were not used "
        "(3, 3, 3, 3, 3, 3, 3, 3, 3, 3, … 59,989 more)\n"
    )


def test_times_is_bounded() -> None:
    done = run(["--times", "100001", "d6"])
    assert text(done.stderr) == "error: --times takes 1 to 100,000\n"


# Output that cannot be written, and a reader that left.


@pytest.mark.parametrize(
    "args",
    [["2d6"], ["odds", "2d6"], ["--help"], ["--version"], ["repl"], ["--plain"]],
)
def test_a_full_disk_is_a_write_error_not_a_bug(args: list[str]) -> None:
    done = run_bytes_in_process(args, b"2d6\n", output=Path("/dev/full"))
    assert done.returncode == ExitStatus.WRITE_ERROR
    assert text(done.stderr) == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("args", [["2d6"], ["--help"], ["repl"]])
def test_a_full_disk_is_a_write_error_in_a_process_of_its_own(args: list[str]) -> None:
    """The process's end too: nothing is left for the interpreter's last flush."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*DICECLI, *args], input=b"2d6\n", stdout=full, stderr=subprocess.PIPE, timeout=60
        )
    assert done.returncode == ExitStatus.WRITE_ERROR
    assert text(done.stderr) == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(("args", "status"), [(["2d6+"], 2), (["2d6"], 0), (["--bogus"], 2)])
def test_errors_that_cannot_be_written_keep_the_exit_status(args: list[str], status: int) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*DICECLI, *args], stdout=subprocess.PIPE, stderr=full, timeout=60, check=False
        )
    assert done.returncode == status


@pytest.mark.parametrize(
    "args", [["--help"], ["roll", "--help"], ["odds", "--help"], ["--version"], ["repl"]]
)
def test_a_closed_pipe_is_quiet_with_status_0_on_every_command(args: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # the reader left before anything was written
    with subprocess.Popen(
        [*DICECLI, *args], stdin=subprocess.PIPE, stdout=writer, stderr=subprocess.PIPE
    ) as process:
        os.close(writer)
        _, err = process.communicate(b"2d6\n" * 1000, timeout=60)
    assert process.returncode == ExitStatus.OK
    assert err == b""


# Signals: the rolls made are written, then the run stops.


def feed_forever(stream: IO[bytes]) -> None:
    with contextlib.suppress(ValueError, OSError):  # the run ended
        while True:
            stream.write(b"2d6\n" * 1000)
            stream.flush()


@pytest.mark.parametrize(
    ("sent", "status"),
    [(signal.SIGINT, ExitStatus.INTERRUPTED), (signal.SIGTERM, ExitStatus.TERMINATED)],
)
def test_a_signal_stops_a_long_piped_run_after_writing_its_rolls(
    sent: signal.Signals, status: int
) -> None:
    with subprocess.Popen(
        [*DICECLI, "--seed", "1"],
        bufsize=0,  # nothing left to flush into the pipe once the run ended
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        feeder = threading.Thread(target=feed_forever, args=(process.stdin,), daemon=True)
        feeder.start()
        first = process.stdout.readline()  # rolling has begun
        time.sleep(0.3)
        process.send_signal(sent)
        rest = process.stdout.read()
        process.wait(timeout=60)
    output = first + rest
    assert process.returncode == status
    assert output.endswith(b"\n")  # whole lines only
    assert len(output.splitlines()) >= 1
    assert all(line.count(b"\t") == 2 for line in output.splitlines())


def test_a_usage_error_quoting_a_huge_value_stays_short() -> None:
    done = run(["odds", "d6", "--at-least", "9" * 5000])
    assert done.returncode == ExitStatus.BAD_INPUT
    error = text(done.stderr)
    assert error.startswith("error: Invalid value for '--at-least': '999")
    assert error.endswith("is not a valid int. (see dicecli odds --help)\n")
    assert len(error) < 300


def test_odds_without_a_roll_is_an_error_with_its_prefix() -> None:
    done = run(["odds"])
    assert done.returncode == ExitStatus.BAD_INPUT
    assert text(done.stderr) == "error: odds needs a roll, e.g. dicecli odds 2d6+3\n"


def test_a_failed_save_keeps_the_file_and_the_script_goes_on(tmp_path: Path) -> None:
    """The issue's case: a comment with a byte that is not UTF-8, then save over a
    precious file: the file is kept, the error says why, the next line rolls."""
    precious = tmp_path / "out.jsonl"
    precious.write_text("precious\n", encoding="utf-8")
    script = b"2d6 # \xff\nsave " + str(precious).encode() + b"\nd6\n"
    done = run(["repl", "--given", "3,4,5"], stdin=script)
    assert precious.read_text(encoding="utf-8") == "precious\n"
    assert text(done.stdout).splitlines()[-1] == "5\td6\t[5]"
    assert "it exists already" in text(done.stderr)
    fresh = tmp_path / "fresh.jsonl"
    done = run(["repl", "--given", "3,4"], stdin=b"2d6 # \xff\nsave " + str(fresh).encode() + b"\n")
    assert '"comment": "\\\\xff"' in fresh.read_text(encoding="utf-8")


@pytest.mark.parametrize("option", ["--character", "--dice-file"])
@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_file_option_naming_a_device_or_fifo_is_refused_at_once(
    tmp_path: Path, option: str, kind: str
) -> None:
    path = Path("/dev/zero")
    if kind == "fifo":
        path = tmp_path / "pipe.toml"
        os.mkfifo(path)
    roll = "alkemy 3 vs 5" if option == "--dice-file" else "d6"
    done = run_process([option, str(path), roll])  # a timeout, should reading block
    assert done.returncode == ExitStatus.BAD_INPUT
    assert "not a regular file (a device, a pipe or a socket)" in text(done.stderr)
    assert len(text(done.stderr).splitlines()) == 1
