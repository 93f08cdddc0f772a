"""Renderers: what each output shows of the same result.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import dicecli
from dicecli.notation.semantics import MAX_SIDES
from dicecli.render.terminal import TerminalRenderer
from dicecli.render.text import (
    breakdown_text,
    dice_text,
    die_text,
    face_text,
    result_line,
    summary_line,
)
from dicecli.results import CLAMPED, CRITICAL_SUCCESS, EXPLODED, VALUE_TEXTS, DieRoll

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


def _spelled(die: DieRoll, dice: list[DieRoll]) -> str:
    """A die's text as docs/output.md describes it, die by die: its face (with ``→``
    and its value when they differ and the face is a number), marks, tildes when it
    does not count, its kind when marked among dice of another kind."""
    text = face_text(die)
    text = text if die.kept else f"~{text}~"
    mixed = any(other.die != dice[0].die for other in dice)
    return f"{die.die} {text}" if mixed and die.die in die.marks else text


@given(
    st.lists(
        st.builds(
            DieRoll,
            die=st.sampled_from(("d6", "d743", "dragon")),
            face=st.sampled_from(("1", "5", "-", "+", "12", "skull")),
            value=st.none() | st.integers(-2, 12),
            kept=st.booleans(),
            marks=st.lists(st.sampled_from((EXPLODED, CLAMPED, CRITICAL_SUCCESS, "dragon"))).map(
                tuple
            ),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_dice_text_spells_each_die_as_it_would_alone(dice: list[DieRoll]) -> None:
    """Dice are spelled in one pass, with a cache for the shared marked ones and none for
    the unmarked: either way, each as it would be alone."""
    assert dice_text(dice) == "[" + ", ".join(_spelled(die, dice) for die in dice) + "]"
    assert dice_text(dice) == dice_text(list(dice))  # the same again, from the cache


def test_a_value_met_as_a_face_leaves_other_faces_of_that_value_shown_as_they_are() -> None:
    """The plain renderer remembers values met as faces (``results.VALUE_TEXTS``): a
    D3's 5 is worth 3 (rule N4), and shows ``5→3`` whether or not a 3 came before."""
    assert dice_text([DieRoll("d6", "3", 3), DieRoll("d6", "3", 3)]) == "[3, 3]"
    assert dice_text([DieRoll("D3", "5", 3), DieRoll("D3", "3", 2)]) == "[5→3, 3→2]"
    assert dice_text([DieRoll("D3", "5", 3)]) == "[5→3]"


def test_a_face_worth_true_is_not_remembered_as_the_text_of_1() -> None:
    """``True`` equals 1 as a key: a face ``"True"`` worth ``True`` (which a plug-in's die
    may have) must not become the face of a computed die's 1."""
    VALUE_TEXTS.clear()  # a cache: room for what the test writes, whatever ran before
    assert dice_text([DieRoll("coin", "True", True), DieRoll("coin", "True", True)]) == (
        "[True, True]"
    )
    assert [die.face for die in dicecli.roll("2d7", given="1,7").dice] == ["1", "7"]


def test_every_face_of_the_largest_die_is_remembered_once_met() -> None:
    """``results.VALUE_TEXTS`` has room for every face of a d10,000 (the largest die):
    in a stream of big dice, as of small ones, a face met once is looked up after."""
    VALUE_TEXTS.clear()
    faces = range(1, MAX_SIDES + 1)
    dice_text([DieRoll(f"d{MAX_SIDES}", str(value), value) for value in faces])
    assert all(VALUE_TEXTS.get(value) == str(value) for value in faces)


def test_computed_dice_take_their_faces_from_the_numbers_written() -> None:
    """A first roll of computed-faces dice reads its faces from the numbers the renderer
    met (``results.VALUE_TEXTS``): each face is still its value written out."""
    VALUE_TEXTS.clear()
    written = dice_text([DieRoll("d743", "700", 700), DieRoll("d743", "3", 3)])
    assert written == "[700, 3]"
    result = dicecli.roll("3d743 + 1", given="700,3,12")
    assert [(die.face, die.value) for die in result.dice] == [("700", 700), ("3", 3), ("12", 12)]
    assert result_line(result) == "716\t3d743 + 1\t[700, 3, 12] + 1"


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
        print("dicecli.systems.registry" in sys.modules, "1;37;41m⚠ MISFIRE" in out.getvalue())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["False", "True", "True"]


