"""Issue 28, eighty columns: at an 80-column terminal the REPL's banner, ``help`` and
``history`` wrap between words, the wrapped part under its column, never cut inside a
word at the edge. Unit cases of :func:`dicecli.repl.fit.fitted`, then the real program
in a pseudo-terminal 80 columns wide."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from dicecli.repl import prompt
from dicecli.repl.fit import fitted

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = "\x1b[?2004h"


def test_a_short_line_is_left_alone() -> None:
    assert fitted("  vars                list the named values", 80) == (
        "  vars                list the named values"
    )


def test_a_table_row_wraps_under_its_description() -> None:
    row = (
        "  reroll              re-roll the last roll, all its dice; the new result stands (rule W5)"
    )
    assert fitted(row, 80).split("\n") == [
        "  reroll              re-roll the last roll, all its dice; the new result stands",
        "                      (rule W5)",
    ]


def test_a_sentence_wraps_between_words_from_the_margin() -> None:
    text = (
        "dicecli 0.1.0: type a roll (2d6+5, alkemy 8 vs 15, wfb ld 8, age STR+2 vs 13), "
        "help, or Ctrl-D to leave."
    )
    assert fitted(text, 80).split("\n") == [
        "dicecli 0.1.0: type a roll (2d6+5, alkemy 8 vs 15, wfb ld 8, age STR+2 vs 13),",
        "help, or Ctrl-D to leave.",
    ]


def test_a_word_longer_than_the_room_is_not_cut() -> None:
    assert fitted("x " + "y" * 100, 80).split("\n") == ["x", "y" * 100]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_banner_help_and_history_fit_eighty_columns(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        "COLUMNS": "80",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "repl", "--given", ",".join(["3"] * 25)],
        env=env,
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=30,
    )
    child.expect_exact(PROMPT)
    banner = ESCAPES.sub("", child.before).strip("\n").split("\n")
    assert all(len(line) <= 80 for line in banner)
    assert " ".join(banner) == prompt.banner()  # cut between words, not inside one

    def shown(line: str) -> list[str]:
        child.send(line + "\r")
        child.expect_exact(PROMPT)
        return ESCAPES.sub("", child.before).split("\n")[1:]

    shown("25d6+5")  # rule N1: twenty-five 3s and 5 make 80
    help_lines = shown("help")
    assert all(len(line) <= 80 for line in help_lines)
    assert "                      (rule W5)" in help_lines  # under the descriptions
    first, second = shown("history")[:2]
    assert first.startswith("1  80  25d6+5  [3, 3, ")
    assert first.endswith("3,")  # cut between two dice
    assert len(first) <= 80
    assert re.fullmatch(r" {15}3(, 3)*\] \+ 5", second), second  # under the detail
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
