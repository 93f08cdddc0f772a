"""Other rollers' spellings left over by the audit of fix/dialect-messages.

Each expectation comes from the roller's own documents or source: Dice Maiden's
roll_syntax.md and src/dice/roller.rs (github.com/Humblemonk/dicemaiden-rs), d20
(Avrae)'s README and d20/grammar.lark and d20/expression.py (github.com/avrae/d20);
and from docs/grammar.md.
"""

from __future__ import annotations

import pytest
from dialect_helpers import env_of, refusal
from processes import run_in_process

import dicecli


def assert_shown_at(dialect: str | None, text: str, at: int) -> None:
    """``dicecli [--dialect DIALECT] TEXT`` fails with status 2, no traceback, its
    caret under column ``at`` of the line as typed."""
    args = ("--dialect", dialect, text) if dialect else (text,)
    done = run_in_process(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("error: ")
    assert lines[1:3] == [f"  {text}", "  " + " " * at + "^"]


# --- 1. Dice Maiden's refusals point at what they refuse ---------------------------------


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("4d10 f1 c", "c"),  # the cancel beside failures (roll_syntax.md, "c")
        ("1d20 + 4d10 f1 c", "c"),
        ("4d10 f1 c # note", "c"),
        ("4d6 i1 r1", "i1"),  # an implosion before a re-roll
        ("2d6 ex1", "ex1"),  # Level Up A5E's expertise die, after a roll
        ("1d20 t10 /2 +1", "/"),  # a division of the count
        ("  vtm7h2", "vtm7h2"),  # an alias with rules of its own
        ("  ed19", "ed19"),  # the first edition's steps go to 18 here
    ],
)
def test_a_dice_maiden_refusal_points_at_what_it_refuses(text: str, at: str) -> None:
    """The caret stood at column 0 for every refusal of Dice Maiden's dialect, which
    raised its errors without a place (docs/grammar.md, "Asking for a dialect": "the
    caret under it as typed")."""
    error = refusal(text, "dicemaiden")
    column = text.rindex(at)
    assert (error.text, error.position) == (text, column)
    assert_shown_at("dicemaiden", text, column)


# --- 2. d20 (Avrae) reads != right after dice as not equal --------------------------------


@pytest.mark.parametrize(
    ("line", "given", "expression", "total", "passed"),
    [
        ("3d6!=6", "6,5,1", "3d6 != 6", 12, True),  # no die explodes: d20 has no !
        ("3d6!=6", "1,2,3", "3d6 != 6", 6, False),
        ("3d6 !=6", "6,6,6", "3d6 != 6", 18, True),
        ("4d6kh3!=10", "6,4,1,6", "4d6kh3 != 10", 16, True),
        ("1d20 + 3d6!=6", "1,1,2,2", "d20 + 3d6 != 6", 6, False),
    ],
)
def test_d20_reads_not_equal_after_dice_as_a_check(
    line: str, given: str, expression: str, total: int, passed: bool
) -> None:
    """d20/grammar.lark: its dice take only the operators ``rr ro ra e mi ma k p``
    (no ``!``), and ``!=`` is a ``COMP_OPERATOR``, the lowest binding; README,
    "Binary Operations": ``X != Y`` is inequality (expression.py: ``int(l != r)``).
    So ``3d6!=6`` is the total of 3d6 compared with 6: dicecli's check ``!=``. The
    d20 dialect read it as dicecli's explosion on 6 (docs/grammar.md, "Conditions")."""
    result = dicecli.roll(line, given=given, environment=env_of("d20"))
    assert result.expression == expression
    assert result.total == total
    assert result.outcome is not None
    assert result.outcome.passed is passed


