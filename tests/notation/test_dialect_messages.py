"""The messages about other rollers' spellings, after an audit (fix/dialect-messages).

Each refusal names the roller's reading and points its caret at what it refuses; a
hint offers only what the roller it names reads; a note promises only what its
dialect does. The rollers' readings come from their own documents: d20 (Avrae)'s
README and grammar.lark, Roll20's Dice Reference, Foundry VTT's dice modifiers,
Dice Maiden's roll_syntax.md.
"""

from __future__ import annotations

import pytest
from dialect_helpers import env_of, refusal
from processes import run_in_process

import dicecli
from dicecli.notation.other_readings import other_readings

# --- a refusal's caret stands under what it refuses --------------------------------------


@pytest.mark.parametrize(
    ("dialect", "text", "at"),
    [
        ("d20", "4d6k3", "k3"),  # d20's literal keep: the dice showing 3
        ("d20", "1d20 + 4d6 k3", "k3"),
        ("d20", "4d6p>3", "p>3"),  # d20's drop by value
        ("d20", "1d20 == 3 + 4d6k3", "k3"),  # placed in the line as typed (== is = there)
        ("d20", "1 + 2d6ra6", "2d6ra6"),  # ra on more than one die
        ("roll20", "2d6 + 20d6mt", "mt"),
        ("rdr", "1 + 4d6!kh2dl1", "4d6!kh2dl1"),
        ("foundry", "1 + 6d200df=1", "6d200df=1"),
    ],
)
def test_a_dialect_refusal_points_at_what_it_refuses(dialect: str, text: str, at: str) -> None:
    """The caret stood at column 0 for every refusal of a dialect's rewriting."""
    error = refusal(text, dialect)
    assert (error.text, error.position) == (text, text.rindex(at))
    shown = error.show().splitlines()
    assert shown[1:3] == [f"  {text}", "  " + " " * text.rindex(at) + "^"]
    done = run_in_process("--dialect", dialect, text)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[2] == "  " + " " * text.rindex(at) + "^"


# --- d20 (Avrae) compares totals inside brackets ------------------------------------------


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("(3d6>3) + 1", ">"),
        ("(3d6 >= 3) + 1", ">="),
        ("(1d20+5>=15)*2", ">="),
        ("(3d6>3, 2)kh1", ">"),  # a set of comparisons
        ("1d20 + (1d20 == 10)", "=="),
    ],
)
def test_d20_comparison_inside_brackets_names_d20s_reading(text: str, op: str) -> None:
    """d20's grammar.lark: ``comparison`` is a ``num``, so a bracket may hold one and
    its value (True or False) is added on; README, "Binary Operations": ``X > Y``,
    ``X == Y``. dicecli's check is the whole line, so the line is refused with d20's
    reading, not with the grammar's "expected ')'" and another roller's hint."""
    error = refusal(text, "d20")
    assert error.message == (
        f"d20 (Avrae) reads {op} inside brackets as a comparison of totals, 1 when true "
        "and 0 when false, which dicecli cannot roll: a check here is the whole line, "
        "outside any bracket"
    )
    assert error.position == text.index(op)
    done = run_in_process("--dialect", "d20", text)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 3  # the message, the line, the caret: no hint


def test_d20_modifier_conditions_inside_brackets_still_roll() -> None:
    """``r<2`` and ``!>5`` are conditions of modifiers, not comparisons of totals."""
    env = env_of("d20")
    assert dicecli.roll("(2d8rr<2) + 1", given="1,2,5", environment=env).total == 8
    assert dicecli.roll("(1d6e6) + 1", given="6,2", environment=env).total == 9
    assert dicecli.roll("(1d20 [a>b]) + 1", given="4", environment=env).total == 5


# --- a hint offers only what the roller it names reads ------------------------------------


@pytest.mark.parametrize("text", ["6d10i1>=7", "6d10 i1 >=7", "0d6 + 2d6!", "0d6 + {2d6}"])
def test_no_d20_hint_for_a_modifier_d20_lacks(text: str) -> None:
    """d20's dice operators are k, p, rr, ro, ra, e, mi and ma (README, "Operators";
    grammar.lark ``DICE_OPERATOR``), its dice ``NdS``, with no braces: ``i1``, ``!``
    and a group are not d20's, so "d20 (Avrae) reads it" would be untrue (the d20
    dialect reads dicecli's own spellings besides d20's)."""
    done = run_in_process(text)
    assert done.returncode == 2
    assert "d20" not in done.stderr


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("1d20 == 10", "d20 (Avrae) reads it: --dialect d20 rolls 1d20 = 10"),
        ("0d6kh1 + 2d6mi2", "d20 (Avrae) reads it: --dialect d20 rolls 0 + 2d6mi2"),
    ],
)
def test_a_d20_hint_for_d20s_own_spelling_stays(text: str, hint: str) -> None:
    """d20's README: ``X == Y`` is equality; its tests roll ``0d6`` as 0; ``mi`` is
    its minimum."""
    done = run_in_process(text)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"  {hint}"


