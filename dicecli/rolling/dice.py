"""Die kinds, where their faces come from, and the roll budget.

A :class:`Die` is a tuple of equally likely :class:`Face` s. A :class:`DiceSource`
picks a face index for a die: :class:`RandomSource` from a seeded generator (seeded
from the operating system when no seed is given), :class:`GivenSource` from faces a
player typed (``--given 3,4,1``). Nothing here touches the global ``random`` module.

:class:`Roller` wraps a source with the roll budget: every die drawn counts, and a
roll that would draw more than ``budget`` dice stops with :class:`RollLimitError`.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from math import floor
from typing import Protocol, cast

from dicecli.errors import GivenFacesError, RollLimitError
from dicecli.results import DiceShown, DieRoll

DEFAULT_BUDGET = 10_000
"""Most dice one roll may draw: generous for any table, small enough to answer at once."""


MAX_SHARED_VARIANTS = 4096
"""Most marked or discarded :class:`DieRoll` variants one die kind keeps for sharing."""

NOT_REROLLABLE: set[str] = set()
"""Names of the dice built with ``rerollable=False``; a re-roll of a result holding one is
refused (:func:`dicecli.rolling.reroll_result`)."""


@dataclass(frozen=True)
class Face:
    """What is printed on one face (``name``) and what it is worth (``value``)."""

    name: str
    value: int | None


@dataclass(frozen=True)
class Die:
    """A die: a name and its equally likely faces.

    ``aliases`` are extra spellings accepted for a face with ``--given`` (face index ->
    names), for labelled faces such as a scatter die's arrows.
    """

    name: str
    faces: tuple[Face, ...]
    aliases: tuple[tuple[int, str], ...] = field(default=(), compare=False)
    rerollable: bool = True
    """False for dice that a game's rules forbid re-rolling (rule W4)."""

    def __post_init__(self) -> None:
        if not self.rerollable:
            NOT_REROLLABLE.add(self.name)

    @cached_property
    def values(self) -> tuple[int, ...]:
        """The numeric faces' values, highest last, each once."""
        return tuple(sorted({f.value for f in self.faces if f.value is not None}))

    @cached_property
    def kept_rolls(self) -> tuple[DieRoll, ...]:
        """A kept, unmarked :class:`DieRoll` per face, built once and shared (they are
        immutable, and sharing keeps rolling fast)."""
        return tuple(DieRoll(self.name, f.name, f.value) for f in self.faces)

    @cached_property
    def face_values(self) -> tuple[int, ...]:
        """Each face's value, by index, for dice whose faces are all numbers."""
        values = tuple(face.value for face in self.faces)
        if None in values:
            raise ValueError(f"{self.name} has faces without numbers")
        return cast(tuple[int, ...], values)

    @cached_property
    def shown_alone(self) -> tuple[DiceShown, ...]:
        """Each face's kept roll shown on its own (a ``d20`` term), built once and
        shared like :attr:`kept_rolls`."""
        return tuple(DiceShown((roll,)) for roll in self.kept_rolls)

    @cached_property
    def _variants(self) -> dict[tuple[int, bool, tuple[str, ...]], DieRoll]:
        return {}

    def roll_of(self, index: int, kept: bool = True, marks: tuple[str, ...] = ()) -> DieRoll:
        """The :class:`DieRoll` of face ``index``, kept or not, with ``marks``. Results
        are immutable, so each variant is built once and shared (up to a bound)."""
        if kept and not marks:
            return self.kept_rolls[index]
        key = (index, kept, marks)
        roll = self._variants.get(key)
        if roll is None:
            face = self.faces[index]
            roll = DieRoll(self.name, face.name, face.value, kept, marks)
            if len(self._variants) < MAX_SHARED_VARIANTS:
                self._variants[key] = roll
        return roll

    @cached_property
    def _by_spelling(self) -> dict[str, int]:
        spellings: dict[str, int] = {}
        for index, face in reversed(list(enumerate(self.faces))):
            spellings[face.name.casefold()] = index
        for index, alias in self.aliases:
            spellings.setdefault(alias.casefold(), index)
        return spellings

    def face_index(self, text: str) -> int | None:
        """The face a player typed: by its printed name, else by its value."""
        spelled = text.strip().casefold()
        index = self._by_spelling.get(spelled)
        if index is not None:
            return index
        try:
            number = int(spelled)
        except ValueError:
            return None
        for index, face in enumerate(self.faces):
            if face.value == number:
                return index
        return None

    def face_names(self, most: int = 12) -> str:
        """The faces a player may type, the first ``most`` of them for a large die."""
        names = list(dict.fromkeys(face.name for face in self.faces))
        if len(names) > most:
            return f"{', '.join(names[: most - 2])}, …, {names[-1]}"
        return ", ".join(names)


