"""End to end: the real program in a pseudo-terminal, driven like a player would.

The dice come from ``--given`` so every total on screen is known in advance. The
history file goes to a temporary ``XDG_STATE_HOME``, never the user's.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

# Until `dicecli repl` is wired in the CLI, start the REPL's own entry point.
COMMAND = ["-m", "dicecli", "repl"]
# prompt_toolkit turns on bracketed paste once at the start of each prompt (the prompt
# text itself is redrawn on every key), so this marks "the program waits for a line".
PROMPT = "\x1b[?2004h"
UP = "\x1b[A"
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def screen(text: str) -> str:
    """What the terminal showed, without the escape sequences that draw it."""
    return ESCAPES.sub("", text)


class Terminal:
    def __init__(self, tmp_path: Path, *args: str) -> None:
        env = {
            **os.environ,
            "HOME": str(tmp_path),
            "XDG_STATE_HOME": str(tmp_path / "state"),
            "PROMPT_TOOLKIT_NO_CPR": "1",  # no cursor-position request to wait for
            "TERM": "xterm",
        }
        self.child = pexpect.spawn(
            sys.executable,
            [*COMMAND, *args],
            env=env,
            encoding="utf-8",
            dimensions=(24, 200),
            timeout=20,
        )
        self.child.expect_exact(PROMPT)

    def type(self, text: str) -> str:
        """Type ``text`` and Enter; what was shown until the next prompt."""
        self.child.send(text + "\r")
        self.child.expect_exact(PROMPT)
        return screen(self.child.before)

    def quit(self) -> int:
        """Type ``quit``; the exit status once the program has ended."""
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus)


def test_an_evening_at_the_prompt(tmp_path: Path) -> None:
    faces = "3,4,5,6,11,2,20"
    terminal = Terminal(tmp_path, "--given", faces)

    # The line typed is not echoed: the result follows it.
    assert "dice> 2d6+1\n[3, 4] + 1 = 8\n" in terminal.type("2d6+1")

    shown = terminal.type("2d6+")
    assert "error: expected" in shown
    assert "  2d6+\n      ^" in shown
    # The next prompt is empty; Up brings the failed line back, and "2" completes it.
    assert "2d6+2\n[5, 6] + 2 = 13\n" in terminal.type(UP + "2")

    assert "STR = 3" in terminal.type("let STR = 3")
    assert "\n[11] + STR(3) = 14\n" in terminal.type("d20+STR")
    assert "\n[2] + STR(3) = 5\n" in terminal.type("again")
    # a lone d20's natural 20 is a critical: marked "*" (and styled) at the terminal
    assert "\n[20*] + STR(3) = 23\n" in terminal.type("reroll")
    # rule W5: no die is re-rolled twice
    assert "already re-rolled" in terminal.type("reroll")

    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    assert terminal.child.exitstatus == 0
    history = (tmp_path / "state" / "dicecli" / "history").read_text(encoding="utf-8")
    assert "let STR = 3" in history


def test_ctrl_c_clears_the_line_and_keeps_the_session(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--given", "6")
    terminal.child.send("2d6+100")
    terminal.child.sendcontrol("c")
    terminal.child.expect_exact(PROMPT)
    assert "= 6" in terminal.type("d6")
    assert terminal.quit() == 0


def test_ctrl_c_stops_a_long_output_and_keeps_the_session(tmp_path: Path) -> None:
    # docs/repl.md: Ctrl-C cancels what runs long; the session, and its names, go on
    terminal = Terminal(tmp_path, "--seed", "1")
    assert "STR = 3" in terminal.type("let STR = 3")
    terminal.child.send("d6+STR -n 100000\r")
    terminal.child.expect_exact("STR(3)")  # the rolls are being shown
    terminal.child.sendcontrol("c")
    terminal.child.expect_exact("cancelled: the rest of the output is not shown")
    terminal.child.expect_exact(PROMPT)
    assert re.search(r"\n\[\d\] \+ STR\(3\) = \d\n", terminal.type("d6+STR"))
    assert terminal.quit() == 0


def test_lines_pasted_at_once_are_rolled_one_after_another(tmp_path: Path) -> None:
    # a bracketed paste of two lines from a player's notes, then Enter
    terminal = Terminal(tmp_path, "--given", "3,4,1,2,5")
    shown = terminal.type("\x1b[200~2d6\r\n3d6\x1b[201~")
    assert "\n[3, 4] = 7\n[1, 2, 5] = 8\n" in shown
    assert "error" not in shown
    assert terminal.quit() == 0


def test_after_an_error_the_prompt_is_empty_and_ctrl_d_leaves(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "--given", "3,17")
    assert "error: adv rolls the first d20 twice" in terminal.type("2d6 adv")
    # What is typed next is a line of its own, not glued to the bad one.
    shown = terminal.type("2d20kh1")
    assert "\n[3, 17] = 17\n" in shown
    assert "adv2d20kh1" not in shown
    # `CON = 2` reads as a check (issue 13) of a name not set: the hint leads to `let`
    assert "to name a value: let CON = 2" in terminal.type("CON = 2")
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    assert terminal.child.exitstatus == 0


def test_tab_completes_the_word_the_game_expects(tmp_path: Path) -> None:
    # rule G3: challenging is 13; 4 + 5 + 6 + STR 0 = 15 passes
    terminal = Terminal(tmp_path, "--given", "4,5,6")
    # The screen is redrawn by difference: only the completed letters are written.
    terminal.child.send("age ST\t")
    terminal.child.expect_exact("R")
    terminal.child.send(" vs chall\t")
    terminal.child.expect_exact("enging")
    shown = terminal.type("")
    assert "\n[4, 5, dragon 6] + STR(0) vs 13 (Challenging) = 15  ✔  success" in shown
    assert "success" in shown
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)


def test_a_line_repeated_with_n_then_a_saved_check(tmp_path: Path) -> None:
    # rule W9: Ld 8 passes on 2d6 <= 8
    terminal = Terminal(tmp_path, "--given", "1,2,3,6,6,6,4,4,3,4")
    shown = terminal.type("4d6kh3 -n 2")
    assert "[1, 2, 3, 6] = 11\n" in shown
    assert "[6, 6, 4, 4] = 16\n" in shown
    assert "2 rolls: total 27, min 11, max 16, mean 13.50" in shown
    assert "saved check" in terminal.type("let panic = wfb ld 8")
    assert "panic: Ld 8: [3, 4] = 7  ✔  pass (7 ≤ 8)" in terminal.type("panic")
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)


def test_a_sheet_s_missing_ability_and_aligned_badges_at_the_prompt(tmp_path: Path) -> None:
    """Issue 28 at a real prompt: with a character loaded, an ability its sheet lacks is
    an error that keeps the session (not a silent 0), and a line rolled several times
    shows its verdict badges in one column."""
    sheet = tmp_path / "mira.toml"
    sheet.write_text('name = "Mira"\n[stats]\nDEX = 2\n', encoding="utf-8")
    terminal = Terminal(tmp_path, "--seed", "4")

    assert "loaded" in terminal.type(f"load {sheet}").lower()
    missing = terminal.type("age STR+2 vs 13")
    assert "STR is not set for Mira (add it to the sheet's [stats], or --set STR=N)" in missing
    assert "SUCCESS" not in missing.upper()
    # the session goes on: the ability the sheet has is read
    assert re.search(r"DEX", terminal.type("age DEX vs 11"))

    shown = terminal.type("wfb ld 8 -n 6")
    rows = [line for line in shown.splitlines() if line.startswith("Ld 8: [")]
    assert len(rows) == 6
    badges = [re.search("[\N{HEAVY CHECK MARK}\N{HEAVY BALLOT X}]", row) for row in rows]
    columns = {badge.start() for badge in badges if badge is not None}
    assert len(columns) == 1, shown  # and every row has its badge:
    assert None not in badges
    # totals of one and two digits: the rows differ in width before their badges
    assert len({row.index("=") for row in rows}) == 1
    assert len({len(row.split("=")[1].split()[0]) for row in rows}) == 2
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