def test_d20_not_equal_inside_brackets_is_refused_with_d20s_reading() -> None:
    """A comparison inside brackets is a number in d20 (1 or 0), which dicecli cannot
    roll: refused as ``(3d6>3) + 1`` is, the caret under ``!=``."""
    error = refusal("(3d6!=6) + 1", "d20")
    assert error.message.startswith("d20 (Avrae) reads != inside brackets as a comparison")
    assert error.position == 4


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("3d6!=6", "3d6 != 6"),
        ("3d6 !=6", "3d6 != 6"),
        ("3d6kh1!=6", "3d6kh1 != 6"),
        ("1d20 + 3d6!=6 # fire", "1d20 + 3d6 != 6"),
    ],
)
def test_not_equal_after_dice_notes_d20s_reading(line: str, written: str) -> None:
    """Without a dialect ``3d6!=6`` explodes on 6 (docs/grammar.md, "Conditions"),
    which d20 (Avrae) reads as a check of the total: the result says so."""
    dice = line.partition("!=")[0].split("+")[-1].replace(" ", "")
    n = line.partition("!=")[2].split()[0]
    note = (
        f"{dice}!={n} explodes on {n} here; d20 (Avrae) reads != as not equal, a check of "
        f"the total: write {written} for that, or --dialect d20"
    )
    assert note in dicecli.roll(line, seed=1).notes


@pytest.mark.parametrize("line", ["4dF!=1", "3d6 != 6", "3d6r!=6", "3d6!!=6", "d6<>6"])
def test_no_d20_note_where_d20_reads_no_such_line(line: str) -> None:
    """d20 has no Fudge dice and no ``!!``; a spaced ``!=`` is a check in both; ``r!=6``
    is a re-roll's condition (not equal) here."""
    assert not any("d20" in note for note in dicecli.roll(line, seed=1).notes)


# --- 3. d20 (Avrae)'s chained comparisons: one clear line ---------------------------------

_ONE = "a check is one comparison here; "


@pytest.mark.parametrize("dialect", [None, "d20"])
@pytest.mark.parametrize(
    ("text", "at", "message"),
    [
        (
            "1d20 > 5 > 0",
            "> 0",
            "d20 (Avrae) compares 1d20 > 5, 1 when true and 0 when false, with 0: write 1d20 > 5",
        ),
        (
            "1d20 > 5 == 0",
            "== 0",
            "d20 (Avrae) compares 1d20 > 5, 1 when true and 0 when false, with 0: write d20 <= 5",
        ),
        (
            "1d20 + 2 >= 5 != 1",
            "!= 1",
            "d20 (Avrae) compares 1d20 + 2 >= 5, 1 when true and 0 when false, with 1: "
            "write d20 + 2 < 5",
        ),
        (
            "1d20 >= 5 < 3",
            "< 3",
            "d20 (Avrae) compares 1d20 >= 5, 1 when true and 0 when false, with 3, "
            "always true: write one comparison",
        ),
        (
            "1d20 > 5 > 0 > 1",
            "> 0 >",
            "d20 (Avrae) works comparisons left to right, each 1 when true and 0 when "
            "false: write one comparison",
        ),
    ],
)
def test_a_chained_comparison_names_d20s_reading(
    dialect: str | None, text: str, at: str, message: str
) -> None:
    """d20/grammar.lark: ``comparison: (comparison COMP_OPERATOR)? a_num``, left to
    right, and expression.py makes each ``int(l > r)``: ``1d20 > 5 > 0`` is
    ``(1d20 > 5) > 0``, true exactly when 1d20 > 5. Here a check is the whole line, one
    comparison (docs/grammar.md, "Checks"); the line was refused with "unexpected '>'",
    saying neither. The message names the check the chain comes to, when there is one."""
    error = refusal(text, dialect)
    assert (error.message, error.position) == (_ONE + message, text.index(at))
    assert_shown_at(dialect, text, text.index(at))


def test_d20s_spelling_of_a_chain_in_its_dialect() -> None:
    """``1d20>5>0`` in d20 is ``(1d20 > 5) > 0`` too; the caret under the second ``>``."""
    error = refusal("1d20>5>0", "d20")
    assert error.message == (
        _ONE + "d20 (Avrae) compares 1d20 > 5, 1 when true and 0 when false, with 0: write 1d20 > 5"
    )
    assert error.position == 6


def test_a_chain_d20_does_not_write_is_one_comparison_too() -> None:
    """``vs`` is dicecli's, not d20's: no d20 reading is named."""
    error = refusal("1d20 vs 5 > 0")
    assert error.message == "a check is one comparison, and 1d20 vs 5 is one: a second is not read"
    assert error.position == 10


# --- 4. Dice Maiden's f beside tl: a failure that is a success too --------------------------


