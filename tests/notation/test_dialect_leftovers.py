"""Other rollers' spellings left over by the audit of fix/dialect-messages.

Each expectation comes from the roller's own documents or source: Dice Maiden's
roll_syntax.md and src/dice/roller.rs (github.com/Humblemonk/dicemaiden-rs), d20
(Avrae)'s README and d20/grammar.lark and d20/expression.py (github.com/avrae/d20);
and from docs/grammar.md.
"""

from __future__ import annotations

import pytest
from processes import run_in_process

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError


def env_of(dialect: str) -> Environment:
    return Environment(settings={"dialect": dialect})


def refusal(text: str, dialect: str | None = None) -> DiceError:
    """The error ``text`` is refused with (read in ``dialect``)."""
    env = env_of(dialect) if dialect else None
    with pytest.raises(DiceError) as caught:
        dicecli.roll(text, seed=1, environment=env)
    return caught.value


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
