"""Die kinds: a :class:`Die` is a name and its equally likely :class:`Face` s.

What a dice term's die is (``d6``, ``d%``, ``dF``, the D3 of rule N4) is part of what the
notation means, so the die kinds live here, beside the nodes: the roller
(:mod:`dicecli.rolling`), the exact odds (:mod:`dicecli.probability`) and the games use
them. Where faces come from when rolling is :mod:`dicecli.rolling.sources`.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import cast, overload

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


class NumberedFaces(Sequence[Face]):
    """The faces 1..N of an ordinary ``dN``, worked out when asked for, not stored: a
    die of 10,000 sides costs what a d6 does until its faces are read one by one. A
    sequence equal to (and hashed as) the tuple of the same faces."""

    __slots__ = ("sides",)

    def __init__(self, sides: int) -> None:
        self.sides = sides

    def __len__(self) -> int:
        return self.sides

    @overload
    def __getitem__(self, index: int) -> Face: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Face, ...]: ...
    def __getitem__(self, index: int | slice) -> Face | tuple[Face, ...]:
        if isinstance(index, slice):
            return tuple(self[at] for at in range(self.sides)[index])
        value = range(1, self.sides + 1)[index]  # an IndexError as a tuple's
        return Face(str(value), value)

    def __iter__(self) -> Iterator[Face]:
        for value in range(1, self.sides + 1):
            yield Face(str(value), value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NumberedFaces):
            return self.sides == other.sides
        if isinstance(other, tuple):
            return len(other) == self.sides and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"NumberedFaces({self.sides})"

    def __reduce__(self) -> tuple[type[NumberedFaces], tuple[int]]:
        return NumberedFaces, (self.sides,)


class _NumberedRolls(Sequence[DieRoll]):
    """The kept, unmarked :class:`DieRoll` of each face of a numbered die with computed
    faces (:class:`NumberedFaces`), each made when first asked for; at most
    :data:`MAX_SHARED_ROLLS` are kept for sharing, so a big die's rolls stay few."""

    __slots__ = ("_made", "_name", "_rerollable", "_sides")

    def __init__(self, name: str, sides: int, rerollable: bool) -> None:
        self._name = name
        self._sides = sides
        self._rerollable = rerollable
        self._made: dict[int, DieRoll] = {}

    def __len__(self) -> int:
        return self._sides

    @overload
    def __getitem__(self, index: int) -> DieRoll: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[DieRoll, ...]: ...
    def __getitem__(self, index: int | slice) -> DieRoll | tuple[DieRoll, ...]:
        if isinstance(index, slice):
            return tuple(self[at] for at in range(self._sides)[index])
        roll = self._made.get(index)
        if roll is None:
            value = range(1, self._sides + 1)[index]
            roll = DieRoll(self._name, str(value), value, True, (), (), self._rerollable)
            if len(self._made) >= MAX_SHARED_ROLLS:
                self._made.clear()
            self._made[index] = roll
        return roll

    def __iter__(self) -> Iterator[DieRoll]:
        for index in range(self._sides):
            yield self[index]


MAX_SHARED_ROLLS = 256
"""Most kept rolls a die with computed faces keeps for sharing."""


@frozen
class Die:
    """A die: a name and its equally likely faces.

    ``faces`` is a tuple, or for an ordinary ``dN`` other than the usual sizes the
    computed :class:`NumberedFaces`: what is read of it below (values, rolls, the face
    a player typed) is then worked out from N rather than from every face.

    ``aliases`` are extra spellings accepted for a face with ``--given`` (face index ->
    names), for labelled faces such as a scatter die's arrows.
    """

    name: str
    faces: Sequence[Face]
    aliases: tuple[tuple[int, str], ...] = field(default=(), compare=False)
    rerollable: bool = True
    """False for dice that a game's rules forbid re-rolling (rule W4); every
    :class:`DieRoll` of the die carries it into the result."""

    @cached_property
    def values(self) -> Sequence[int]:
        """The numeric faces' values, highest last, each once."""
        if isinstance(self.faces, NumberedFaces):
            return range(1, self.faces.sides + 1)
        return tuple(sorted({f.value for f in self.faces if f.value is not None}))

    @cached_property
    def kept_rolls(self) -> Sequence[DieRoll]:
        """A kept, unmarked :class:`DieRoll` per face, built once and shared (they are
        immutable, and sharing keeps rolling fast); made as they are asked for when the
        faces are computed."""
        if isinstance(self.faces, NumberedFaces):
            _sharing_rolls(self)
            return _NumberedRolls(self.name, self.faces.sides, self.rerollable)
        return tuple(
            DieRoll(self.name, f.name, f.value, True, (), f.symbols, self.rerollable)
            for f in self.faces
        )

    @cached_property
    def face_values(self) -> Sequence[int]:
        """Each face's value, by index, for dice whose faces are all numbers."""
        if isinstance(self.faces, NumberedFaces):
            return range(1, self.faces.sides + 1)
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
        if isinstance(self.faces, NumberedFaces):
            _sharing_rolls(self)
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
            most = (
                MAX_SHARED_ROLLS if isinstance(self.faces, NumberedFaces) else MAX_SHARED_VARIANTS
            )
            if len(self._variants) < most:
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
        if isinstance(self.faces, NumberedFaces):  # each name is its value, 1..N
            try:
                number = int(spelled)
            except ValueError:
                return None
            return number - 1 if 1 <= number <= self.faces.sides else None
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
        if isinstance(self.faces, NumberedFaces) and self.faces.sides > most:
            first = range(1, most - 1)
            return f"{', '.join(map(str, first))}, …, {self.faces.sides}"
        names = list(dict.fromkeys(face.name for face in self.faces))
        if len(names) > most:
            return f"{', '.join(names[: most - 2])}, …, {names[-1]}"
        return ", ".join(names)