# Read at a glance (issue: output a player reads at a glance).


def plain_terminal(text: str, given: str, echo_input: bool = True) -> str:
    """The terminal output of ``text`` without styles (what NO_COLOR shows)."""
    stream = io.StringIO()
    console = Console(file=stream, width=100, no_color=True, force_terminal=False)
    renderer = TerminalRenderer(stream, console, echo_input=echo_input)
    renderer.result(dicecli.roll(text, given=given))
    return stream.getvalue()


def test_the_verdict_has_a_symbol_that_survives_no_color() -> None:
    # rule W1: 2d6 at most the Leadership passes
    assert plain_terminal("wfb ld 8", "3,4") == "wfb ld 8: [3, 4] = 7  ✔  pass (7 ≤ 8) \n"
    assert plain_terminal("wfb ld 8", "6,4").endswith("✘  fail (10 > 8) \n")


def test_the_verdict_is_a_coloured_badge() -> None:
    output = terminal_output("wfb ld 8", "3,4")
    assert "\x1b[1;30;42m pass (7 ≤ 8) " in output  # bold black on green


def test_a_natural_20_and_1_on_a_d20_stand_out() -> None:
    assert "\x1b[1;7;32m20" in terminal_output("d20+5", "20")  # bold reverse green
    assert "\x1b[1;7;31m1" in terminal_output("d20+5", "1")
    assert "\x1b[1;7;" not in terminal_output("d20+5", "19")
    assert "\x1b[1;7;" not in terminal_output("d6", "1")
    assert STRUCK.findall(terminal_output("2d20kl1", "20,3")) == ["20"]  # dropped: struck


def test_alkemy_coloured_dice_are_drawn_in_their_colour() -> None:
    # rule A3: a yellow health state rolls the yellow dice
    assert "\x1b[1;33m3" in terminal_output("alkemy 8 vs 15 yellow", "3,4")
    assert "\x1b[1;31m3" in terminal_output("alkemy 8 vs 15 red", "3,4")
    assert "\x1b[1;3" not in terminal_output("alkemy 8 vs 15", "3,4").split(" + ")[0]


def test_dropped_dice_are_struck_but_not_dim() -> None:
    output = terminal_output("4d6kh3", "3,4,1,6")
    assert "\x1b[2m" not in output.split("=")[0].split(": ", 1)[1]


def test_nothing_happened_is_not_said() -> None:
    # rule W4: an artillery die that does not misfire; plain output keeps the verdict
    assert plain_terminal("wfb artillery", "6") == "wfb artillery: [6] = 6\n"
    assert result_line(dicecli.roll("wfb artillery", given="6")).endswith("=> no misfire")


def test_a_comment_is_shown_once() -> None:
    assert plain_terminal("2d6 # torch", "1,5") == "2d6: [1, 5] = 6  # torch\n"


def test_the_repl_does_not_echo_the_line_but_names_a_saved_roll() -> None:
    assert plain_terminal("2d6+1", "3,4", echo_input=False) == "[3, 4] + 1 = 8\n"
    env = dicecli.Environment(rolls={"attack": dicecli.parse("1d20+5").body})  # type: ignore[dict-item]
    stream = io.StringIO()
    console = Console(file=stream, width=100, no_color=True)
    renderer = TerminalRenderer(stream, console, echo_input=False)
    renderer.result(dicecli.roll("attack", given="17", environment=env))
    assert stream.getvalue() == "attack: [17] + 5 = 22\n"


@pytest.mark.parametrize(("line", "given"), [("d8", "8"), ("D6", "4"), ("dF", "+"), ("d20", "7")])
def test_the_repl_does_not_echo_a_die_that_reads_like_a_name(line: str, given: str) -> None:
    # docs/output.md: in the REPL the line typed is not repeated, but a saved roll's name
    shown = plain_terminal(line, given, echo_input=False)
    assert not shown.startswith(f"{line}:"), shown
    assert shown.startswith("[")


def test_each_side_of_an_opposed_test_has_its_own_line() -> None:
    # rule A2: the higher total wins an opposed test
    assert plain_terminal("alkemy 2 vs alkemy 5", "3,4,4,1") == (
        "alkemy 2 vs alkemy 5: ▶  side 2 wins on total: 10 vs 9 \n"
        "  [3, 4] + 2 → 9\n"
        "  [4, 1] + 5 → 10\n"
    )


