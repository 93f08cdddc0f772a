"""The messages about other rollers' spellings, after an audit (fix/dialect-messages).

Each refusal names the roller's reading and points its caret at what it refuses; a
hint offers only what the roller it names reads; a note promises only what its
dialect does. The rollers' readings come from their own documents: d20 (Avrae)'s
README and grammar.lark, Roll20's Dice Reference, Foundry VTT's dice modifiers,
Dice Maiden's roll_syntax.md.
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