def numbered_die(sides: int) -> Die:
    """The ordinary ``dN``: faces 1..N, built once for the usual sizes (kept for good,
    and read face by face the fastest), computed (:class:`NumberedFaces`) for the
    others, which cost the same whatever N (:func:`computed_die`)."""
    if sides in USUAL_SIDES:
        return Die(f"d{sides}", tuple(Face(str(n), n) for n in range(1, sides + 1)))
    return computed_die(sides)


USUAL_SIDES = frozenset({2, 4, 6, 8, 10, 12, 20, 100})
"""The sides of the dice built face by face (:func:`numbered_die`); any other number
of sides has computed faces."""
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
_OTHER_SIDES: dict[int, Die] = {}
"""The last sizes met among the others (their faces computed, their rolls shared by
the last few of them, :data:`MAX_DICE_SHARING_ROLLS`)."""
MAX_OTHER_SIDES = 1024
"""Most dice of other sizes kept. A line of a size not kept makes its die again, which
costs a line of freely chosen sides (``17d743``) about 2% more than the die's look-up
(``bench/bench_sides.py``: sizes 2 to 1,000 are all kept); a die that keeps no rolls is
about half a kilobyte."""

MAX_DICE_SHARING_ROLLS = 32
"""Most dice of other sizes that keep rolls to share (:attr:`Die.kept_rolls`, and their
variants: up to :data:`MAX_SHARED_ROLLS` each) at once; past it, the die that began
keeping them first lets them go, and makes them again if it is rolled again. So many
dice of other sizes can be kept and what they hold stays that of a few."""

_SHARING: dict[int, Die] = {}
"""The dice of other sizes keeping rolls now, by identity, the first to begin first."""


def _sharing_rolls(die: Die) -> None:
    """Note that ``die``, of computed faces, begins keeping rolls: past
    :data:`MAX_DICE_SHARING_ROLLS` such dice, the first to begin lets them go."""
    if id(die) not in _SHARING and len(_SHARING) >= MAX_DICE_SHARING_ROLLS:
        first = _SHARING.pop(next(iter(_SHARING)))
        first.__dict__.pop("kept_rolls", None)  # (cached properties: made again if read)
        first.__dict__.pop("_variants", None)
    _SHARING[id(die)] = die


MAX_CUSTOM_DICE = 32
"""Most custom dice kept (:func:`custom_die`): each keeps a roll per face."""

_CUSTOM_DICE: dict[FaceList, Die] = {}
"""The last few custom dice, the first made making way first."""


def custom_die(faces: FaceList) -> Die:
    """The die of a face list, ``d{1,1,2,3,5,8}``: a face per value written (ranges
    counted out), each shown as its value; a face written twice comes up twice as often."""
    die = _CUSTOM_DICE.get(faces)
    if die is None:
        from dicecli.notation.faces import face_values  # docs/startup.md

        die = Die(f"d{faces}", tuple(Face(str(value), value) for value in face_values(faces)))
        if len(_CUSTOM_DICE) >= MAX_CUSTOM_DICE:
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
        if sides in USUAL_SIDES:
            die = _BY_SIDES[sides] = numbered_die(sides)
        else:
            die = computed_die(sides)
    return die


def computed_die(sides: int) -> Die:
    """The ``dN`` of a size not among :data:`USUAL_SIDES`, its faces computed: the
    last :data:`MAX_OTHER_SIDES` sizes made are kept (the first made makes way first,
    however often it is used). Called directly where the size is known to be such a
    number (:func:`dicecli.rolling.evaluate._run_sum`): a term of freely chosen sides
    (``17d743``) is mostly new, so its die is looked up without the checks of
    :func:`die_for_sides`."""
    die = _OTHER_SIDES.get(sides)
    if die is None:
        die = Die(f"d{sides}", NumberedFaces(sides))
        if len(_OTHER_SIDES) >= MAX_OTHER_SIDES:
            del _OTHER_SIDES[next(iter(_OTHER_SIDES))]  # the oldest makes way
        _OTHER_SIDES[sides] = die
    return die
