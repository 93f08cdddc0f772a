"""Text -> syntax tree: the one way in for every line dicecli reads.

A common line is read without loading pyparsing: dice and numbers added up (``2D6+5``,
``4d6kh3``, ``d20 + 7``) by :mod:`dicecli.notation.dice_sums`, the quickest, and the
other common forms (``6d6>4``, ``(1d4+1)*2``) by :mod:`dicecli.notation.common_lines`;
every other line, and every error, comes from the grammar of record,
:mod:`dicecli.notation.grammar`, which is imported only then. Each quick reader gives
the grammar's tree for the lines it accepts (Hypothesis tests check it). A line
starting with a word other than a dice term (a game's keyword, a name) goes straight to
the grammar, unless it is one name alone that no game claims (``attack``, a saved
roll's): the quick readers of dice are not even imported for it, so a game's line pays
nothing for them.
"""

from __future__ import annotations

from collections.abc import Callable

from dicecli.identity_cache import SizedCache
from dicecli.limits import MAX_DIGITS, MAX_TERMS
from dicecli.notation.nodes import Name, Roll

PARSED_LINES = 4096
"""Most lines whose trees the parse cache keeps."""

PARSED_CHARACTERS = 250_000
"""Most characters of the lines whose trees the parse cache keeps: a tree's size grows
with its line's length, so this bounds the cache's memory, however long the lines."""


def _parse(text: str) -> Roll:
    """Parse one line: an expression or a game form, and an optional ``# comment``.

    Raises :class:`~dicecli.errors.DiceSyntaxError` with the position of the fault.
    """
    common = _read_quickly(text)
    if common is not None:
        return common
    from dicecli.notation import grammar  # docs/startup.md

    return grammar.parse(text)


def _line_size(text: str, tree: Roll) -> int:
    return len(text)


parse: SizedCache[str, Roll] = SizedCache(_parse, _line_size, PARSED_CHARACTERS, PARSED_LINES)
"""Parse one line (:func:`_parse`), cached by text: a line seen again is parsed once,
within :data:`PARSED_LINES` lines and :data:`PARSED_CHARACTERS` characters."""


_QuickReader = Callable[[str], "Roll | None"]

_read_dice_sum: _QuickReader | None = None
_read_common_line: _QuickReader | None = None
"""The quick readers, once imported: a line reads them here, not by an import statement,
which costs as much again as reading a short line (an import of a loaded module is
still a look-up in :data:`sys.modules` and a check that it is not loading)."""


def _read_quickly(text: str) -> Roll | None:
    """``text``'s tree from a quick reader, or None when neither takes the line."""
    global _read_dice_sum, _read_common_line
    head = text.lstrip(" \t\r\n")[:1]
    if head.isalpha() and head not in "dD":  # a word first: a name alone, or the grammar's
        return _lone_name(text)
    if _read_dice_sum is None:
        from dicecli.notation.dice_sums import read_dice_sum  # docs/startup.md

        _read_dice_sum = read_dice_sum
    summed = _read_dice_sum(text)
    if summed is not None:
        return summed
    if head in ("d", "D"):  # damage, a saved roll's name, alone
        named = _lone_name(text)
        if named is not None:
            return named
    if _read_common_line is None:
        from dicecli.notation.common_lines import read_common_line  # docs/startup.md

        _read_common_line = read_common_line
    return _read_common_line(text)


def _lone_name(text: str) -> Roll | None:
    """The tree of a line that is a name alone (``attack``: a saved roll's, or a saved
    check's), as the grammar reads it when no game claims the word (as
    :func:`~dicecli.notation.grammar.line_grammar_for` asks); None for any other line.
    A word of ASCII letters, digits and ``_`` that starts with a letter is a name to
    the grammar, or a game's keyword, unless it starts with a ``d``: then the reader of
    dice sums tells a name (``damage``) from dice (``d6``, ``dF``, ``dBoost``)."""
    word = text.strip(" \t\r\n")  # what the grammar skips about a line
    if len(text) >= MAX_TERMS or len(word) > MAX_DIGITS:  # past a bound of check_line?
        return None  # (a long word may hold a run of digits longer than a number may)
    if not (word.isascii() and word.isidentifier()):
        return None
    if word[0] in "dD":
        from dicecli.notation.dice_sums import reads_as_name  # docs/startup.md

        if not reads_as_name(word):
            return None
    from dicecli.notation.games import games  # docs/startup.md

    if games().claims(word):  # the game's line: the grammar reads it, as its game says
        return None
    return Roll(Name(word, text.index(word)))


def load_grammar_for(text: str) -> None:
    """Load what :func:`parse` will need to read ``text``, without reading it: nothing for
    a line the quick reader takes, else the grammar of record (and the line's game's
    grammar). For a one-shot roll, which loads it as part of start-up
    (docs/startup.md, "The garbage collector")."""
    if not text.strip() or _read_quickly(text) is not None:
        return
    from dicecli.notation import grammar  # docs/startup.md

    grammar.line_grammar_for(text)


def parse_as(text: str, dialect: str | None) -> Roll:
    """``text``'s tree: as written (no dialect), or as ``dialect``'s roller reads it."""
    if dialect is None:
        return parse(text)
    from dicecli.errors import DiceError  # docs/startup.md
    from dicecli.notation.translations import translated, typed_error  # docs/startup.md

    rewritten = translated(text, dialect)
    try:
        return parse(rewritten)
    except DiceError as error:  # shown in the line as typed, not as rewritten
        raise typed_error(error, text, dialect) from None


def with_repeats(text: str, dialect: str | None) -> str:
    """``text`` with a repeat its dialect writes in the line spelt as dicecli's ``-n``
    option: rolldice's ``6x4d6kh3`` and Dice Maiden's ``6 4d6 k3`` are ``4d6kh3 -n 6``
    and ``4d6 k3 -n 6``; any other line as it is."""
    if dialect == "dicemaiden":
        from dicecli.notation.dicemaiden import with_sets  # docs/startup.md

        return with_sets(text)
    if dialect != "rolldice":
        return text
    from dicecli.notation.translations import with_repeats as rewritten  # docs/startup.md

    return rewritten(text)
