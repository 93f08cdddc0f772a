"""The REPL in a pseudo-terminal under hostile input (short profile): control
characters, bytes that are not UTF-8, huge lines, a history path that is a folder or
a device. The session must keep going: a prompt after every line, an exit status of 0
at Ctrl-D, never a traceback."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from fuzz.harness import mutated, token_soup

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

PROMPT = "\x1b[?2004h"  # prompt_toolkit turns on bracketed paste at each prompt
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def screen(child: Any) -> str:
    """What the terminal showed before the last prompt, without drawing escapes."""
    return ESCAPES.sub("", str(child.before))


def spawn(tmp_path: Path, state_home: Path, *args: str) -> Any:
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(state_home),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "repl", *args],
        env=env,
        encoding="utf-8",
        codec_errors="replace",
        dimensions=(24, 200),
        timeout=30,
    )


def leave(child: Any) -> str:
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return str(child.before)


@pytest.mark.parametrize("history", ["folder", "device"])
def test_a_history_path_that_is_not_a_file_is_set_aside(tmp_path: Path, history: str) -> None:
    state = tmp_path / "state"
    (state / "dicecli").mkdir(parents=True)
    path = state / "dicecli" / "history"
    if history == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    child = spawn(tmp_path, state, "--given", "4,5")
    child.expect_exact(f"history not saved: {path} is not a regular file")
    child.expect_exact(PROMPT)
    for line in ("d6", "d6"):
        child.send(line + "\r")
        child.expect_exact(PROMPT)
    shown = screen(child)
    assert "\n[5] = 5\n" in shown  # the second d6, the session going on
    assert "Traceback" not in shown
    leave(child)


@pytest.mark.slow
def test_hostile_lines_keep_the_session(tmp_path: Path) -> None:
    rng = random.Random(5)
    lines = [
        "2d6 # caf\u00e9 \x01\x02",
        "d6[\x1b[31mred]",
        "+".join(["1"] * 2000),
        "(" * 150 + "1",
        "9" * 200,
        *(token_soup(rng, 10).replace("\r", "") for _ in range(10)),
        *(mutated(rng, "alkemy 3 vs 5") for _ in range(5)),
    ]
    child = spawn(tmp_path, tmp_path / "state", "--seed", "1")
    child.expect_exact(PROMPT)
    for line in lines:
        child.send("\x15" + line.replace("\n", " ") + "\r")  # Ctrl-U: drop a kept line
        child.expect_exact(PROMPT)
        assert "internal error" not in str(child.before)
        assert "Traceback" not in str(child.before)
    child.send("\x15d6\r")
    child.expect_exact(PROMPT)
    assert re.search(r"\n\[[1-6]\] = [1-6]\n", screen(child))  # d6 still rolls
    leave(child)
    history = tmp_path / "state" / "dicecli" / "history"
    assert history.stat().st_mode & 0o777 == 0o600


def test_bytes_that_are_not_utf8_typed_at_the_prompt_are_shown_escaped(tmp_path: Path) -> None:
    child = spawn(tmp_path, tmp_path / "state", "--given", "1,6")
    child.expect_exact(PROMPT)
    os.write(child.child_fd, b"2d6 # \xff\xfe caf\xc3\xa9\r")  # raw bytes, as a terminal sends
    child.expect_exact(PROMPT)
    assert "[1, 6] = 7  # \\xff\\xfe café" in screen(child)  # the comment, escaped
    leave(child)
