"""Where faces come from when rolling, and the roll budget.

A :class:`DiceSource` picks a face index for a die (:mod:`dicecli.notation.dice`):
:class:`RandomSource` from a seeded generator (seeded from the operating system when no
seed is given), :class:`GivenSource` from faces a player typed (``--given 3,4,1``).
Nothing here touches the global ``random`` module.

:class:`Roller` wraps a source with the roll budget: every die drawn counts, and a
roll that would draw more than ``budget`` dice stops with :class:`RollLimitError`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import partial
from math import floor
from typing import Protocol

from dicecli.errors import GivenFacesError, NotAFaceError, RollLimitError, escaped
from dicecli.notation.dice import Die
from dicecli.results import DieRoll

DEFAULT_BUDGET = 10_000
"""Most dice one roll may draw: generous for any table, small enough to answer at once."""
MAX_GIVEN_FACES = 100_000
"""Most faces ``--given`` may list (ten rolls of the whole budget)."""
MAX_GIVEN_TEXT = 1_000_000
"""Most characters of ``--given`` text, checked before it is split into faces."""
SHOWN_FACES = 10
"""Faces an error lists before ``…``: the error stays one short line."""


def shortened(text: str, most: int = 60) -> str:
    """``text``, cut to ``most`` characters with ``…``, control characters escaped."""
    return escaped(text if len(text) <= most else text[:most] + "…")


class DiceSource(Protocol):
    """Where faces come from: the index of the face ``die`` lands on."""

    def draw(self, die: Die) -> int: ...


def draw_many(source: DiceSource, die: Die, count: int) -> list[int]:
    """``count`` draws in a row, for sources without a faster ``draw_many`` of their own."""
    return [source.draw(die) for _ in range(count)]


class RandomSource:
    """Faces from a private generator: reproducible with a seed, else OS-seeded."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed).random

    # floor, not int: the same index for these non-negative numbers, and a cheaper call
    def draw(self, die: Die) -> int:
        return floor(self._random() * len(die.faces))

    def draw_many(self, die: Die, count: int) -> list[int]:
        sides = len(die.faces)
        random = self._random
        indexes = []
        for _ in range(count):  # a loop, not a comprehension: cheaper for a few dice
            indexes.append(floor(random() * sides))
        return indexes


class GivenSource:
    """The faces of physical dice, typed by a player, used in roll order."""

    def __init__(self, faces: Sequence[str], text: str | None = None) -> None:
        self.faces = [face.strip() for face in faces]
        self.used = 0
        self.text = text
        """The ``--given`` text the faces were read from: the ``input`` of an error
        about them as a whole (``--json``), which no roll's line points into."""

    @classmethod
    def from_text(cls, text: str) -> GivenSource:
        """``"3,4,1"`` or ``"3 4 1"``; an empty place (``"3,,4"``) is a typo, refused;
        so are more than :data:`MAX_GIVEN_FACES` faces."""
        if len(text) > MAX_GIVEN_TEXT:
            raise GivenFacesError(
                f"--given is too long: {len(text):,} characters, the limit is {MAX_GIVEN_TEXT:,}",
                shortened(text),
            )
        empty = re.search(r"(^|,)\s*,", text.strip())
        if empty:
            raise GivenFacesError(
                f"--given '{shortened(text)}' has an empty place between commas", text
            )
        faces = text.replace(",", " ").split()
        if len(faces) > MAX_GIVEN_FACES:
            raise GivenFacesError(
                f"--given has {len(faces):,} faces, the limit is {MAX_GIVEN_FACES:,}", text
            )
        return cls(faces, text)

    def draw(self, die: Die) -> int:
        if self.used >= len(self.faces):
            raise GivenFacesError(
                f"not enough dice given: the roll needs more than the {len(self.faces)} given"
            )
        text = self.faces[self.used]
        self.used += 1
        index = die.face_index(text)
        if index is None:
            raise NotAFaceError(
                f"given face #{self.used} '{shortened(text)}' is not a face of {die.name} "
                f"(faces: {die.face_names()})"
            )
        return index

    def mark(self) -> int:
        """Where the faces are up to: :meth:`rewind` hands them out again from there."""
        return self.used

    def rewind(self, mark: int) -> None:
        """Hand out the faces again from ``mark`` (:meth:`mark`)."""
        self.used = mark

    def check_all_used(self) -> None:
        """Raise when faces were left over: a typo the player should hear about."""
        left = len(self.faces) - self.used
        if left:
            raise GivenFacesError(
                f"too many dice given: {left} of the {len(self.faces)} given "
                f"{'was' if left == 1 else 'were'} not used "
                f"({self._listed(self.faces[self.used :])})",
                self.text,
            )

    @staticmethod
    def _listed(faces: list[str]) -> str:
        listed = ", ".join(shortened(face) for face in faces[:SHOWN_FACES])
        return listed + (
            f", … {len(faces) - SHOWN_FACES:,} more" if len(faces) > SHOWN_FACES else ""
        )


class Roller:
    """A dice source with a budget: the one object evaluators and games roll with."""

    def __init__(self, source: DiceSource, budget: int = DEFAULT_BUDGET) -> None:
        self.source = source
        self.budget = budget
        self.remaining = budget
        self._draw = source.draw  # bound once: a roll draws through it for every die
        self.given = source if isinstance(source, GivenSource) else None
        """The source when it is a player's dice (``--given``): the faces a failed roll
        took are given back (:meth:`give_back`)."""
        self.roll_mark = 0
        """Where :attr:`given` was up to when the roll under way began: a roll begins
        (:func:`dicecli.rolling.evaluate.roll`) with its budget whole again
        (:attr:`remaining`) and this mark set."""
        many = getattr(source, "draw_many", None)
        self._draw_many: Callable[[Die, int], list[int]] = many or partial(draw_many, source)

    def give_back(self) -> None:
        """The roll begun last failed on its line (an unknown name, a division by zero,
        too few faces given, a game plug-in's fault): it rolled nothing a player saw, so
        the faces it took are the next roll's, as a player re-rolling with the same
        physical dice expects. Not for a face that is not one of its die's
        (:class:`NotAFaceError`): that face is spent, or every roll after it would stop
        at it."""
        self.give_back_from(self.roll_mark)

    def given_mark(self) -> int:
        """Where the faces of a player's dice are up to (0 without them): what
        :meth:`give_back_from` takes, for several rolls that stand or fall together (a
        line of the REPL)."""
        return self.given.mark() if self.given is not None else 0

    def give_back_from(self, mark: int) -> None:
        """Hand out a player's dice again from ``mark`` (:meth:`given_mark`)."""
        if self.given is not None:
            self.given.rewind(mark)

    def reserve(self, count: int) -> None:
        """Fail early when ``count`` more dice would overrun the budget."""
        if count > self.remaining:
            self._over()

    def draw(self, die: Die) -> int:
        self.remaining -= 1
        if self.remaining < 0:
            self._over()
        return self._draw(die)

    def draw_many(self, die: Die, count: int) -> list[int]:
        """``count`` draws at once (the fast path of plain dice terms)."""
        self.remaining -= count
        if self.remaining < 0:
            self._over()
        return self._draw_many(die, count)

    def roll(self, die: Die) -> DieRoll:
        """Draw one die and return it kept and unmarked."""
        return die.kept_rolls[self.draw(die)]

    def _over(self) -> None:
        raise RollLimitError(
            f"roll limit: one roll may use at most {self.budget:,} dice "
            "(too many dice, or explosions/re-rolls that keep going)"
        )
