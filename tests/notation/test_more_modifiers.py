"""Dice modifiers from RPG Dice Roller and Roll20: a bare ``r``, ``!!p``, ``dF.1`` and
``dF.2``, double successes ``ds``, sorting ``s``/``sa``/``sd`` (``docs/grammar.md``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.notation.nodes import Condition, Dice, Explode, Keep, Modifiers, Reroll
from dicecli.render.text import result_line

REROLL_NOTE = (
    " (r re-rolls until the face is gone here; Foundry VTT re-rolls once: write ro, or "
    "--dialect foundry; Dice Maiden's r2 re-rolls 2 or less once: --dialect dicemaiden)"
)
"""The note on a line whose r another roller reads as re-rolling once (issue 26)."""


@pytest.mark.parametrize(
    ("text", "node", "canonical"),
    [
        ("4d6r", Dice(4, 6, Modifiers(reroll=Reroll(Condition("=", 1), False))), "4d6r1"),
        ("4d6ro", Dice(4, 6, Modifiers(reroll=Reroll(Condition("=", 1), True))), "4d6ro1"),
        ("4dFr", Dice(4, "F", Modifiers(reroll=Reroll(Condition("<", 0), False))), "4dFr<0"),
        ("d6!!p", Dice(1, 6, Modifiers(explode=Explode("!!p", None))), "d6!!p"),
        ("dF.1", Dice(1, "F.1"), "dF.1"),
        ("4dF.2", Dice(4, "F"), "4dF"),  # dF.2 is the usual Fudge die
        (
            "10d10>=8ds10",
            Dice(10, 10, Modifiers(success=Condition(">=", 8), double=Condition("=", 10))),
            "10d10>=8ds10",
        ),
        ("4d6s", Dice(4, 6, Modifiers(sort="a")), "4d6s"),
        ("4d6SA", Dice(4, 6, Modifiers(sort="a")), "4d6s"),
        ("4d6sd", Dice(4, 6, Modifiers(sort="d")), "4d6sd"),
        ("4d6sdl1", Dice(4, 6, Modifiers(keep=Keep("dl", 1), sort="a")), "4d6dl1s"),
        ("3d6k3", Dice(3, 6, Modifiers(keep=Keep("kh", 3))), "3d6kh3"),  # k3 keeps 3, not 3s
    ],
)
def test_modifiers_parse(text: str, node: Dice, canonical: str) -> None:
    assert parse(text).body == node
    assert str(node) == canonical
    assert parse(canonical).body == node


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10d10ds10", "ds counts a success twice: add a success such as >=8"),
        ("{d6}r", "a group cannot reroll: put it on the dice inside the group"),
        ("d6!!pcs6", "cs and cf judge single dice: a compounded die (!!) is several"),
        ("dF.3", "unexpected '.3'"),
    ],
)
def test_modifiers_refused(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("text", "given", "line"),
    [
        (
            "4d6r",
            "1,3,4,5,6",
            "18\t4d6r\t[~1~, 3, 4, 5, 6]" + REROLL_NOTE,
        ),  # the lowest face re-rolls
        ("d6!!p", "6,6,2", "12\td6!!p\t[6!, +6→5!, +2→1]"),  # added dice worth one less
        ("4dF.1", "-,0,+,0", "0\t4dF.1\t[-, 0, +, 0]"),
        # 10, 8 and 9 succeed; the 10 counts twice
        (
            "10d10>=8ds10",
            "10,8,1,2,3,4,5,6,7,9",
            "4\t10d10>=8ds10\t[10, 8, 1, 2, 3, 4, 5, 6, 7, 9] (4 successes)",
        ),
        ("4d6sd", "3,6,1,4", "14\t4d6sd\t[6, 4, 3, 1]"),
        ("4d6kh3s", "3,6,1,4", "13\t4d6kh3s\t[~1~, 3, 4, 6]"),
    ],
)
def test_modifiers_roll(text: str, given: str, line: str) -> None:
    assert result_line(dicecli.roll(text, given=given)) == line


def test_sorting_shows_the_dice_sorted_and_keeps_them_in_roll_order() -> None:
    result = dicecli.roll("4d6sd", given="3,6,1,4")
    assert [die.face for die in result.dice] == ["3", "6", "1", "4"]  # --given replays it


def test_double_successes_are_marked() -> None:
    dice = dicecli.roll("3d10>=8ds10", given="10,8,1").dice
    assert [die.marks for die in dice] == [("success", "double-success"), ("success",), ()]


@pytest.mark.parametrize(
    ("text", "distribution"),
    [
        ("dF.1", {-1: Fraction(1, 6), 0: Fraction(2, 3), 1: Fraction(1, 6)}),
        ("d4r", {2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 3)}),
        ("d10>=8ds10", {0: Fraction(7, 10), 1: Fraction(2, 10), 2: Fraction(1, 10)}),
        ("2d4s", dicecli.odds("2d4").distribution.as_dict()),  # type: ignore[union-attr]
    ],
)
def test_odds_of_the_modifiers(text: str, distribution: dict[int, Fraction]) -> None:
    found = dicecli.odds(text).distribution
    assert found is not None
    assert found.as_dict() == distribution


def test_odds_of_compound_penetrate() -> None:
    found = dicecli.odds("d2!!p").distribution
    assert found is not None
    # 1; or 2 then 1 (worth 0): 2; or 2, 2 (worth 1), 1 (worth 0): 3 ...
    assert found.as_dict()[1] == Fraction(1, 2)
    assert found.as_dict()[2] == Fraction(1, 4)
    assert found.as_dict()[3] == Fraction(1, 8)
