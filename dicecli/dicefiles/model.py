"""What a dice file becomes: frozen values (``docs/dice.md``).

A :class:`DiceBook` holds the dice of one or more dice files by name, the symbols they
print, and which symbols cancel each other (Genesys: a failure cancels a success). A die
is a :class:`~dicecli.notation.dice.Die` whose faces may carry symbols
(:attr:`~dicecli.notation.dice.Face.symbols`). :func:`face` builds one face the way
every dice file names it, so that a face reads the same in a roll, in ``--given`` and
in JSON.
"""

from __future__ import annotations

from collections.abc import Mapping

from dicecli.frozen import field, frozen
from dicecli.notation.dice import Die, Face

BLANK = "blank"
"""The name of a face with neither a number nor a symbol."""


def face_name(value: int | None, symbols: tuple[str, ...]) -> str:
    """How a face reads: ``3``, ``success+advantage``, ``4-sword``, ``blank``."""
    shown = "+".join(symbols)
    if value is None:
        return shown or BLANK
    return f"{value}-{shown}" if shown else str(value)


def face(value: int | None, symbols: tuple[str, ...]) -> Face:
    """A face worth ``value`` (None: no number) bearing ``symbols``."""
    return Face(face_name(value, symbols), value, symbols)


def file_die(name: str, faces: tuple[Face, ...]) -> Die:
    """The :class:`Die` called ``name`` with ``faces``. ``--given`` takes a face by its
    name (``4-sword``, ``success+advantage``), by its value, or by its symbols alone
    (``sword``) when it has a number too."""
    aliases = tuple(
        (index, "+".join(each.symbols))
        for index, each in enumerate(faces)
        if each.value is not None and each.symbols
    )
    return Die(name, faces, aliases)


def has_numbers(die: Die) -> bool:
    """Whether every face of ``die`` has a number (it has a total, odds of a total, and
    takes modifiers)."""
    return all(each.value is not None for each in die.faces)


@frozen
class DiceBook:
    """The dice of dice files by name (keys casefolded), the symbols their faces print
    in the order the files first show them, and the pairs of symbols that cancel."""

    sources: tuple[str, ...]
    dice: Mapping[str, Die]
    symbols: tuple[str, ...] = ()
    cancels: tuple[tuple[str, str], ...] = ()
    where: Mapping[str, tuple[str, int | None]] = field(default_factory=dict, compare=False)
    """Each die (casefolded) -> the file and the line that define it, for errors."""
    succeeds: str = ""
    """The symbol that makes a roll a success when at least one is left after the pairs
    cancel (Genesys: ``success``); ``""``: a roll of symbols has no pass or fail."""

    def place(self, key: str) -> str:
        """Where the die ``key`` (casefolded) is defined: ``dice.toml, line 4``."""
        source, line = self.where[key]
        return source if line is None else f"{source}, line {line}"

    def die(self, name: str) -> Die | None:
        """The die called ``name``, in any case."""
        return self.dice.get(name.casefold())

    def numbered(self, name: str) -> bool:
        """Whether a die called ``name`` (its own or another kind, such as ``d6``) has a
        number on some face: rolled dice that all have none have no total."""
        die = self.die(name)
        return die is None or any(face.value is not None for face in die.faces)

    def names(self) -> tuple[str, ...]:
        """The dice, spelled as their files spell them, in file order."""
        return tuple(die.name for die in self.dice.values())

    @property
    def has_symbols(self) -> bool:
        return bool(self.symbols)


EMPTY_BOOK = DiceBook((), {})
"""No dice files at all."""
