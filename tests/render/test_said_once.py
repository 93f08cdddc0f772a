"""Issue 28, "said once": each thing a line says, it says once. The expected lines are
written from the issue and the rules (docs/rules.md, cited by number), at a terminal
without colour (what NO_COLOR shows) and in the plain format where it changed."""

from __future__ import annotations

import io

from rich.console import Console

import dicecli
from dicecli.render.terminal import TerminalRenderer
from dicecli.render.text import result_line


def shown(*lines: tuple[str, str], values: dict[str, int] | None = None) -> list[str]:
    """What a terminal 80 columns wide shows for each ``(line, given faces)``, one
    renderer for all (a session)."""
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, width=80, no_color=True))
    for text, given in lines:
        renderer.result(dicecli.roll(text, given=given, values=values))
    return [line.rstrip() for line in stream.getvalue().splitlines()]


def test_a_misfire_is_shown_once_on_its_die() -> None:
    # rule W1: a MISFIRE has no total and its verdict is MISFIRE
    assert shown(("wfb artillery", "MISFIRE")) == ["wfb artillery: [⚠ MISFIRE]"]
    assert shown(("wfb 2d6+artillery", "3,4,MISFIRE")) == [
        "wfb 2d6+artillery: [3, 4] + [⚠ MISFIRE]"
    ]
    # a number on the artillery die: no event, the die as any other
    assert shown(("wfb artillery", "4")) == ["wfb artillery: [4] = 4"]


def test_the_plain_format_of_a_misfire_keeps_its_verdict_field() -> None:
    # rule W1; docs/output.md: TOTAL, INPUT, DETAIL with the verdict after "=>"
    result = dicecli.roll("wfb artillery", given="MISFIRE")
    assert result_line(result) == "-\twfb artillery\t[MISFIRE] => MISFIRE"


def test_a_test_does_not_repeat_the_line_typed() -> None:
    # rule W9: Ld 8 passes on 7; rule W8: a characteristic test of 4 fails on 5
    assert shown(("wfb ld 8", "3,4")) == ["wfb ld 8: [3, 4] = 7  ✔  pass (7 ≤ 8)"]
    assert shown(("wfb test 4", "5")) == ["wfb test 4: [5] = 5  ✘  fail (5 > 4)"]


def test_a_break_test_names_the_leadership_once() -> None:
    # rule W10: Ld 9 lost by 4 tests 2D6 against 5; 6 fails
    assert shown(("wfb break Ld by 4", "3,3"), values={"Ld": 9}) == [
        "wfb break Ld by 4: break test: Ld(9) - 4 = 5: [3, 3] = 6  ✘  fail (6 > 5)"
    ]
    assert shown(("wfb break 9 by 4", "3,3")) == [
        "wfb break 9 by 4: break test: Ld 9 - 4 = 5: [3, 3] = 6  ✘  fail (6 > 5)"
    ]


def test_a_named_target_shows_its_value_once() -> None:
    # rule N1 and N2: 12 + 5 = 17 against AC 15 passes by 2
    assert shown(("d20+5 vs AC", "12"), values={"AC": 15}) == [
        "d20+5 vs AC: [12] + 5 vs AC(15) = 17  ✔  pass (>= 15), margin +2"
    ]
    result = dicecli.roll("d20+5 vs AC", given="12", values={"AC": 15})
    assert result_line(result) == ("17\td20+5 vs AC\t[12] + 5 vs AC(15) => pass (>= 15), margin +2")
    # a target worked out from more than a name still says what it came to
    result = dicecli.roll("d20+5 vs AC+1", given="12", values={"AC": 15})
    assert result_line(result) == (
        "17\td20+5 vs AC+1\t[12] + 5 vs AC(15) + 1 (=16) => pass (>= 16), margin +1"
    )


def test_an_advanced_test_does_not_echo_its_input_twice() -> None:
    # rule G7: 19 vs 11 succeeds with Dragon 5; 6 misses; 19 again, Dragon 4: 9 of 8
    assert shown(("age 3 vs 11 until 8", "6,5,5,1,1,1,6,6,4"))[0].startswith(
        "age 3 vs 11 until 8: [6, 5, dragon 5] 19 +5 (5/8); [1, 1, dragon 1] 6 miss;"
    )


def test_a_count_of_successes_is_said_once() -> None:
    # every die of 1 or more is a success: the total is the count
    assert shown(("5d6>=1", "1,6,5,2,3")) == ["5d6>=1: [1, 6, 5, 2, 3] = 5 successes"]
    assert shown(("1d6>=4", "6")) == ["1d6>=4: [6] = 1 success"]
    # failures taken off: the total is not the count, both are said
    assert shown(("6d10>=7f1", "10,7,1,3,8,6")) == [
        "6d10>=7f1: [10, 7, 1, 3, 8, 6] (3 successes, 1 failure) = 2"
    ]


def test_an_assumed_die_layout_is_noted_once_a_session() -> None:
    # rule A9: the yellow faces are an assumption; rule A1: 8 + 4 + 4 = 16 vs 15
    lines = shown(
        ("alkemy 8 vs 15 yellow", "4,4"),
        ("alkemy 7 vs 15 yellow", "1,1"),
        ("alkemy 8 vs 15 yellow", "5,5"),
    )
    assert [line for line in lines if "rule A9" in line] == [
        "  yellow dice faces 1,2,3,4,4,5 are an assumption (rule A9): set your own with"
    ]
    assert len(lines) == 5  # three rolls, one note over two lines at 80 columns


def test_odds_state_the_range_once() -> None:
    # rule N1: 2d6 gives 2 to 12, mean 7
    stream = io.StringIO()
    TerminalRenderer(stream, Console(file=stream, width=80, no_color=True)).odds(
        dicecli.odds("2d6")
    )
    lines = [line.rstrip() for line in stream.getvalue().splitlines()]
    assert lines[:3] == ["2d6  (exact)", "  mean 7.00, 2 to 12", "  stdev 2.4152"]
    # a check's headline is its chance: the range is said below it
    stream = io.StringIO()
    TerminalRenderer(stream, Console(file=stream, width=80, no_color=True)).odds(
        dicecli.odds("wfb ld 8")
    )
    assert "  range 2..12, stdev 2.4152" in stream.getvalue().splitlines()
