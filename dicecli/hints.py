"""Errors that lead to the right form: a hint under a failed line's error.

When a line fails, :func:`advise` looks for what the player most likely meant and adds
it to the error as a hint (shown under the caret), or, for a misspelt first word,
points the error at that word:

- a misspelt game keyword or command (``hsitory``: did you mean ``history``?);
- a misspelt word of a game's form, from the words its declaration offers at that
  place (after a word the game declares in ``follows``, else its ``completions``: a
  misspelt form or difficulty gets the close one), or the list of
  them when none is close;
- Dice Maiden's game aliases (``sw8``), which its dialect reads, and any refused line
  a dialect reads (``+d20``, ``10d6 e6``): which ``--dialect`` rolls it, and as what;
- forms of other dice rollers that mean something else here (``4d6 kh 3``,
  ``10d6 4+``, ``CON = 2``), and each game's own common mistakes
  (:attr:`~dicecli.systems.declaration.Game.hints`);
- on the command line, a roll the shell changed before dicecli saw it: a ``*`` turned
  into file names, a brace expansion split in two, a ``>=`` taken for a redirect
  (quote the roll).

This module (and :mod:`difflib`) is imported only when an error is reported, so a
plain roll never pays for it.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError, DiceSyntaxError
from dicecli.systems import registry
from dicecli.systems.declaration import Game, Hint

CORE_HINTS: tuple[Hint, ...] = (
    Hint(
        r"(?<!\d)(\d*d\d+)\s*\b(kh|kl|dh|dl|k|d)\s+(\d+)", r"\1\2\3", "the count follows kh at once"
    ),
    Hint(r"(?<!\d)(\d*d\d+)\s+(\d+)\+", r"\1>=\2", "count the dice of 4 or more with >=4"),
)
"""Forms of other rollers that mean something else here, and the form that works. A
pattern that starts with a run of digits starts where the run does (``(?<!\\d)``):
tried at every digit of a long number, it would go over the rest of the run each time
(quadratic in its length)."""

_ASSIGNMENT = re.compile(r"\s*(?:set\s+)?(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\S.*?)\s*")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_PREFIX = re.compile(r"\s*(?:odds\s+|let\s+\w+\s*=\s*)", re.IGNORECASE)
_CLOSE = 0.6
"""How alike a word must be to a known one to be suggested (difflib's ratio)."""


def advise(
    error: DiceError,
    env: Environment = EMPTY_ENVIRONMENT,
    *,
    commands: Sequence[str] | None = None,
    words: Sequence[str] | None = None,
) -> DiceError:
    """``error`` with a hint that leads to the right form, when one is found.
    ``commands``: the line was typed at the REPL, whose commands these are; ``words``:
    the command-line arguments the line was joined from (the shell may have changed
    them)."""
    repl = commands is not None
    line = error.text
    if line is None or error.hint is not None:
        return error
    if words is not None:
        quoted = _shell_hint(words)
        if quoted is not None:
            return error.with_hint(quoted)
    prefix = _PREFIX.match(line) if repl else None
    start = prefix.end() if prefix else 0
    roll = line[start:]
    assignment = _ASSIGNMENT.fullmatch(roll)
    if assignment is not None and start == 0 and not _names_a_setting(assignment["name"], commands):
        name, value = assignment["name"], assignment["value"]
        if repl:
            return error.with_hint(f"to name a value: let {name} = {value}")
        return error.with_hint(f"to name a value: --set {name}={value.replace(' ', '')}")
    maiden = _dice_maiden_hint(roll, env)
    if maiden is not None:
        return error.with_hint(maiden)
    first = _WORD.match(roll)
    game = registry.game_for_keyword(first.group()) if first else None
    if first is not None and game is None:
        misspelt = _misspelt_first_word(first.group(), env, commands or ())
        if misspelt is not None:
            message = f"unknown word '{first.group()}': did you mean '{misspelt}'?"
            return type(error)(message, line, start)
    hints = CORE_HINTS if game is None else (*game.hints, *CORE_HINTS)
    for hint in hints:
        fixed, count = re.subn(hint.pattern, hint.replacement, roll, count=1, flags=re.I)
        if count and fixed != roll:
            return error.with_hint(f"did you mean: {line[:start]}{fixed.strip()}  ({hint.why})")
    if game is not None and error.position is not None:
        found = _game_word_hint(game, line, error.position, start)
        if found is not None:
            return error.with_hint(found)
    if game is None and isinstance(error, DiceSyntaxError):
        dialect = _dialect_hint(roll, env)
        if dialect is not None:
            return error.with_hint(dialect)
    return error


def _dialect_hint(roll: str, env: Environment) -> str | None:
    """Which dialects read the refused ``roll`` (``+d20``: d20's d20, Dice Maiden's
    advantage), and what each rolls: every dialect, in the help's order, whose reading
    the grammar takes; None when none does (or only the one in force)."""
    from dicecli.notation.dialects import DIALECTS  # docs/startup.md
    from dicecli.notation.reader import parse  # docs/startup.md
    from dicecli.notation.translations import spelt_by_roller, translated  # docs/startup.md

    code = roll.partition("#")[0].strip()
    readings = []
    for name, dialect in DIALECTS.items():
        if name == env.dialect:
            continue
        try:
            spelt = translated(code, name)
            if spelt.strip() == code or not spelt_by_roller(code, name):
                continue  # (a dialect reads dicecli's own i1; its roller does not)
            parse(spelt)
        except DiceError:
            continue
        rolled = spelt.partition("#")[0].strip()  # as a dialect's note shows it
        readings.append(f"{dialect.roller} reads it: --dialect {name} rolls {rolled}")
    return "; ".join(readings) or None  # +d20: d20's d20, Dice Maiden's advantage


def _names_a_setting(name: str, commands: Sequence[str] | None) -> bool:
    """Whether ``name`` of ``NAME = VALUE`` is no name to give a value: at the REPL
    (``commands``: its command words), a command word (``set =3``) or a setting's key
    (``set dialect=foo``, ``set GAME.KEY=x``), which the ``set`` command's own
    error is about."""
    if commands is None:
        return False
    folded = name.casefold()
    return folded in commands or folded in registry.settings()


def _dice_maiden_hint(roll: str, env: Environment) -> str | None:
    """The reading of ``roll`` as one of Dice Maiden's game aliases (``sw8``), which
    only its dialect reads, when it is one and that dialect is not in force."""
    if env.dialect == "dicemaiden":
        return None
    from dicecli.notation.dicemaiden import alias_line  # docs/startup.md

    try:
        spelt = alias_line(roll.partition("#")[0])
    except DiceError:
        return None
    if spelt is None:
        return None
    return f"Dice Maiden's alias: --dialect dicemaiden reads it as {spelt}"


def _misspelt_first_word(word: str, env: Environment, commands: Sequence[str]) -> str | None:
    """The game keyword or command ``word`` is a misspelling of. Keywords of two
    letters are left out, as two-letter commands are: a three-letter word is close to
    them, and far likelier an ability's name not set yet."""
    folded = word.casefold()
    if env.value(word) is not None or env.roll(word) is not None or env.check(word) is not None:
        return None
    known = [
        *(keyword for keyword in registry.keywords() if len(keyword) > 2),
        *(name for name in commands if len(name) > 2),
    ]
    if folded in known:
        return None
    close = difflib.get_close_matches(folded, known, n=1, cutoff=0.75)
    return close[0] if close else None


def _game_word_hint(game: Game, line: str, position: int, start: int) -> str | None:
    """A hint for the word at ``position`` of a line of ``game``: the close word among
    those the game offers there, else the list of them."""
    word = _WORD.match(line, position)
    before = line[start:position].split()
    if word is None:  # `KEYWORD lead 8` points at 8: the word before is at fault
        if len(before) < 2:
            return None
        word = _WORD.fullmatch(before[-1])
        before = before[:-1]
        if word is None:
            return None
    follows = dict(game.follows)
    offered = follows.get(before[-1].casefold()) if before else None
    candidates = offered if offered else game.completions
    folded = word.group().casefold()
    if folded in (candidate.casefold() for candidate in candidates):
        return None  # the word is right: the fault is elsewhere
    close = difflib.get_close_matches(folded, [c.casefold() for c in candidates], 1, _CLOSE)
    if close:
        spelled = next(c for c in candidates if c.casefold() == close[0])
        return f"did you mean '{spelled}'?"
    if offered:
        return "expected one of: " + ", ".join(offered)
    return None


def _shell_hint(words: Sequence[str]) -> str | None:
    """``quote the roll: dicecli '3d6 * 2'`` when the shell changed the roll: file
    names where a ``*`` stood, a brace expansion split into words, or a ``>=`` taken
    for a redirect into a file named ``=``."""
    from dicecli import shell_redirect  # docs/startup.md

    redirect = shell_redirect.hint(words)
    if redirect is not None:
        return redirect
    try:
        files = sorted(name for name in os.listdir(".") if not name.startswith("."))
    except OSError:
        files = []
    if files and any(word in files for word in words):
        rebuilt = _unglob(list(words), files)
        if rebuilt is not None:
            return f"the shell turned * into file names: quote the roll: dicecli '{rebuilt}'"
    braced = _unbrace(words)
    if braced is not None:
        return f"the shell split {braced} into words: quote the roll: dicecli '{braced}'"
    return None


def _unglob(words: list[str], files: list[str]) -> str | None:
    """``words`` with the run of every file name (what ``*`` became) put back as ``*``."""
    for index in range(len(words) - len(files) + 1):
        if words[index : index + len(files)] == files:
            return " ".join([*words[:index], "*", *words[index + len(files) :]])
    return None


def _unbrace(words: Sequence[str]) -> str | None:
    """``{2d6,1d8}kh1`` from ``2d6kh1 1d8kh1``: two or more dice words sharing an
    ending, which is what the shell makes of a brace expansion."""
    if len(words) < 2 or not all(re.match(r"\d*d\d", word, re.I) for word in words):
        return None
    ending = words[0]
    for word in words[1:]:
        while not word.endswith(ending):
            ending = ending[1:]
    ending = ending.lstrip("0123456789")
    if not ending:
        return None
    items = [word[: len(word) - len(ending)] for word in words]
    if not all(re.fullmatch(r"\d*d(?:\d+|%|f)", item, re.I) for item in items):
        return None
    return "{" + ",".join(items) + "}" + ending
