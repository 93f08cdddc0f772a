"""Issue 28, traps: an unquoted ``>=`` is a redirect to the shell. ``dicecli 10d10>=7``
writes the roll into a file named ``=7``; ``dicecli 1d20+5 >= 15`` into a file named
``=`` and dicecli sees ``1d20+5 15``. dicecli points to the shell and to the quoted roll."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from dicecli import shell_redirect


def test_the_roll_is_rebuilt_as_typed() -> None:
    assert shell_redirect.quoted_roll(["1d20+5", "15"], "=") == "1d20+5 >= 15"
    assert shell_redirect.quoted_roll(["10d10"], "=7") == "10d10>=7"


def test_an_equals_file_that_is_standard_output_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "=").write_text("")  # another file of the same kind: not this one
    with open(tmp_path / "=7", "w") as written:
        assert shell_redirect.redirected_to(written.fileno()) == "=7"
        assert shell_redirect.hint(["10d10"], written.fileno()) == (
            "the shell read > as a redirect into a file named '=7': quote the roll: "
            "dicecli '10d10>=7'"
        )
    with open(tmp_path / "out.txt", "w") as chosen:  # a redirect the player meant
        assert shell_redirect.redirected_to(chosen.fileno()) is None
    read, write = os.pipe()
    try:
        assert shell_redirect.redirected_to(write) is None  # a pipe: nothing looked up
    finally:
        os.close(read)
        os.close(write)


def shell(tmp_path: Path, line: str) -> subprocess.CompletedProcess[str]:
    """``line`` run by the shell in ``tmp_path``, ``dicecli`` being this checkout's."""
    program = f"{shlex.quote(sys.executable)} -m dicecli"
    return subprocess.run(
        ["/bin/sh", "-c", line.replace("dicecli", program, 1)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell")
def test_a_check_split_by_the_shell_points_to_the_shell(tmp_path: Path) -> None:
    done = shell(tmp_path, "dicecli 1d20+5 >= 15")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: unexpected '15'",
        "  1d20+5 15",
        "         ^",
        "  the shell read > as a redirect into a file named '=': quote the roll: "
        "dicecli '1d20+5 >= 15'",
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")
@pytest.mark.parametrize("command", ["", "roll "])  # issue 28: after an explicit roll too
def test_a_count_written_into_a_file_is_told_at_a_terminal(tmp_path: Path, command: str) -> None:
    pexpect = pytest.importorskip("pexpect")
    program = f"{shlex.quote(sys.executable)} -m dicecli"
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", f"{program} {command}10d10>=7 --seed 1"],
        cwd=str(tmp_path),
        env={**os.environ, "NO_COLOR": "1"},
        encoding="utf-8",
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert child.before.replace("\r", "") == (
        "note: the shell read > as a redirect into a file named '=7': quote the roll: "
        "dicecli '10d10>=7'\n"
    )
    assert (tmp_path / "=7").read_text().startswith("49\t10d10\t")  # rule N1: the sum
