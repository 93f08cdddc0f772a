"""Issue 28, eighty columns: in a ``--times`` run at a terminal the verdict badges of
different widths (``= 9`` and ``= 10``, a pool whose 10s added dice) start in one
column, on the command line, in a table's draws and in the REPL.

Rule numbers (W9, K2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from dicecli.app import ALIGNED_PART, RunOptions, Streams, run_once
from dicecli.environment import Environment
from dicecli.render.terminal import TerminalRenderer
from dicecli.repl.commands import handle_line
from dicecli.repl.state import render_output, start_state
from dicecli.rolling.sources import GivenSource, Roller
from dicecli.tables.command import run_table

SIGNS = re.compile(r"[✔✘]")


def shown(text: str) -> list[str]:
    return [line for line in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines() if line]


def sign_columns(lines: list[str]) -> set[int]:
    found = set()
    for line in lines:
        sign = SIGNS.search(line)
        if sign is not None:
            found.add(sign.start())
    return found


def terminal_run(line: str, given: str, times: int) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    options = RunOptions(given=given, times=times, color="always")
    run_once(line, options, Streams(io.StringIO(), out, err))
    assert err.getvalue() == ""
    return shown(out.getvalue())


@pytest.mark.parametrize(
    ("line", "given", "widths"),
    [
        # rule W9: 6 and 10 against Ld 8: "= 6" and "= 10"
        ("wfb ld 8", "2,4,4,6,6,3", 3),
        # rule K2: the second pool's 10 adds a die: a longer breakdown
        ("cod 3", "3,6,4,10,5,9,5,8,1,2", 3),
    ],
)
def test_badges_of_a_run_start_in_one_column(line: str, given: str, widths: int) -> None:
    rows = terminal_run(line, given, widths)
    assert len(rows) == widths + 1  # the rolls and the summary
    assert (
        len({len(row.split("=")[0]) + len(row.split("=")[1].split()[0]) for row in rows[:-1]}) > 1
    )
    assert len(sign_columns(rows)) == 1


def test_a_long_run_keeps_its_column_from_part_to_part() -> None:
    # the widest breakdown comes in the second part: the first part's column is kept
    # or moved right, never left
    faces = ["1,1"] * ALIGNED_PART + ["6,6"]
    rows = terminal_run("wfb ld 8", ",".join(faces), ALIGNED_PART + 1)
    columns = [SIGNS.search(row).start() for row in rows if SIGNS.search(row)]  # type: ignore[union-attr]
    assert columns == sorted(columns)
    assert len(set(columns[:ALIGNED_PART])) == 1


def test_a_single_roll_is_not_padded() -> None:
    (row,) = terminal_run("wfb ld 8", "2,4", 1)
    assert row.startswith("wfb ld 8: [2, 4] = 6  ✔")


def test_the_repl_lines_up_a_times_run() -> None:
    state = start_state(Roller(GivenSource.from_text("2,4,4,6,6,3")), Environment(), 3)
    _, output = handle_line(state, "wfb ld 8")
    out = io.StringIO()
    renderer = TerminalRenderer(out, echo_input=True, colour="always")
    render_output(output, renderer, io.StringIO(), io.StringIO())
    assert len(sign_columns(shown(out.getvalue()))) == 1


def test_a_tables_draws_line_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short path: the lines fit in 80 columns
    book = tmp_path / "t.toml"
    book.write_text('[t]\nroll = "d12"\n[t.entries]\n"1-9" = "a"\n"10-12" = "b"\n')
    out = io.StringIO()
    options = RunOptions(given="3,11", times=2, color="always")
    run_table(["t.toml", "t"], options, Streams(io.StringIO(), out, io.StringIO()), False)
    rows = [row for row in shown(out.getvalue()) if "▶" in row]
    # "= 3" and "= 11": the entries' badges (▶) start in one column
    assert len(rows) == 2
    assert len({row.index("▶") for row in rows}) == 1