# --- a group of one exploding term, kept: the note and Roll20's dialect agree --------------

_PICKS = "Roll20 picks among the dice"


@pytest.mark.parametrize(
    ("text", "given", "ours", "roll20s"),
    [
        ("{4d6!}kl", "3,1,4,5", 13, 1),  # a keep without its number: one die
        ("{4d6!}kh1", "3,1,4,5", 13, 5),
        ("{ 4d6! } k", "3,1,4,5", 13, 5),
        ("{4dF!}kh1", "-,0,-,0", -2, 0),  # Fudge dice, as Roll20 rolls them (4dF)
        ("{4dF!}dl", "-,0,-,0", 0, -1),  # the sum dropped here; one - dropped there
    ],
)
def test_the_group_keep_note_promises_what_roll20s_dialect_rolls(
    text: str, given: str, ours: int, roll20s: int
) -> None:
    """Roll20, "Grouped Rolls": a group of one dice term keeps or drops among its
    dice; dicecli keeps or drops the exploding term's sum as one value. The note
    said "--dialect roll20" for ``{4d6!}kl``, which the dialect left as dicecli reads
    it; ``{4dF!}kh1`` got no note while the dialect picked among its dice."""
    assert any(_PICKS in note for note in other_readings(text))
    assert dicecli.roll(text, given=given).total == ours
    assert dicecli.roll(text, given=given, environment=env_of("roll20")).total == roll20s


@pytest.mark.parametrize("text", ["{4d6}kl", "{4dF}kh1", "{4d6!}khx", "{4d6>=5}kl"])
def test_no_group_keep_note_where_both_readings_agree(text: str) -> None:
    """``{4d6}kl`` keeps among the dice here too; a term that counts is one value in
    both; a keep run into letters is no keep."""
    assert not any(_PICKS in note for note in other_readings(text))


# --- Dice Maiden's tl with a ds number: as clear as t with one ------------------------------


@pytest.mark.parametrize(("text", "n"), [("4d6 tl4 ds2", "2"), ("4d6 tl4ds4 + 1", "4")])
def test_a_ds_number_beside_tl_names_dice_maidens_reading(text: str, n: str) -> None:
    """roll_syntax.md, "Double Success": ``tl6ds5`` is "target 6-, double success on
    5", 5 or less; dicecli's bare ``ds5`` is exactly 5. The line was refused with
    "unexpected 'tl4'"; it is now refused as ``4d6 t4ds4`` is, the caret at ``ds``."""
    error = refusal(text)
    assert error.message == (
        f"beside tl, write ds with a comparison (ds<={n}): Dice Maiden reads ds{n} beside "
        f"tl as {n} or less, dicecli as exactly {n}"
    )
    assert error.position == text.index("ds")
    done = run_in_process(text)
    assert done.returncode == 2
    assert done.stderr.startswith("error: beside tl")


def test_the_spelling_a_tl_refusal_asks_for_reads_as_dice_maiden() -> None:
    """What the message asks for, ``ds<=2``, rolls what Dice Maiden's ``ds2`` does."""
    asked = dicecli.odds("4d6 tl4 ds<=2").distribution
    theirs = dicecli.odds("4d6 tl4 ds2", environment=env_of("dicemaiden")).distribution
    assert asked is not None
    assert theirs is not None
    assert asked.outcomes == theirs.outcomes


# --- the note on / only where rounding up can matter ----------------------------------------

_ROUNDS_UP = "/ rounds up here"


def _notes_rounding(text: str) -> bool:
    return any(note.startswith(_ROUNDS_UP) for note in other_readings(text))


@pytest.mark.parametrize(
    "text",
    ["10/5", "-10/5", "10 / 5 >= 2", "(2+4)/3", "2*3/6", "d6/1", "2d6*2/2", "0/3", "10/5/2"],
)
def test_no_rounding_note_on_a_division_that_is_always_whole(text: str) -> None:
    """Rule N3 rounds a fraction up; another roller's fraction (Roll20, Foundry, RPG
    Dice Roller, d20) or rounding towards zero (Dice Maiden) differ only when there is
    one: 10/5 is 2 in every roller, so the note named a difference there is none."""
    assert not _notes_rounding(text)
    assert dicecli.roll(text, seed=1).notes == ()


