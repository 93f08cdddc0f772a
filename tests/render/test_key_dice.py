"""Issue 28, each game's key die named: the AGE Dragon die is said in words, not by
colour alone (red reads as a failure), and a critical keeps its ``*`` in plain text.
Expected lines written from the rules cited (docs/rules.md)."""

from __future__ import annotations

import io

from rich.console import Console

import dicecli
from dicecli.render.terminal import TerminalRenderer
from dicecli.render.text import result_line


def test_the_dragon_die_is_named_in_plain_output() -> None:
    # rule G1: the third die is the Dragon die; G2, G5, G6: 14 + 3 >= 11, degree 4, 4 SP
    result = dicecli.roll("age 3 vs 11", given="5,5,4")
    assert result_line(result) == (
        "17\tage 3 vs 11\t[5, 5, dragon 4] + 3 vs 11 => success, degree 4, 4 SP"
    )


def test_the_dragon_die_is_named_without_colour_at_a_terminal() -> None:
    # rule G1, G4: each side of an opposed test rolls its own Dragon die
    stream = io.StringIO()
    TerminalRenderer(stream, Console(file=stream, width=80, no_color=True)).result(
        dicecli.roll("age 3 vs age 2", given="6,5,5,6,2,4")
    )
    lines = [line.rstrip() for line in stream.getvalue().splitlines()]
    assert lines[1:] == ["  #1 [6, 5, dragon 5] + 3 = 19 wins", "  #2 [6, 2, dragon 4] + 2 = 14"]


def test_a_critical_keeps_its_sign_in_plain_output() -> None:
    # rule N5: a natural 20 on a lone d20
    assert result_line(dicecli.roll("d20+5", given="20")) == "25\td20+5\t[20*] + 5"
    assert result_line(dicecli.roll("d20+5", given="1")) == "6\td20+5\t[1*] + 5"
    assert result_line(dicecli.roll("d20+5", given="12")) == "17\td20+5\t[12] + 5"


def test_ordinary_dice_are_not_named() -> None:
    assert result_line(dicecli.roll("3d6", given="5,5,4")) == "14\t3d6\t[5, 5, 4]"
