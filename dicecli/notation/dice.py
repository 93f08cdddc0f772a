"""Die kinds: a :class:`Die` is a name and its equally likely :class:`Face` s.

What a dice term's die is (``d6``, ``d%``, ``dF``, the D3 of rule N4) is part of what the
notation means, so the die kinds live here, beside the nodes: the roller
(:mod:`dicecli.rolling`), the exact odds (:mod:`dicecli.probability`) and the games use
them. Where faces come from when rolling is :mod:`dicecli.rolling.sources`.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import cast

from dicecli.errors import DiceError
from dicecli.frozen import field, frozen
from dicecli.notation.sides import DieName, FaceList
from dicecli.results import DiceShown, DieRoll

MAX_SHARED_VARIANTS = 4096
"""Most marked or discarded :class:`DieRoll` variants one die kind keeps for sharing."""


@frozen
class Face:
    """What is printed on one face (``name``) and what it is worth (``value``).

    ``symbols``: the symbols on the face, one entry per symbol, repeated when printed
    twice (``("success", "success")``); dice from a dice file have them (``docs/dice.md``).
    """

    name: str
    value: int | None
    symbols: tuple[str, ...] = ()


@frozen
class Die:
    """A die: a name and its equally likely faces.

    ``aliases`` are extra spellings accepted for a face with ``--given`` (face index ->
    names), for labelled faces such as a scatter die's arrows.
    """

    name: str
    faces: tuple[Face, ...]
    aliases: tuple[tuple[int, str], ...] = field(default=(), compare=False)
    rerollable: bool = True
    """False for dice that a game's rules forbid re-rolling (rule W4); every
    :class:`DieRoll` of the die carries it into the result."""

    @cached_property
    def values(self) -> tuple[int, ...]:
        """The numeric faces' values, highest last, each once."""
        return tuple(sorted({f.value for f in self.faces if f.value is not None}))

    @cached_property
    def kept_rolls(self) -> tuple[DieRoll, ...]:
        """A kept, unmarked :class:`DieRoll` per face, built once and shared (they are
        immutable, and sharing keeps rolling fast)."""
        return tuple(
            DieRoll(self.name, f.name, f.value, True, (), f.symbols, self.rerollable)
            for f in self.faces
        )

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
            roll = DieRoll(
                self.name, face.name, face.value, kept, marks, face.symbols, self.rerollable
            )
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
    # dF.1: the Fudge die of one minus, four blanks and one plus (dF.2 is the dF above)
    "F.1": lambda: Die("dF.1", (Face("-", -1), *(Face("0", 0),) * 4, Face("+", 1))),
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
MAX_OTHER_FACES = 50_000
"""Most faces the other sizes kept may have between them (a face weighs about half a
kilobyte once built)."""


_CUSTOM_DICE: dict[FaceList, Die] = {}
"""The last few custom dice, kept as the other sizes are."""


def custom_die(faces: FaceList) -> Die:
    """The die of a face list, ``d{1,1,2,3,5,8}``: a face per value written (ranges
    counted out), each shown as its value; a face written twice comes up twice as often."""
    die = _CUSTOM_DICE.get(faces)
    if die is None:
        from dicecli.notation.faces import face_values  # docs/startup.md

        die = Die(f"d{faces}", tuple(Face(str(value), value) for value in face_values(faces)))
        if len(_CUSTOM_DICE) >= MAX_OTHER_SIDES:
            del _CUSTOM_DICE[next(iter(_CUSTOM_DICE))]  # the oldest makes way
        _CUSTOM_DICE[faces] = die
    return die


@frozen
class FileDie:
    """The sides of a dice term whose die comes from a dice file (``3dBoost``), once its
    name is looked up: the :class:`Die` itself (:mod:`dicecli.dicefiles`)."""

    die: Die

    def __str__(self) -> str:
        return self.die.name


def die_for_sides(sides: int | str | FileDie | DieName) -> Die:
    """The die a dice term names: ``6`` -> d6, ``"%"``, ``"F"``, ``"3"`` (the D3), a
    :class:`~dicecli.notation.nodes.FaceList` (:func:`custom_die`), or a die from a dice
    file, looked up already (:class:`FileDie`). A die's name not looked up
    (:class:`DieName`) is an error: the form does not take dice of a dice file."""
    if isinstance(sides, FaceList):
        return custom_die(sides)
    if isinstance(sides, FileDie):
        return sides.die
    if isinstance(sides, DieName):
        raise DiceError(f"d{sides.name}: dice of a dice file cannot be used here")
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
                while _OTHER_SIDES and (
                    len(_OTHER_SIDES) >= MAX_OTHER_SIDES
                    or sum(_OTHER_SIDES) + sides > MAX_OTHER_FACES
                ):
                    del _OTHER_SIDES[next(iter(_OTHER_SIDES))]  # the oldest makes way
                _OTHER_SIDES[sides] = die
    return die