def test_a_rolloff_shows_no_seat_as_a_total() -> None:
    # rule W6: the highest die wins a roll-off
    assert plain_terminal("wfb rolloff Alice Bob", "4,5") == (
        "wfb rolloff Alice Bob: ▶  Bob wins \n  Alice [4]\n  Bob [5]\n"
    )


def test_a_note_is_shown_once_for_a_run_of_the_same_line() -> None:
    # rule A9: the yellow faces are an assumption, said once
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, width=200, no_color=True))
    for faces in ("1,2", "3,4", "5,1"):
        renderer.result(dicecli.roll("alkemy 8 vs 15 yellow", given=faces))
    assert stream.getvalue().count("rule A9") == 1
    renderer.result(dicecli.roll("alkemy 7 vs 15 yellow", given="1,1"))
    # issue 28: an assumption is said once a session, whatever line brings it
    assert stream.getvalue().count("rule A9") == 1
    renderer.result(dicecli.roll("alkemy 7 vs 15 red", given="1,1"))
    assert stream.getvalue().count("rule A9") == 2  # the red dice's own assumption


# Odds at the table: the answer first, short tables, passing rows coloured.


def odds_output(text: str, full: bool = False, color: bool = False) -> str:
    stream = io.StringIO()
    console = Console(
        file=stream,
        width=100,
        force_terminal=color,
        color_system="truecolor" if color else None,
    )
    TerminalRenderer(stream, console).odds(dicecli.odds(text), full)
    return stream.getvalue()


def test_odds_answer_first_in_one_line() -> None:
    # rule W9: Ld 8 passes on 2d6 <= 8, 26 of 36
    assert odds_output("wfb ld 8").splitlines()[1] == "  ✔ 72.22% to pass  13/18"
    assert odds_output("2d6+3").splitlines()[1] == "  mean 10.00, 5 to 15"
    assert (
        odds_output("alkemy 2 vs alkemy 5")
        .splitlines()[1]
        .startswith("  ▶ side 1 wins 15.90%, side 2 wins 84.10%")
    )


def test_a_roll_under_test_has_an_at_most_column() -> None:
    lines = odds_output("wfb ld 8").splitlines()
    assert lines[3].split() == ["value", "chance", "at", "most"]
    assert lines[4].split()[:3] == ["2", "2.78%", "2.78%"]
    assert lines[10].split()[:3] == ["8", "13.89%", "72.22%"]  # at most 8: the chance to pass
    assert "at least" in odds_output("alkemy 8 vs 15")


def test_the_passing_rows_are_green() -> None:
    # rule W9: 2..8 pass
    green_values = re.findall(r"\x1b\[1;32m *(\d+)\x1b", odds_output("wfb ld 8", color=True))
    assert green_values == [str(value) for value in range(2, 9)]


def test_long_tables_are_shortened_unless_full() -> None:
    short = odds_output("10d6")
    assert "26 rarer rows (1.87% in all): --full shows them" in short
    full = odds_output("10d6", full=True)
    assert "rarer rows" not in full
    assert len(full.splitlines()) == len(short.splitlines()) + 26 - 1


def test_a_short_table_is_whole() -> None:
    assert "rarer rows" not in odds_output("2d6")


def test_odds_beside_a_result() -> None:
    # rule W9: Ld 8 passes on 2d6 <= 8, 26 of 36
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, width=100, no_color=True))
    renderer.odds_environment = dicecli.Environment()
    renderer.result(dicecli.roll("wfb ld 8", given="3,4"))
    renderer.result(dicecli.roll("2d6", given="6,5"))
    assert stream.getvalue().splitlines() == [
        "wfb ld 8: [3, 4] = 7  ✔  pass (7 ≤ 8)   (72.22% to pass)",
        "2d6: [6, 5] = 11  (8.33% to roll 11 or more)",
    ]


def test_a_long_result_puts_the_verdict_on_a_line_of_its_own() -> None:
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, width=50, no_color=True))
    renderer.result(dicecli.roll("age 2+1 vs 11", given="6,6,1"))
    assert stream.getvalue() == (
        "age 2+1 vs 11: [6, 6, dragon 1] + 2 + 1 vs 11 = 16\n  ✔  success, degree 1, 1 SP \n"
    )


def test_an_allocation_shows_no_position_as_a_total() -> None:
    # rule W7: one D6 among 5 candidates
    assert plain_terminal("wfb allocate 5", "2") == "wfb allocate 5: [2]  ▶  candidate 2 of 5 \n"
