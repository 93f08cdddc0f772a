"""What the dialect tests share: an environment reading lines in a dialect, and the
error a line is refused with."""

from __future__ import annotations

import pytest

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError


def env_of(dialect: str) -> Environment:
    """An environment that reads lines in ``dialect`` (``--dialect DIALECT``)."""
    return Environment(settings={"dialect": dialect})


def refusal(text: str, dialect: str | None = None) -> DiceError:
    """The error ``text`` is refused with (read in ``dialect``)."""
    env = env_of(dialect) if dialect else None
    with pytest.raises(DiceError) as caught:
        dicecli.roll(text, seed=1, environment=env)
    return caught.value
