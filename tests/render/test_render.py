"""Renderers: what each output shows of the same result.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap

from rich.console import Console

import dicecli
from dicecli.render.terminal import TerminalRenderer
from dicecli.render.text import breakdown_text, die_text, result_line, summary_line

STRUCK = re.compile(r"\x1b\[(?:\d+;)*9(?:;\d+)*m([^\x1b]*)")  # SGR 9: crossed out


def terminal_output(text: str, given: str) -> str:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, color_system="truecolor", width=120)
    TerminalRenderer(stream, console).result(dicecli.roll(text, given=given))
    return stream.getvalue()


def test_terminal_strikes_through_dropped_dice_only() -> None:
    output = terminal_output("4d6kh3", "3,4,1,6")
    assert STRUCK.findall(output) == ["1"]


def test_terminal_shows_the_total() -> None:
    output = terminal_output("2d6+5", "3,4")
    assert "12" in output
    assert STRUCK.findall(output) == []


def test_plain_marks_dice_that_do_not_count_with_tildes() -> None:
    result = dicecli.roll("2d6r1 + d6!", given="1,5,3,6,2")
    assert breakdown_text(result.breakdown) == "[~1~, 5, 3] + [6!, 2]"


def test_plain_shows_face_and_value_when_they_differ() -> None:
    # rule N5: the natural D6 face and the D3 value both visible
    (die,) = dicecli.roll("D3", given="5").dice
    assert die_text(die) == "5→3"


def test_result_line_fields() -> None:
    result = dicecli.roll("2d6 # attack", given="2,3")
    assert result_line(result) == "5\t2d6 # attack\t[2, 3] # attack"


def test_summary_line() -> None:
    results = [dicecli.roll("d6", given=face) for face in ("1", "2", "6")]
    assert summary_line(results) == "3 rolls: total 9, min 1, max 6, mean 3.00"


def test_plain_group_marks_the_dropped_item() -> None:
    result = dicecli.roll("{2d6, 1d8}kh1", given="1,2,5")
    assert breakdown_text(result.breakdown) == "{[~1~, ~2~] ~(=3)~, [5] (=5)}"


def test_plain_success_tally() -> None:
    result = dicecli.roll("5d10>=7f1", given="7,1,10,3,1")
    assert breakdown_text(result.breakdown) == "[7, 1, 10, 3, 1] (2 successes, 2 failures)"


def test_odds_say_when_a_cut_off_leaves_something_out() -> None:
    from dicecli.render.plain import odds_lines

    assert odds_lines(dicecli.odds("3d6"))[0] == "odds\t3d6\texact"
    assert odds_lines(dicecli.odds("d6!"))[0].startswith("odds\td6!\tto a precision of ")


def test_summary_of_checks_counts_passes_and_sums_no_totals() -> None:
    # rule W9: Ld 8 passes on 2D6 <= 8
    results = [dicecli.roll("wfb ld 8", given=faces) for faces in ("1,2", "6,6", "3,3")]
    assert summary_line(results) == "3 rolls: 2 of 3 passed"


def test_summary_counts_rolls_with_no_number_by_verdict() -> None:
    # rule W1: a MISFIRE has no number
    results = [dicecli.roll("wfb artillery", given=face) for face in ("MISFIRE", "4")]
    assert summary_line(results) == "2 rolls: 1 MISFIRE"


def test_plain_tells_compounded_dice_from_exploded_ones() -> None:
    compounded = dicecli.roll("d6!!", given="6,6,3")
    exploded = dicecli.roll("d6!", given="6,6,3")
    assert breakdown_text(compounded.breakdown) == "[6!, +6!, +3]"
    assert breakdown_text(exploded.breakdown) == "[6!, 6!, 3]"


def test_a_plain_roll_at_a_terminal_does_not_load_the_games() -> None:
    """Styles of the games' own marks are looked up only when a die carries one."""
    code = textwrap.dedent(
        """
        import io, sys
        from rich.console import Console
        import dicecli
        from dicecli.render.terminal import TerminalRenderer
        out = io.StringIO()
        renderer = TerminalRenderer(out, Console(file=out, force_terminal=True))
        renderer.result(dicecli.roll("4d6kh3!", seed=1))
        print("dicecli.systems.registry" in sys.modules)
        renderer.result(dicecli.roll("wfb artillery", given="MISFIRE"))
        print("dicecli.systems.registry" in sys.modules, "\\x1b[1;37;41mMISFIRE" in out.getvalue())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["False", "True", "True"]