@pytest.mark.parametrize(("text", "n"), [("4d6 tl4 f2", "2"), ("4d6 f1 tl4", "1")])
def test_a_bare_failure_beside_tl_names_dice_maidens_reading(text: str, n: str) -> None:
    """roll_syntax.md, "Success Counting": ``f1`` "count failures ≤1", whatever the
    target; roller.rs ``count_failures_and_subtract`` counts every kept die at the
    threshold or less, and ``finalize_success_failure_calculation`` subtracts them from
    the successes, so beside ``tl4`` a die of 2 or less is worth 0. dicecli read
    ``4d6 tl4 f2`` as ``4d6<=4 f2`` (exactly 2, and a success never a failure):
    2 successes for 1, 6, 5, 2 where Dice Maiden counts 0. Refused as ``tl4 ds2`` is,
    the caret under the ``f``."""
    error = refusal(text)
    assert error.message == (
        f"beside tl, f{n} is refused: Dice Maiden counts each die of {n} or less a "
        f"failure, also one it counts a success (worth 0); dicecli reads f{n} as exactly "
        f"{n} and never counts a success a failure"
    )
    assert error.position == text.index("f")
    assert_shown_at(None, text, text.index("f"))


@pytest.mark.parametrize(
    ("text", "worded", "n"),
    [("4d6 tl4 f2", "tl4", "2"), ("4d6 f1 tl4", "tl4", "1"), ("4d6 t2 f3", "t2", "3")],
)
def test_dice_maidens_dialect_refuses_failures_that_take_in_successes(
    text: str, worded: str, n: str
) -> None:
    """The dialect rolled ``4d6 tl4 f2`` as ``4d6 <=4 f<=2``: 2 for 1, 6, 5, 2, where
    Dice Maiden (roller.rs, as above) counts 2 successes less 2 failures, 0. Beside
    ``t2``, ``f3`` takes in the dice of 2 and 3 alike."""
    error = refusal(text, "dicemaiden")
    assert error.message == (
        f"Dice Maiden counts each die of {n} or less a failure beside {worded}, also one "
        "it counts a success (worth 0 then), which dicecli cannot roll: a success here "
        "is never a failure"
    )
    assert error.position == text.index("f")
    assert_shown_at("dicemaiden", text, text.index("f"))


def test_failures_apart_from_successes_still_read_as_dice_maiden() -> None:
    """``t8 f1``: no die is both (roll_syntax.md's World of Darkness, ``4d10 f1 t8``)."""
    env = env_of("dicemaiden")
    assert dicecli.roll("4d10 t8 f1", given="1,9,8,3", environment=env).total == 1
    assert dicecli.roll("6d10 tl7", given="1,9,8,3,7,10").total == 3


# --- 5. letters run into x: one clear line --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word", "letters"),
    [
        ("{4d6!}khx", "khx", "kh"),
        ("4d6khx", "khx", "kh"),
        ("{4d6!}khx + 2", "khx", "kh"),
        ("4d6 rx", "rx", "r"),
    ],
)
def test_letters_run_into_x_are_one_clear_error(text: str, word: str, letters: str) -> None:
    """``x`` multiplies (docs/grammar.md, the ``+ - * x`` row; rule N2), so ``khx`` was
    read as ``kh`` and a product with no value after it, and refused with "expected a
    number, dice such as 2d6, '(' or a name at the end", the caret past the line. The
    error now names the word as typed, the caret under it, as ``{4d6!}khy`` is refused
    ("unexpected 'khy'")."""
    error = refusal(text)
    assert error.message == (
        f"unexpected '{word}': x after {letters} multiplies, and no value follows it"
    )
    assert error.position == text.index(word)
    assert_shown_at(None, text, text.index(word))


@pytest.mark.parametrize("text", ["4dFx", "4d6!x", "4d6kh3x"])
def test_a_lone_x_after_dice_keeps_foundrys_hint(text: str) -> None:
    """Foundry VTT's ``x`` explodes (dice-modifiers, "x : Explode"): its hint stays."""
    done = run_in_process(text)
    assert done.returncode == 2
    assert "Foundry VTT reads it: --dialect foundry" in done.stderr
