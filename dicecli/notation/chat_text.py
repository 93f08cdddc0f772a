"""Text a player adds around a roll, as other rollers let them: chat prefixes (``/r``,
``/roll``, ``!r``, ``!roll``), comments (``// fire``, ``/* ... */``, Dice Maiden's
``! with sword``, caith's ``: initiative``), a leading label (Dice Maiden's
``(Attack) 1d20``) and free words after the roll (``1d20+5 to hit``, as d20 (Avrae)
allows); and Dice Maiden's forms that no other roller reads otherwise
(:func:`dicecli.notation.dicemaiden.plain_forms`: ``p s 2d6``, ``1d6++5``, ``6d10 tl7``)
and other rollers' (:func:`dicecli.notation.peer_forms.peer_forms`: ``6d6^``,
``10d10 t7 tt9``, ``4d6even``).

The grammar reads a line as written first; only a line it refuses is offered to
:func:`readings`, which gives the line again with the added text blanked out (spaces
keep every position) and the words to keep as the roll's comment. The grammar takes the
first reading it can parse, else reports its first error: so no line that reads today
reads differently, and this module is imported only for a refused line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dicecli.limits import LONG_NUMBER
from dicecli.notation.dicemaiden import plain_forms
from dicecli.notation.games import games
from dicecli.notation.peer_forms import peer_forms

_CHAT_PREFIX = re.compile(r"\s*(?:/roll|/r|!roll|!r)(?=\s)", re.IGNORECASE)
_BLOCK_COMMENT = re.compile(r"/\*(?P<words>.*?)\*/", re.DOTALL)
_LINE_COMMENT = re.compile(r"\s//[ \t]*(?P<words>[A-Za-z].*)$", re.DOTALL)
"""``// words``: a letter must follow, so that ``60 // 1d6`` (floor division in d20)
is never read as 60 and a comment."""
_BANG_COMMENT = re.compile(r"\s!\s+(?P<words>\S.*)$", re.DOTALL)
_COLON_COMMENT = re.compile(r"\s:(?:\s+(?P<words>\S.*))?\s*$", re.DOTALL)
"""caith's comment: `` : `` and the words after it (``1d6 : initiative``)."""
_EMPTY_BANG_COMMENT = re.compile(r"\s!\s*$")
"""A ``!`` alone at the end, after a Dice Maiden label: its empty comment, not an
explosion (without a label, ``2d6 !`` explodes, as it always has)."""
_LEADING_LABEL = re.compile(r"\s*\((?P<words>[ \t]*|[ \tA-Za-z'-]*[a-z][ \tA-Za-z'-]*)\)\s+(?=\S)")
"""Words in brackets, with a lower-case letter (or none at all): ``(1+2) d6`` and
``(STR) d6`` stay errors (a dice term is written without spaces)."""
_FREE_WORDS = re.compile(r"(?<=\s)(?P<first>[A-Za-z]+)\s+[A-Za-z]+(?=\s|$)")
"""Where free words may start: two words of letters only, after a space. One word alone
(``4d6kh3 STR``) stays an error: it is more often a name the player forgot a ``+``
before than a comment; so does a word with a number (``4d10 c f1 t8``: Dice Maiden's
flags and modifiers, not words)."""
_SOME_ROLL = re.compile(r"[0-9%]")
"""What the roll before free words must hold: a number or ``d%``, so that ``p s 2d6``
is not read as the name ``p`` and a comment."""
NOTATION_WORDS = frozenset(
    ("vs", "of", "adv", "advantage", "dis", "disadv", "disadvantage", "keep", "drop")
)
"""Words that mean something to a roller: free words never start with one (``d20 vs DC
15`` stays an error, not a d20 with a comment)."""


def is_game_line(text: str) -> bool:
    """Whether ``text`` starts with a game's keyword (and is read by its grammar)."""
    words = text.split(None, 1)
    return bool(words) and games().claims(words[0])


def _blanked(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _joined(*notes: str | None) -> str | None:
    kept = [note.strip() for note in notes if note and note.strip()]
    return ": ".join(kept) or None


def readings(text: str) -> Iterator[tuple[str, str | None]]:
    """Other readings of the refused line ``text``, most likely first: the line with
    a chat prefix, comment or label blanked out, and the words to keep (or None). A
    game's line (a game's keyword first) is offered without its chat prefix only: its
    own grammar has words of its own."""
    note: str | None = None
    prefix = _CHAT_PREFIX.match(text)
    if prefix is not None:
        text = _blanked(text, 0, prefix.end())
        yield text, None
    if is_game_line(text):
        return
    # Spellings are rewritten before the comment (#) only, which stays as typed; and
    # not at all in a line with a number past the grammar's limit, which the grammar
    # refuses with its caret (past 4,300 digits Python will not read one).
    code, hash_sign, comment = text.partition("#")
    if not LONG_NUMBER.search(code):
        # the spaces before the comment stay: a word may end there (fitd1 # x)
        gap = code[len(code.rstrip()) :] if hash_sign else ""
        plain = plain_forms(code)  # Dice Maiden's p s 2d6, 1d6++5, 6d10 tl7
        if plain != code:
            code = plain.rstrip() + gap if hash_sign else plain
            text = code + hash_sign + comment
            yield text, None
        peer = peer_forms(code)  # python-dice's 6d6^, caith's t7 tt9, Foundry's 4d6even
        if peer != code:
            text = peer + hash_sign + comment
            yield text, None
    label = _LEADING_LABEL.match(text)
    if label is not None:
        text = _blanked(text, 0, label.end())
        note = _joined(label["words"])
        ending = _EMPTY_BANG_COMMENT.search(text)
        if ending is not None:  # Dice Maiden's (Save) 1d20 !: an empty comment
            yield _blanked(text, ending.start(), ending.end()), note
        yield text, note
    for pattern in (_BLOCK_COMMENT, _LINE_COMMENT, _BANG_COMMENT, _COLON_COMMENT):
        found = pattern.search(text)
        if found is not None:
            without = _blanked(text, found.start(), found.end())
            yield without, _joined(note, found["words"])
    for start in _FREE_WORDS.finditer(text):
        roll = text[: start.start()]
        if start["first"].lower() not in NOTATION_WORDS and _SOME_ROLL.search(roll):
            yield roll, _joined(note, text[start.start() :])
