"""Critical markers: ``cs``/``cf`` with a condition, and a lone d20's natural 20 and 1
by default (``docs/grammar.md``, "Criticals")."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from rich.console import Console

import dicecli
from dicecli import DiceSyntaxError, parse
from dicecli.notation.nodes import Condition, Dice, Modifiers
from dicecli.render.terminal import TerminalRenderer
from dicecli.render.text import summary_line

CS, CF = "critical-success", "critical-failure"


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("1d20cs>=19", Dice(1, 20, Modifiers(critical_success=Condition(">=", 19)))),
        (
            "3d6cs>5cf<2",
            Dice(
                3,
                6,
                Modifiers(critical_success=Condition(">", 5), critical_failure=Condition("<", 2)),
            ),
        ),
        ("d20CS20", Dice(1, 20, Modifiers(critical_success=Condition("=", 20)))),
        ("d20cf=1", Dice(1, 20, Modifiers(critical_failure=Condition("=", 1)))),
    ],
)
def test_critical_markers_parse(text: str, node: Dice) -> None:
    assert parse(text).body == node
    assert parse(str(node)).body == node


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d20cs19cs20", "a second cs modifier: write one cs per dice term"),
        ("{d20}cs20", "a group cannot mark criticals: put it on the dice inside the group"),
        ("d6!!cs6", "cs and cf judge single dice: a compounded die (!!) is several"),
    ],
)
def test_critical_markers_refused(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == message


def _marks(text: str, given: str) -> list[tuple[str, bool, tuple[str, ...]]]:
    return [(die.face, die.kept, die.marks) for die in dicecli.roll(text, given=given).dice]


@pytest.mark.parametrize(
    ("text", "given", "marks"),
    [
        ("d20", "20", [("20", True, (CS,))]),
        ("d20", "1", [("1", True, (CF,))]),
        ("d20", "19", [("19", True, ())]),
        ("d20+5", "20", [("20", True, (CS,))]),
        ("d20ro1", "1,20", [("1", False, ("rerolled",)), ("20", True, ("reroll", CS))]),
        # advantage and disadvantage: one d20 kept, and only the kept die counts
        ("2d20kh1", "20,1", [("20", True, (CS,)), ("1", False, ("dropped",))]),
        ("2d20kl1", "20,1", [("20", False, ("dropped",)), ("1", True, (CF,))]),
        # two d20 summed, or a d20 that explodes, are not "a single d20": no defaults
        ("2d20", "20,1", [("20", True, ()), ("1", True, ())]),
        # written markers replace both defaults
        ("d20cs>=19", "19", [("19", True, (CS,))]),
        ("d20cs>=19", "1", [("1", True, ())]),
        ("3d6cs>5cf<2", "6,1,3", [("6", True, (CS,)), ("1", True, (CF,)), ("3", True, ())]),
        (
            "4d6kh3cs6",
            "6,6,1,6",
            [("6", True, (CS,))] * 2 + [("1", False, ("dropped",))] + [("6", True, (CS,))],
        ),
        ("d6!cs6", "6,2", [("6", True, ("exploded", CS)), ("2", True, ("explosion",))]),
        # a clamp sets the worth, which criticals read (docs/grammar.md, Clamps)
        ("d20min3", "1", [("1", True, ("clamped",))]),
        ("d20min3", "20", [("20", True, (CS,))]),
        ("d20max19", "20", [("20", True, ("clamped",))]),
        ("d20max19", "1", [("1", True, (CF,))]),
    ],
)
def test_kept_dice_meeting_the_condition_are_marked(
    text: str, given: str, marks: list[tuple[str, bool, tuple[str, ...]]]
) -> None:
    assert _marks(text, given) == marks


def test_a_critical_never_changes_the_total() -> None:
    assert dicecli.roll("3d6cs>5cf<2", given="6,1,3").total == 10
    assert dicecli.roll("d20 + 5 >= 15", given="20").total == 25


def test_a_group_dropping_an_item_keeps_its_dice_marks() -> None:
    # a critical is judged by the dice term; the group drops the item's value after
    dice = dicecli.roll("{d20, d20}kh1", given="1,20").dice
    assert (dice[0].kept, dice[0].marks) == (False, (CF, "dropped"))
    assert dice[1].marks == (CS,)


def test_criticals_are_listed_in_json() -> None:
    data = dicecli.roll("d20+5", given="20").as_dict()
    assert data["dice"] == [{"die": "d20", "face": "20", "value": 20, "kept": True, "marks": [CS]}]


def test_a_critical_stands_out_at_the_terminal() -> None:
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, no_color=True, highlight=False))
    renderer.result(dicecli.roll("2d20kh1+3", given="20,7"))
    assert "[20*, 7] + 3 = 23" in stream.getvalue()


def test_summaries_count_rolls_with_a_critical() -> None:
    results = [dicecli.roll("d20", given=face) for face in ("20", "1", "20", "7")]
    assert summary_line(results) == (
        "4 rolls: total 48, min 1, max 20, mean 12.00; "
        "2 with a critical success; 1 with a critical failure"
    )
    plain = [dicecli.roll("2d6", given="6,6")]
    assert summary_line(plain) == "1 rolls: total 12, min 12, max 12, mean 12.00"


def test_odds_give_the_chance_of_a_critical() -> None:
    found = dict(dicecli.odds("2d20kh1 + 5 >= 15").chances)
    assert found["critical_success"] == 1 - (1 - dicecli.odds("d20").chances[0][1]) ** 2
    assert set(found) == {"success", "critical_success", "critical_failure"}
    assert dicecli.odds("2d6").chances == ()  # nothing can be critical: nothing said


def test_odds_of_a_critical_read_the_clamped_worth() -> None:
    # docs/grammar.md, Criticals and Clamps: d20min3's natural 1 is worth 3
    assert dict(dicecli.odds("d20min3").chances) == {
        "critical_success": Fraction(1, 20),
        "critical_failure": Fraction(0),
    }
    assert dict(dicecli.odds("d20max19").chances)["critical_success"] == 0
