"""Other rollers' dialects: a line as Roll20, Foundry VTT, RPG Dice Roller, d20
(Avrae), Dice Maiden or rolldice would read it.

Some spellings mean different things in different rollers: ``3d6>3`` counts the dice
over 3 here and the dice of 3 or more in Roll20; ``5d10x10`` multiplies here and
explodes on 10s in Foundry. dicecli keeps its own documented reading unless a player
names a dialect (``--dialect roll20``, the ``dialect`` setting, a character file's
``dialect`` key, the REPL's ``dialect`` command); then each line is rewritten into
dicecli's notation as that roller reads it (:mod:`dicecli.notation.translations`) and
read by the grammar as any line. Without a dialect, a line that another roller reads
otherwise carries a note saying so (:mod:`dicecli.notation.other_readings`).
docs/grammar.md, "Dialects", has one table per dialect, each reading with its source.

This module is what every run loads: the names, and the ways in, which load the
rewriting and the notes only for a line that may need them (docs/startup.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from dicecli.errors import DiceError
from dicecli.frozen import frozen


@frozen
class Dialect:
    """A roller whose readings a player can ask for: its ``--dialect`` name, its name
    in a note, and where its readings are documented."""

    name: str
    roller: str
    source: str


DIALECTS = {
    dialect.name: dialect
    for dialect in (
        Dialect("roll20", "Roll20", "help.roll20.net Dice Reference"),
        Dialect("foundry", "Foundry VTT", "foundryvtt.com/article/dice-modifiers/"),
        Dialect("rdr", "RPG Dice Roller", "dice-roller.github.io/documentation"),
        Dialect("d20", "d20 (Avrae)", "github.com/avrae/d20 README"),
        Dialect("dicemaiden", "Dice Maiden", "github.com/Humblemonk/dicemaiden-rs"),
        Dialect("rolldice", "rolldice", "github.com/sstrickl/rolldice README"),
    )
}
"""The dialects by ``--dialect`` name, in the order the help lists them."""

DIALECT_SETTING = "dialect"
"""The setting (``--setting dialect=roll20``, a character file's key) naming one."""

NOTE_CHARACTERS = frozenset("xX\N{MULTIPLICATION SIGN}{!<>*cCrRkK^/")
"""A character that a spelling another roller reads otherwise needs: a line with none
(``2D6+5``) carries no note, and the notes' module is not even loaded for it (nor for
one that starts with ``-``, Dice Maiden's disadvantage: ``-d20``)."""

LETTER_CHARACTERS = frozenset("eEvV")
"""The letters of the spellings found by :data:`LETTER_SPELLINGS`: most lines have none,
and one that has them (a label ``[fire]``, a name ``level``) is looked at with that
pattern alone, not with the notes' module."""

LETTER_SPELLINGS = (
    r"[dD](?:\d+|%)[A-Za-z!<>=\d]*?\s*[eE](?:[<>=\d]|(?![A-Za-z_]))"  # 3d6 e6, 4d6e6kh3
    r"|\d[ \t]*[vV]\d"  # 6d6v3
)
"""An explosion spelt ``e`` after dice (``3d6 e6``, ``4d6e6kh3``) or a versus ``v``
(``6d6v3``), which other rollers read otherwise; compiled (by :mod:`re`) the first time
a line with one of :data:`LETTER_CHARACTERS` is seen."""


OFF = "off"
"""The name that asks for dicecli's own reading (``--dialect off``), over a character
file's dialect or the setting."""


NO_DICE_AS_ZERO = frozenset(("d20",))
"""The dialects in which a count of no dice rolls nothing, worth 0: d20 (Avrae) reads
``0d6`` so, and a count worked out as 0 (``(1d2-1)d6``, ``(STR)d6``) alike, in rolls
and in odds; dicecli's own reading refuses both."""


class DialectError(DiceError):
    """A dialect name that names none (a usage error: exit status 2)."""


def dialect_named(name: str) -> str | None:
    """``name`` as a dialect's name (case-insensitive), None for :data:`OFF` (dicecli's
    own reading); a :class:`DialectError` listing the dialects when it names none."""
    key = name.strip().lower()
    if key == OFF:
        return None
    if key not in DIALECTS:
        known = ", ".join(DIALECTS)
        raise DialectError(f"no dialect '{name.strip()}' (dialects: {known}; {OFF}: dicecli's own)")
    return key


@lru_cache(maxsize=1024)
def line_notes(text: str, dialect: str | None) -> tuple[str, ...]:
    """The notes a result of ``text`` carries: other rollers' readings of it, or under
    ``dialect`` what that roller's reading rolled; ``()`` for most lines, at the cost
    of one look at their characters the first time a line is seen."""
    plain = NOTE_CHARACTERS.isdisjoint(text) or _lone_keeps_only(text)
    if plain and "#" in text and text.lstrip()[:1].isdigit():  # Rollem's 6#4d6: noted
        plain = text.lstrip().lstrip("0123456789")[:1] != "#"
    if plain and not LETTER_CHARACTERS.isdisjoint(text):
        import re  # docs/startup.md: only a line with an e or a v comes here

        plain = re.search(LETTER_SPELLINGS, text) is None
    if dialect is None and plain and text.lstrip()[:1] != "-":
        return ()
    if dialect is not None:
        note = dialect_note(text, dialect)
        return () if note is None else (note,)
    readings = _LOADED.get("other_readings")
    if readings is None:  # the first line that may carry a note loads them
        from dicecli.notation.other_readings import other_readings  # docs/startup.md

        readings = _LOADED["other_readings"] = other_readings
    return readings(text)


_LOADED: dict[str, Callable[[str], tuple[str, ...]]] = {}
"""The notes' function once loaded: an import statement run again for each new line
costs more than this lookup (Python looks for a ``__path__`` the module lacks, and
writes the error it then drops)."""


def _lone_keeps_only(text: str) -> bool:
    """True when the only characters of :data:`NOTE_CHARACTERS` in ``text`` are keeps'
    ``k`` and none of them is a spelling another roller reads otherwise: a bare keep
    (``k3``, ``k 3``) or a keep next to another (``kh2dl1``, ``dl1kh2``, ``kh2 dl1``), the keeps
    :mod:`~dicecli.notation.other_readings` looks at (its ``_MAYBE``). So a lone
    ``2d20kh1`` or ``4d6kh3`` does not load the notes' module."""
    if not NOTE_CHARACTERS.intersection(text) <= _KEEP_LETTERS:
        return False
    code = text.partition("#")[0]
    end = len(code)
    for at, char in enumerate(code):
        if char in "kK":  # a bare keep: k3, k 3
            after = at + 1
            while after < end and code[after].isspace():
                after += 1
            if after < end and code[after].isdecimal():
                return False
        if char in "kKdD" and code[at + 1 : at + 2] in _KEEP_ENDS:  # kh2dl1, dl1kh2
            after = at + 2
            while after < end and code[after].isdecimal():
                after += 1
            digits_end = after
            while after < end and code[after].isspace():  # kh2 dl1 is a chain too
                after += 1
            if at + 2 < digits_end and after < end and code[after] in "kKdD":
                return False
    return True


_KEEP_LETTERS = frozenset("kK")
_KEEP_ENDS = frozenset("hlHL")


def dialect_note(text: str, dialect: str) -> str | None:
    """The note on a line read in ``dialect``: ``read as Roll20 reads it: 3d6>=3``;
    None when the dialect reads it as dicecli does."""
    from dicecli.notation.translations import translated  # docs/startup.md

    try:
        rolled = translated(text, dialect)
    except DiceError:
        return None
    if rolled == text:
        return None
    shown = rolled.partition("#")[0].strip()
    return f"read as {DIALECTS[dialect].roller} reads it: {shown}"


__all__ = [
    "DIALECTS",
    "DIALECT_SETTING",
    "LETTER_CHARACTERS",
    "LETTER_SPELLINGS",
    "NOTE_CHARACTERS",
    "NO_DICE_AS_ZERO",
    "OFF",
    "Dialect",
    "DialectError",
    "dialect_named",
    "dialect_note",
    "line_notes",
]
