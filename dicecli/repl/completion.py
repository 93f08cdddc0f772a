"""Tab completion in the REPL: the words offered for the word being typed.

The first word of a line may be a command, a game keyword or one of the user's names;
after a command, what that command takes. In a game's line (also after ``odds`` and
``let NAME =``), only that game's words: after a word it declares in
:attr:`~dicecli.systems.declaration.Game.follows` (its keyword, ``vs``), the words that
may follow it, else the words of its forms
(:attr:`~dicecli.systems.declaration.Game.completions`); and the user's names. In dice
notation, the user's names (and, in a saved roll, the words games give a meaning in
expressions), and the dice of the dice files in force (``2dAb`` completes to
``2dAbility``, ``docs/dice.md``). Never another game's words. Matching ignores case.
"""

from __future__ import annotations

import re

from dicecli.repl.commands import listed_commands
from dicecli.repl.help import topic_names
from dicecli.repl.state import ReplState
from dicecli.systems import registry

_WORD_AT_END = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*$")


def current_word(before_cursor: str) -> str:
    """The word being typed at the end of ``before_cursor`` (``att`` in ``2d6+att``)."""
    match = _WORD_AT_END.search(before_cursor)
    return match.group() if match else ""


def completions(state: ReplState, before_cursor: str) -> list[str]:
    """The words tab completion offers for :func:`current_word`, matched
    case-insensitively, sorted."""
    partial = current_word(before_cursor)
    previous = before_cursor[: len(before_cursor) - len(partial)].split()
    candidates = _candidates(state, [word.casefold() for word in previous])
    if partial.startswith("d") and _in_notation(previous):
        candidates = (*candidates, *_dice_spellings(state))
    folded = partial.casefold()
    found = {word for word in candidates if word.casefold().startswith(folded)}
    return sorted(found, key=lambda word: (word.casefold(), word))


_NOT_NOTATION = ("help", "?", "load", "save", "quit", "exit", "vars", "history", "again")


def _in_notation(previous: list[str]) -> bool:
    """Whether the word being typed is in dice notation: not after a command that takes
    none, nor in a game's line."""
    words = [word.casefold() for word in previous]
    if words and words[0] in (*_NOT_NOTATION, "reroll", "unlet"):
        return False
    return not any(registry.game_for_keyword(word) for word in words)


def _dice_spellings(state: ReplState) -> tuple[str, ...]:
    """``dAbility`` for each die of the dice files in force (none when a file is bad:
    the roll will say why)."""
    from dicecli.dicefiles.load import book_of  # docs/startup.md
    from dicecli.errors import DiceError

    try:
        names = book_of(state.env.dice).names()
    except DiceError:
        return ()
    return tuple(f"d{name[0].upper()}{name[1:]}" for name in names)


def _candidates(state: ReplState, previous: list[str]) -> tuple[str, ...]:
    names = state.names()
    if not previous:
        commands = dict.fromkeys(c.name for c in listed_commands())
        return (*commands, *registry.keywords(), *names)
    first = previous[0]
    if first in ("help", "?"):
        return topic_names() if len(previous) == 1 else ()
    if first in ("load", "save", "quit", "exit", "vars", "history", "again", "reroll"):
        return ()
    if first == "unlet":
        return names if len(previous) == 1 else ()
    if first == "let":
        if len(previous) < 3 or previous[2] != "=":
            return ()
        return _in_line(previous[3:], names, saved=True)
    if first == "odds":
        return _in_line(previous[1:], names)
    return _in_line(previous, names)


def _in_line(previous: list[str], names: tuple[str, ...], saved: bool = False) -> tuple[str, ...]:
    """The words for a roll whose words before the cursor are ``previous``; ``saved``:
    the value of ``let``, where a game's special dice may stand in notation (they then
    work in that game's lines)."""
    game = registry.game_for_keyword(previous[0]) if previous else None
    if game is None:
        if not saved:
            return names
        return (*names, *(word for game in registry.games() for word in game.words))
    follows = dict(game.follows)
    after = follows.get(previous[-1])
    if after is not None:
        return (*after, *names)
    return (*game.completions, *names)
