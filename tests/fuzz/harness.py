"""What every fuzz case asserts, and the inputs they share.

:func:`exercise` runs one API call (``parse``, ``roll``, ``odds``, ``reroll``) on a
text, under a **work budget counted in steps** (Python function calls and returns seen
by a profile hook, not seconds: the machine's load does not change the count), and
checks that only a documented error escapes: :class:`~dicecli.errors.DiceError` and
its subclasses. Anything else (an internal error), or a call that overruns its
budget, fails the case.

The generators (:func:`token_soup`, :func:`byte_soup`, :func:`mutated`) take a
``random.Random``, so the Hypothesis tests (which draw the seed) and the long profile
(which walks seeds) share them.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

import dicecli
from dicecli.errors import DiceError

AREAS = ("parse", "roll", "odds", "reroll")

STEP_BUDGETS = {"parse": 2_000_000, "roll": 5_000_000, "odds": 20_000_000, "reroll": 5_000_000}
"""Most profile events (Python calls and returns, C calls included) one call may take.
A plain roll takes a few hundred, the largest rolls and odds within the documented
limits a few million; a runaway (an unbounded loop, a quadratic blow-up) passes these
long before it would finish."""


class BudgetExceeded(BaseException):
    """Raised inside the call by the step counter: a BaseException, so no ``except
    Exception`` in dicecli swallows it."""


class StepCounter:
    """Counts profile events while active; raises :class:`BudgetExceeded` past
    ``budget``."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.steps = 0

    def _event(self, frame: FrameType, event: str, arg: Any) -> None:
        self.steps += 1
        if self.steps > self.budget:
            sys.setprofile(None)
            raise BudgetExceeded(f"more than {self.budget:,} steps")

    def __enter__(self) -> StepCounter:
        sys.setprofile(self._event)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)


@dataclass(frozen=True)
class Outcome:
    """What one call did: ``error`` is the documented error's type name, or None."""

    area: str
    steps: int
    error: str | None


class InternalError(AssertionError):
    """A fuzz input made dicecli fail in an undocumented way."""


def call_for(area: str, text: str) -> Callable[[], object]:
    """The API call of ``area`` on ``text``."""
    if area == "parse":
        return lambda: dicecli.parse(text)
    if area == "roll":
        return lambda: dicecli.roll(text, seed=len(text))
    if area == "odds":
        return lambda: dicecli.odds(text)
    if area == "reroll":

        def roll_then_reroll() -> object:
            first = dicecli.roll(text, seed=1)
            return dicecli.reroll(first, seed=2)

        return roll_then_reroll
    raise ValueError(area)


def exercise(area: str, text: str, budget: int | None = None) -> Outcome:
    """Run ``area`` on ``text``; raise :class:`InternalError` unless it returned or
    raised a documented error within its step budget."""
    call = call_for(area, text)
    counter = StepCounter(STEP_BUDGETS[area] if budget is None else budget)
    try:
        with counter:
            call()
    except DiceError as error:
        return Outcome(area, counter.steps, type(error).__name__)
    except BudgetExceeded:
        raise InternalError(
            f"{area}({text!r}): over the budget of {counter.budget:,} steps"
        ) from None
    except Exception as error:
        raise InternalError(f"{area}({text!r}): {type(error).__name__}: {error}") from error
    return Outcome(area, counter.steps, None)


# Inputs.

TOKENS = (
    *"0123456789",
    "d", "D", "d6", "2d6", "d%", "dF", "d3", "4d6", "10d10", "d20", "d1",
    "k", "kh", "kl", "dh", "dl", "kh1", "r", "ro", "r1", "ro<3", "!", "!!", "!p", "!>5",
    ">=", "<=", ">", "<", "=", "f", "f1", ">=5",
    "+", "-", "*", "/", "x", "×", "\N{MINUS SIGN}", "%", " of ", "(", ")", "{", "}", ",",
    "[", "]", "[fire]", "#", " # note", " ", "  ", "\t",
    "alkemy", "wfb", "age", " vs ", "vs", "artillery", "scatter", "test", "ld", "break",
    "lost by", "rolloff", "until", "focus", "+1bonus", "yellow", "red", "keep", "1,3",
    "STR", "a", "_", "é", "∑", "\x00", "\r", "\x0b", "\x0c", "\x1b[31m", "\u2028", "\udcff",
    "9" * 50, "9" * 120, "1" * 5000, "((((", "))))", "+1" * 600,
)  # fmt: skip
"""Pieces of the notation and the games' forms, and of trouble."""

SMALL_NUMBER = re.compile(r"\d{3,}")


def token_soup(rng: random.Random, most: int = 30) -> str:
    """A run of :data:`TOKENS`: mostly near the grammar, often just off it."""
    return "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, most)))


def byte_soup(rng: random.Random, most: int = 60) -> str:
    """Random bytes, decoded as the command line decodes an argument (bytes that are
    not UTF-8 become lone surrogates)."""
    data = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, most)))
    return data.decode("utf-8", "surrogateescape")


def mutated(rng: random.Random, text: str) -> str:
    """``text`` with a few tokens inserted, characters deleted or a slice repeated."""
    for _ in range(rng.randint(1, 3)):
        where = rng.randint(0, len(text))
        action = rng.randrange(3)
        if action == 0:
            text = text[:where] + rng.choice(TOKENS) + text[where:]
        elif action == 1:
            text = text[:where] + text[where + 1 :]
        else:
            text = text[:where] + text[where : where + 4] * rng.randint(2, 5) + text[where + 4 :]
    return text


VALID_LINES = (
    "2d6+5", "4d6kh3", "d20 + 3 # attack", "10d10>=7f1", "{2d6, d8}kh1", "d6!", "3d6!!",
    "d10!p", "4d6r1", "2d6ro1", "10% of (2d6+3)", "(d6+1)[fire] * 2", "d%", "4dF", "D3",
    "alkemy 8 vs 15", "alkemy 3 +1bonus vs alkemy 5", "wfb artillery", "wfb scatter 2d6",
    "wfb test 4", "wfb ld 8", "wfb break 8 lost by 3", "wfb rolloff Alice Bob",
    "age 3 vs 13", "age 2 focus vs 11",
)  # fmt: skip
"""Lines of every form, to mutate."""


def odds_friendly(text: str) -> bool:
    """Whether ``text`` is cheap enough to ask the odds of in the short profile:
    numbers of at most two digits. Larger forms are the odds' own bounds to refuse by
    an estimate of the work (docs/odds.md); the long profile asks them all."""
    return SMALL_NUMBER.search(text) is None


def any_input(rng: random.Random) -> str:
    """One input of any kind: a mutated valid line, a token soup or a byte soup."""
    kind = rng.randrange(3)
    if kind == 0:
        return mutated(rng, rng.choice(VALID_LINES))
    if kind == 1:
        return token_soup(rng)
    return byte_soup(rng)