def numbered_die(sides: int) -> Die:
    """The ordinary ``dN``: faces 1..N."""
    return Die(f"d{sides}", tuple(Face(str(n), n) for n in range(1, sides + 1)))


D6 = numbered_die(6)

_SPECIAL_DICE: dict[str, Callable[[], Die]] = {
    "%": lambda: Die("d%", tuple(Face(str(n), n) for n in range(1, 101))),
    "F": lambda: Die("dF", (Face("-", -1), Face("0", 0), Face("+", 1))),
    # Rule N4: a D6 halved, rounded up. The face is the D6's (the natural roll).
    "3": lambda: Die("D3", tuple(Face(str(n), (n + 1) // 2) for n in range(1, 7))),
}
"""How to build ``d%``, ``dF`` and the ``D3``, on first use (a d% is 100 faces to build)."""

_BY_SIDES: dict[int | str, Die] = {6: D6}
"""The usual dice, built on first use and kept."""
_USUAL_SIDES = frozenset({2, 4, 6, 8, 10, 12, 20, 100})
_OTHER_SIDES: dict[int, Die] = {}
"""The last few other sizes: a die of 10,000 faces weighs megabytes once rolled, so odd
sizes are not all kept forever."""
MAX_OTHER_SIDES = 32


def die_for_sides(sides: int | str) -> Die:
    """The die a dice term names: ``6`` -> d6, ``"%"``, ``"F"``, ``"3"`` (the D3)."""
    die = _BY_SIDES.get(sides)
    if die is None and isinstance(sides, str):
        die = _BY_SIDES[sides] = _SPECIAL_DICE[sides]()
    if die is None:
        assert isinstance(sides, int), sides
        die = _OTHER_SIDES.get(sides)
        if die is None:
            die = numbered_die(sides)
            if sides in _USUAL_SIDES:
                _BY_SIDES[sides] = die
            else:
                if len(_OTHER_SIDES) >= MAX_OTHER_SIDES:
                    del _OTHER_SIDES[next(iter(_OTHER_SIDES))]  # the oldest makes way
                _OTHER_SIDES[sides] = die
    return die


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

    def __init__(self, faces: Sequence[str]) -> None:
        self.faces = [face.strip() for face in faces]
        self.used = 0

    @classmethod
    def from_text(cls, text: str) -> GivenSource:
        """``"3,4,1"`` or ``"3 4 1"``; an empty place (``"3,,4"``) is a typo, refused."""
        if re.search(r"(^|,)\s*,", text.strip()):
            raise GivenFacesError(f"--given '{text}' has an empty place between commas")
        return cls(text.replace(",", " ").split())

    def draw(self, die: Die) -> int:
        if self.used >= len(self.faces):
            raise GivenFacesError(
                f"not enough dice given: the roll needs more than the {len(self.faces)} given"
            )
        text = self.faces[self.used]
        self.used += 1
        index = die.face_index(text)
        if index is None:
            raise GivenFacesError(
                f"given face #{self.used} '{text}' is not a face of {die.name} "
                f"(faces: {die.face_names()})"
            )
        return index

    def check_all_used(self) -> None:
        """Raise when faces were left over: a typo the player should hear about."""
        left = len(self.faces) - self.used
        if left:
            raise GivenFacesError(
                f"too many dice given: {left} of the {len(self.faces)} given "
                f"{'was' if left == 1 else 'were'} not used ({', '.join(self.faces[self.used :])})"
            )


class Roller:
    """A dice source with a budget: the one object evaluators and games roll with."""

    def __init__(self, source: DiceSource, budget: int = DEFAULT_BUDGET) -> None:
        self.source = source
        self.budget = budget
        self.remaining = budget
        many = getattr(source, "draw_many", None)
        self._draw_many: Callable[[Die, int], list[int]] = many or partial(draw_many, source)

    def reserve(self, count: int) -> None:
        """Fail early when ``count`` more dice would overrun the budget."""
        if count > self.remaining:
            self._over()

    def draw(self, die: Die) -> int:
        self.remaining -= 1
        if self.remaining < 0:
            self._over()
        return self.source.draw(die)

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
