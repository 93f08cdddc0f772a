"""Issue 28, the next step offered: ``dicecli --character mira.toml`` (or ``--seed``,
``--dice-file``) with no roll, at a terminal, opens the REPL with what it set up rather
than saying there is nothing to roll. Piped, nothing changes: stdin's lines are rolled."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from processes import run_dicecli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = "\x1b[?2004h"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_a_character_alone_at_a_terminal_opens_the_repl_with_it(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "--character", str(EXAMPLES / "character.toml"), "--given", "5"],
        env=env,
        encoding="utf-8",
        dimensions=(24, 100),
        timeout=30,
    )
    child.expect_exact(PROMPT)
    assert "type a roll" in ESCAPES.sub("", child.before)  # the banner: a session
    child.send("d20+STR\r")
    child.expect_exact(PROMPT)
    # examples/character.toml: STR = 3; rule N1: 5 + 3
    assert "[5] + STR(3) = 8" in ESCAPES.sub("", child.before)
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_piped_the_options_roll_stdin_as_before() -> None:
    done = run_dicecli(
        "--character", str(EXAMPLES / "character.toml"), "--given", "5", stdin="d20+STR\n"
    )
    assert (done.returncode, done.stdout) == (0, "8\td20+STR\t[5] + STR(3)\n")
