"""No silent surprises (issue 26): a line that another well-known roller reads
otherwise carries a note naming that reading and how to get it, in every output; a
computed threshold after a modifier is refused, never turned into a check."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceSyntaxError
from dicecli.notation.other_readings import other_readings
from dicecli.render.jsonlines import result_json
from dicecli.render.terminal import TerminalRenderer
from dicecli.render.text import result_line


@pytest.mark.parametrize(
    ("line", "note"),
    [
        (
            "6x4d6kh3",
            "6x4d6kh3 multiplies; to roll six times: -n 6, as rolldice reads 6x with "
            "--dialect rolldice",
        ),
        (
            "5d10x10",
            "x multiplies: 5d10x10 is 5d10*10; Foundry VTT reads x10 as exploding on 10: "
            "write 5d10!10, or --dialect foundry",
        ),
        (
            "D6x5",
            "x multiplies: D6x5 is D6*5; Foundry VTT reads x5 as exploding on 5: write "
            "D6!5, or --dialect foundry",
        ),
        (
            "3d6>3",
            ">3 is strict here, over 3; Roll20 reads >3 as 3 or more: write >=3, or "
            "--dialect roll20",
        ),
        (
            "10d6<4",
            "<4 is strict here, under 4; Roll20 reads <4 as 4 or less: write <=4, or "
            "--dialect roll20",
        ),
        (
            "4d6r1",
            "r re-rolls until the face is gone here; Foundry VTT re-rolls once: write ro, "
            "or --dialect foundry; Dice Maiden's r2 re-rolls 2 or less once: "
            "--dialect dicemaiden",
        ),
        (
            "4d10 k3",
            "k3 keeps the 3 highest here; d20 (Avrae) keeps the dice showing 3 and caith "
            "the 3 lowest: write kh3 or kl3 to say which",
        ),
        (
            "2d6 !",
            "a lone ! explodes here; Dice Maiden reads ' !' as the start of a comment: "
            "write # for a comment, or --dialect dicemaiden",
        ),
        (
            "3d6-1*10",
            "* comes before - here; rolldice multiplies the dice first: write 3d6*10-1, "
            "or --dialect rolldice",
        ),
    ],
)
def test_each_note(line: str, note: str) -> None:
    assert other_readings(line) == (note,)
    assert dicecli.roll(line, seed=1).notes == (note,)


def test_several_spellings_several_notes() -> None:
    notes = other_readings("10d20cs>10")
    assert notes == (
        ">10 is strict here, over 10; Roll20 reads >10 as 10 or more: write >=10, or "
        "--dialect roll20",
        "cs marks critical successes here and the total is the sum; Foundry VTT counts "
        "successes with cs: write 10d20>10, or --dialect foundry",
    )
    division = (
        "/ rounds up here, 7/2 is 4; Roll20, Foundry VTT, RPG Dice Roller and d20 (Avrae) "
        "keep the fraction, Dice Maiden rounds towards zero: write // to round down"
    )
    assert other_readings("7/2") == (division,)
    assert other_readings("(2d6 + 3) / 2") == (division,)
    for plain in ("60 // 1d6", "2d6[fire/ice]", "/r 1d20", "4dF /* x */", "floor(2d6/2)"):
        assert division not in other_readings(plain), plain
    assert other_readings("6#4d6d1") == (
        "# starts a comment here: 6#4d6d1 rolls 6; Rollem rolls 4d6d1 six times: write 4d6d1 -n 6",
    )
    assert dicecli.roll("6#4d6d1", seed=1).notes == other_readings("6#4d6d1")
    assert other_readings("6 # 4d6") == ()  # a comment after a space is one
    assert other_readings("1d20 t10 +1 *2") == (
        "+1 *2 after a target is worked here as arithmetic always is; Dice Maiden works it "
        "on the count in the order written: --dialect dicemaiden reads ((1d20>=10) + 1) * 2",
    )
    assert other_readings("4d6 t4 *2 +1") == ()  # the same in either order
    assert other_readings("10d6cs6") == (  # a bare number: Foundry's cs6 is =6
        "cs marks critical successes here and the total is the sum; Foundry VTT counts "
        "successes with cs: write 10d6=6, or --dialect foundry",
    )
    kept = other_readings("{4d6!}dl1")
    assert kept == (
        "{4d6!}dl1 keeps or drops the group's sum as one value here; Roll20 picks among "
        "the dice: write 4d6!dl1, or --dialect roll20",
    )
    for pooled in ("{4d6}dl1", "{4d6sd}dl1", "{4d6r1}kh3", "{4d6kh3}dl1", "{4d6!, 2d8}kh1"):
        assert not any("group's sum" in note for note in other_readings(pooled)), pooled
    assert other_readings("4d6k>3") == (
        "k>3 keeps the highest die here, then counts the dice over 3; d20 (Avrae) keeps "
        "the dice over 3, which dicecli does not roll: write kh1>3 for this reading",
    )
    assert not any("d20" in note for note in other_readings("4d6k<=3"))  # no d20 selector
    group = other_readings("{5d6!!}>8")
    assert group[0].startswith("a group of one dice term counts its sum as one value; Roll20")
    assert len(group) == 2


@pytest.mark.parametrize(
    "line",
    [
        "2D6+5",
        "4d6kh3",
        "d20 + 5 >= 15",
        "1d20+5>=15",
        "4d6max4kh3",
        "4d6ro1",
        "10d10>=8",
        "{2d6, 1d8}kh1",
        "d20 + STR # for the ranger",
        "3d6 # 6x4d6 in a comment",
        "2d6 ! Damage rolls",  # read as Dice Maiden's comment: nothing explodes
        "(Attack) 1d20 + 8 ! Rogue sneak attack",
    ],
)
def test_lines_read_alike_get_no_note(line: str) -> None:
    assert other_readings(line) == ()


def test_json_carries_the_notes_and_leaves_them_out_when_none() -> None:
    noted = dicecli.roll("5d10x10", seed=1)
    data = json.loads(result_json(noted))
    assert data["notes"] == list(noted.notes)
    assert result_json(noted) == json.dumps(noted.as_dict(), ensure_ascii=False)
    plain = dicecli.roll("2D6+5", seed=1)
    assert "notes" not in json.loads(result_json(plain))
    assert result_json(plain) == json.dumps(plain.as_dict(), ensure_ascii=False)


def test_plain_output_gives_the_note_in_parentheses_escaped() -> None:
    line = result_line(dicecli.roll("6x4d6kh3 [\x1b\u202e]", given="1,2,3,4"))
    total, _, detail = line.split("\t")
    assert total == "54"  # 6 * (2 + 3 + 4): the 1 dropped
    assert "\x1b" not in line
    assert "\u202e" not in line
    assert detail.endswith(
        "(6x4d6kh3 [\\x1b\\u202e] multiplies; to roll six times: -n 6, as rolldice reads "
        "6x with --dialect rolldice)"
    )


def test_terminal_shows_a_note_once_for_a_run_of_rolls() -> None:
    stream = io.StringIO()
    renderer = TerminalRenderer(stream, Console(file=stream, width=200, no_color=True))
    for seed in (1, 2, 3):
        renderer.result(dicecli.roll("5d10x10", seed=seed))
    shown = stream.getvalue()
    assert shown.count("Foundry VTT reads x10 as exploding on 10") == 1
    assert len(shown.splitlines()) == 4  # three rolls, one note


def test_odds_carry_the_notes() -> None:
    assert dicecli.odds("3d6>3").notes[-1].startswith(">3 is strict here")


def test_under_a_dialect_only_what_was_rolled_is_noted() -> None:
    env = Environment(settings={"dialect": "foundry"})
    assert dicecli.roll("4d6r1", seed=1, environment=env).notes == (
        "read as Foundry VTT reads it: 4d6ro1",
    )
    assert dicecli.roll("3d6>3", seed=1, environment=env).notes == ()


@pytest.mark.parametrize(
    ("line", "at"),
    [("1d6!>(1d2+3)", 4), ("1d6r<(1+1)", 4), ("4d6!!>=(STR)", 5), ("1d6!>STR", 4)],
)
def test_a_computed_threshold_is_refused(line: str, at: int) -> None:
    with pytest.raises(DiceSyntaxError) as raised:
        dicecli.parse(line)
    assert raised.value.position == at
    assert raised.value.message.startswith("a computed threshold after ")


def test_with_spaces_a_computed_target_is_a_check() -> None:
    """1d6! > (1d2+3): the exploding d6 against 1d2+3. Given 6, 2 (the explosion),
    then 1 for the d2: 8 > 4 passes."""
    result = dicecli.roll("1d6! > (1d2+3)", given="6,2,1")
    assert result.total == 8
    assert result.outcome is not None
    assert result.outcome.passed is True


@pytest.mark.parametrize(("line", "n"), [("4d6k2", "2"), ("4d6 k3", "3"), ("(4d6)k2", "2")])
def test_a_bare_keep_is_noted_with_its_own_number(line: str, n: str) -> None:
    """The note used to name k3 whatever the line said (a player review)."""
    (note,) = other_readings(line)
    assert note.startswith(f"k{n} keeps the {n} highest here;")


def test_a_lone_bang_that_explodes_is_noted() -> None:
    for line in ("2d6 !", "d6 ! + 3"):
        assert other_readings(line)[0].startswith("a lone ! explodes here")
    assert dicecli.roll("2d6 ! Damage rolls", given="6,3").notes == ()