@pytest.mark.parametrize("text", ["7/2", "2d6/2", "10/5 + 2d6/3", "(2+4)/4", "10/4/2", "STR/2"])
def test_the_rounding_note_stays_where_a_fraction_can_come(text: str) -> None:
    assert _notes_rounding(text)


@pytest.mark.parametrize("text", ["1d20 ! half/2", "1d20 ! 7/2 of them", "2d6 # 7/2"])
def test_no_rounding_note_on_a_comments_text(text: str) -> None:
    """Dice Maiden's `` ! `` starts a comment (roll_syntax.md, "Comments"): a ``/``
    there divides nothing."""
    assert not _notes_rounding(text)
    result = dicecli.roll(text, seed=1)
    assert not any(note.startswith(_ROUNDS_UP) for note in result.notes)


# --- other rollers' forms: a clear error, or the dialect's reading ---------------------------


@pytest.mark.parametrize(
    ("text", "message", "at", "hint"),
    [
        (
            "+1d20",
            "a + before a value is no sign here: write 1d20 (d20 (Avrae) reads +1d20 as 1d20)",
            0,
            "d20 (Avrae) reads it: --dialect d20 rolls 1d20",
        ),
        (
            "1d20 * +2",
            "a + before a value is no sign here: write 2 (d20 (Avrae) reads +2 as 2)",
            7,
            "d20 (Avrae) reads it: --dialect d20 rolls 1d20 * 2",
        ),
        (
            "+d20",
            "a + before a value is no sign here: d20 (Avrae) reads +d20 as d20, Dice Maiden "
            "as advantage: write d20, or 2d20kh1",
            0,
            "d20 (Avrae) reads it: --dialect d20 rolls d20; "
            "Dice Maiden reads it: --dialect dicemaiden rolls 2d20kh1",
        ),
        (
            "4d6d",
            "a d without its number drops the lowest die in Foundry VTT (4d6d is 4d6dl1 "
            "there): write dl1, or --dialect foundry",
            3,
            "Foundry VTT reads it: --dialect foundry rolls 4d6dl1",
        ),
        (
            "[[1d20+5]]",
            "[[...]] is Roll20's inline roll, in chat text: write the roll alone, 1d20+5",
            0,
            None,
        ),
        (
            "/gmr 1d20",
            "/gmr is Roll20's roll that only the GM sees; dicecli shows it to you: write "
            "the roll alone, 1d20",
            0,
            None,
        ),
    ],
)
def test_another_rollers_form_is_one_clear_line(
    text: str, message: str, at: int, hint: str | None
) -> None:
    """d20's README, "Unary Operations": ``+X`` "does nothing" (Dice Maiden's ``+d20``
    is advantage, roll_syntax.md); Foundry VTT drops one die for a bare ``d``
    (foundryvtt/foundryvtt#5767: ``3d20ddh`` is ``3d20d1dh``); Roll20's ``[[...]]`` is
    an inline roll in chat text and ``/gmroll`` a roll shown to the GM alone (Text
    Chat). Each was "expected a number ..." or "unexpected 'd'"."""
    error = refusal(text)
    assert (error.message, error.position) == (message, at)
    done = run_in_process(text)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == f"error: {message}"
    assert lines[2] == "  " + " " * at + "^"
    assert lines[3:] == ([f"  {hint}"] if hint else [])


def test_d20_reads_its_sign() -> None:
    """d20: ``+X`` is X; not inside a face list, where ``+1`` is a face already."""
    env = env_of("d20")
    assert dicecli.roll("+1d20", given="7", environment=env).total == 7
    assert dicecli.roll("1d20 * +2", given="7", environment=env).total == 14
    assert dicecli.roll("(+1d4, 2)kh1", given="3", environment=env).total == 3
    assert dicecli.roll("d% + 1d6", given="50,1", environment=env).total == 51  # d% + 1, no sign


def test_foundry_reads_a_drop_without_its_number_as_one() -> None:
    env = env_of("foundry")
    assert dicecli.roll("4d6d", given="3,1,4,5", environment=env).total == 12
    assert dicecli.roll("4d6 d + 1", given="3,1,4,5", environment=env).total == 13
